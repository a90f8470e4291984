"""A 2 000-page report through ``check-quotes`` in a process of its own: memory stays bounded.

The peak resident memory of that one process (``wait4``) is compared with the same command
on a 2-page report: pages are extracted as text once and the PDF itself is not held, so
2 000 pages cost a few MiB more, not hundreds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preuve.eval.reliability import measure_big_pdf
from preuve.eval.reliability_files import (
    REPORT_PAGES,
    big_pdf_quotes,
    write_big_pdf,
    write_text_pdf,
)
from preuve.eval.reliability_process import measure_cli

PAGES = 2000
MAX_EXTRA_MIB = 64  # over the 2-page run: the text of 2 000 pages is about 2 MB
MAX_PEAK_MIB = 256


@pytest.fixture(scope="session")
def big_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("big-pdf")
    quotes = folder / "quotes.jsonl"
    quotes.write_text("".join(json.dumps(q) + "\n" for q in big_pdf_quotes(PAGES)), "utf-8")
    return write_big_pdf(folder / "big.pdf", PAGES), quotes


@pytest.mark.slow
def test_two_thousand_pages_in_bounded_memory(
    big_report: tuple[Path, Path], tmp_path: Path
) -> None:
    pdf, quotes = big_report
    small = write_text_pdf(tmp_path / "small.pdf", REPORT_PAGES)
    baseline = measure_cli(["check-quotes", str(small), "--input", str(quotes), "--json"])
    measured = measure_cli(["check-quotes", str(pdf), "--input", str(quotes), "--json"])
    assert measured.outcome.exit_code == 0, measured.outcome.stderr
    results = json.loads(measured.outcome.stdout)
    assert [r["page"] for r in results] == [1, 1000, 2000]
    assert all(r["verified"] for r in results)
    assert baseline.outcome.exit_code == 1  # pages 1000 and 2000 do not exist there
    assert measured.peak_mib < baseline.peak_mib + MAX_EXTRA_MIB
    assert measured.peak_mib < MAX_PEAK_MIB
    print(
        f"\n{PAGES}-page PDF: peak RSS {measured.peak_mib:.1f} MiB in {measured.seconds:.2f} s"
        f" (2-page PDF: {baseline.peak_mib:.1f} MiB)"
    )


def test_the_report_measures_a_short_run(tmp_path: Path) -> None:
    big = measure_big_pdf(tmp_path, pages=30)
    assert (big.pages, big.exit_code, big.verified, big.quotes) == (30, 0, 3, 3)
    assert 10 < big.baseline_mib < MAX_PEAK_MIB and 10 < big.peak_mib < MAX_PEAK_MIB
