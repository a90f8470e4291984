"""preuve's own contrast set: shape, and the goals of the claim checks on it.

The held-out set (tests/heldout/memo/contrast.jsonl) is measured by benchmarks/contrast.py
and not asserted on; only its file shape is tested here."""

from __future__ import annotations

from collections import Counter

from benchmarks.contrast import HELDOUT, check_row, load_heldout, rates_of

from preuve.core.claims import NEGATION_FLIP, WRONG_DIRECTION, WRONG_PERIOD, WRONG_SUBJECT
from tests.memo.contrast_set import CLASSES, contrast_rows

ROWS = contrast_rows()
CLAIM_CODES = {WRONG_SUBJECT, WRONG_PERIOD, WRONG_DIRECTION, NEGATION_FLIP}


def test_the_set_has_the_shape_the_issue_asks_for() -> None:
    assert len(ROWS) >= 200
    assert {(r.lang, r.cls) for r in ROWS} == {(lang, c) for lang in ("fr", "en") for c in CLASSES}
    uses = Counter(fact for row in ROWS for fact in row.facts)
    assert min(uses.values()) >= 3  # each fact appears three times or more
    assert len({r.id for r in ROWS}) == len(ROWS)


def test_goals_on_the_own_set() -> None:
    rates = rates_of(ROWS)
    assert rates.rate("faithful") == 1.0
    for cls in ("subject_swap", "period_swap", "direction_flip", "negation_flip"):
        assert rates.rate(cls) == 0.0, cls


def test_contrasted_rows_fail_only_on_claims_not_numbers() -> None:
    for row in ROWS:
        codes = {d.code for d in check_row(row)}
        assert codes <= CLAIM_CODES, (row.id, codes)


def test_the_held_out_file_loads() -> None:
    rows = load_heldout(HELDOUT)
    assert len(rows) >= 220 and {r.cls for r in rows} == set(CLASSES)
