"""Reading sentences for the claim checks: folding, periods, segments."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.claim_lexicon import DEFAULT_LEXICON
from preuve.core.claimtext import fold, period_key, period_mentions, scopes, sentences

PRIOR, WHOLE = DEFAULT_LEXICON.prior_period, DEFAULT_LEXICON.whole_year

PERIOD_CASES = [
    ("year", "le levier en 2025", [("2025", "2025")]),
    ("fiscal-year", "revenue in FY2025", [("fy2025", "2025")]),
    ("quarter-fr", "au T3 2025", [("t3 2025", "2025-Q3")]),
    ("quarter-en", "in Q3 2025", [("q3 2025", "2025-Q3")]),
    ("quarter-words", "au troisième trimestre 2025", [("troisieme trimestre 2025", "2025-Q3")]),
    ("quarter-words-en", "the third quarter of 2025", [("third quarter of 2025", "2025-Q3")]),
    ("half", "au S1 2025 et en H2 2024", [("s1 2025", "2025-H1"), ("h2 2024", "2024-H2")]),
    ("half-words", "au premier semestre 2025", [("premier semestre 2025", "2025-H1")]),
    ("range", "entre 2024 et 2025", [("entre 2024 et 2025", None)]),
    ("since", "depuis 2023", [("depuis 2023", None)]),
    ("prior-year-words", "5,5x en 2025 contre 3,6x un an plus tôt",
     [("2025", "2025"), ("un an plus tot", "2024")]),
    ("quarter-without-year", "171 M€ en 2025, dont 48 M€ au T4",
     [("2025", "2025"), ("t4", "2025-Q4")]),
    ("whole-year-words", "62 M€ au S1 2025, sur un total annuel de 118 M€",
     [("s1 2025", "2025-H1"), ("total annuel", "2025")]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in PERIOD_CASES],
                         ids=[c[0] for c in PERIOD_CASES])  # fmt: skip
def test_periods(text: str, expected: list[tuple[str, str | None]]) -> None:
    found = period_mentions(text, prior=PRIOR, whole_year=WHOLE)
    assert [(fold(text)[p.start : p.end], p.period) for p in found] == expected


def test_digits_of_a_number_are_never_a_year() -> None:
    text = "une dette de 12 025 k€"
    assert period_mentions(text, protected=[(13, 19)]) == []


def test_period_order() -> None:
    assert sorted(["2025", "2024-Q3", "2024"], key=period_key) == ["2024", "2024-Q3", "2025"]


def test_a_decimal_point_does_not_end_a_sentence() -> None:
    text = "Levier de 5.5x en 2025. Marge de 3,1 %."
    assert [text[s:e] for s, e in sentences(text, protected=[(10, 13)])] == [
        "Levier de 5.5x en 2025",
        " Marge de 3,1 %",
    ]


def test_scopes_cut_at_contrasting_conjunctions() -> None:
    text = "Le levier monte, tandis qu'Aubrac recule ; fin"
    assert [text[s:e].strip() for s, e in scopes(text)] == [
        "Le levier monte,",
        "Aubrac recule",
        "fin",
    ]


@given(st.text())
def test_fold_keeps_the_length(text: str) -> None:
    assert len(fold(text)) == len(text)
