"""Identities, ratios (R-) and alerts (A-) computed in code, and the company they are about."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from preuve.core.facts import parse_facts, render_facts
from preuve.core.numbers import Locale
from preuve.corpora.memo_reports import GOLD_RELATIVE, generate_memo_corpus
from preuve.io.pdf import load_pages
from preuve.memo.identities import IDENTITY_VIOLATED, check_identities
from preuve.memo.lexicon import Statement
from preuve.memo.ratios import (
    Company,
    compute_alerts,
    compute_ratios,
    detect_company,
    format_decimal,
    ratios_not_computed,
    slug_of,
)
from preuve.memo.statements import Field, Statements, extract_statements

SLUGS = ["ferlac", "solvea", "helvane"]
BUNDLED_RATIOS = (
    *("levier", "marge", "gearing", "couverture", "marge-ebitda", "capex", "roe", "roa"),
    *("dso", "dio", "dpo", "rotation-immo", "variation-ca", "variation-ebitda", "fcf"),
)
NNBSP = "\u202f"


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("memo-corpus")
    generate_memo_corpus(out)
    return out


@pytest.fixture(scope="session")
def pages(corpus: Path) -> dict[str, list[str]]:
    return {slug: load_pages(corpus / "reports" / f"{slug}.pdf") for slug in SLUGS}


@pytest.fixture(scope="session")
def gold(corpus: Path) -> dict[str, dict[str, Any]]:
    data = json.loads((corpus / GOLD_RELATIVE).read_text(encoding="utf-8"))
    return {company["slug"]: company for company in data["companies"]}


def _analyse(pages: list[str]) -> tuple[Company, Statements]:
    return detect_company(pages), extract_statements(pages)


def test_ferlac_leverage_and_its_rendering(pages: dict[str, list[str]]) -> None:
    company, statements = _analyse(pages["ferlac"])
    ratios = {r.id: r for r in compute_ratios(statements, company)}
    leverage = ratios["R-ferlac-levier"]
    assert leverage.value(2025) == Decimal("5.5")
    assert leverage.value(2024) == Decimal("3.6")
    assert leverage.render() == (
        "[R-ferlac-levier] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; "
        "formule : dette nette / EBITDA"
    )
    assert ratios["R-ferlac-marge"].render() == (
        "[R-ferlac-marge] Maison Ferlac SAS - Marge nette 2025 : -0,5 % (2024 : 2,0 %) ; "
        "formule : résultat net / chiffre d'affaires"
    )


@pytest.mark.parametrize("slug", SLUGS)
def test_ratios_match_the_gold_exactly(
    slug: str, pages: dict[str, list[str]], gold: dict[str, dict[str, Any]]
) -> None:
    company, statements = _analyse(pages[slug])
    computed = {r.id: r for r in compute_ratios(statements, company)}
    # The 3 of the gold, 5 credit ratios, and (issue 14) days, turnover, change and FCF.
    assert sorted(computed) == sorted(f"R-{slug}-{suffix}" for suffix in BUNDLED_RATIOS)
    worst = Decimal(0)
    for expected in gold[slug]["ratios"]:
        ratio = computed[expected["id"]]
        assert ratio.formula == expected["formula"]
        for year, value in expected["values"].items():
            got = ratio.value(int(year))
            assert got is not None
            worst = max(worst, abs(got - Decimal(value)) / abs(Decimal(value)))
    assert worst < Decimal("1e-6")


@pytest.mark.parametrize("slug", SLUGS)
def test_company_comes_from_the_cover(
    slug: str, pages: dict[str, list[str]], gold: dict[str, dict[str, Any]]
) -> None:
    assert detect_company(pages[slug]) == Company(gold[slug]["name"], slug)


@pytest.mark.parametrize("slug", SLUGS)
def test_identities_hold_on_the_bundled_reports(slug: str, pages: dict[str, list[str]]) -> None:
    report = check_identities(extract_statements(pages[slug]))
    assert report.violations == ()
    # 13 identities over two years; the cash roll-forward needs a third balance sheet.
    assert report.checked == 25


@pytest.mark.parametrize(
    ("old", "new", "identities"),
    [
        (
            "Total actif 165\u202f867",
            "Total actif 166\u202f867",
            {"balance", "total_assets", "assets_equity_liabilities"},
        ),
        ("Dette financière nette 78\u202f100", "Dette financière nette 77\u202f100", {"net_debt"}),
        ("Résultat net (713)", "Résultat net 713", {"net_income"}),
        (
            "(free cash-flow) (14\u202f930)",
            "(free cash-flow) (14\u202f390)",
            {"free_cash_flow", "net_change_in_cash"},
        ),
    ],
    ids=["total-assets", "net-debt", "lost-sign", "free-cash-flow"],
)
def test_a_broken_statement_reports_its_identity(
    old: str, new: str, identities: set[str], pages: dict[str, list[str]]
) -> None:
    statement_pages = [p for p in pages["ferlac"] if "\nLes notes annexes" in p]
    assert any(old in p for p in statement_pages)
    broken = [p.replace(old, new) for p in pages["ferlac"]]
    report = check_identities(extract_statements(broken))
    assert {v.identity for v in report.violations if v.year == 2025} == identities
    violation = next(v for v in report.violations if v.identity == sorted(identities)[0])
    defect = violation.to_defect()
    assert defect.code == IDENTITY_VIOLATED
    assert f"reported {violation.reported} k€" in defect.detail
    assert violation.difference != 0


def test_the_balance_identity_on_a_tiny_english_sheet() -> None:
    # 2023 balances; 2022 is off by 4 (a rounding difference of 1 would be tolerated).
    sheet = [
        "CONSOLIDATED BALANCE SHEETS\n(in millions)\n2023 2022\nCash and cash equivalents 10 8\n"
        "Total assets 100 95\nTotal liabilities 60 55\nTotal stockholders' equity 40 36\n"
        "Total liabilities and stockholders' equity 100 91\n"
    ]
    report = check_identities(extract_statements(sheet))
    assert [(v.identity, v.year, v.reported, v.computed) for v in report.violations] == [
        ("balance", 2022, Decimal(95), Decimal(91)),
        ("assets_equity_liabilities", 2022, Decimal(95), Decimal(91)),
    ]


def test_solvea_profit_but_cash_burn_alert(pages: dict[str, list[str]]) -> None:
    company, statements = _analyse(pages["solvea"])
    alerts = compute_alerts(statements, compute_ratios(statements, company), company)
    assert [a.rule for a in alerts] == ["profit_but_cash_burn", "leverage_high"]
    assert alerts[0].render() == (
        f"[A-solvea-1] Solvéa Énergies SA - Résultat net de 11{NNBSP}175 k€ mais free "
        f"cash-flow de -47{NNBSP}225 k€ en 2025"
    )
    assert alerts[1].id == "A-solvea-2"


def test_ferlac_alerts(pages: dict[str, list[str]]) -> None:
    company, statements = _analyse(pages["ferlac"])
    alerts = compute_alerts(statements, compute_ratios(statements, company), company)
    assert [a.rule for a in alerts] == [
        "net_loss",
        "negative_free_cash_flow",
        "leverage_high",
        "leverage_up",
        "ebitda_drop",
    ]
    assert (
        alerts[1].text() == f"Maison Ferlac SAS - Free cash-flow négatif en 2025 : -14{NNBSP}930 k€"
    )
    assert alerts[3].text().endswith("Levier en hausse : 5,5x en 2025 contre 3,6x en 2024")


def test_facts_round_trip(pages: dict[str, list[str]]) -> None:
    company, statements = _analyse(pages["helvane"])
    ratios = compute_ratios(statements, company)
    facts = [r.to_fact() for r in ratios]
    facts += [a.to_fact() for a in compute_alerts(statements, ratios, company)]
    assert parse_facts(render_facts(facts)) == facts
    assert [f.render() for f in facts[: len(ratios)]] == [r.render() for r in ratios]


def _statements(values: dict[tuple[str, int], str]) -> Statements:
    fields = tuple(
        Field(key, key, year, Decimal(value), 1, "k€", Statement.INCOME, value)
        for (key, year), value in values.items()
    )
    return Statements(fields=fields, locale=Locale.FR)


ACME = Company("Acme SA", "acme")


@pytest.mark.parametrize(
    ("values", "rules"),
    [
        (
            {("net_income", 2025): "10", ("free_cash_flow", 2025): "-5", ("revenue", 2025): "100"},
            ["profit_but_cash_burn"],
        ),
        (
            {
                ("net_income", 2025): "10",
                ("operating_cash_flow", 2025): "20",
                ("capex", 2025): "-30",
            },
            ["profit_but_cash_burn"],
        ),
        ({("net_income", 2025): "-1", ("revenue", 2025): "100"}, ["net_loss"]),
        ({("net_debt", 2025): "40", ("ebitda", 2025): "10"}, []),
        ({("net_debt", 2025): "41", ("ebitda", 2025): "10"}, ["leverage_high"]),
        ({("net_debt", 2025): "41", ("ebitda", 2025): "-10"}, []),
        (
            {("ebitda", 2025): "89", ("ebitda", 2024): "100"},
            ["ebitda_drop"],
        ),
        ({("ebitda", 2025): "90", ("ebitda", 2024): "100"}, []),
        ({("equity", 2025): "-3"}, ["negative_equity"]),
        ({("net_income", 2025): "5", ("free_cash_flow", 2025): "5"}, []),
    ],
    ids=[
        "profit-cash-burn",
        "computed-fcf",
        "net-loss",
        "leverage-at-threshold",
        "leverage-above",
        "negative-ebitda",
        "ebitda-drop",
        "ebitda-drop-at-threshold",
        "negative-equity",
        "healthy",
    ],
)
def test_alert_rules(values: dict[tuple[str, int], str], rules: list[str]) -> None:
    statements = _statements(values)
    alerts = compute_alerts(statements, compute_ratios(statements, ACME), ACME)
    assert [a.rule for a in alerts] == rules
    assert [a.id for a in alerts] == [f"A-acme-{n}" for n in range(1, len(rules) + 1)]


def test_leverage_falls_back_to_computed_operands() -> None:
    statements = _statements(
        {
            ("long_term_debt", 2025): "300",
            ("current_debt", 2025): "50",
            ("cash", 2025): "100",
            ("operating_income", 2025): "80",
            ("depreciation", 2025): "-20",
        }
    )
    (leverage,) = [r for r in compute_ratios(statements, ACME) if r.id == "R-acme-levier"]
    assert leverage.value(2025) == Decimal("2.5")
    assert leverage.formula == (
        "(dettes financières - trésorerie) / (résultat d'exploitation + amortissements)"
    )


def test_no_ratio_without_its_operands() -> None:
    assert compute_ratios(_statements({("revenue", 2025): "100"}), ACME) == ()
    assert compute_alerts(Statements(fields=(), locale=Locale.FR), (), ACME) == ()


@pytest.mark.parametrize(
    ("cover", "name", "slug"),
    [
        (["Maison Ferlac SAS\nRapport annuel 2025\n"], "Maison Ferlac SAS", "ferlac"),
        (["Rapport annuel 2025\nGroupe Ordalie\n"], "Groupe Ordalie", "ordalie"),
        (
            ["FORM 10-K\nCommission File Number 001-37845\nMICROSOFT CORPORATION\nWASHINGTON\n"],
            "MICROSOFT CORPORATION",
            "microsoft",
        ),
        (
            [
                "FORM 10-K\n_______ Netflix, Inc.\n(Exact name of registrant as specified in its "
                "charter)\n"
            ],
            "Netflix, Inc.",
            "netflix",
        ),
        (["", "x"], "Unknown company", "unknown"),
        # running headers: the name is the line's first cell, ended by its legal form
        (["Ostrava Pumps plc  |  Annual Report 2025\n"], "Ostrava Pumps plc", "ostrava"),
        (
            ["Tanjung Marine Berhad Registration No. 1998 (4567-X) Annual Report 2025\n"],
            "Tanjung Marine Berhad",
            "tanjung",
        ),
        (["Lumex Asia Pte. Ltd. Annual Report 2025\n"], "Lumex Asia Pte. Ltd.", "lumex"),
        (["FONDERIES ARVAL SAS — Comptes annuels 2025\n"], "FONDERIES ARVAL SAS", "fonderies"),
        (["Brasseries Oudane\tRapport annuel 2025\n"], "Brasseries Oudane", "brasseries"),
        (["Verrerie Noyal Rapport financier annuel 2025\n"], "Verrerie Noyal", "verrerie"),
        (["Casa se Bello Co Ltd\n"], "Casa se Bello Co Ltd", "casa"),
    ],
    ids=[
        "cover",
        "title-first",
        "sec-file-number",
        "sec-registrant",
        "empty",
        "header-bar",
        "header-registration",
        "header-two-forms",
        "header-dash",
        "header-tab",
        "header-title-joined",
        "lower-case-word",
    ],
)
def test_detect_company(cover: list[str], name: str, slug: str) -> None:
    assert detect_company(cover) == Company(name, slug)


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Solvéa Énergies SA", "solvea"),
        ("Helvane", "helvane"),
        ("The Coca-Cola Company", "coca"),
        ("SA", "sa"),
    ],
)
def test_slug_of(name: str, slug: str) -> None:
    assert slug_of(name) == slug


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (Decimal("-0.005") * 100, 1, "-0,5"),
        (Decimal("5.5"), 1, "5,5"),
        (Decimal("3.64"), 1, "3,6"),
        (Decimal("3.65"), 1, "3,7"),
        (Decimal("-47225"), 0, f"-47{NNBSP}225"),
        (Decimal("18992.8"), 1, f"18{NNBSP}992,8"),
        (Decimal("-0.04"), 1, "0,0"),
    ],
    ids=["margin", "plain", "round-down", "round-half-up", "thousands", "decimal", "tiny"],
)
def test_format_decimal(value: Decimal, places: int, text: str) -> None:
    assert format_decimal(value, places) == text


def test_a_rounding_difference_of_one_unit_is_tolerated() -> None:
    sheet = [
        "CONSOLIDATED BALANCE SHEETS\n(in millions)\n2023 2022\nTotal assets 100 90\n"
        "Total liabilities 60 55\nTotal stockholders' equity 40 36\n"
        "Total liabilities and stockholders' equity 100 91\n"
    ]
    report = check_identities(extract_statements(sheet))
    assert report.ok
    assert report.checked == 4


CREDIT_CASES = {
    "leverage with leases": (
        {
            ("net_debt", 2025): "50",
            ("ebitda", 2025): "20",
            ("lease_liabilities_noncurrent", 2025): "8",
            ("lease_liabilities_current", 2025): "2",
        },
        "levier-loyers",
        "3",
    ),
    "interest cover from a negative cost of debt": (
        {("operating_income", 2025): "30", ("net_financial_expense", 2025): "-12"},
        "couverture",
        "2.5",
    ),
    "current ratio": (
        {("current_assets", 2025): "150", ("current_liabilities", 2025): "100"},
        "liquidite",
        "1.5",
    ),
    "capex intensity from a negative capex": (
        {("capex", 2025): "-8", ("revenue", 2025): "200"},
        "capex",
        "4",
    ),
    "ebitda margin": ({("ebitda", 2025): "30", ("revenue", 2025): "200"}, "marge-ebitda", "15"),
}


@pytest.mark.parametrize("case", CREDIT_CASES)
def test_credit_ratios(case: str) -> None:
    values, suffix, expected = CREDIT_CASES[case]
    ratios = {r.id: r for r in compute_ratios(_statements(values), ACME)}
    assert ratios[f"R-acme-{suffix}"].value(2025) == Decimal(expected)


@pytest.mark.parametrize(
    ("values", "absent"),
    [
        ({("net_debt", 2025): "50", ("ebitda", 2025): "20"}, "levier-loyers"),
        ({("operating_income", 2025): "30"}, "couverture"),
        ({("current_assets", 2025): "150"}, "liquidite"),
        ({("operating_income", 2025): "30", ("net_financial_expense", 2025): "0"}, "couverture"),
    ],
    ids=["no-lease-line", "no-cost-of-debt", "no-current-liabilities", "zero-cost-of-debt"],
)
def test_no_ratio_is_invented_when_an_input_is_missing(
    values: dict[tuple[str, int], str], absent: str
) -> None:
    ids = {r.id for r in compute_ratios(_statements(values), ACME)}
    assert f"R-acme-{absent}" not in ids


def test_a_ratio_not_computed_says_which_input_is_missing() -> None:
    values = {
        ("net_debt", 2025): "50",
        ("ebitda", 2025): "-5",
        ("operating_income", 2025): "30",
        ("revenue", 2025): "100",
        ("net_income", 2025): "4",
    }
    reasons = ratios_not_computed(_statements(values))
    assert "Levier 2025: EBITDA (or operating income and D&A) is not positive" in reasons
    assert "Couverture des intérêts 2025: no net cost of debt (or financial result or charges)" in (
        reasons
    )
    assert (
        "Ratio de liquidité générale 2025: no current assets and no current liabilities"
        " (or a dated maturity note's total within a year)"
    ) in reasons
    assert not any(r.startswith("Marge nette") for r in reasons)  # computed: 4 %


def test_half_year_flows_give_no_leverage_and_say_their_period() -> None:
    values = {
        ("net_debt", 2023): "50",
        ("ebitda", 2023): "20",
        ("net_income", 2023): "4",
        ("revenue", 2023): "100",
        ("equity", 2023): "80",
    }
    half = _statements(values)
    # Fields of a 10-Q's six-month columns (a field read by year only has no known duration).
    fields = tuple(replace(f, months=6) for f in half.fields)
    statements = replace(half, fields=fields, flow_months=6)
    ratios = {r.id.removeprefix("R-acme-"): r for r in compute_ratios(statements, ACME)}
    assert sorted(ratios) == ["gearing", "marge", "marge-ebitda"]
    assert ratios["marge"].formula == "résultat net / chiffre d'affaires (sur 6 mois)"
    assert "Levier: the income and cash-flow columns cover 6 months, not a year" in (
        ratios_not_computed(statements)
    )
