"""Units written after a number (``37 kW``, ``36 mois``, ``140 m³/h``, ``52 dB(A)``): where
one ends, so that a quote stopping between a number and its unit is seen to drop what the
number measures.

The words are declared data, the unit table (:mod:`preuve.core.unit_table`,
``preuve/core/data/units.toml``) that the memo check and the synthesis rules engine read too:
every unit's symbols match with their case as written, its words in any case and with or
without accents, except written all in capitals (``US``, ``SEC`` and ``HR`` after a year are
acronyms, not microseconds, seconds or hours); symbols with no factor declared
(``[unconverted]``) end a unit too.

A unit is read after a number when it stands right after it or after spaces (one line break
at most, and then not a capitalized word: a table row's next label), is not followed by a
letter, a digit or an apostrophe (``2 s'avèrent``, ``2025 l'exploitant``), and, when it is
a function word of the other language (``an``), only after a value below 2. After a year,
counted things (``the 2025 events``) and ordinal words are not read. A unit over another
(``m³/h``, ``€/kWh``, ``L/s``) is one unit.
"""

from __future__ import annotations

import re
from decimal import Decimal

from preuve.core.unit_table import UNIT_TABLE

__all__ = ["per_unit_end", "unit_end"]


# Letters written with or without an accent (the declared words are written without).
_ACCENTED = {
    "a": "aàâä",
    "e": "eéèêë",
    "i": "iîï",
    "o": "oôö",
    "u": "uùûü",
    "c": "cç",
    "µ": "µμ",  # the micro sign and the Greek mu
}


def _pattern(word: str, *, accents: bool) -> str:
    parts = []
    for char in word:
        variants = _ACCENTED.get(char) if accents or char == "µ" else None
        parts.append(f"[{variants}]" if variants else re.escape(char))
    return "".join(parts)


def _alternation(words: set[str], *, accents: bool) -> str:
    ordered = sorted(words, key=lambda w: (-len(w), w))
    return "|".join(_pattern(word, accents=accents) for word in ordered)


def _word_sets() -> tuple[set[str], set[str], set[str]]:
    """Case-sensitive words, case-insensitive words, and the words of counted things."""
    exact: set[str] = set(UNIT_TABLE.unconverted)
    loose: set[str] = set()
    counted: set[str] = set()
    for unit in UNIT_TABLE.units:
        exact.update(unit.symbols)
        loose.update(unit.words)
        if unit.dimension in UNIT_TABLE.count_dimensions:
            counted.update(word.lower() for word in (*unit.symbols, *unit.words))
    return exact, {word.lower() for word in loose}, counted


_EXACT_WORDS, _LOOSE_WORDS, _COUNTED = _word_sets()
_SINGULAR_ONLY = UNIT_TABLE.singular_only
_NOT_AFTER_YEAR = UNIT_TABLE.not_after_year | _COUNTED
# What may not follow a unit: a letter or digit (the word goes on), an apostrophe (French
# elision: "s'avèrent"), a hyphen joining another word ("second-half").
_END = r"(?![\w'’]|[-‐‑]\w)"
_EXACT = re.compile(rf"(?:{_alternation(_EXACT_WORDS, accents=False)}){_END}")
_LOOSE = re.compile(rf"(?i:{_alternation(_LOOSE_WORDS, accents=True)}){_END}")
_GAP = re.compile(r"[ \t\u00a0\u202f\u2009]*(?P<line>\n[ \t\u00a0\u202f\u2009]*)?")


def _unit_at(text: str, index: int) -> re.Match[str] | None:
    """The longest unit written at ``index`` (case as declared; loose words not in capitals)."""
    found = [m for m in (_EXACT.match(text, index), _LOOSE.match(text, index)) if m is not None]
    found = [m for m in found if m.re is _EXACT or len(m.group()) < 2 or not m.group().isupper()]
    return max(found, key=lambda m: m.end()) if found else None


def per_unit_end(text: str, index: int) -> int:
    """The end of ``/unit`` written right after a unit that ends at ``index`` (``m³/h``,
    ``€/kWh``), else ``index``."""
    while text[index : index + 1] == "/":
        unit = _unit_at(text, index + 1)
        if unit is None:
            break
        index = unit.end()
    return index


def unit_end(text: str, index: int, value: Decimal, *, year: bool = False) -> int:
    """The end of the unit written after a number that ends at ``index`` (its value
    ``value``; ``year`` when it reads as a year), else ``index``."""
    gap = _GAP.match(text, index)
    if gap is None:  # pragma: no cover - the gap pattern matches the empty string
        return index
    unit = _unit_at(text, gap.end())
    if unit is None:
        return index
    word = unit.group()
    if gap.group("line") is not None and (len(word) < 2 or word[0].isupper()):
        return index  # a line that starts with a capital or one letter: a new row or sentence
    lowered = word.lower()
    if lowered in _SINGULAR_ONLY and abs(value) >= 2:
        return index
    if year and lowered in _NOT_AFTER_YEAR:
        return index
    return per_unit_end(text, unit.end())
