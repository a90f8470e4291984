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
from decimal import Decimal
from functools import lru_cache

from preuve.core.numbers import Locale
from preuve.synthesis.lexicon import Lexicon, default_lexicon, fold
from preuve.synthesis.pricing import FREE_KEY, is_free
from preuve.synthesis.reader import licence_values, status_of
from preuve.synthesis.statements import distinguishing_words, stem, term_pattern
from preuve.synthesis.values import Value, date_value, read_values

__all__ = [
    "attribute_key",
    "group_key",
    "more_specific",
    "related_attributes",
    "same_value",
    "subject_key",
    "value_key",
]


def subject_key(subject: str) -> str:
    """A subject as a key: folded, every run of non-alphanumerics one space, without the
    name it was written by ("Cerise Flotte (Tarnac Miléa E3)" is Cerise Flotte)."""
    bare = re.sub(r"\s*\([^()]*\)\s*$", "", subject) or subject
    return " ".join(re.split(r"[^0-9a-z.]+", fold(bare))).strip(" .")


_EN_GROUPS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])")


def _values(value: str, lexicon: Lexicon) -> list[Value]:
    # A value has no document around it: "4,950" grouped by commas is read the English way.
    locale = Locale.EN if _EN_GROUPS.search(value) else Locale.FR
    found = read_values(value, lexicon, locale)
    taken = [(v.start, v.end) for v in found]
    found += [d for d in date_value(value) if not any(s < d.end and d.start < e for s, e in taken)]
    return sorted(found, key=lambda v: v.start)


def _status(value: str, lexicon: Lexicon) -> Value | None:
    """The state a value states, unless its status word is part of a licence's name
    ("Brightwick Source-Available Licence 1.0" is a licence, not the state "available")."""
    # an advisory's state written with the rest of its clause ("no fixed firmware is
    # available") is that state, whatever other status word the clause holds
    advisory = lexicon.advisory_states
    status = (status_of(value, lexicon, "fr", advisory) if advisory else None) or status_of(
        value, lexicon, "fr"
    )
    if status is None:
        return None
    named = [v for v in licence_values(value, lexicon) if v.display == value.strip()]
    return None if named else status


@lru_cache(maxsize=4096)
def _value_key(value: str, lexicon: Lexicon) -> tuple[Hashable, ...]:
    status = _status(value, lexicon)
    if status is not None:
        return status.key
    if is_free(value, lexicon):
        return FREE_KEY
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
    """True when two written values mean the same thing; a state without its version
    (``Resolved``) agrees with the same state with one (``fixed in 7.2.4``): the group of
    status words of the lexicon is their meaning, the version a detail one of them adds."""
    key_a, key_b = value_key(a, lexicon), value_key(b, lexicon)
    if key_a == key_b or _within(key_a, key_b) or _within(key_b, key_a):
        return True
    lex = lexicon or default_lexicon()
    return _satisfies(_bound(a, lex), key_a, key_b) or _satisfies(_bound(b, lex), key_b, key_a)


def _bound(value: str, lexicon: Lexicon) -> str:
    """ "<" for a value written after an upper bound ("less than 0.4 %", "< 2 ms"), ">" after
    a lower one ("at least 99.9 %"), else ""."""
    folded = fold(value).strip()
    for sign, name in (("<", "upper_bound_words"), (">", "lower_bound_words")):
        for cue in lexicon.words(name):
            if folded.startswith(cue) and not folded[len(cue) : len(cue) + 1].isalpha():
                return sign
    return ""


def _satisfies(sign: str, bound: tuple[Hashable, ...], point: tuple[Hashable, ...]) -> bool:
    """Whether a point value lies within a bound of the same quantity: a measured 0.3 %
    agrees with "less than 0.4 %", 1.3 % does not."""
    if not sign or len(bound) != 1 or len(point) != 1:
        return False
    (limit,), (value,) = bound, point
    if not (isinstance(limit, tuple) and isinstance(value, tuple) and len(limit) == len(value)):
        return False
    if limit[:-1] != value[:-1] or not limit or limit[0] != "quantity":
        return False
    low, high = (value[-1], limit[-1]) if sign == "<" else (limit[-1], value[-1])
    return isinstance(low, Decimal) and isinstance(high, Decimal) and low <= high


