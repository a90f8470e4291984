"""Quotes that cut a token: random boundary-violating substrings of real pages, and an oracle.

The oracle of token boundaries is written apart from ``preuve.core.tokens``: a token is a
word (a run of letters and digits, hyphenated compounds joined) or a number (its sign,
digits, space or comma groups of three, decimals, accounting parentheses, and the unit or
scale written after it), or a range of two numbers joined by a spaced dash. A position
strictly inside either is not a boundary. A substring that starts or ends at such a
position *cuts a token*; it may only verify if the same normalized text also stands on
the page between two boundaries (then the quote is genuine elsewhere on the page).

Used by ``benchmarks/quotes.py``, ``benchmarks/financebench.py`` and the tests.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from preuve.core.quotes import MIN_QUOTE_CHARS, QuoteChecker
from preuve.core.text import normalize, normalize_quote

__all__ = ["CutReport", "aligned_occurrence", "cut_substrings", "oracle_boundaries", "try_cuts"]

# A superscript, subscript, circled or fraction digit is a token of its own (a footnote mark).
_MARK = "²³¹¼-¾\u2070-\u209f\u2150-\u218f\u2460-\u24ff\u2776-\u2793\u3251-\u32bf"
_LETTER = rf"(?:(?![{_MARK}])[^\W_])"
_WORD = re.compile(rf"{_LETTER}+(?:[-\u2010\u2011]{_LETTER}+)*")
_BARE_NUMBER = (
    rf"(?:(?<!{_LETTER})[-+\u2010-\u2015\u2212\u2796\ufe58\ufe63\uff0d])?(?<!\d)"
    r"(?:\d{1,3}(?:[ \u00a0\u202f]\d{3}(?!\d))+|\d{1,3}(?:,\d{3}(?!\d))+|\d+)(?:[.,]\d+)*"
)
# Accounting parentheses belong to the number they close around: "(1,577)", "(18 )".
_NUMBER = re.compile(rf"\( ?{_BARE_NUMBER} ?\)|{_BARE_NUMBER}")


# A unit or scale after a number belongs to it ("85 000 k€", "14 %", "25 pb"), as does a
# range's span from its low bound to its high bound ("1,577 – 85 000 k€"): an edge inside
# drops a unit or a bound.
_SPACE = "[ \u00a0\u202f\u2009]"
_UNIT = re.compile(rf"{_SPACE}?(?:%|k€|m€|pb|bps|pts|points?|millions?|milliards?|billions?)(?!\w)")
_SPACED_DASH = re.compile(rf"{_SPACE}+[\u2013\u2014]{_SPACE}+")


def _values(number: str) -> list[float]:
    """The number's value in a French and in an English reading."""
    negative = (
        number.startswith("(")
        or number.lstrip("( ")[:1] in "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
    )
    digits = re.sub(r"[^\d,.]", "", number)
    french = digits.replace(".", "") if "," in digits else digits
    french = french.replace(",", ".")
    english = digits.replace(",", "")
    values = []
    for text in (french, english):
        try:
            value = float(text)
        except ValueError:
            continue
        values.append(-value if negative else value)
    return values


def _measures(text: str) -> list[tuple[int, int]]:
    numbers = [(m.start(), m.end(), m.group()) for m in _NUMBER.finditer(text)]
    with_units: list[tuple[int, int, int, str]] = []
    for start, end, raw in numbers:
        unit = _UNIT.match(text, end)
        with_units.append((start, end, unit.end() if unit else end, raw))
    spans = [(start, unit_end) for start, _, unit_end, _ in with_units]
    for reading in (0, 1):
        index = 0
        while index + 1 < len(with_units):
            low, high = with_units[index], with_units[index + 1]
            low_value, high_value = _values(low[3])[reading], _values(high[3])[reading]
            years = all(re.fullmatch(r"(?:19|20)\d\d", n[3]) and n[1] == n[2] for n in (low, high))
            if (
                not years
                and 0 <= low_value < high_value
                and low[2] == low[1]
                and _SPACED_DASH.fullmatch(text[low[2] : high[0]])
            ):
                spans.append((low[0], high[2]))
                index += 2
                continue
            index += 1
    return spans


def oracle_boundaries(text: str) -> set[int]:
    """Positions of ``text`` that are token boundaries, by the oracle's definition."""
    tokens = [(m.start(), m.end()) for m in (*_WORD.finditer(text), *_NUMBER.finditer(text))]
    inside = {i for start, end in (*tokens, *_measures(text)) for i in range(start + 1, end)}
    return set(range(len(text) + 1)) - inside


def aligned_occurrence(page: str, needle: str) -> bool:
    """Whether the normalized ``needle`` stands in the normalized page between boundaries."""
    text = normalize(page).text
    bounds = oracle_boundaries(text)
    at = text.find(needle)
    while at >= 0:
        if at in bounds and at + len(needle) in bounds:
            return True
        at = text.find(needle, at + 1)
    return False


def cut_substrings(rng: random.Random, pages: Sequence[str], count: int) -> list[tuple[int, str]]:
    """``count`` (page from 1, substring) pairs, each starting or ending inside a token."""
    insides = [sorted(set(range(len(page) + 1)) - oracle_boundaries(page)) for page in pages]
    usable = [index for index, inside in enumerate(insides) if inside]
    found: list[tuple[int, str]] = []
    while usable and len(found) < count:
        index = rng.choice(usable)
        page, cut = pages[index], rng.choice(insides[index])
        length = rng.randint(MIN_QUOTE_CHARS + 3, 160)
        start, end = (cut, cut + length) if rng.random() < 0.5 else (cut - length, cut)
        start, end = max(0, start), min(len(page), end)
        quote = page[start:end]
        if len(normalize_quote(quote)) >= MIN_QUOTE_CHARS:
            found.append((index + 1, quote))
    return found


@dataclass(frozen=True, slots=True)
class CutReport:
    """What the quote check said of boundary-violating substrings."""

    tried: int
    genuine_elsewhere: int  # the same text also stands on the page on boundaries
    false_verified: int
    verdicts: dict[str, int]
    examples: tuple[str, ...]


def try_cuts(rng: random.Random, pages: Sequence[str], count: int) -> CutReport:
    """Check ``count`` random cuts of ``pages`` (lenient tier on) and count false VERIFIED."""
    checker = QuoteChecker(pages, diagnose=False)
    verdicts: dict[str, int] = {}
    genuine = false_verified = 0
    examples: list[str] = []
    for page, quote in cut_substrings(rng, pages, count):
        if aligned_occurrence(pages[page - 1], normalize_quote(quote)):
            genuine += 1
            continue
        result = checker.verify(page, quote)
        verdicts[result.verdict.value] = verdicts.get(result.verdict.value, 0) + 1
        if result.verified:
            false_verified += 1
            if len(examples) < 5:
                examples.append(f"p.{page} {quote!r} -> {result.matched!r}")
    return CutReport(count, genuine, false_verified, verdicts, tuple(examples))
