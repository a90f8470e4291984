"""Numbers as written in French and English reports: extraction, parsing, comparison by value.

The locale matters: ``11 175`` and ``11,175`` share their digits but, in a French text, not
their value (the comma is a decimal comma). Every function that reads digits takes it.

What counts as a number:
- digits, optionally grouped by three with a space, NBSP, narrow NBSP or thin space (both
  locales) or a comma (English). The first group has one to three digits, so a year
  followed by an amount (``2025 11 175``) is never glued into one number;
- an optional decimal part: comma or point in French, point in English;
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

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

__all__ = [
    "Locale",
    "NumberMention",
    "detect_locale",
    "extract_numbers",
    "number_extents",
    "parse_number",
    "same_magnitude",
    "same_value",
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
    """

    raw: str
    start: int
    end: int
    value: Decimal
    signed: bool
    unit: str | None
    is_year: bool


_SPACE = "[ \u00a0\u202f\u2009]"
_GROUPED_SPACE = rf"\d{{1,3}}(?:{_SPACE}\d{{3}}(?!\d))+"
_GROUPED_COMMA = r"\d{1,3}(?:,\d{3}(?!\d))+"
# "1.234.567": two dots or more, all groups of three, can only be thousands.
_GROUPED_DOT = r"\d{1,3}(?:\.\d{3}(?!\d)){2,}"
# French also accepts a decimal point: a memo that writes "5.5x" must still be checked.
_BODY_FR = re.compile(rf"(?<!\d)(?:{_GROUPED_DOT}|{_GROUPED_SPACE}|\d+)(?:[,.]\d+)?")
_BODY_EN = re.compile(rf"(?<!\d)(?:{_GROUPED_DOT}|{_GROUPED_COMMA}|{_GROUPED_SPACE}|\d+)(?:\.\d+)?")

# Every Unicode dash and minus that can stand before a number as its sign: hyphen-minus,
# the dashes (U+2010-U+2015), minus U+2212, heavy minus U+2796, small and fullwidth
# hyphen-minus; and the plus signs.
NEGATIVE_SIGNS = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2796\ufe58\ufe63\uff0d"
POSITIVE_SIGNS = "+\u2795\ufe62\uff0b"
_SIGNS = NEGATIVE_SIGNS + POSITIVE_SIGNS
_NEGATIVE_SIGNS = NEGATIVE_SIGNS
_CURRENCIES = "$€£"

# (pattern, normalized unit, only when glued to the digits). Order matters: longest first.
_UNITS: tuple[tuple[str, str, bool], ...] = (
    (r"(?i:points? de base|basis points?|bps?|pb)", "bp", False),
    (r"(?i:points?|pts?|pp)", "pt", False),
    (r"%", "%", False),
    (r"[kK](?:€|EUR)", "k€", False),
    (r"[kK](?:\$|USD)", "k$", False),
    (r"M(?:ds?|rds?)(?:€|EUR)", "Md€", False),
    (r"M(?:ds?|rds?)(?:\$|USD)", "Md$", False),
    (r"[mM](?:€|EUR)", "M€", False),
    (r"[mM](?:\$|USD)", "M$", False),
    (r"(?i:milliards?|billions?|bn)|Mds?|Mrds?", "billion", False),
    (r"(?i:millions?|mn)", "million", False),
    (r"(?i:thousands?)", "thousand", False),
    (r"€|EUR|(?i:euros?)", "€", False),
    (r"\$|USD|(?i:dollars?)", "$", False),
    (r"£|GBP", "£", False),
    (r"(?i:fois)|×", "x", False),
    (r"[xX]", "x", True),
    (r"[kK]", "thousand", True),
    (r"M", "million", True),
)
_UNIT_ALTERNATION = "|".join(f"(?P<u{i}>{pattern})" for i, (pattern, _, _) in enumerate(_UNITS))
_UNIT_AFTER = re.compile(rf"(?P<space>{_SPACE})?(?:{_UNIT_ALTERNATION})(?!\w)")
_UNIT_ONLY = re.compile(rf"(?:{_UNIT_ALTERNATION})")

