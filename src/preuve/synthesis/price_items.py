"""What a price is of, in the rules sub-agent's reading: the item a sentence names, the
component a candidate is named by, or the subject itself.

- An amount after a charging cue prices that cue's item ("option payante, facturée 3,50 €").
- A price stated of a component (the sentence, or its part between colons, names the
  candidate only by one of its aliases: "X Edge is sold as a subscription at $9 per
  router") is that component's: "price X Edge".
- A price of 0 is of its item, unless the item holds only names, generic nouns, the form of
  a price ("comes as a perpetual licence": lexicon ``[pricing] not_items``) and pricing
  cues, or is the subject's description written just before its name ("la plateforme X est
  incluse sans frais"): then it is the component's, else the subject's own.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence

from preuve.synthesis.lexicon import Lexicon, fold, names_sum
from preuve.synthesis.planner_products import name_candidates
from preuve.synthesis.statements import mentions, product_mentions, stem
from preuve.synthesis.values import Value

__all__ = ["free_attribute", "part_of", "price_of", "sum_row", "titled_item"]

_APPOSITION_WORDS = 5


def _component_named(subject: str, sentence: str, aliases: Mapping[str, str] | None) -> str | None:
    """The component of ``subject`` a sentence names it by (one of its aliases: a vendor's
    product, a candidate's platform), when it does not name the subject itself outside it."""
    own = [a for a, p in (aliases or {}).items() if p == subject]
    spans = [(at, at + len(a), a) for a in own for at in mentions(a, sentence)]
    if not spans:
        return None
    alone = [at for at in mentions(subject, sentence) if not any(s <= at < e for s, e, _ in spans)]
    return None if alone else max((a for _, _, a in spans), key=len)


_Found = tuple[str, tuple[Hashable, ...], tuple[str, ...]]


def price_of(
    found: _Found, item: str | None, value: Value, subject: str | None, *, sentence: str,
    price_label: str, aliases: Mapping[str, str] | None,
) -> _Found:  # fmt: skip
    """The attribute of an amount: the item a charging cue before it names ("option payante,
    facturée 3,50 €"), and the component the sentence names its subject by."""
    if item is not None:
        found = (f"{price_label} {item}", ("concept", "price", ()), found[2])
    if subject is None:
        return found
    part = part_of(sentence, value.start)
    return (_of_component(found[0], subject, part, aliases), *found[1:])


def part_of(sentence: str, position: int) -> str:
    """The part of a sentence ``position`` is in, between colons and semicolons."""
    left = max((m.end() for m in re.finditer(r"[:;]", sentence[:position])), default=0)
    right = re.search(r";", sentence[position:])
    return sentence[left : position + right.start() if right else len(sentence)]


def _of_component(
    attribute: str, subject: str, sentence: str, aliases: Mapping[str, str] | None
) -> str:
    """A price stated of a component is that component's: "prix" in a sentence naming the
    candidate by its platform "X Flux" is "prix X Flux" (its words, once)."""
    component = _component_named(subject, sentence, aliases)
    if component is None:
        return attribute
    own = set(fold(component).split())
    kept = [w for w in attribute.split() if fold(w) not in own]
    return " ".join([*kept, component])


def free_attribute(
    item: str, subject: str, sentence: str, *, price_label: str,
    aliases: Mapping[str, str] | None, lexicon: Lexicon,
) -> str:  # fmt: skip
    """The attribute of a price of 0: the price of its item, else of the component the
    sentence names the subject by (:func:`_component_named`), else of the subject itself:
    the item holds only the subject's names, generic nouns ("la plateforme"), the form of a
    price ("comes as a perpetual licence": ``[pricing] not_items``) and pricing cues, or is
    the subject's description (:func:`_apposition`)."""
    names = [subject, *(a for a, p in (aliases or {}).items() if p == subject)]
    pricing = lexicon.pricing or {}
    ignored = {w for n in names for w in fold(n).split()}
    ignored |= set(pricing.get("not_items", ())) | set(lexicon.words("generic_nouns"))
    ignored |= {
        w for group in ("free", "included", "charged") for c in pricing.get(group, ())
        for w in c.split()
    }  # fmt: skip
    kept = " ".join(w for w in item.split() if fold(w) not in ignored)
    if kept and not _apposition(kept, names, sentence):
        return f"{price_label} {kept}"
    component = _component_named(subject, sentence, aliases)
    return price_label if component is None else f"{price_label} {component}"


def _apposition(item: str, names: Sequence[str], sentence: str) -> bool:
    """True when the item a price is of is the subject's own description, written just
    before one of its ``names`` ("la plateforme Orly Fleet est incluse"): the price is the
    subject's."""
    folded = fold(sentence)
    for name in sorted(names, key=len, reverse=True):
        at = folded.find(fold(name))
        if at < 0:
            continue
        named = set(fold(name).split())
        rest = [fold(w) for w in item.split() if fold(w) not in named]
        before = re.findall(r"[^\W_][\w'-]*", folded[:at])[-_APPOSITION_WORDS:]
        # the words after the name are its predicate ("... Orly Fleet est incluse")
        after = re.findall(r"[^\W_][\w'-]*", folded[at + len(name) :])[:_APPOSITION_WORDS]
        return bool(set(rest) & set(before)) and all(w in before or w in after for w in rest)
    return False


def titled_item(
    title: str, product: str | None, names: Iterable[str], lexicon: Lexicon
) -> str | None:
    """The item a document's title names beside its product's brand ("new terms for Lumaqua
    Connect remote monitoring" for the product ``Lumaqua LX-400``: ``Connect``): another
    offer of the brand, which a price the document states without naming an item is of.
    ``names`` are the product's other names; a title naming the product itself, or a
    company (``Cobalt Systems``: lexicon ``[grammar] organisation_words``), names no item."""
    if product is None or not product.split():
        return None
    brand = product.split()[0]
    known = {product, *names}
    if product_mentions([product], title, dict.fromkeys(names, product)) and any(
        mentions(k, title) for k in known
    ):
        return None
    organisation = set(lexicon.words("organisation_words"))
    found = [
        name
        for name in name_candidates(title)
        if name.startswith(f"{brand} ") and name not in known
        and not any(k.startswith(name) or name.startswith(k) for k in known)
        and not all(fold(w).strip(".") in organisation for w in name.split()[1:])
    ]  # fmt: skip
    return found[0][len(brand) + 1 :] if len(found) == 1 else None


def sum_row(label: str | None, value: Value, found: _Found, lexicon: Lexicon) -> _Found | None:
    """The attribute of an amount in a sheet's row named as a sum ("Total excl. VAT",
    "VAT 23 %"): that sum, its words its key (a net and a gross total are two sums); None
    for any other value."""
    if value.kind != "money" or not label or not names_sum(label, lexicon):
        return None
    shown = " ".join(label.lower().split())
    words = frozenset(stem(w) for w in re.findall(r"[a-z][a-z-]*", fold(shown)))
    return shown, ("words", words, (), value.unit), found[2]
