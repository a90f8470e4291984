"""A candidate named only by its vendor, beside another product of that vendor.

A document is about a candidate when it names the candidate *product*: its name, its short
form, or an alias the question establishes (a model, a component). A vendor sells more than
one thing: "Halden Systems launches Halden Grid" names the maker of the candidate ``Halden
Core`` and another of its products. When every mention of a candidate in a document is a
name of its vendor only (the brand word, or an alias made of the brand and organisation
words: ``Halden Systems``, lexicon ``[grammar] organisation_words``) and the document names
another product of that brand (``Halden Grid``: the brand followed by a name that is no
candidate, no alias, no organisation word, no identifier), the document is about that other
product: it is left out, with that product named in its reason. A name followed by a legal
form or another organisation word (``Nordvale Mobility AB``) is a company's too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from preuve.synthesis.lexicon import Lexicon, fold
from preuve.synthesis.planner_products import name_candidates
from preuve.synthesis.statements import product_mentions, short_forms

__all__ = ["vendor_names", "vendor_only", "vendor_siblings"]


def _is_organisation(name: str, lexicon: Lexicon) -> bool:
    """Whether the words after a name's first are all organisation words (``Systems``,
    ``Labs``, ``SAS``, ``Réseaux``): the name of a company, not of a product."""
    words = name.split()
    organisation = set(lexicon.words("organisation_words"))
    return len(words) > 1 and all(fold(w).strip(".") in organisation for w in words[1:])


def vendor_names(
    products: Sequence[str], aliases: Mapping[str, str], lexicon: Lexicon
) -> dict[str, str]:
    """name -> product for the names that name only a candidate's vendor: its short form
    (the brand word) and its aliases that are company names."""
    out = dict(short_forms(products))
    out.update({a: p for a, p in aliases.items() if _is_organisation(a, lexicon)})
    return out


def _brands(products: Sequence[str], aliases: Mapping[str, str], lexicon: Lexicon) -> set[str]:
    names = [*products, *vendor_names(products, aliases, lexicon)]
    return {n.split()[0] for n in names if n.split()}


def vendor_only(
    body: str, products: Sequence[str], aliases: Mapping[str, str], lexicon: Lexicon
) -> bool:
    """Whether ``body`` names candidates, and each by a vendor name only (``Oakhurst
    Instruments buys a start-up``: the maker's news, no word of its candidate product)."""
    mentioned = product_mentions(products, body, aliases)
    vendors = vendor_names(products, aliases, lexicon)
    return bool(mentioned) and all(body[start:end] in vendors for start, end, _ in mentioned)


def vendor_siblings(
    body: str,
    products: Sequence[str],
    aliases: Mapping[str, str],
    lexicon: Lexicon,
    ids: frozenset[str] = frozenset(),
) -> tuple[str, ...]:
    """The other products of a candidate's vendor that ``body`` names, when it names one
    candidate, by a vendor name only; empty otherwise (the document names a candidate
    product, the vendors of two candidates, or no other product of its vendor). ``ids``
    are identifiers the document writes (``Halden HSA-2026-01`` is an advisory of the
    vendor, no product)."""
    mentioned = product_mentions(products, body, aliases)
    vendors = vendor_names(products, aliases, lexicon)
    organisation = set(lexicon.words("organisation_words"))
    if not mentioned:  # "CuveSense Barrel Sensor": the brand word only, inside another name
        return _branded(body, products, aliases, lexicon, ids=ids, brands=set(vendors))
    if len({product for _, _, product in mentioned}) != 1:
        return ()  # the vendors of two candidates: a comparison of the candidates

    def company(end: int) -> bool:
        # "Nordvale Mobility AB": a name followed by a legal form is a company's
        head = re.match(r"[ \t]+([\w.]+)", body[end:])
        return head is not None and fold(head.group(1)).strip(".") in organisation

    if any(body[start:end] not in vendors and not company(end) for start, end, _ in mentioned):
        return ()  # the product itself (or an alias of the product) is named
    brands = _brands(products, aliases, lexicon)
    brands |= {body[start:end].split(maxsplit=1)[0] for start, end, _ in mentioned if company(end)}
    return _branded(body, products, aliases, lexicon, ids=ids, brands=brands)


def _branded(
    body: str, products: Sequence[str], aliases: Mapping[str, str], lexicon: Lexicon, *,
    ids: frozenset[str], brands: set[str],
) -> tuple[str, ...]:  # fmt: skip
    """The names of ``body`` that open with a word of ``brands`` and are no candidate, no
    alias, no company name and no identifier: other products of a candidate's vendor."""
    organisation = set(lexicon.words("organisation_words"))
    brands = {b.split()[0] for b in brands if b.split()}
    known = {*products, *aliases}
    generic = {fold(a) for a in lexicon.generic_acronyms}
    found: list[str] = []
    for name in name_candidates(body):
        words = name.split()
        if len(words) < 2 or words[0] not in brands or name in known:
            continue
        if any(k.startswith(f"{name} ") or name.startswith(f"{k} ") for k in known):
            continue  # a candidate's name without its version, or with a further word
        second = words[1]
        if fold(second).strip(".") in organisation or fold(second) in generic:
            continue
        if any(i.startswith(second) for i in ids):
            continue  # an advisory id after the brand ("Halden HSA-2026-01")
        found.append(name)
    return tuple(dict.fromkeys(found))
