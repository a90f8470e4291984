"""Numbers as written in French and English reports: extraction, parsing, comparison by value.

The locale matters: ``11 175`` and ``11,175`` share their digits but, in a French text, not
their value (the comma is a decimal comma). Every function that reads digits takes it.

What counts as a number:
- digits, optionally grouped by three with a space, NBSP, narrow NBSP or thin space, an
  apostrophe (Swiss ``131'480``, also U+2019) or dots (``1.234.567``, ``1.234,5``) in both
  locales, or a comma (English; in French only before a decimal point, ``1,234.5``); or
  the Indian way, three digits then groups of two (``12,34,567``). The first group has one
  to three digits, so a year followed by an amount (``2025 11 175``) is never glued into
  one number;
- an optional decimal part: comma or point in French, point in English; after space or
  apostrophe groups, or a mark of the other kind (``1.234,5``), either;
- a sign stuck to the digits (``-``, ``−`` U+2212, ``–``, ``+``) that does not join a word
  or a number before it (``2024-2025`` is a range, not a negative), or accounting
  parentheses ``(1,577)``;
- an optional currency before (``$``, ``€``, ``£``) and unit after (``%``, ``x``, ``k€``,
  ``M€``, ``million``, ``pt``, ...), normalized in ``NumberMention.unit``.

What does not count (so it never fails a check as a "figure"): digits inside an identifier
(``A-solvea-2``, ``ORV-SA-2026-004``, ``Q3``, ``1er``), dotted references with two dots or
more (``3.4.2``, ``31.12.2025``; but ``1.234.567`` is a number), slashed dates and fractions
(``31/12/2025``), the day of a date (``31 décembre``, ``December 31``), the second half of
a fiscal year (``2024-25``), and the number right after a reference word (``section 3.4``,
``§ 2``, ``note 9``).
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache

from preuve.core.number_units import (
    CURRENCIES,
    CURRENCY_BEFORE,
    DIMENSIONS,
    NUMBER_PREFIX,
    UNITS,
    canonical_currency,
    same_currency,
)
from preuve.core.ranges import Bounded, range_pairs
from preuve.core.units import per_unit_end, unit_end

__all__ = [
    "Locale",
    "NumberMention",
    "detect_locale",
    "extract_numbers",
    "french_number",
    "is_word_char",
    "measured_extents",
    "number_extents",
    "parse_number",
    "reference_tokens",
    "same_dimensions",
    "same_magnitude",
    "same_value",
    "unit_extents",
]


class Locale(StrEnum):
    """How a document writes its numbers."""

    FR = "fr"
    EN = "en"


@dataclass(frozen=True, slots=True)
class NumberMention:
    """One number found in a text.

    ``raw`` is ``text[start:end]``: the number with its sign, parentheses and leading
    currency, without its trailing unit. ``value`` is the signed value as written (not
    scaled by the unit); ``signed`` says a sign or accounting parentheses were written.
    ``unit`` is the normalized unit as written (``k€``, ``million``, ``%``); ``currency``,
    ``scale`` and ``kind`` split it into what :func:`same_dimensions` compares.
    """

    raw: str
    start: int
    end: int
    value: Decimal
    signed: bool
    unit: str | None
    is_year: bool
    currency: str | None = None  # "€", "$", "£", "CHF", ... before or after the digits
    scale: str | None = None  # "thousand", "million", "billion"
    kind: str | None = None  # "%", "pt", "bp", "x", "ordinal", "day-MM" (a day of month MM)
    # A bound of a range ("14–16 °C", "de 3 à 5 jours"): "low" or "high", and the range's
    # (low, high) values; such a number is no value of its own (:mod:`preuve.core.ranges`).
    bound: str | None = None
    bounds: tuple[Decimal, Decimal] | None = None


_SPACE = "[ \u00a0\u202f\u2009]"
# Superscript, subscript, circled and fraction digits (never folded into ASCII digits).
_COMPAT_CLASS = "²³¹¼-¾\u2070-\u209f\u2150-\u218f\u2460-\u24ff\u2776-\u2793\u3251-\u32bf"
_APOSTROPHES = "'\u2019"
# One body per grouping convention, each with the decimals it allows; tried in this order
# (a regex alternation takes the first that matches, so the most specific come first).
# "131'480", "1'180'000.50": Swiss apostrophe (or U+2019) thousands, then a point or comma.
_GROUPED_APOSTROPHE = rf"\d{{1,3}}(?:[{_APOSTROPHES}]\d{{3}}(?!\d))+(?:[.,]\d+(?!\d))?"
# "12,34,567.89": Indian grouping, the last three digits then groups of two (lakh, crore).
_GROUPED_INDIAN = r"\d{1,2}(?:,\d{2})+,\d{3}(?![\d]|,\d)(?:\.\d+(?!\d))?"
# "1.234.567", "1.234,5": dot thousands; two dots or more, or one before a decimal comma.
_GROUPED_DOT = r"\d{1,3}(?:(?:\.\d{3}(?!\d)){2,}(?:,\d+(?!\d))?|(?:\.\d{3}(?!\d))+,\d+(?!\d))"
# "1,234.5" in a French text too: comma groups before a decimal point are thousands.
_GROUPED_COMMA_POINT = r"\d{1,3}(?:,\d{3}(?!\d))+\.\d+(?!\d)"
_GROUPED_COMMA = r"\d{1,3}(?:,\d{3}(?!\d))+(?:\.\d+(?!\d))?"
# "1 234 567,5", "1 234 567.5": space groups, then a comma or point in either locale.
_GROUPED_SPACE = rf"\d{{1,3}}(?:{_SPACE}\d{{3}}(?!\d))+(?:[,.]\d+(?!\d))?"
# French also accepts a decimal point: a memo that writes "5.5x" must still be checked.
# "5,5e-3": a scientific exponent belongs to the number.
_EXPONENT = r"(?:[eE][-+\u2212]?\d{1,3}(?![\d\w]))?"
_GROUPED = (_GROUPED_APOSTROPHE, _GROUPED_INDIAN, _GROUPED_DOT)
_BODY_FR = re.compile(
    rf"(?<!\d)(?:{'|'.join((*_GROUPED, _GROUPED_COMMA_POINT, _GROUPED_SPACE))}"
    rf"|\d+(?:[,.]\d+(?!\d))?){_EXPONENT}"
)
_BODY_EN = re.compile(
    rf"(?<!\d)(?:{'|'.join((*_GROUPED, _GROUPED_COMMA, _GROUPED_SPACE))}"
    rf"|\d+(?:\.\d+(?!\d))?){_EXPONENT}"
)

# Every Unicode dash and minus that can stand before a number as its sign: hyphen-minus,
# the dashes (U+2010-U+2015), minus U+2212, heavy minus U+2796, small and fullwidth
# hyphen-minus; and the plus signs.
_NEGATIVE_SIGNS = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2796\ufe58\ufe63\uff0d"
_SIGNS = _NEGATIVE_SIGNS + "+\u2795\ufe62\uff0b"
_UNIT_ALTERNATION = "|".join(f"(?P<u{i}>{pattern})" for i, (pattern, _, _) in enumerate(UNITS))
_UNIT_AFTER = re.compile(rf"(?P<space>{_SPACE})?(?:{_UNIT_ALTERNATION})(?!(?![{_COMPAT_CLASS}])\w)")
_UNIT_ONLY = re.compile(rf"(?:{_UNIT_ALTERNATION})")

# Masks: spans whose digits are references or identifiers, not figures.
# (A footnote mark or other compatibility digit is a token of its own: "5,5x¹" is 5,5x.)
_WORD_CHAR = rf"(?:(?![{_COMPAT_CLASS}])[\w‐‑-])"
_TOKEN = re.compile(rf"{_WORD_CHAR}+(?:[.,]{_WORD_CHAR}+)*")
_NUMERIC_HEAD = re.compile(r"[-‐‑]?\d[\d.,]*(?:[eE][-+]?\d+)?")
_DOTTED = re.compile(r"(?<![\d.])\d+(?:\.\d+){2,}(?!\d)")
_DOT_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+")
_SLASHED = re.compile(r"(?<![\d/])\d+(?:/\d+)+(?!\d)")
_FISCAL_YEAR = re.compile(r"(?<!\d)(?P<year>(?:19|20)\d\d)[-–](?P<next>\d\d)(?!\d)")
_MONTH_NUMBERS = {
    **dict.fromkeys(("janvier", "january", "jan"), 1),
    **dict.fromkeys(("février", "fevrier", "february", "feb"), 2),
    **dict.fromkeys(("mars", "march", "mar"), 3),
    **dict.fromkeys(("avril", "april", "apr"), 4),
    **dict.fromkeys(("mai", "may"), 5),
    **dict.fromkeys(("juin", "june", "jun"), 6),
    **dict.fromkeys(("juillet", "july", "jul"), 7),
    **dict.fromkeys(("août", "aout", "august", "aug"), 8),
    **dict.fromkeys(("septembre", "september", "sept", "sep"), 9),
    **dict.fromkeys(("octobre", "october", "oct"), 10),
    **dict.fromkeys(("novembre", "november", "nov"), 11),
    **dict.fromkeys(("décembre", "decembre", "december", "dec"), 12),
}
_MONTHS = "|".join(sorted((m for m in _MONTH_NUMBERS if m != "may"), key=len, reverse=True))
# A day next to a month name is a date: a number of its own kind ("day-12" for a day of
# December), checked against the days of the facts. "may" only after the day's number
# would be a verb ("a ratio of 5 may rise"), so it only counts before it ("May 31"). A
# number with a unit after a month is an amount: "En décembre 15 %", "mai 12 000 k€".
_DAY_BEFORE_MONTH = re.compile(
    rf"(?<![\d.,{_APOSTROPHES}])(?P<day>\d{{1,2}})(?:er|st|nd|rd|th)?{_SPACE}+(?P<month>(?i:{_MONTHS}))\b\.?"
)
_DAY_AFTER_MONTH = re.compile(
    rf"\b(?P<month>(?i:{_MONTHS}|may))\.?{_SPACE}+(?P<day>\d{{1,2}})"
    rf"(?!\d|[.,{_APOSTROPHES}]\d|{_SPACE}\d{{3}}(?!\d))"
)
_REFERENCE = re.compile(
    r"(?:§|\b(?i:sections?|chapitres?|chapters?|articles?|art\.|annexes?|appendix|notes?))"
    rf"{_SPACE}*(?P<ref>\d+(?:[.\-–]\d+)*)"
)


@dataclass(frozen=True, slots=True)
class _Found:
    mention: NumberMention
    unit_end: int  # end of the trailing unit, or mention.end when there is none


def _body_pattern(locale: Locale) -> re.Pattern[str]:
    return _BODY_FR if locale is Locale.FR else _BODY_EN


# A number joined by a hyphen to the word it counts ("a 142-patient cohort", "12-month"):
# a figure in a compound adjective, not an identifier (those carry capitals or more parts).
_COUNTED_COMPOUND = re.compile(r"\d+(?:[.,]\d+)?[-‐‑][^\W\d_A-Z]{2,}")
_HAS_LETTER = re.compile(r"[^\W\d_]")
_HAS_DIGIT = re.compile(r"\d")


def _is_identifier(token: str) -> bool:
    """Digits glued to letters, unless the letters are a unit (``5x``, ``1.2bn``, ``2e``) or
    a currency code or abbreviation before the number (``USD9.9``, ``env.9,9x``)."""
    if _HAS_LETTER.search(token) is None or _HAS_DIGIT.search(token) is None:
        return False
    if _COUNTED_COMPOUND.fullmatch(token) is not None:
        return False
    prefix = NUMBER_PREFIX.match(token)
    if prefix is not None:
        token = token[prefix.end() :]
    head = _NUMERIC_HEAD.match(token)
    if head is None:
        return True
    rest = token[head.end() :]
    return bool(rest) and _UNIT_ONLY.fullmatch(rest) is None


def _reference_spans(text: str) -> list[tuple[int, int]]:
    """Digits that are references or identifiers, not figures: ``A-solvea-2``, ``3.4.2``,
    ``31/12/2025``, ``note 9``, the ``25`` of ``2024-25``."""
    spans = [m.span() for m in _TOKEN.finditer(text) if _is_identifier(m.group())]
    if len(spans) == 0 and _HAS_DIGIT.search(text) is None:
        return spans
    spans += [m.span() for m in _DOTTED.finditer(text) if not _DOT_THOUSANDS.fullmatch(m.group())]
    spans += [m.span() for m in _SLASHED.finditer(text)]
    spans += [m.span("ref") for m in _REFERENCE.finditer(text)]
    spans += [
        m.span("next")
        for m in _FISCAL_YEAR.finditer(text)
        if int(m.group("next")) == (int(m.group("year")) + 1) % 100
    ]
    return spans


def _day_spans(text: str) -> dict[tuple[int, int], int]:
    """``(start, end)`` of each day of a date written with its month name → the month."""
    return {
        m.span("day"): _MONTH_NUMBERS[m.group("month").lower()]
        for pattern in (_DAY_BEFORE_MONTH, _DAY_AFTER_MONTH)
        for m in pattern.finditer(text)
        if 1 <= int(m.group("day")) <= 31
    }


def reference_tokens(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, token)`` of each reference or identifier with digits in ``text``
    (see :func:`_reference_spans`): never a figure, but never unchecked either — a check
    may require it to appear in its sources."""
    merged = _Masked.of(_reference_spans(text))
    return [(s, e, text[s:e]) for s, e in zip(merged.starts, merged.ends, strict=True)]


