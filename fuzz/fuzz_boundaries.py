"""Coverage-guided fuzzing with the soundness property as the oracle (preuve.core.quotes).

    .venv/bin/python fuzz/fuzz_boundaries.py -atheris_runs=1000000 -max_len=4096

Pages are written with what reports hold (numbers with groups, decimals, signs of every
dash, parentheses, footnote marks, hyphenated words, NBSP, line breaks) and the quote is
a random substring of a page. The oracle is the property of issue 11, with the token
boundaries of ``benchmarks/cuts.py`` (written apart from ``preuve.core.tokens``): in the
strict tiers a quote is VERIFIED only if its normalized form stands in the
normalized page between two boundaries, and with the lenient tier on it only ever matches
a whole passage. Any violation raises.
"""

from __future__ import annotations

import sys
from pathlib import Path

from _atheris import Provider, fuzz, instrumented, provider

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks.cuts

with instrumented():
    from benchmarks.cuts import aligned_occurrence

    from preuve.core.quotes import MIN_QUOTE_CHARS, QuoteChecker
    from preuve.core.text import normalize, normalize_quote

PIECES = [
    "Le ", "chiffre ", "d'affaires ", "atteint ", "138 500", "138\u00a0500", " k€", "85 000",
    "-12,5", "\u221212,5", "\u201312,5", "\u20127,4", "\uff0d3", "\ufe634", "(1 577)", "(18 )",
    "4,2", "12.5", "1,577.5", "11,577", " %", "%", "x", "5,5x", "¹", "²", "⑤", "½", "cash-flow",
    "libre", "2025", "2024-25", "en ", "de ", " ", " ", "  ", "\n", "\u202f", ".", ",", ";",
    "’", "«", "»", "P-12-03", "Q3",
]  # fmt: skip


def _page(source: Provider) -> str:
    count = source.ConsumeIntInRange(4, 60)
    return "".join(source.PickValueInList(PIECES) for _ in range(count))


def test_one_input(data: bytes) -> None:
    source = provider(data)
    page = _page(source)
    if not page:
        return
    start = source.ConsumeIntInRange(0, len(page) - 1)
    end = source.ConsumeIntInRange(start + 1, len(page))
    quote = page[start:end]
    needle = normalize_quote(quote)
    if len(needle) < MIN_QUOTE_CHARS:
        return
    aligned = aligned_occurrence(page, needle)
    strict = QuoteChecker([page], lenient=False, diagnose=False).verify(1, quote)
    # Soundness: VERIFIED only if aligned. (The converse holds on ordinary text, see the
    # hypothesis tests; on digit soups such as "1,577.585 000" preuve's union of the two
    # locales' readings sees more numbers to cut than the oracle, and refuses more.)
    if strict.verified and not aligned:
        raise AssertionError(f"strict {strict.verdict}, aligned={aligned}: {quote!r} in {page!r}")
    # The lenient tier may match another spelling of the passage, but only a whole one.
    lenient = QuoteChecker([page], diagnose=False).verify(1, quote)
    if lenient.verified and lenient.matched is not None:
        matched = normalize(lenient.matched).text
        if not aligned_occurrence(page, matched):
            raise AssertionError(f"lenient verified a cut: {quote!r} -> {lenient.matched!r}")


if __name__ == "__main__":
    fuzz(test_one_input)