def _within(general: tuple[Hashable, ...], precise: tuple[Hashable, ...]) -> bool:
    """True when ``precise`` says what ``general`` says and more: a state and the same state
    with its version (``Resolved``, ``fixed in 7.2.4``), a year or a month and a day in it
    (``2029``, ``31 décembre 2029``), a licence and the same with its version (``OFUL``,
    ``OFUL 1.0``)."""
    if general[0] == precise[0] == "status":
        return general[1] == precise[1] and general[2] is None and precise[2] is not None
    if len(general) == len(precise) == 1:
        date_a, date_b = general[0], precise[0]
        if isinstance(date_a, tuple) and isinstance(date_b, tuple) and date_a[0] == "licence":
            # a licence without its version ("PSAL") and with it ("PSAL 1.0")
            return date_b[0] == "licence" and str(date_b[1]).startswith(f"{date_a[1]} ")
        if isinstance(date_a, tuple) and isinstance(date_b, tuple) and date_a[0] == "date":
            return date_b[0] == "date" and _within_day(date_a[1], date_b[1])
    return False


def _within_day(general: object, precise: object) -> bool:
    """(2029, None, None) within (2029, 12, 31); (2029, 6, None) within (2029, 6, 30)."""
    if not (isinstance(general, tuple) and isinstance(precise, tuple)):
        return False
    known = [x for x in general if x is not None]
    head = precise[: len(known)]
    return (
        len(known) < len(precise)
        and None not in head
        and tuple(head) == tuple(known)
        and (precise[len(known)] is not None)
    )


def more_specific(a: str, b: str, lexicon: Lexicon | None = None) -> bool:
    """True when ``b`` says what ``a`` says and more (``fixed in 7.2.4`` for ``Resolved``,
    ``31 décembre 2029`` for ``2029``)."""
    return _within(value_key(a, lexicon), value_key(b, lexicon))