@dataclass(frozen=True, slots=True)
class _Masked:
    """Disjoint sorted spans, so that a lookup is a bisection (pages can be long)."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, spans: list[tuple[int, int]]) -> _Masked:
        merged: list[list[int]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        return cls(tuple(m[0] for m in merged), tuple(m[1] for m in merged))

    def overlaps(self, start: int, end: int) -> bool:
        index = bisect_right(self.ends, start)
        return index < len(self.starts) and self.starts[index] < end


_GROUP_MARKS = re.compile(f"{_SPACE}|[{_APOSTROPHES}]")


def _body_value(body: str, locale: Locale) -> Decimal:
    """The value of a body the grammar matched: its decimal mark is the last point or
    comma when both are written ("1.234,5", "12,34,567.89") or when spaces or apostrophes
    group its thousands ("1 234,5", "131'480.5"); a mark written twice groups
    ("1.234.567", "1,234,567"); a lone comma is the locale's."""
    digits, grouped = _GROUP_MARKS.subn("", body)
    mantissa, marker, exponent = digits.partition("e")
    if not marker:
        mantissa, marker, exponent = digits.partition("E")
    marks = [c for c in mantissa if c in ".,"]
    decimal: str | None
    if len(set(marks)) == 2 or (grouped and marks):
        decimal = marks[-1]
    elif len(marks) >= 2:
        decimal = None
    elif marks == [","]:
        decimal = "," if locale is Locale.FR else None
    else:
        decimal = "." if marks else None
    whole, _, fraction = mantissa.rpartition(decimal) if decimal else (mantissa, "", "")
    whole = whole.replace(".", "").replace(",", "")
    number = f"{whole}.{fraction}" if decimal else whole
    return Decimal(f"{number}{marker}{exponent}")


