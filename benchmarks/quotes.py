"""Quote check throughput: preuve's QuoteChecker against the naive method, side by side.

A generated 300-page report (prose with figures, PDF-like line breaks, no-break spaces,
curly quotes, ligatures) and 10 000 quotes: half genuine passages (some as a model would
copy them: line breaks as spaces, a final period, curly quotes straightened), half
perturbed (a digit changed, a word replaced, a negation inserted, two passages glued with
"[...]", or the right passage cited on the wrong page).

* preuve: one :class:`QuoteChecker` for the document, each page normalized once.
* naive: :func:`verify_quote` for every quote, which normalizes the cited page again
  (and, for a quote not on it, every other page again, to look for it elsewhere).

The naive method needs about 0.2 s for each quote that is not on its page (it normalizes
all 300 pages again), so it runs on a sample of 200 quotes (100 genuine, 100 perturbed,
spread over the whole list) and preuve runs on all 10 000 and on the same sample; the
ratio compares the two on the sample. Verdicts must be identical on every sampled quote.

Run: ``.venv/bin/python -m benchmarks.quotes``
"""

from __future__ import annotations

import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.cuts import CutReport, try_cuts
from preuve.core.quotes import QuoteChecker, QuoteResult, Verdict, verify_quote
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.io.pdf import load_pages

__all__ = ["Quote", "generate_pages", "main", "make_quotes", "perturb"]

SEED = 20240611
N_PAGES = 300
N_QUOTES = 10_000
N_CUTS = 10_000
NAIVE_EVERY = 100  # quotes i and i + 1 of every 100: one genuine, one perturbed
LINE_WIDTH = 95

_SUBJECTS = [
    "Net revenue",
    "Operating income",
    "The syndicated loan",
    "Free cash flow",
    "The effective tax rate",
    "Capital expenditure",
    "The main customer",
    "Working capital",
    "The order backlog",
    "Gross margin",
    "The restructuring provision",
    "Adjusted EBITDA",
]
_VERBS = ["increased", "decreased", "reached", "was stable at", "amounted to", "fell to"]
_CONTEXTS = [
    "compared with the prior year",
    "under the contractual definition",
    "as reported in the consolidated financial statements",
    "excluding the effects of acquisitions and divestitures",
    "driven primarily by higher volumes in the first half",
    "partially offset by unfavourable currency effects",
    "in line with the covenant of the facility agreement",
    "after the reclassification described in note 9",
]
_NOUNS = ["efficiency", "financing", "profitability", "officers", "fiduciary", "definition"]
_REPLACEMENTS = ["several", "material", "regional", "quarterly", "deferred", "external"]


@dataclass(frozen=True, slots=True)
class Quote:
    """One quote to check: the page it cites, its text, and whether it was perturbed."""

    page: int
    text: str
    genuine: bool


def _sentence(rng: random.Random) -> str:
    amount = f"{rng.randint(1, 999)},{rng.randint(0, 999):03d}"
    share = f"{rng.randint(0, 99)}.{rng.randint(0, 9)}%"
    noun = rng.choice(_NOUNS)
    return (
        f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} ${amount} million ({share} of sales) "
        f"{rng.choice(_CONTEXTS)}, with “{noun}” measured as the Company’s {noun} ratio."
    )


