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

A document may name the candidate product itself, in passing, and be about another product
of its maker: its title names that product and no candidate ("Orla launches the CX-12
locker", "Orla Shear SX-2 datasheet"), its text a vendor name of the candidate and the
other product's model code as often as the candidates (:func:`titled_sibling`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from preuve.synthesis.lexicon import Lexicon, fold
from preuve.synthesis.planner_products import name_candidates
from preuve.synthesis.statements import product_mentions, short_forms, stem

__all__ = ["titled_sibling", "vendor_names", "vendor_only", "vendor_siblings"]


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


# A model code: letters then a digit ("CX-12", "NE-20", "H2"), no year in it (a quote's or an
# advisory's reference, "BKS-2026-118", is no model).
_CODE = re.compile(r"(?<![\w-])[A-Z][A-Za-z]*-?\d[\w.-]*(?<![.-])(?![\w-])")
_YEAR = re.compile(r"(?:19|20)\d\d")
_REFERENCE = re.compile(r"(?:\bn[°o]\.?|#|:)\s*$", re.I)


def titled_sibling(
    title: str, text: str, products: Sequence[str], aliases: Mapping[str, str],
    lexicon: Lexicon, *, ids: frozenset[str] = frozenset(), reference_words: frozenset[str],
) -> str | None:  # fmt: skip
    """The other product of a candidate's maker that a document's title names, when the
    title names no candidate and the text names the maker (a vendor name or brand word of
    a candidate) and that product's model code as often as it names candidates; None
    otherwise. The product is a maker's brand (or a proper name) and a model code ("Orla
    SX-2", "Nutra NE-20"), or a model code alone in a title that writes a maker's name
    ("Orla launches the CX-12", the text writing "Orla Systems"). The product's name shares
    no word with a candidate's but the brand (``Orla TorvikLink 4`` is a component of ``Orla
    Torvik 3``), and its code is no identifier and no reference: not after a source type's
    word (``reference_words``: "Ticket INC-4411", "Devis D-118") nor after "n°"."""
    launched = _launched(title, products, aliases, lexicon)
    if launched is not None:
        return launched
    if product_mentions(products, title, aliases):
        return None
    body = f"{title}\n{text}"
    brands = _brands(products, aliases, lexicon)
    if not _writes(body, brands):
        return None
    named = {fold(w) for n in (*products, *aliases) for w in n.split()[1:]}
    companies = {n.split()[0] for n in name_candidates(body) if _is_organisation(n, lexicon)}
    makers = brands | companies
    for found in _CODE.finditer(title):
        code = found.group()
        before = title[: found.start()]
        words = re.findall(r"[\w-]+", before)
        previous = stem(words[-1]) if words else ""
        if _YEAR.search(code) or any(code in i or i in code for i in ids):
            continue
        if _REFERENCE.search(before) or previous in reference_words:
            continue
        name = _name_ending(before, code)
        if {fold(w) for w in name.split()} & named:
            continue  # a component named after a candidate
        if not (name.split()[0] in makers or "-" in code if name != code else
                "-" in code and _writes(title, makers)):  # fmt: skip
            continue  # no maker's product: a standard ("HL7 interface"), a place ("aisle C4")
        written = len(re.findall(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text))
        if written and written >= len(product_mentions(products, text, aliases)):
            return name
    return None


def _writes(text: str, words: set[str]) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text) for w in words)


def _name_ending(before: str, code: str) -> str:
    """The capitalized words right before ``code`` in a title, with it ("Orla Shear SX-2")."""
    head = re.search(r"(?:[A-ZÀ-Ý][\w-]*[ \u00a0]+)*$", before)
    return f"{head.group() if head else ''}{code}".strip()


def _launched(
    title: str, products: Sequence[str], aliases: Mapping[str, str], lexicon: Lexicon
) -> str | None:
    """The product a title says a candidate's maker launches, when it is no candidate, no
    alias and shares no word with one but the brand ("Orla lance la gamme Ténor Patrimoine",
    "Orla unveils the Harbor Line"; lexicon ``[grammar] launch_verbs``): the document is that
    product's announcement, whoever makes it."""
    verbs = lexicon.alternation("launch_verbs")
    folded = fold(title)
    for brand in sorted(_brands(products, aliases, lexicon)):
        at = re.search(
            rf"(?<![\w-]){re.escape(fold(brand))}(?:\s+[\w-]+){{0,3}}?\s+{verbs}\s", folded
        )
        if at is None:
            continue
        known = {fold(w) for n in (*products, *aliases) for w in n.split()}
        # the title's own words after the verb (folding may change a word's length)
        after = title.split(maxsplit=len(folded[: at.end()].split()))
        rest = after[-1] if len(after) > len(folded[: at.end()].split()) else ""
        for name in name_candidates(rest):
            if product_mentions(products, name, aliases) or name in aliases:
                continue
            if len(name.split()) > 1 and not {fold(w) for w in name.split()} & known:
                return name
    return None