def _sign_allowed(text: str, index: int) -> bool:
    """A sign at ``index`` is a sign only if it does not join a word or number before it."""
    if index == 0:
        return True
    before = text[index - 1]
    return not (before.isalnum() or before in ")]}%_")


def _is_year_body(body: str) -> bool:
    return len(body) == 4 and body.isdigit() and 1900 <= int(body) <= 2100


def _unit_after(text: str, index: int) -> tuple[str | None, int]:
    match = _UNIT_AFTER.match(text, index)
    if match is None or match.lastgroup is None:
        return None, index
    _, unit, glued_only = UNITS[int(match.lastgroup[1:])]
    if glued_only and match.group("space"):
        return None, index
    return unit, match.end()


def _prefix(text: str, body_start: int) -> tuple[int, str | None, str | None]:
    """Walk back over a currency and a sign written before the digits: ``-$1.2``, ``$-1.2``,
    ``USD9.9``, ``EUR 9,9``."""
    start, currency, sign = body_start, None, None
    for _ in range(2):
        if start == 0:
            break
        char = text[start - 1]
        code = CURRENCY_BEFORE.search(text, max(0, start - 6), start)
        if currency is None and code is not None:
            written = code.group("currency") or code.group("sign")
            currency, start = canonical_currency(written), code.start()
        elif sign is None and char in _SIGNS and _sign_allowed(text, start - 1):
            sign, start = char, start - 1
        else:
            break
    return start, currency, sign