def _wrap(text: str, rng: random.Random) -> str:
    """Lay text out like extracted PDF text: hard line breaks, some no-break spaces."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > LINE_WIDTH:
            lines.append(line + " ")
            line = word
        else:
            gap = "\u00a0" if line and rng.random() < 0.05 else " "
            line = f"{line}{gap}{word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def generate_pages(rng: random.Random, n_pages: int = N_PAGES) -> list[str]:
    """A deterministic report of ``n_pages`` pages of about 2 000 characters each."""
    pages: list[str] = []
    for number in range(1, n_pages + 1):
        body = " ".join(_sentence(rng) for _ in range(10)).replace("fi", "\ufb01", 1)
        pages.append(f"Annual report 2025 | Page {number}\n{_wrap(body, rng)}\n{number}")
    return pages


def _passage(rng: random.Random, page: str) -> str:
    """A passage of 60-200 characters of ``page`` that starts and ends on word edges."""
    starts = [0, *(m.end() for m in re.finditer(r"\s+", page))]
    start = rng.choice(starts[: max(1, len(starts) - 30)])
    end = min(len(page), start + rng.randint(60, 200))
    while end < len(page) and not page[end].isspace():
        end += 1
    return page[start:end]


def _as_a_model_copies(rng: random.Random, passage: str) -> str:
    """What a model returns for a faithful quote: sometimes straightened or with a period."""
    roll = rng.random()
    if roll < 0.4:
        return passage
    text = " ".join(passage.split())
    if roll < 0.7:
        return text + "."
    return text.replace("’", "'").replace("“", '"').replace("”", '"').upper()


def perturb(rng: random.Random, passage: str, other: str) -> str:
    """A passage changed in meaning: digit, word, negation, or two passages glued."""
    kind = rng.randrange(4)
    digits = [m.start() for m in re.finditer(r"\d", passage)]
    if kind == 0 and digits:
        at = rng.choice(digits)
        return passage[:at] + str((int(passage[at]) + 1) % 10) + passage[at + 1 :]
    words = [m for m in re.finditer(r"[A-Za-z]{5,}", passage)]
    if kind == 1 and words:
        word = rng.choice(words)
        replacement = next(r for r in _REPLACEMENTS if r != word.group().lower())
        return passage[: word.start()] + replacement + passage[word.end() :]
    if kind == 2:
        verb = re.search(r"\b(increased|decreased|reached|was|amounted|fell)\b", passage)
        at = verb.start() if verb else len(passage) // 2
        return passage[:at] + "not " + passage[at:]
    return f"{passage.rstrip()} [...] {other.lstrip()}"


def make_quotes(rng: random.Random, pages: Sequence[str], n_quotes: int) -> list[Quote]:
    """``n_quotes`` quotes, alternating genuine and perturbed, on random pages."""
    quotes: list[Quote] = []
    for index in range(n_quotes):
        page = rng.randrange(len(pages))
        passage = _passage(rng, pages[page])
        if index % 2 == 0:
            quotes.append(Quote(page + 1, _as_a_model_copies(rng, passage), genuine=True))
        elif rng.random() < 0.1 and re.search(r"\d{3}", passage):
            # The right passage (its figures make it unique) on the wrong page.
            wrong = page + 2 if page + 2 <= len(pages) else page
            quotes.append(Quote(wrong, passage, genuine=False))
        else:
            other = _passage(rng, pages[page])
            quotes.append(Quote(page + 1, perturb(rng, passage, other), genuine=False))
    return quotes


def _checker_results(pages: Sequence[str], quotes: Sequence[Quote]) -> list[QuoteResult]:
    checker = QuoteChecker(pages)
    return [checker.verify(q.page, q.text) for q in quotes]


def _naive_results(pages: Sequence[str], quotes: Sequence[Quote]) -> list[QuoteResult]:
    return [verify_quote(pages, q.page, q.text) for q in quotes]


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def main() -> int:
    rng = random.Random(SEED)
    pages = generate_pages(rng)
    quotes = make_quotes(rng, pages, N_QUOTES)
    chars = sum(len(p) for p in pages)
    print(f"document: {len(pages)} pages, {chars / len(pages):.0f} characters a page")

    started = time.perf_counter()
    results = _checker_results(pages, quotes)
    checker_seconds = time.perf_counter() - started

    picked = [i for i in range(len(quotes)) if i % NAIVE_EVERY in (0, 1)]
    sample = [quotes[i] for i in picked]
    started = time.perf_counter()
    naive = _naive_results(pages, sample)
    naive_seconds = time.perf_counter() - started
    started = time.perf_counter()
    checker_on_sample = _checker_results(pages, sample)
    sample_seconds = time.perf_counter() - started

    mismatches = [
        (q, a.verdict, b.verdict)
        for q, a, b in zip(sample, naive, checker_on_sample, strict=True)
        if a.verdict != b.verdict
    ]
    verdicts = Counter(r.verdict.value for r in results)
    false_accepts = sum(r.verified for r, q in zip(results, quotes, strict=True) if not q.genuine)
    false_rejects = sum(not r.verified for r, q in zip(results, quotes, strict=True) if q.genuine)
    checker_rate = _rate(len(quotes), checker_seconds)
    naive_rate = _rate(len(sample), naive_seconds)
    sample_rate = _rate(len(sample), sample_seconds)

    print(f"quotes: {len(quotes)} ({sum(q.genuine for q in quotes)} genuine)")
    print("verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    print(f"genuine rejected: {false_rejects}   perturbed accepted: {false_accepts}")
    print(f"preuve, all quotes, one checker:  {checker_rate:8.0f} quotes/s ({len(quotes)} quotes)")
    print(f"preuve, sample, one checker:      {sample_rate:8.0f} quotes/s ({len(sample)} quotes)")
    print(f"naive verify_quote, sample:       {naive_rate:8.1f} quotes/s ({len(sample)} quotes)")
    print(f"ratio on the sample:              {sample_rate / naive_rate:8.0f}x  (goal >= 20x)")
    print(f"ratio at full throughput:         {checker_rate / naive_rate:8.0f}x")
    print(f"identical verdicts on the sample: {not mismatches}")
    cuts = _cuts_report(rng, pages)
    _worst_case_rejection(rng)
    assert not mismatches, f"verdicts differ: {mismatches[:3]}"
    assert all(results[i] == r for i, r in zip(picked, checker_on_sample, strict=True))
    assert false_accepts == 0 and false_rejects == 0
    assert Verdict.NOT_FOUND.value in verdicts and Verdict.LENIENT.value in verdicts
    assert sample_rate / naive_rate >= 20, "preuve is less than 20x faster than the naive method"
    assert cuts.false_verified == 0, cuts.examples
    return 0


def _worst_case_rejection(rng: random.Random) -> None:
    """A 10 000-character quote that is not on a 1 MB page: the diagnostic is bounded."""
    words = [w for sentence in (_sentence(rng) for _ in range(200)) for w in sentence.split()]
    page = " ".join(rng.choice(words) for _ in range(200_000))[:1_000_000]
    quote = " ".join(rng.choice(words) for _ in range(2_000))[:10_000]
    checker = QuoteChecker([page])
    started = time.perf_counter()
    result = checker.verify(1, quote)
    seconds = time.perf_counter() - started
    print(
        f"rejected 10 000-character quote on a 1 MB page: {result.verdict.value} with its"
        f" diagnostic in {seconds:.2f} s (normalizing the page included; goal < 1 s)"
    )


def _bundled_pages() -> list[str]:
    """The page texts of the bundled annual reports, generated and extracted as a user would."""
    with tempfile.TemporaryDirectory() as folder:
        return [
            page
            for path in generate_memo_corpus(Path(folder))
            if path.suffix == ".pdf"
            for page in load_pages(path)
        ]


def _cuts_report(rng: random.Random, pages: Sequence[str]) -> CutReport:
    """10 000 quotes that start or end inside a token: none may verify (SPEC, quote check)."""
    bundled = _bundled_pages()
    generated = try_cuts(rng, pages, N_CUTS // 2)
    reports = try_cuts(rng, bundled, N_CUTS - N_CUTS // 2)
    for name, report in (("this document", generated), ("bundled reports", reports)):
        print(
            f"boundary-violating quotes, {name}: {report.tried} tried,"
            f" {report.genuine_elsewhere} also on the page whole,"
            f" {report.false_verified} verified (goal 0); "
            + ", ".join(f"{k} {v}" for k, v in sorted(report.verdicts.items()))
        )
    return CutReport(
        generated.tried + reports.tried,
        generated.genuine_elsewhere + reports.genuine_elsewhere,
        generated.false_verified + reports.false_verified,
        {},
        generated.examples + reports.examples,
    )


if __name__ == "__main__":
    sys.exit(main())