def _kind(value: str, lexicon: Lexicon) -> tuple[Hashable, ...]:
    """What kind of value ``value`` is: its dimension and per-unit denominators."""
    if _status(value, lexicon) is not None:
        return ("status",)
    if is_free(value, lexicon):
        return ("free",)
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
    # an amount is a price, and only an amount is ("autonomie sur une charge" is a time)
    priced = kind[0] in {"money", "free"}
    concepts = sorted(
        {
            concept.id
            for concept in lexicon.concepts
            if (concept.dimension == "money") == priced or kind[0] in {"status", "text"}
            # a date concept names a date ("delivered dose" in mJ/cm² is no delivery)
            if concept.dimension != "date" or kind[0] in {"date", "status", "text"}
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
    # how a value was obtained ("autonomie mesurée", "claimed range") is no part of what it
    # measures: a claim and a measurement of one quantity are compared (lexicon [grammar]
    # mode_words)
    modes = set(lexicon.words("mode_words"))
    words = frozenset(
        stem(w)
        for w in re.findall(r"[a-z][a-z'-]+", folded)
        if len(w) >= 3 and w not in lexicon.stopwords and w not in modes
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
    """What two statements must share to be compared: subject, attribute, context. The
    state of an identified advisory is compared whoever it is said of (an id names one
    vulnerability: a bulletin titled by it and a release note of the product agree on what
    they speak of)."""
    key = attribute_key(attribute, value, lexicon)
    who = "" if key[:1] == ("id",) else subject_key(subject)
    # a sign is part of a condition: "at -7 °C" is not "at 7 °C"
    signed = re.sub(r"(?<![\w.])[-−–](?=\s?\d)", " minus ", context)
    return (who, key, subject_key(signed))


def _measure_kinds(words: frozenset[Hashable], lexicon: Lexicon) -> set[str]:
    return {
        kind for kind, names in (lexicon.measures or {}).items() if words & {stem(n) for n in names}
    }


_CENTRAL = frozenset({"p50", "mean"})


def _central(a: Hashable, b: Hashable) -> bool:
    """Qualifiers that differ only by a central value on one side ("typical" and "(median)")."""
    if not (isinstance(a, tuple) and isinstance(b, tuple)):
        return False
    left, right = set(a), set(b)
    return left != right and (left ^ right) <= _CENTRAL and not (left & right & _CENTRAL)


def _overlapping(a: frozenset[Hashable], b: frozenset[Hashable], lex: Lexicon) -> bool:
    """Two word sets that share at least two words (verbs of change aside), half of the
    smaller one's, and no word of a measurement kind (which would name two quantities on
    purpose: "sequential read speed", "sequential write speed")."""
    named = {stem(n) for names in (lex.measures or {}).values() for n in names}
    # a verb of change ("shortens the BLE window", "shortens the commissioning window") says
    # what an action does, not which quantity: it is no shared word
    shared = (a & b) - {stem(w) for w in lex.words("change_verbs")}
    return len(shared) >= 2 and 2 * len(shared) >= min(len(a), len(b)) and not shared & named


def related_attributes(
    a: tuple[Hashable, ...], b: tuple[Hashable, ...], lexicon: Lexicon | None = None,
    *, conditioned: bool = False,
) -> bool:  # fmt: skip
    """True when two different attribute keys (:func:`attribute_key`, of one subject and
    context) may name one quantity under other words, to be compared when each is the
    other's only such partner (see :func:`preuve.synthesis.contradictions.group_values`):

    - a price of 0 and an amount, the price of one item (one's words within the other's:
      "prix API REST: incluse, sans surcoût" and "prix API: 3,50 € par mois");
    - two attributes no concept names, with the same qualifiers and kind of value, each
      with a different word of one measurement kind of the lexicon (``[measures]``:
      "précision de positionnement (CEP 50)" and "erreur horizontale médiane", both an
      accuracy at p50; "read speed" and "write speed" share their kind word: two quantities),
      unless one's words are all the other's ("autonomie" and "autonomie mesurée sur une
      charge": one quantity, written more fully once), or measured under one condition
      (``conditioned``: "production" and "production de neige humide", both at −6 °C);
    - two attributes no concept names, measured under one condition in a unit over another
      (a dose in mJ/cm² at one flow, "validated RED" and "delivered dose"): one quantity;
    - two attributes no concept names, of one kind of value, sharing two words or more and
      half of the shorter one's, none of a measurement kind ("report generation, batch of 96
      samples, typical" and "report batch, 96 samples (median)"), their qualifiers equal or
      differing by a central value only (p50, mean).
    """
    lex = lexicon or default_lexicon()
    if a == b or a[0] != b[0]:
        return False
    if a[0] == "concept" and len(a) == len(b) == 5 and a[1] == b[1] == "price":
        kinds = {str(cast_kind[0]) for cast_kind in (a[3], b[3]) if isinstance(cast_kind, tuple)}
        items = [x for x in (a[4], b[4]) if isinstance(x, frozenset) and x]
        # both of one item (one's words within the other's), or both of the subject itself
        return (
            kinds == {"free", "money"}
            and a[2] == b[2]
            and (not items or (len(items) == 2 and (items[0] <= items[1] or items[1] <= items[0])))
        )
    if a[0] == "concept" and len(a) == len(b) == 4 and a[1] == b[1] and a[3] == b[3]:
        # one quantity, stated once plainly and once as its median ("live latency 1.8 s",
        # "median latency 4.6 s"): compared when each is the other's only partner
        return _central(a[2], b[2])
    if a[0] == "words" and isinstance(a[1], frozenset) and isinstance(b[1], frozenset):
        if a[2:] != b[2:]:
            return a[3:] == b[3:] and _central(a[2], b[2]) and _overlapping(a[1], b[1], lex)
        other = b[1]
        # a word of the kind in both ("read speed", "write speed") names two quantities on
        # purpose: only synonyms ("précision", "erreur") relate two names
        named = {stem(n) for names in (lex.measures or {}).values() for n in names}
        unit = a[3][1] if isinstance(a[3], tuple) and len(a[3]) > 1 else ""
        if conditioned and "/" in str(unit):
            # one condition and a unit over another ("mJ/cm²" at 310 m³/h): one quantity
            return True
        if a[1] < other or other < a[1]:
            # one more wordy than the other about one measured kind ("autonomie" and
            # "autonomie mesurée sur une charge"): one quantity
            return conditioned or bool(a[1] & other & named) or _overlapping(a[1], other, lex)
        if _measure_kinds(a[1], lex) & _measure_kinds(other, lex):
            return not (a[1] & other & named)
        # most words in common, none of a measurement kind ("report generation, batch of 96
        # samples" and "report batch, 96 samples")
        return _overlapping(a[1], other, lex)
    return False
