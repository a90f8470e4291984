"""What a memo figure is measured in and on: its unit (``40 kW``, ``120 m³/h``, ``24
mois``) and its bases (before or after tax, calendar or working days).

A memo number whose value is in a cited fact still says something else when its unit or
base differs: ``40 kVA`` is no ``40 kW``, ``120 m³/day`` no ``120 m³/h``, ``1 250 000 €
TTC`` no ``1 250 000 € HT``. :func:`terms_of` reads both for a number of a text;
:func:`terms_conflict` says whether a written figure may stand for a fact's;
:func:`converts` accepts a declared conversion with its converted value (``16 bar`` is
``1 600 kPa``, ``18 mois`` is ``1,5 an``).

Units are declared data, the unit table the quote check reads too
(:mod:`preuve.core.unit_table`: dimension, exact factor, symbols matched with their case,
words in any case; ``an``, ``ans`` and ``o`` are read only in a French text). A unit is
read right after the number (after spaces), not followed by a letter or a digit; a unit
over another (``m³/h``, ``mg/kg``) or ``per``/``par`` a unit (``m³ per hour``) is one unit
of the quotient dimension. Numbers with a unit :mod:`preuve.core.numbers` already reads
(``%``, ``k€``, ``x``) are compared there, not here. What a figure leaves out is not
compared (a declared limit, as for the number check): a memo number without a unit or a
base matches by value; a fact number without one is matched by any.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from preuve.core.bases import BaseMark, base_marks
from preuve.core.numbers import Locale, NumberMention
from preuve.core.unit_table import UNIT_TABLE

__all__ = ["Measure", "Terms", "converts", "measure_after", "terms_conflict", "terms_of"]


@dataclass(frozen=True, slots=True)
class Measure:
    """A unit as written (``written``), its dimension and its factor to the base unit."""

    written: str
    dimension: str
    factor: Fraction


@dataclass(frozen=True, slots=True)
class Terms:
    """A number's unit (None when it writes none) and bases (group → value)."""

    measure: Measure | None = None
    bases: dict[str, str] = field(default_factory=dict)


_Unit = tuple[str, Fraction]  # dimension, factor


def _load() -> tuple[dict[str, _Unit], dict[str, _Unit]]:
    symbols: dict[str, _Unit] = {}
    words: dict[str, _Unit] = {}
    for spec in UNIT_TABLE.units:
        unit = (spec.dimension, Fraction(spec.factor))
        symbols.update(dict.fromkeys(spec.symbols, unit))
        words.update(dict.fromkeys((w.casefold() for w in spec.words), unit))
    return symbols, words


_SYMBOLS, _WORDS = _load()
_ONLY_IN = UNIT_TABLE.only_in


def _alternation(names: Sequence[str]) -> str:
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


_UNIT = re.compile(
    rf"(?:(?P<symbol>{_alternation(list(_SYMBOLS))})|(?i:(?P<word>{_alternation(list(_WORDS))})))"
    r"(?![^\W_]|['’][^\W\d_])"
)
_GAP = re.compile(r"[ \u00a0\u202f\u2009]?")
_PER = re.compile(r"\s*/\s*|\s+(?i:per|par|an|a)\s+")


def _unit_at(text: str, index: int, locale: Locale) -> tuple[re.Match[str], str, Fraction] | None:
    match = _UNIT.match(text, index)
    if match is None:
        return None
    written = match.group()
    only = _ONLY_IN.get(written.casefold())
    if only is not None and only != locale.value:
        return None
    if match.group("symbol") is not None:
        dimension, factor = _SYMBOLS[written]
    else:
        dimension, factor = _WORDS[written.casefold()]
    return match, dimension, factor


def measure_after(text: str, mention: NumberMention, locale: Locale) -> Measure | None:
    """The unit written right after ``mention`` in ``text`` (with a unit over another),
    or None; numbers with a unit the number parser reads, and years, have none here."""
    if mention.unit is not None or mention.kind is not None or mention.is_year:
        return None
    gap = _GAP.match(text, mention.end)
    start = mention.end if gap is None else gap.end()
    first = _unit_at(text, start, locale)
    if first is None:
        return None
    match, dimension, factor = first
    end = match.end()
    per = _PER.match(text, end)
    if per is not None:
        second = _unit_at(text, per.end(), locale)
        if second is not None:
            dimension = f"{dimension}/{second[1]}"
            factor /= second[2]
            end = second[0].end()
    return Measure(text[start:end], dimension, factor)


def _clause_marks(
    marks: Sequence[BaseMark], mention: NumberMention, clause: tuple[int, int]
) -> dict[str, str]:
    """For each base group, the marker nearest after the number in its clause (else the
    nearest before it)."""
    found: dict[str, str] = {}
    inside = [m for m in marks if clause[0] <= m.start and m.end <= clause[1]]
    after = [m for m in inside if m.start >= mention.end]
    before = [m for m in reversed(inside) if m.end <= mention.start]
    for mark in (*after, *before):
        found.setdefault(mark.group, mark.value)
    return found


def terms_of(
    text: str,
    mention: NumberMention,
    clause: tuple[int, int],
    locale: Locale,
    marks: Sequence[BaseMark] | None = None,
) -> Terms:
    """The unit and bases of ``mention`` in ``text`` (``clause``: the span of its clause;
    ``marks``: the text's base markers, when the caller has them)."""
    marks = base_marks(text) if marks is None else marks
    return Terms(measure_after(text, mention, locale), _clause_marks(marks, mention, clause))


def terms_conflict(written: Terms, source: Terms) -> str | None:
    """``"unit"`` when both write a unit and they differ (by dimension or factor),
    ``"base"`` when both write a base of one group and it differs, else None."""
    if written.measure is not None and source.measure is not None:
        same = (written.measure.dimension, written.measure.factor) == (
            source.measure.dimension,
            source.measure.factor,
        )
        if not same:
            return "unit"
    for group, value in written.bases.items():
        if source.bases.get(group, value) != value:
            return "base"
    return None


def converts(
    written: NumberMention, measure: Measure, source: NumberMention, unit: Measure
) -> bool:
    """Whether ``written`` in ``measure`` is ``source`` in ``unit`` converted by the
    declared factors (same dimension, same quantity, same sign)."""
    if measure.dimension != unit.dimension or measure.factor == unit.factor:
        return False
    return Fraction(written.value) * measure.factor == Fraction(source.value) * unit.factor