def _found(text: str, body: re.Match[str], locale: Locale, day_month: int | None) -> _Found:
    b_start, b_end = body.span()
    magnitude = _body_value(body.group(), locale)
    in_parentheses = (
        b_start > 0
        and text[b_start - 1] == "("
        and text[b_end : b_end + 1] == ")"
        and not _is_year_body(body.group())
    )
    if in_parentheses:
        start, end, signed, value = b_start - 1, b_end + 1, True, -magnitude
        currency = text[start - 1] if start > 0 and text[start - 1] in CURRENCIES else None
        if currency is not None:  # "$(1,577)": the currency belongs to the number
            start -= 1
    else:
        start, currency, sign = _prefix(text, b_start)
        end, signed = b_end, sign is not None
        value = -magnitude if sign is not None and sign in _NEGATIVE_SIGNS else magnitude
    unit, unit_end = _unit_after(text, end)
    unit_currency, scale, kind = DIMENSIONS.get(unit or "", (None, None, None))
    if day_month is not None and unit is None:
        kind = f"day-{day_month:02d}"
    mention = NumberMention(
        raw=text[start:end],
        start=start,
        end=end,
        value=value,
        signed=signed,
        unit=unit if unit is not None else currency,
        is_year=not signed
        and unit is None
        and currency is None
        and day_month is None
        and _is_year_body(body.group()),
        currency=currency or unit_currency,
        scale=scale,
        kind=kind,
    )
    return _Found(mention, unit_end)


