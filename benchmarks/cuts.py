"""Quotes that cut a token: random boundary-violating substrings of real pages, and an oracle.

The oracle of token boundaries is written apart from ``preuve.core.tokens``: a token is a
word (a run of letters and digits, hyphenated compounds joined) or a number (its sign,
digits, space or comma groups of three, decimals, accounting parentheses). A position
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


def oracle_boundaries(text: str) -> set[int]:
    """Positions of ``text`` that are token boundaries, by the oracle's definition."""
    tokens = [*_WORD.finditer(text), *_NUMBER.finditer(text)]
    inside = {i for m in tokens for i in range(m.start() + 1, m.end())}
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