# Masks: spans whose digits are references or identifiers, not figures.
_TOKEN = re.compile(r"[\w‐‑-]+(?:[.,][\w‐‑-]+)*")
_NUMERIC_HEAD = re.compile(r"[-‐‑]?\d[\d.,]*")
_DOTTED = re.compile(r"(?<![\d.])\d+(?:\.\d+){2,}(?!\d)")
_DOT_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+")
_SLASHED = re.compile(r"(?<![\d/])\d+(?:/\d+)+(?!\d)")
_FISCAL_YEAR = re.compile(r"(?<!\d)(?P<year>(?:19|20)\d\d)[-–](?P<next>\d\d)(?!\d)")
_MONTHS = (
    "janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre"
    "|novembre|décembre|decembre|january|february|march|april|june|july|august"
    "|september|october|november|december"
)
# A day next to a month name is a date, not a figure; "mai 12 000 k€" stays an amount.
# "may" only after the day's number would be a verb ("a ratio of 5 may rise"), so it only
# counts before it ("May 31").
_DAY_BEFORE_MONTH = re.compile(rf"(?<![\d.,])(?P<day>\d{{1,2}}){_SPACE}+(?i:{_MONTHS})\b")
_DAY_AFTER_MONTH = re.compile(
    rf"\b(?i:{_MONTHS}|may){_SPACE}+(?P<day>\d{{1,2}})(?!\d|[.,]\d|{_SPACE}\d{{3}}(?!\d))"
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


def _is_identifier(token: str) -> bool:
    """Digits glued to letters, unless the letters are a unit (``5x``, ``1.2bn``)."""
    if not any(c.isalpha() for c in token) or not any(c.isdigit() for c in token):
        return False
    head = _NUMERIC_HEAD.match(token)
    return head is None or _UNIT_ONLY.fullmatch(token[head.end() :]) is None


def _masks(text: str) -> list[tuple[int, int]]:
    spans = [m.span() for m in _TOKEN.finditer(text) if _is_identifier(m.group())]
    spans += [m.span() for m in _DOTTED.finditer(text) if not _DOT_THOUSANDS.fullmatch(m.group())]
    spans += [m.span() for m in _SLASHED.finditer(text)]
    spans += [m.span("ref") for m in _REFERENCE.finditer(text)]
    # "2024-25" is one fiscal year, not 2024 and 25.
    spans += [
        m.span("next")
        for m in _FISCAL_YEAR.finditer(text)
        if int(m.group("next")) == (int(m.group("year")) + 1) % 100
    ]
    spans += [
        m.span("day")
        for pattern in (_DAY_BEFORE_MONTH, _DAY_AFTER_MONTH)
        for m in pattern.finditer(text)
        if 1 <= int(m.group("day")) <= 31
    ]
    return spans


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


def _body_value(body: str, locale: Locale) -> Decimal:
    digits = re.sub(_SPACE, "", body)
    if digits.count(".") >= 2:  # "1.234.567": dots are thousands separators
        digits = digits.replace(".", "")
    digits = digits.replace(",", ".") if locale is Locale.FR else digits.replace(",", "")
    return Decimal(digits)


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
    _, unit, glued_only = _UNITS[int(match.lastgroup[1:])]
    if glued_only and match.group("space"):
        return None, index
    return unit, match.end()


def _prefix(text: str, body_start: int) -> tuple[int, str | None, str | None]:
    """Walk back over a currency and a sign written before the digits: ``-$1.2``, ``$-1.2``."""
    start, currency, sign = body_start, None, None
    for _ in range(2):
        if start == 0:
            break
        char = text[start - 1]
        if currency is None and char in _CURRENCIES:
            currency, start = char, start - 1
        elif sign is None and char in _SIGNS and _sign_allowed(text, start - 1):
            sign, start = char, start - 1
        else:
            break
    return start, currency, sign


def _found(text: str, body: re.Match[str], locale: Locale) -> _Found:
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
        currency = text[start - 1] if start > 0 and text[start - 1] in _CURRENCIES else None
        if currency is not None:  # "$(1,577)": the currency belongs to the number
            start -= 1
    else:
        start, currency, sign = _prefix(text, b_start)
        end, signed = b_end, sign is not None
        value = -magnitude if sign is not None and sign in _NEGATIVE_SIGNS else magnitude
    unit, unit_end = _unit_after(text, end)
    mention = NumberMention(
        raw=text[start:end],
        start=start,
        end=end,
        value=value,
        signed=signed,
        unit=unit if unit is not None else currency,
        is_year=not signed and unit is None and currency is None and _is_year_body(body.group()),
    )
    return _Found(mention, unit_end)


def _scan(text: str, locale: Locale) -> Iterator[_Found]:
    masked = _Masked.of(_masks(text))
    for body in _body_pattern(locale).finditer(text):
        if not masked.overlaps(*body.span()):
            yield _found(text, body, locale)


# Where a number's digits, groups and decimals end, in either locale (a quote that cuts
# one in either reading cuts a number); "5'000" groups too.
_EXTENT_BODIES = (
    _BODY_FR,
    _BODY_EN,
    re.compile(r"(?<!\d)\d{1,3}(?:['\u2019]\d{3}(?!\d))+(?:[.,]\d+)?"),
)


def number_extents(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every number of ``text`` as the parser reads it in either locale:
    its digits, thousands groups and decimals, the sign written before it (one that does
    not join a word or a number) and accounting parentheses around it. Identifiers are
    not masked: their digits are a number too, for a quote that would cut them."""
    extents: list[tuple[int, int]] = []
    for pattern in _EXTENT_BODIES:
        for body in pattern.finditer(text):
            start, end = body.span()
            if start and text[start - 1] in _SIGNS and _sign_allowed(text, start - 1):
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
