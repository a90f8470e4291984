"""Ratios of the fourteenth writer's pair (tests/heldout/memo/reports, worked on since s28).

Sahyadri Polymers (Ind AS, rupees lakhs): its balance sheet runs over two pages (the current
liabilities on a page headed "(continued)"), its two ``Borrowings`` rows are long-term and
current debt under their sections, its lines are numbered by roman numerals and it prints no
operating profit, only a profit before exceptional items and tax. Measured before s28: 5 of
15 gold values computed, the gearing 45 % off (the long-term borrowings taken as the gross
debt). Interest cover stays apart: the memo's is operating profit over finance costs, the
writer's EBITDA over finance costs (a definition, not an input).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from preuve.eval.statements_eval import ratio_deviations
from preuve.io.pdf import load_pages, pdf_positions

REPORTS = Path(__file__).resolve().parents[1] / "heldout" / "memo" / "reports"


@pytest.mark.parametrize("suffix", [".pdf", ".txt"])
def test_sahyadri_ratios_within_half_a_percent(suffix: str) -> None:
    path = REPORTS / f"sahyadri_polymers{suffix}"
    if suffix == ".pdf":
        pages = load_pages(path)
        positions = pdf_positions(path, pages)
    else:
        pages, positions = path.read_text(encoding="utf-8").split("\f"), None
    deviations = ratio_deviations(path.with_suffix(".gold.json"), pages, positions=positions)
    assert len(deviations) == 15
    assert {k for k, v in deviations.items() if v is None} == set()
    off = {k for k, v in deviations.items() if v is not None and v > 0.005}
    assert off == {"interest_cover 2025", "interest_cover 2024"}
