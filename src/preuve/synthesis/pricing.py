"""Pricing statements: what costs nothing, and what an amount after a charging cue prices.

A pricing change is a contradiction of its own: a blog's "l'API REST est incluse dans
l'abonnement, sans surcoût" against an announcement's "l'accès à l'API n'est plus compris
dans les abonnements : il devient une option payante, facturée 3,50 € HT par véhicule et
par mois". Read here, with the words of the lexicon's ``[pricing]`` table:

- :func:`free_price`: a price of 0 (``free`` words, or ``included`` words followed by a price
  word of the lexicon: "incluse dans l'abonnement"), with the item it is said of (the words
  of its clause before the cue, without wrappers such as "l'accès à");
- :func:`charged_item`: the item an amount prices when a ``charged`` cue precedes it in its
  sentence ("option payante, facturée 3,50 €" prices the API named before the cue);
- :func:`is_free`: whether a written value states a price of 0 (for the matcher).

A zero price and an amount are compared when they are of the same subject, the price of
the same item (one item's words within the other's), see
:func:`preuve.synthesis.matcher.related_attributes`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from preuve.core.patterns import compiled
from preuve.synthesis.lexicon import Lexicon, fold, fold1
from preuve.synthesis.statements import term_pattern
from preuve.synthesis.values import Value

__all__ = [
    "FREE_KEY",
    "PricingCue",
    "charged_item",
    "free_price",
    "free_tier",
    "is_free",
    "pricing_cues",
]

FREE_KEY = ("money", "free", Decimal(0))
_WORD = re.compile(r"[^\W\d_][\w-]*")
_BOUNDARY = re.compile(r"[,;:()\[\]—–]")
_MAX_ITEM_WORDS = 4
_PRICE_WORD_REACH = 40
_MAX_GAP_WORDS = 2


@dataclass(frozen=True, slots=True)
class PricingCue:
    """A pricing cue of a sentence: where it is, ``free`` or ``charged``, and its item."""

    start: int
    end: int
    kind: str
    item: tuple[str, ...]


def _find(folded: str, word: str) -> list[int]:
    pattern = rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])"
    return [m.start() for m in compiled(pattern).finditer(folded)]


@lru_cache(maxsize=16)
def _price_words(lexicon: Lexicon) -> re.Pattern[str]:
    concept = lexicon.concept("price")
    terms = concept.terms if concept else ("price", "prix")
    return re.compile("|".join(term_pattern(t) for t in sorted(terms, key=len, reverse=True)))


def _item(sentence: str, start: int, lexicon: Lexicon, skip: frozenset[str]) -> tuple[str, ...]:
    """The words of the clause before ``start``: what the cue is said of."""
    left = max((m.end() for m in _BOUNDARY.finditer(sentence, 0, start)), default=0)
    pricing = lexicon.pricing or {}
    ignored = lexicon.stopwords | set(lexicon.words("articles")) | set(pricing.get("item_skip", ()))
    price = _price_words(lexicon)
    words = []
    for word in _WORD.findall(sentence[left:start]):
        for part in re.split(r"['’]", word):
            folded = fold(part)
            if len(folded) < 2 or folded in ignored or folded in skip or price.fullmatch(folded):
                continue
            words.append(part)
    return tuple(words[-_MAX_ITEM_WORDS:])


def pricing_cues(
    sentence: str, lexicon: Lexicon, skip: frozenset[str] = frozenset()
) -> list[PricingCue]:
    """Every pricing cue of ``sentence`` in reading order; a charging cue wins over a free
    one it overlaps ("n'est plus compris dans" is no "compris dans")."""
    pricing = lexicon.pricing or {}
    folded = fold1(sentence)
    hits: list[tuple[int, int, str]] = []
    for word in pricing.get("charged", ()):
        hits += [(p, p + len(word), "charged") for p in _find(folded, word)]
    for word in pricing.get("free", ()):
        hits += [(p, p + len(word), "free") for p in _find(folded, word)]
    for word in pricing.get("included", ()):
        for p in _find(folded, word):
            end = p + len(word)
            price = _price_words(lexicon).search(folded[end : end + _PRICE_WORD_REACH])
            if price is not None:  # "incluse dans l'abonnement": the cue ends with its price word
                hits.append((p, end + price.end(), "free"))
    kept: list[tuple[int, int, str]] = []
    for hit in sorted(hits, key=lambda h: (h[2] != "charged", -(h[1] - h[0]), h[0])):
        if not any(s < hit[1] and hit[0] < e for s, e, _ in kept):
            kept.append(hit)
    return [
        PricingCue(s, e, kind, _item(sentence, s, lexicon, skip)) for s, e, kind in sorted(kept)
    ]


def free_price(
    sentence: str, lexicon: Lexicon, skip: frozenset[str] = frozenset()
) -> tuple[Value, str] | None:
    """(a price of 0, the item it is of) when the sentence says something costs nothing and
    no charging cue contradicts it; the value shows the cues as written ("incluse dans
    l'abonnement, sans surcoût")."""
    cues = pricing_cues(sentence, lexicon, skip)
    free = [c for c in cues if c.kind == "free"]
    if not free or any(c.kind == "charged" for c in cues):
        return None
    item = next((c.item for c in free if c.item), ())
    if not item:
        return None
    start, end = free[0].start, free[0].end
    for cue in free[1:]:  # "incluse dans l'abonnement, sans surcoût": one statement
        if len(_BOUNDARY.sub(" ", sentence[end : cue.start]).split()) > _MAX_GAP_WORDS:
            break
        end = cue.end
    shown = " ".join(sentence[start:end].split())
    value = Value("money", start, end, shown, FREE_KEY, "money:free", Decimal(0))
    return value, " ".join(item)


def charged_item(
    sentence: str, position: int, lexicon: Lexicon, skip: frozenset[str] = frozenset()
) -> str | None:
    """The item an amount at ``position`` prices, when a charging cue precedes it in the
    sentence: the nearest cue's item, else an earlier cue's ("l'accès à l'API n'est plus
    compris ... : il devient une option payante, facturée 3,50 €" prices the API)."""
    before = [c for c in pricing_cues(sentence, lexicon, skip) if c.end <= position]
    if not any(c.kind == "charged" for c in before):
        return None
    item = next((c.item for c in reversed(before) if c.item), ())
    return " ".join(item) or None


def is_free(value: str, lexicon: Lexicon) -> bool:
    """True when a written value states a price of 0 and holds no digit."""
    if re.search(r"\d", value):
        return False
    cues = pricing_cues(value, lexicon)
    return bool(cues) and all(c.kind == "free" for c in cues)


def free_tier(sentence: str, lexicon: Lexicon) -> tuple[str, ...]:
    """A price of 0 bounded by a count ("free of charge in up to 25 rooms", "gratuit
    jusqu'à 10 postes") is a free tier, a limit of the offer: no claim that the paid offer
    beyond it costs nothing."""
    bound = lexicon.alternation("bound_words")
    counted = re.search(rf"{bound}\s+\d", fold(sentence))
    return ("target",) if counted and "target" in lexicon.modality else ()
