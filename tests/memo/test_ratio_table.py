"""Each declared ratio on hand-made fields: exact values, and each refusal with its reason."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from preuve.core.numbers import Locale
from preuve.memo.company import Company
from preuve.memo.lexicon import Statement
from preuve.memo.ratios import compute_ratios, ratios_not_computed
from preuve.memo.statements import Field, Statements, extract_statements
from preuve.memo.table_fields import merged_statements

ACME = Company("Acme SA", "acme")
_BALANCE = {
    "trade_receivables",
    "inventories",
    "trade_payables",
    "current_assets",
    "current_liabilities",
    "tangible_assets",
}

Values = dict[tuple[str, int], str]


def _field(key: str, year: int, value: str, months: int | None) -> Field:
    balance = key in _BALANCE
    statement = Statement.BALANCE if balance else Statement.INCOME
    return Field(
        key, key, year, Decimal(value), 3, "k€", statement, value, 1, 0 if balance else months
    )


def _statements(values: Values, months: dict[str, int] | None = None) -> Statements:
    """Fields of a table reader (12-month flows unless ``months`` says otherwise)."""
    durations = months or {}
    return Statements(
        fields=tuple(
            _field(key, year, value, durations.get(key, 12))
            for (key, year), value in values.items()
        ),
        locale=Locale.FR,
    )


def _ratios(statements: Statements) -> dict[str, dict[int, Decimal]]:
    return {
        r.id.removeprefix("R-acme-"): {v.year: v.value for v in r.values}
        for r in compute_ratios(statements, ACME)
    }


RATIO_CASES: dict[str, tuple[Values, str, dict[int, str]]] = {
    "dso: receivables over revenue per day": (
        {("trade_receivables", 2025): "50", ("revenue", 2025): "365"},
        "dso",
        {2025: "50"},
    ),
    "dio: inventories over cost of sales per day": (
        {("inventories", 2025): "30", ("cost_of_sales", 2025): "-730"},
        "dio",
        {2025: "15"},
    ),
    "dio: purchases consumed when no cost of sales": (
        {("inventories", 2025): "20", ("purchases", 2025): "-365"},
        "dio",
        {2025: "20"},
    ),
    "dpo: payables over cost of sales per day": (
        {("trade_payables", 2025): "73", ("cost_of_sales", 2025): "-365"},
        "dpo",
        {2025: "73"},
    ),
    "quick ratio: current assets less inventories": (
        {
            ("current_assets", 2025): "150",
            ("inventories", 2025): "30",
            ("current_liabilities", 2025): "80",
        },
        "liquidite-reduite",
        {2025: "1.5"},
    ),
    "fixed-asset turnover": (
        {("revenue", 2025): "500", ("tangible_assets", 2025): "200"},
        "rotation-immo",
        {2025: "2.5"},
    ),
    "revenue change year on year": (
        {("revenue", 2025): "110", ("revenue", 2024): "100"},
        "variation-ca",
        {2025: "10"},
    ),
    "ebitda change from operating income and d&a": (
        {
            ("operating_income", 2025): "60",
            ("depreciation", 2025): "-30",
            ("operating_income", 2024): "80",
            ("depreciation", 2024): "-40",
        },
        "variation-ebitda",
        {2025: "-25"},
    ),
    "free cash flow: operating cash flow less capex": (
        {
            ("operating_cash_flow", 2025): "120",
            ("capex", 2025): "-45",
            ("operating_cash_flow", 2024): "30",
            ("capex", 2024): "-50",
        },
        "fcf",
        {2025: "75", 2024: "-20"},
    ),
    "free cash flow: the reported line first": (
        {
            ("free_cash_flow", 2025): "70",
            ("operating_cash_flow", 2025): "120",
            ("capex", 2025): "-45",
        },
        "fcf",
        {2025: "70"},
    ),
}


@pytest.mark.parametrize("case", RATIO_CASES)
def test_each_ratio_is_computed_from_its_fields(case: str) -> None:
    values, suffix, expected = RATIO_CASES[case]
    got = _ratios(_statements(values))[suffix]
    assert got == {year: Decimal(value) for year, value in expected.items()}


RENDER_CASES: dict[str, tuple[Values, str, str]] = {
    "days": (
        {("trade_receivables", 2025): "50", ("revenue", 2025): "365"},
        "dso",
        "[R-acme-dso] Acme SA - Délai de recouvrement clients 2025 : 50 jours ; "
        "formule : créances clients / chiffre d'affaires par jour",
    ),
    "change": (
        {("revenue", 2025): "110", ("revenue", 2024): "100"},
        "variation-ca",
        "[R-acme-variation-ca] Acme SA - Variation du chiffre d'affaires 2025 : 10,0 % ; "
        "formule : variation chiffre d'affaires / chiffre d'affaires de l'exercice précédent",
    ),
    "amount": (
        {("operating_cash_flow", 2025): "-1200", ("capex", 2025): "-300"},
        "fcf",
        "[R-acme-fcf] Acme SA - Free cash-flow 2025 : -1\u202f500 k€ ; formule : "
        "(flux de trésorerie d'exploitation - investissements corporels)",
    ),
}


@pytest.mark.parametrize("case", RENDER_CASES)
def test_a_new_ratio_renders_as_a_fact_line(case: str) -> None:
    values, suffix, line = RENDER_CASES[case]
    ratios = {r.id: r for r in compute_ratios(_statements(values), ACME)}
    assert ratios[f"R-acme-{suffix}"].render() == line


def test_a_derived_fact_keeps_its_inputs_and_the_memo_check_reads_its_amount() -> None:
    values = {("operating_cash_flow", 2025): "-1200", ("capex", 2025): "-300"}
    (fcf,) = [r for r in compute_ratios(_statements(values), ACME) if r.id == "R-acme-fcf"]
    assert [(f.key, f.raw, f.page) for f in fcf.values[0].inputs] == [
        ("operating_cash_flow", "-1200", 3),
        ("capex", "-300", 3),
    ]
    (value,) = fcf.structure().values
    assert (value.value, value.unit, value.period) == (Decimal("-1500"), "k€", "2025")


def test_a_change_states_its_direction() -> None:
    values = {("revenue", 2025): "90", ("revenue", 2024): "100"}
    (change,) = [r for r in compute_ratios(_statements(values), ACME)]
    assert [(v.value, v.direction) for v in change.structure().values] == [
        (Decimal("-10.0"), "down")
    ]


REFUSAL_CASES: dict[str, tuple[Statements, str, str]] = {
    "dso without revenue": (
        _statements({("trade_receivables", 2025): "50", ("net_income", 2025): "1"}),
        "dso",
        "Délai de recouvrement clients 2025: no revenue",
    ),
    "dio without any cost base": (
        _statements({("inventories", 2025): "30", ("revenue", 2025): "100"}),
        "dio",
        "Rotation des stocks 2025: no cost of sales (or purchases consumed)",
    ),
    "quick ratio without inventories": (
        _statements({("current_assets", 2025): "150", ("current_liabilities", 2025): "80"}),
        "liquidite-reduite",
        "Ratio de liquidité réduite 2025: no current assets and inventories",
    ),
    "turnover on zero fixed assets": (
        _statements({("revenue", 2025): "500", ("tangible_assets", 2025): "0"}),
        "rotation-immo",
        "Rotation des immobilisations corporelles 2025: property, plant and equipment"
        " is not positive",
    ),
    "change without the year before": (
        _statements({("revenue", 2025): "110", ("revenue", 2023): "90"}),
        "variation-ca",
        "Variation du chiffre d'affaires 2025: no figures for 2024",
    ),
    "change without the line the year before": (
        _statements({("revenue", 2025): "110", ("net_income", 2024): "3"}),
        "variation-ca",
        "Variation du chiffre d'affaires 2025: no revenue for 2024",
    ),
    "change from a loss-making ebitda": (
        _statements({("ebitda", 2025): "10", ("ebitda", 2024): "-5"}),
        "variation-ebitda",
        "Variation de l'EBITDA 2025: EBITDA (or operating income and D&A) for 2024 is not positive",
    ),
    "fcf without capex": (
        _statements({("operating_cash_flow", 2025): "120"}),
        "fcf",
        "Free cash-flow 2025: no operating cash flow and capital expenditure (or a reported"
        " free cash flow)",
    ),
    "margin over three- and six-month figures": (
        _statements(
            {("net_income", 2023): "5", ("revenue", 2023): "100"},
            {"net_income": 3, "revenue": 6},
        ),
        "marge",
        "Marge nette 2023: inputs cover different periods (3 months, 6 months)",
    ),
    "ebitda from a six-month and a year-only field in a 10-Q": (
        replace(
            Statements(
                fields=(
                    _field("operating_income", 2023, "40", 6),
                    _field("depreciation", 2023, "-10", None),
                    _field("revenue", 2023, "400", 6),
                ),
                locale=Locale.FR,
            ),
            flow_months=6,
        ),
        "marge-ebitda",
        "Marge d'EBITDA 2023: inputs cover different periods (6 months, unknown)",
    ),
    "fcf over two durations": (
        _statements(
            {("operating_cash_flow", 2023): "50", ("capex", 2023): "-20"},
            {"operating_cash_flow": 6, "capex": 9},
        ),
        "fcf",
        "Free cash-flow 2023: inputs cover different periods (6 months, 9 months)",
    ),
}


@pytest.mark.parametrize("case", REFUSAL_CASES)
def test_a_ratio_is_refused_with_its_reason(case: str) -> None:
    statements, suffix, reason = REFUSAL_CASES[case]
    assert suffix not in _ratios(statements)
    assert reason in ratios_not_computed(statements)


def test_the_oldest_year_of_a_change_is_no_refusal() -> None:
    statements = _statements({("revenue", 2025): "110", ("revenue", 2024): "100"})
    assert not [r for r in ratios_not_computed(statements) if r.startswith("Variation du")]


TEN_Q = "\n".join(
    [
        "ACME CORP",
        "CONSOLIDATED STATEMENTS OF OPERATIONS",
        "Three Months Ended",
        "June 30,",
        "Six Months Ended",
        "June 30,",
        "(In thousands)",
        "2023 2022 2023 2022",
        "Revenues 1,500 1,250 2,900 2,400",
        "Cost of sales (900) (800) (1,800) (1,500)",
        "Operating income 400 (20) 700 100",
        "Net income 300 (40) 500 50",
        "CONSOLIDATED BALANCE SHEETS",
        "(In thousands)",
        "June 30, 2023 December 31, 2022",
        "Accounts receivable 580 480",
        "Inventories 450 400",
    ]
)


def test_ten_q_ratios_use_six_months_never_three() -> None:
    pages = [TEN_Q]
    statements = merged_statements(pages, extract_statements(pages))
    assert statements.flow_months == 6
    ratios = {r.id.removeprefix("R-acme-"): r for r in compute_ratios(statements, ACME)}
    assert ratios["marge"].value(2023) == Decimal(500) * 100 / Decimal(2900)
    assert ratios["marge"].formula == "résultat net / chiffre d'affaires (sur 6 mois)"
    assert ratios["variation-ca"].value(2023) == Decimal(500) * 100 / Decimal(2400)
    assert "dso" not in ratios and "dio" not in ratios
    reasons = ratios_not_computed(statements)
    assert "Délai de recouvrement clients: the income and cash-flow columns cover 6 months," in (
        " ".join(reasons)
    )