# Superscript, subscript, circled and fraction digits: numbers too ("⑤ clients"), of a
# kind of their own, so they only match the same characters in a fact (a footnote mark).
_COMPAT_DIGITS = re.compile(f"[{_COMPAT_CLASS}]+")


def _compat_mentions(text: str) -> Iterator[_Found]:
    for match in _COMPAT_DIGITS.finditer(text):
        raw = match.group()
        values = [unicodedata.numeric(c, None) for c in raw]
        if any(v is None for v in values):
            continue
        value = Decimal(str(sum(v for v in values if v is not None)))
        start, end = match.span()
        mention = NumberMention(raw, start, end, value, False, None, False, kind=f"compat:{raw}")
        yield _Found(mention, end)


def _scan(text: str, locale: Locale) -> Iterator[_Found]:
    masked = _Masked.of(_reference_spans(text))
    days = _day_spans(text)
    found = [
        _found(text, body, locale, days.get(body.span()))
        for body in _body_pattern(locale).finditer(text)
        if not masked.overlaps(*body.span())
    ]
    found = _with_ranges(text, found)
    if not text.isascii():
        found += _compat_mentions(text)
        found.sort(key=lambda f: f.mention.start)
    yield from found


def _with_ranges(text: str, found: list[_Found]) -> list[_Found]:
    """``found`` with the two bounds of each range marked (the low one takes the unit
    written after the high one: "10-12%", "de 3 à 5 jours")."""
    numbers = [
        Bounded(f.mention.start, f.mention.end, f.unit_end, f.mention.value, f.mention.is_year)
        for f in found
    ]
    for low_index, high_index in range_pairs(text, numbers):
        low, high = found[low_index].mention, found[high_index].mention
        bounds = (low.value, high.value)
        if low.unit is None and low.currency is None and low.kind is None:
            low = dataclasses.replace(
                low, unit=high.unit, currency=high.currency, scale=high.scale, kind=high.kind
            )
        found[low_index] = _Found(
            dataclasses.replace(low, bound="low", bounds=bounds, is_year=False),
            found[low_index].unit_end,
        )
        found[high_index] = _Found(
            dataclasses.replace(high, bound="high", bounds=bounds, is_year=False),
            found[high_index].unit_end,
        )
    return found


