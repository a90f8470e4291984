"""The matcher: when two statements are about the same thing, and when two values agree.

It serves rules and LLM findings alike, from their written strings:

- :func:`attribute_key`: the concept of the lexicon a written attribute names (``latence
  p99``, ``p99 latency`` and ``temps de réponse au 99e centile`` are one key), with its
  qualifiers (``p99``); else the set of its content words, stemmed (word order and plural
  do not matter). The kind of value is part of the key (a count of GPUs and a price are
  never the same quantity), and so are the per-unit denominators of an amount (a price per
  GPU per month is not a yearly price).
- :func:`value_key`: a value's meaning: quantities and amounts in base units per second
  (``1 200 € par mois`` = ``1200 euros/mois`` = ``14 400 €/an``; ``0.8 s`` = ``800 ms``),
  dates as (year, month, day), licences by canonical name, statuses by their group and
  version (``corrigée en 3.4.2`` = ``fixed in 3.4.2``), else the folded words.
- :func:`group_key`: (subject, attribute, context): only statements with the same key are
  compared; a value stated for 2026 is not compared with one stated for 2027, nor a target
  with a measurement.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from functools import lru_cache

from preuve.core.numbers import Locale
from preuve.synthesis.lexicon import Lexicon, default_lexicon, fold
from preuve.synthesis.reader import licence_values, status_of
from preuve.synthesis.statements import distinguishing_words, stem, term_pattern
from preuve.synthesis.values import Value, date_value, read_values

__all__ = ["attribute_key", "group_key", "same_value", "subject_key", "value_key"]


def subject_key(subject: str) -> str:
    """A subject as a key: folded, every run of non-alphanumerics one space."""
    return " ".join(re.split(r"[^0-9a-z.]+", fold(subject))).strip(" .")


_EN_GROUPS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])")


def _values(value: str, lexicon: Lexicon) -> list[Value]:
    # A value has no document around it: "4,950" grouped by commas is read the English way.
    locale = Locale.EN if _EN_GROUPS.search(value) else Locale.FR
    found = read_values(value, lexicon, locale)
    taken = [(v.start, v.end) for v in found]
    found += [d for d in date_value(value) if not any(s < d.end and d.start < e for s, e in taken)]
    return sorted(found, key=lambda v: v.start)


@lru_cache(maxsize=4096)
def _value_key(value: str, lexicon: Lexicon) -> tuple[Hashable, ...]:
    status = status_of(value, lexicon, "fr")
    if status is not None:
        return status.key
    found = _values(value, lexicon)
    if found:
        return tuple(v.key for v in found)
    licences = licence_values(f"licence {value}", lexicon) or licence_values(value, lexicon)
    if licences:
        return tuple(sorted({v.key for v in licences}, key=repr))
    return ("text", " ".join(re.findall(r"[a-z0-9.]+", fold(value))))


def value_key(value: str, lexicon: Lexicon | None = None) -> tuple[Hashable, ...]:
    """The meaning of a written value (see the module docstring)."""
    return _value_key(value, lexicon or default_lexicon())


def same_value(a: str, b: str, lexicon: Lexicon | None = None) -> bool:
    """True when two written values mean the same thing."""
    return value_key(a, lexicon) == value_key(b, lexicon)


def _kind(value: str, lexicon: Lexicon) -> tuple[Hashable, ...]:
    """What kind of value ``value`` is: its dimension and per-unit denominators."""
    if status_of(value, lexicon, "fr") is not None:
        return ("status",)
    found = _values(value, lexicon)
    if not found:
        return ("text",)
    first = found[0]
    tax = first.key[2] if first.kind == "money" else ""
    return (first.kind, first.unit, first.per, first.periods != (), tax)


@lru_cache(maxsize=4096)
def _attribute_key(attribute: str, value: str, lexicon: Lexicon) -> tuple[Hashable, ...]:
    folded = fold(attribute).replace("_", " ")
    kind = _kind(value, lexicon)
    qualifiers = tuple(
        sorted(
            {
                q.key.format(*m.groups())
                for q in lexicon.qualifiers
                for m in q.pattern.finditer(folded)
            }
        )
    )
    # a period written in the attribute ("nombre de GPU en 2027") is part of what it names
    qualifiers = (*qualifiers, *sorted(set(re.findall(r"(?<!\d)(?:19|20)\d{2}(?!\d)", folded))))
    for pattern in lexicon.id_patterns:
        ids = pattern.findall(attribute)
        if ids:
            return ("id", ids[0])
    concepts = sorted(
        {
            concept.id
            for concept in lexicon.concepts
            for term in concept.terms
            if re.search(term_pattern(term), folded)
        }
    )
    if concepts:
        concept = lexicon.concept(concepts[0])
        if concept is not None and concept.dimension == "money":
            extra = frozenset(stem(w) for w in distinguishing_words(attribute, concept, lexicon))
            return ("concept", concepts[0], qualifiers, kind, extra)
        return ("concept", concepts[0], qualifiers, kind)
    words = frozenset(
        stem(w)
        for w in re.findall(r"[a-z][a-z'-]+", folded)
        if len(w) >= 3 and w not in lexicon.stopwords
    )
    return ("words", words, qualifiers, kind)


def attribute_key(
    attribute: str, value: str, lexicon: Lexicon | None = None
) -> tuple[Hashable, ...]:
    """The quantity or status a written attribute names (see the module docstring)."""
    return _attribute_key(attribute, value, lexicon or default_lexicon())


def group_key(
    subject: str, attribute: str, value: str, context: str = "", lexicon: Lexicon | None = None
) -> tuple[Hashable, ...]:
    """What two statements must share to be compared: subject, attribute, context."""
    return (subject_key(subject), attribute_key(attribute, value, lexicon), subject_key(context))
