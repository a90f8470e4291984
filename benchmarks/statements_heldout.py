"""Statement lines on held-out material: the lexicon reader and the table reader side by side.

Material (never tuned on): the gold statement lines of 12 FinanceBench filings
(``tests/heldout/financebench``, PDFs in ``../shared/data/financebench-dev/pdfs``) and two
French annual reports in other layouts than the bundled ones
(``tests/heldout/memo/reports``), and the reports measured on arrival that nobody tuned on
(``tests/heldout/memo/blind``, printed as their own group). For each document prints the
gold values, how many each reader got right, wrong (a matched row holding another value)
and missed, and the time each reader takes per 100 pages (PDF text extraction apart; the
table reader's time includes reading the characters' x-positions of the pages where a row
has a blank cell).

The lexicon reader (:func:`preuve.memo.statements.extract_statements`) keys values by year
only, so it is scored on years alone (a more lenient test than the table reader's, which
must also give the period's length).

Run: ``.venv/bin/python -m benchmarks.statements_heldout``
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from preuve.eval.statements_eval import (
    ExtractedRow,
    Score,
    lexicon_rows,
    load_gold_rows,
    ratio_deviations,
    score_rows,
    table_rows,
)
from preuve.io.pdf import load_pages, pdf_positions

__all__ = ["main"]

ROOT = Path(__file__).resolve().parent.parent
FB_GOLD = ROOT / "tests" / "heldout" / "financebench"
FB_PDFS = ROOT.parent / "shared" / "data" / "financebench-dev" / "pdfs"
REPORTS = ROOT / "tests" / "heldout" / "memo" / "reports"
# Reports measured on arrival and never tuned on (their figures are printed apart).
BLIND = ROOT / "tests" / "heldout" / "memo" / "blind"


def _documents() -> list[tuple[str, Path, Path]]:
    documents = [
        (
            path.name.removesuffix(".gold.json"),
            path,
            FB_PDFS / path.name.replace(".gold.json", ".pdf"),
        )
        for path in sorted(FB_GOLD.glob("*.gold.json"))
    ]
    documents += [
        (
            path.name.removesuffix(".gold.json"),
            path,
            path.with_name(path.name.replace(".gold.json", ".pdf")),
        )
        for folder in (REPORTS, BLIND)
        for path in sorted(folder.glob("*.gold.json"))
    ]
    return [d for d in documents if d[2].is_file()]


def _timed(
    reader: Callable[[Sequence[str]], list[ExtractedRow]], pages: list[str]
) -> tuple[list[ExtractedRow], float]:
    started = time.perf_counter()
    rows = reader(pages)
    return rows, time.perf_counter() - started


def _positioned(pdf: Path, pages: Sequence[str]) -> list[ExtractedRow]:
    return table_rows(pages, pdf_positions(pdf, pages))


def _line(name: str, score: Score) -> str:
    return f"{score.right:5d} {score.wrong:4d} {score.missed:5d}"


def main() -> int:
    documents = _documents()
    if not documents:
        print("no held-out documents found")
        return 2
    totals: dict[str, dict[str, list[int]]] = {"financebench": {}, "reports": {}, "blind": {}}
    seconds = {"lexicon": 0.0, "tables": 0.0}
    n_pages = 0
    print(f"{'document':30} {'gold':>5} | lexicon: right wrong missed | tables: right wrong missed")
    for name, gold_path, pdf in documents:
        pages = load_pages(pdf)
        n_pages += len(pages)
        gold = load_gold_rows(gold_path)
        old, old_s = _timed(lexicon_rows, pages)
        new, new_s = _timed(functools.partial(_positioned, pdf), pages)
        seconds["lexicon"] += old_s
        seconds["tables"] += new_s
        a, b = score_rows(gold, old), score_rows(gold, new)
        group = {REPORTS: "reports", BLIND: "blind"}.get(gold_path.parent, "financebench")
        for reader, score in (("lexicon", a), ("tables", b)):
            sums = totals[group].setdefault(reader, [0, 0, 0, 0])
            for i, v in enumerate((score.values, score.right, score.wrong, score.missed)):
                sums[i] += v
        print(f"{name:30} {a.values:5d} |          {_line(name, a)} |         {_line(name, b)}")
    for group, readers in totals.items():
        for reader, (values, right, wrong, missed) in readers.items():
            share = right / values if values else 0.0
            print(
                f"{group:12} {reader:8} right {right}/{values} ({share:.1%}),"
                f" wrong {wrong}, missed {missed}"
            )
    for gold_path in [*sorted(REPORTS.glob("*.gold.json")), *sorted(BLIND.glob("*.gold.json"))]:
        pdf = gold_path.with_name(gold_path.name.replace(".gold.json", ".pdf"))
        pages = load_pages(pdf)
        # Ratios from the tables as the memo pipeline reads them (x-positions included).
        positions = pdf_positions(pdf, pages)
        deviations = ratio_deviations(gold_path, pages, positions=positions)
        loose = ratio_deviations(gold_path, pages, variants=True, positions=positions)
        done = [d for d in deviations.values() if d is not None]
        worst = max(done, default=0.0)
        within = sum(1 for d in done if d <= 0.005)
        variant = sum(1 for k, d in loose.items() if d is not None and d <= 0.005) - within
        missing = ", ".join(k for k, d in deviations.items() if d is None) or "none"
        print(
            f"ratios {gold_path.name.split('.')[0]:10} {len(done)}/{len(deviations)} gold values"
            f" computed, {within} within 0.5 % (+{variant} of a variant the gold lists),"
            f" worst deviation {worst:.2%}; not computed: {missing}"
        )
    for reader, spent in seconds.items():
        print(
            f"{reader:8} {spent:.2f} s for {n_pages} pages:"
            f" {spent / n_pages * 100:.3f} s per 100 pages"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
