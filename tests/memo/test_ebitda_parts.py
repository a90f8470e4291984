"""EBITDA from operating income and D&A when the report prints depreciation and the
amortization of intangibles as two lines (a 10-K cash-flow statement's usual layout)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.numbers import Locale
from preuve.memo.lexicon import LEXICON, Statement, lookup_label
from preuve.memo.operands import ebitda
from preuve.memo.statements import Field, Statements


def _statements(rows: dict[str, tuple[str, str]]) -> Statements:
    """Fields of 2025 by concept: (label as printed, value)."""
    return Statements(
        fields=tuple(
            Field(key, label, 2025, Decimal(v), 4, "k$", Statement.CASHFLOW, v, 1000, 12)
            for key, (label, v) in rows.items()
        ),
        locale=Locale.EN,
    )


CASES: dict[str, tuple[dict[str, tuple[str, str]], Decimal]] = {
    "depreciation and amortization on two lines": (
        {
            "operating_income": ("Income from operations", "50200"),
            "depreciation": ("Depreciation", "12400"),
            "amortization": ("Amortization of acquired intangible assets", "3100"),
        },
        Decimal(65_700_000),
    ),
    "a D&A line already holds the amortization": (
        {
            "operating_income": ("Income from operations", "50200"),
            "depreciation": ("Depreciation and amortization", "15500"),
            "amortization": ("Amortization of acquired intangible assets", "3100"),
        },
        Decimal(65_700_000),
    ),
    "depreciation alone": (
        {
            "operating_income": ("Income from operations", "50200"),
            "depreciation": ("Depreciation", "12400"),
        },
        Decimal(62_600_000),
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_ebitda_adds_the_amortization_printed_apart(case: str) -> None:
    rows, expected = CASES[case]
    found = ebitda(_statements(rows), 2025)
    assert found is not None
    assert found.value == expected  # in currency units (k$ × 1000)


LABELS = {
    "amortization of intangibles": ("Amortization of intangibles", "amortization"),
    "amortisation, British": ("Amortisation of intangible assets", "amortization"),
    "French": ("Dotations aux amortissements des immobilisations incorporelles", "amortization"),
    "debt issuance costs are no D&A": ("Amortization of debt issuance costs", None),
}


@pytest.mark.parametrize("case", LABELS)
def test_amortization_labels(case: str) -> None:
    label, concept = LABELS[case]
    rule = lookup_label(label, Statement.CASHFLOW, LEXICON)
    assert (None if rule is None else rule.key) == concept
