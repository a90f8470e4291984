"""A value a violated identity puts in doubt is no ratio input (and the refusal says why)."""

from __future__ import annotations

from decimal import Decimal

from preuve.core.numbers import Locale
from preuve.memo.company import Company
from preuve.memo.doubtful import without_doubtful
from preuve.memo.identities import check_identities
from preuve.memo.lexicon import Statement
from preuve.memo.ratios import compute_ratios, ratios_not_computed
from preuve.memo.statements import Field, Statements

_BALANCE = {
    "total_assets",
    "total_equity_and_liabilities",
    "equity",
    "provisions_total",
    "total_liabilities",
}


def _statements(values: dict[tuple[str, int], int]) -> Statements:
    return Statements(
        fields=tuple(
            Field(
                key,
                key,
                year,
                Decimal(v),
                2,
                "k€",
                Statement.BALANCE if key in _BALANCE else Statement.INCOME,
                str(v),
                1000,
                0 if key in _BALANCE else 12,
            )
            for (key, year), v in values.items()
        ),
        locale=Locale.FR,
    )


VALUES = {
    ("revenue", 2025): 5000,
    ("net_income", 2025): 250,
    ("equity", 2025): 900,
    ("total_assets", 2025): 2400,
    ("total_equity_and_liabilities", 2025): 2400,
    ("revenue", 2024): 4800,
    ("net_income", 2024): 240,
    ("equity", 2024): 850,
    ("total_assets", 2024): 2300,
    ("total_equity_and_liabilities", 2024): 2300,
}
COMPANY = Company("Lunelle SA", "lunelle")


def _computed(statements: Statements) -> dict[str, tuple[int, ...]]:
    return {
        r.id.rsplit("-", 1)[-1]: tuple(v.year for v in r.values)
        for r in compute_ratios(statements, COMPANY)
    }


def test_identities_that_hold_leave_every_value() -> None:
    statements = _statements(VALUES)
    assert without_doubtful(statements, check_identities(statements)) == statements


def test_a_violated_identity_keeps_its_values_out_of_the_ratios() -> None:
    broken = _statements({**VALUES, ("total_assets", 2025): 2600})  # a misread total
    identities = check_identities(broken)
    assert [v.year for v in identities.violations] == [2025]
    kept = without_doubtful(broken, identities)
    assert {(f.key, f.year) for f in broken.fields} - {(f.key, f.year) for f in kept.fields} == {
        ("total_assets", 2025),
        ("total_equity_and_liabilities", 2025),
    }
    assert _computed(broken)["roa"] == (2025, 2024)
    assert _computed(kept)["roa"] == (2024,)  # 2025's total assets are doubtful
    assert _computed(kept)["marge"] == (2025, 2024)  # the income statement is not in doubt
    reasons = ratios_not_computed(kept)
    assert reasons[0] == (
        "doubtful input, not used: 2025 total_assets: total_assets ="
        " total_equity_and_liabilities does not hold"
    )


def test_french_gaap_provisions_between_equity_and_debts_are_no_violation() -> None:
    # Total = capitaux propres (I) + provisions (II) + dettes (III): equity + liabilities
    # alone falls short by the provisions, which is the layout, not a misread value.
    values = {
        ("equity", 2025): 900,
        ("provisions_total", 2025): 100,
        ("total_liabilities", 2025): 1400,
        ("total_assets", 2025): 2400,
    }
    statements = _statements(values)
    assert check_identities(statements).violations == ()
    assert without_doubtful(statements, check_identities(statements)) == statements
    without_provisions = _statements(
        {k: v for k, v in values.items() if k[0] != "provisions_total"}
    )
    assert [v.identity for v in check_identities(without_provisions).violations] == [
        "assets_equity_liabilities"
    ]