# Where a number's digits, groups and decimals end, in either locale (a quote that cuts
# one in either reading cuts a number); "5'000" groups too.
_EXTENT_BODIES = (
    _BODY_FR,
    _BODY_EN,
    # Groups split by any whitespace run, as the normalized text sees them ("3\n138 500").
    re.compile(r"(?<!\d)\d{1,3}(?:\s+\d{3}(?!\d))+(?:[,.]\d+)?"),
    re.compile(r"(?<!\d)\d{1,3}(?:['\u2019]\d{3}(?!\d))+(?:[.,]\d+)?"),
)


_WORD_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl"})


@lru_cache(maxsize=4096)
def is_word_char(char: str) -> bool:
    """A letter, a combining mark or a decimal digit: what a word or a number is made of. A
    superscript, subscript or circled digit is not (it is a footnote mark, a token of its
    own), nor a dash: before the digits of a number it is its sign."""
    return unicodedata.category(char) in _WORD_CATEGORIES


def number_extents(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every number of ``text`` as the parser reads it in either locale:
    its digits, thousands groups and decimals, the sign written before it (one that does
    not join a word or a number) and accounting parentheses around it. Identifiers are
    not masked: their digits are a number too, for a quote that would cut them."""
    extents: list[tuple[int, int]] = []
    for pattern in _EXTENT_BODIES:
        for body in pattern.finditer(text):
            start, end = body.span()
            # A dash right before the digits belongs to them unless it joins a word or a
            # number before it (a quote that ends on "‒" of "‒7,4" cuts the number).
            if (
                start
                and text[start - 1] in _SIGNS
                and not (start >= 2 and is_word_char(text[start - 2]))
            ):
                start -= 1
            # "(1,577)", and "(18 )" as PDF extraction often spaces it.
            opening = start - 1 if text[start - 1 : start] == "(" else start - 2
            closing = end + 1 if text[end : end + 1] == ")" else end + 2
            if (
                start
                and text[opening : opening + 1] == "("
                and text[opening + 1 : start].strip() == ""
                and text[closing - 1 : closing] == ")"
                and text[end : closing - 1].strip() == ""
            ):
                start, end = opening, closing
            extents.append((start, end))
    return extents


def measured_extents(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every number of ``text`` read in either locale *with what gives
    it its meaning*: its sign and currency before, its unit or scale word after ("1,2
    milliard", "25 pb", "14 %"), and a range whole, from its low bound to the unit of its
    high bound ("14–16 °C", "de 1,5 à 2 M€"). A quote that ends or starts strictly inside
    one drops a unit, a scale or a bound."""
    extents: list[tuple[int, int]] = []
    for locale in Locale:
        found = list(_scan(text, locale))
        extents += [(f.mention.start, f.unit_end) for f in found if f.unit_end > f.mention.end]
        lows = [f for f in found if f.mention.bound == "low"]
        highs = [f for f in found if f.mention.bound == "high"]
        extents += [
            (low.mention.start, high.unit_end) for low, high in zip(lows, highs, strict=False)
        ]
    return extents


def unit_extents(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every number of ``text`` read in either locale with the physical,
    time or counted unit written after it (:mod:`preuve.core.units`: ``37 kW``, ``36 mois``,
    ``8 hours``), or with a unit over another after its currency or unit (``0,15 €/kWh``),
    and of every range with the unit after its high bound (``14–16 °C``). Read on the page
    as written: a unit's case tells it from a word (``A``, ``t``, ``US``)."""
    extents: list[tuple[int, int]] = []
    for locale in Locale:
        found = list(_scan(text, locale))
        ends = [_measure_end(text, f) for f in found]
        extents += [(f.mention.start, end) for f, end in zip(found, ends, strict=True) if end]
        for index, low in enumerate(found[:-1]):
            high_end = ends[index + 1]
            if high_end and low.mention.bound == "low" and found[index + 1].mention.bound == "high":
                extents.append((low.mention.start, high_end))
    return extents


def _measure_end(text: str, found: _Found) -> int | None:
    """Where the unit after ``found`` (or the unit over another after its own) ends, or
    None when it has none of those."""
    mention = found.mention
    if found.unit_end > mention.end:
        end = per_unit_end(text, found.unit_end)
        return end if end > found.unit_end else None
    year = mention.is_year or (mention.bound is not None and _is_year_body(mention.raw))
    end = unit_end(text, mention.end, mention.value, year=year)
    return end if end > mention.end else None


def extract_numbers(text: str, locale: Locale) -> list[NumberMention]:
    """Every number of ``text`` in order, with ``text[m.start:m.end] == m.raw``."""
    return [found.mention for found in _scan(text, locale)]


def parse_number(raw: str, locale: Locale) -> Decimal | None:
    """The signed value of one number token (unit allowed: ``-0,5 %``), or None if ``raw``
    is not exactly one number."""
    token = raw.strip()
    found = list(_scan(token, locale))
    if len(found) != 1 or found[0].mention.start != 0 or found[0].unit_end != len(token):
        return None
    return found[0].mention.value


def same_value(a: NumberMention, b: NumberMention) -> bool:
    """Equal signed values as written: ``5,5x`` equals ``5,50x``; units are not compared."""
    return a.value == b.value


def same_dimensions(
    written: NumberMention, source: NumberMention, *, dollar: str = "US$"
) -> str | None:
    """None when ``written`` may stand for ``source`` by its unit, else what differs:
    ``"scale"`` (k€ vs M€, million vs billion) or ``"unit"`` (% vs points vs x, € vs $, S$
    vs US$, a day of another month, an ordinal). What ``written`` leaves out is not compared
    (a number written without its unit is a declared limit of the checks); what it writes
    must be what the source writes. A bare ``$`` stands for ``dollar``, the report's
    declared dollar (:func:`preuve.core.number_units.same_currency`)."""
    if written.kind != source.kind and (written.kind is not None or _is_day(source)):
        return "unit"
    if written.currency is not None and (
        source.currency is None
        or not same_currency(written.currency, source.currency, dollar=dollar)
    ):
        return "unit"
    # A unit written fixes the scale too: "1 850 €" says euros, not thousands of them.
    wrote_unit = written.currency is not None or written.kind is not None
    if (written.scale is not None or wrote_unit) and written.scale != source.scale:
        return "scale"
    return None


def _is_day(mention: NumberMention) -> bool:
    return mention.kind is not None and mention.kind.startswith("day-")


def same_magnitude(a: NumberMention, b: NumberMention) -> bool:
    """Equal absolute values: ``-14 930`` and ``14 930`` (for the sign rule's diagnostics)."""
    return abs(a.value) == abs(b.value)


_FR_WORDS = frozenset(
    {"le", "la", "les", "des", "du", "de", "et", "en", "est", "une", "un", "sur", "pour"}
    | {"au", "aux", "dans", "par", "avec", "qui", "que", "été"}
)
_EN_WORDS = frozenset(
    {"the", "and", "of", "is", "was", "for", "in", "on", "by", "to", "with", "from", "which"}
    | {"that", "were"}
)
_WORD = re.compile(r"[^\W\d_]+")
_FR_DECIMAL = re.compile(r"\d,\d{1,2}(?!\d)|\d[\u00a0\u202f]\d{3}(?!\d)|€")
_EN_DECIMAL = re.compile(r"\d\.\d|\d,\d{3}(?!\d)|\$")


def detect_locale(text: str) -> Locale:
    """French or English, from function words and number formats; French on a tie (the
    bundled memo corpora are French)."""
    words = [w.lower() for w in _WORD.findall(text)]
    french = sum(w in _FR_WORDS for w in words) + len(_FR_DECIMAL.findall(text))
    english = sum(w in _EN_WORDS for w in words) + len(_EN_DECIMAL.findall(text))
    return Locale.EN if english > french else Locale.FR


def french_number(value: Decimal, *, trim: bool = True) -> str:
    """``value`` written the French way, its sign kept: ``331 200``, ``-0,69``, ``1 234,5``
    (``trim`` drops trailing zeros of the decimals: ``2,50`` is written ``2,5``)."""
    sign, digits = ("-", -value) if value < 0 else ("", value)
    whole, _, decimals = f"{digits:f}".partition(".")
    decimals = decimals.rstrip("0") if trim else decimals
    grouped = f"{int(whole):,}".replace(",", " ")
    return f"{sign}{grouped}{',' + decimals if decimals else ''}"
