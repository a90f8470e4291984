"""Statement extraction: the bundled corpus field by field, and reports it was never tuned on."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from preuve.core.numbers import Locale
from preuve.corpora.memo_reports import GOLD_RELATIVE, generate_memo_corpus
from preuve.io.pdf import load_pages
from preuve.memo.lexicon import Statement, heading_kind, lookup_label, normalize_label, unit_of
from preuve.memo.statements import Statements, extract_statements

SLUGS = ["ferlac", "solvea", "helvane"]
SRC = Path(__file__).resolve().parents[2] / "src" / "preuve" / "memo"


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("memo-corpus")
    generate_memo_corpus(out)
    return out


@pytest.fixture(scope="session")
def gold(corpus: Path) -> dict[str, dict[str, Any]]:
    data = json.loads((corpus / GOLD_RELATIVE).read_text(encoding="utf-8"))
    return {company["slug"]: company for company in data["companies"]}


@pytest.fixture(scope="session")
def extracted(corpus: Path) -> dict[str, Statements]:
    return {
        slug: extract_statements(load_pages(corpus / "reports" / f"{slug}.pdf")) for slug in SLUGS
    }


@pytest.mark.parametrize("slug", SLUGS)
def test_every_gold_field_is_extracted_with_value_and_page(
    slug: str, gold: dict[str, dict[str, Any]], extracted: dict[str, Statements]
) -> None:
    statements = extracted[slug]
    misses = []
    for expected in gold[slug]["fields"]:
        found = statements.get(expected["key"], expected["year"])
        got = None if found is None else (found.value, found.page, found.unit)
        if got != (Decimal(expected["value"]), expected["page"], "k€"):
            misses.append((expected["key"], expected["year"], got))
    assert misses == []
    assert len(gold[slug]["fields"]) == 68


@pytest.mark.parametrize("slug", SLUGS)
def test_bundled_statements_are_fully_recognised(
    slug: str, extracted: dict[str, Statements]
) -> None:
    statements = extracted[slug]
    assert statements.locale is Locale.FR
    assert statements.unmapped == ()
    assert statements.years == (2025, 2024)
    assert all(statements.fully_mapped(s) for s in Statement)


def test_the_key_figures_table_of_the_management_report_is_not_taken(
    gold: dict[str, dict[str, Any]], extracted: dict[str, Statements]
) -> None:
    # Revenue also appears in "Chiffres clés" (page 3) and in note 3: the statement wins.
    revenue = extracted["ferlac"].get("revenue", 2025)
    assert revenue is not None
    assert revenue.page == 5
    assert revenue.raw == "142\u202f600"


def test_inference_code_never_names_the_gold() -> None:
    for name in ("statements.py", "lexicon.py", "identities.py", "ratios.py"):
        assert "gold" not in (SRC / name).read_text(encoding="utf-8").lower(), name


TEN_K = [
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nACME WIDGETS INC.\n"
    "(Exact name of registrant as specified in its charter)\n",
    "Item 7. Management's Discussion\nTotal revenues increased 12% to $4,210 million.\n",
    "ACME WIDGETS INC.\nCONSOLIDATED STATEMENTS OF OPERATIONS\n"
    "(in millions, except per share data)\nYear Ended December 31,\n2023 2022 2021\n"
    "Revenues:\nProducts $ 3,100 $ 2,800 $ 2,500\nServices 1,110 960 900\n"
    "Total revenues 4,210 3,760 3,400\nCost of revenues 2,900 2,500 2,300\n"
    "Operating income (loss) 310 (120) 95\nInterest expense (45) (40 ) (38)\n"
    "Net income (loss) $ 212 $ (1,577) $ 41\nBasic $ 1.10 $ (8.20) $ 0.21\n",
    "ACME WIDGETS INC.\nCONSOLIDATED BALANCE SHEETS\n(in millions)\nDecember 31, 2023 2022\n"
    "Assets\nCash and cash equivalents $ 640 $ 515\n"
    "Trade accounts receivable, net of doubtful accounts - $42 and $46 2,004 2,133\n"
    "Total assets $ 9,120 $ 8,870\n"
    "Total liabilities 6,020 6,000\nTotal stockholders’ equity 3,100 2,870\n"
    "Total liabilities and stockholders’ equity $ 9,120 $ 8,870\n",
    "ACME WIDGETS INC.\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n(in millions)\n"
    "Years Ended December 31,\n2023\n2022\n2021\n"
    "Net cash (used in) provided by operating activities\n(80) 410 300\n"
    "Purchases of property and equipment (150) (140) (120)\nDividends paid — (20) (20)\n",
]


@pytest.mark.parametrize(
    ("key", "year", "value", "page"),
    [
        ("revenue", 2023, "4210", 3),
        ("revenue", 2021, "3400", 3),
        ("net_income", 2022, "-1577", 3),
        ("operating_income", 2022, "-120", 3),
        ("net_financial_expense", 2022, "-40", 3),
        ("cash", 2022, "515", 4),
        ("trade_receivables", 2022, "2133", 4),
        ("total_assets", 2023, "9120", 4),
        ("parent_equity", 2023, "3100", 4),
        ("total_equity_and_liabilities", 2022, "8870", 4),
        ("operating_cash_flow", 2023, "-80", 5),
        ("capex", 2021, "-120", 5),
        ("dividends", 2023, "0", 5),
    ],
    ids=str,
)
def test_an_english_10k_style_report(key: str, year: int, value: str, page: int) -> None:
    statements = extract_statements(TEN_K)
    found = statements.get(key, year)
    assert found is not None
    assert (found.value, found.page) == (Decimal(value), page)
    assert found.unit == "$ millions" if page != 5 else found.unit == "millions"
    assert statements.locale is Locale.EN


def test_english_report_keeps_unrecognised_rows_apart() -> None:
    statements = extract_statements(TEN_K)
    assert {r.label for r in statements.unmapped} >= {"Products", "Services", "Basic"}
    assert statements.get("revenue", 2023) is not None
    assert not statements.fully_mapped(Statement.INCOME)


def test_french_amounts_with_plain_spaces_and_note_references() -> None:
    pages = [
        "Société Exemple\nCompte de résultat\n(en milliers d'euros) Note 2025 2024\n"
        "Chiffre d’affaires 3 142 600 151 300\nRésultat d’exploitation (4 550) 8 050\n"
        "Résultat net de l’exercice 12 1 713 (970)\n"
    ]
    statements = extract_statements(pages)
    assert statements.value("revenue", 2025) == Decimal(142_600)
    assert statements.value("revenue", 2024) == Decimal(151_300)
    assert statements.value("operating_income", 2025) == Decimal(-4_550)
    assert statements.value("net_income", 2025) == Decimal(1_713)
    assert statements.value("net_income", 2024) == Decimal(-970)


def test_rows_glued_on_one_line_and_years_before_them() -> None:
    pages = [
        "Consolidated Balance Sheets EXAMPLE CORP\n(In Millions) May 29, 2022 May 30, 2021 "
        "ASSETS Current assets: Cash and cash equivalents $ 569.4 $ 1,505.2 Receivables "
        "1,692.1 1,638.5\nTotal assets $ 31,090.1 $ 31,841.9\n"
    ]
    statements = extract_statements(pages)
    assert statements.value("cash", 2022) == Decimal("569.4")
    assert statements.value("trade_receivables", 2021) == Decimal("1638.5")
    assert statements.value("total_assets", 2021) == Decimal("31841.9")


def test_a_label_wrapped_over_two_lines() -> None:
    pages = [
        "Statements of Cash Flows\n(in thousands)\n2023 2022\nNet cash provided by operating\n"
        "activities 1,200 900\n"
    ]
    assert extract_statements(pages).value("operating_cash_flow", 2022) == Decimal(900)


def test_the_fuller_statement_wins_over_a_summary() -> None:
    summary = "Consolidated Statements of Operations:\n2023 2022\nRevenues 10 9\n"
    full = (
        "CONSOLIDATED STATEMENTS OF OPERATIONS\n(in millions)\n2023 2022\nRevenues 100 90\n"
        "Operating income 20 18\nNet income 12 11\n"
    )
    statements = extract_statements([summary, full])
    found = statements.get("revenue", 2023)
    assert found is not None
    assert (found.value, found.page) == (Decimal(100), 2)


def test_no_statement_heading_means_no_fields() -> None:
    pages = ["Chiffres clés\nEn milliers d'euros 2025 2024\nChiffre d'affaires 142 600 151 300\n"]
    assert extract_statements(pages).fields == ()


@pytest.mark.parametrize(
    ("label", "normalized"),
    [
        ("Chiffre d’affaires (note 3) :", "chiffre d'affaires"),
        ("Chiffre d'affaires 3", "chiffre d'affaires"),
        ("Total stockholders’ equity", "total stockholders equity"),
        (
            "Flux de trésorerie disponible (free cash-flow)",
            "flux de trésorerie disponible free cash flow",
        ),
        ("1.2 Stocks et en-cours", "stocks et en cours"),
        ("Consolidated\u00a0Statements\u00a0of\u00a0Income", "consolidated statements of income"),
    ],
    ids=["apostrophe-note", "note-ref", "possessive", "hyphen", "numbering", "nbsp"],
)
def test_normalize_label(label: str, normalized: str) -> None:
    assert normalize_label(label) == normalized


@pytest.mark.parametrize(
    ("label", "statement", "key"),
    [
        ("Chiffre d’affaires", Statement.INCOME, "revenue"),
        ("Total revenues", Statement.INCOME, "revenue"),
        ("Net sales", Statement.INCOME, "revenue"),
        ("Résultat net", Statement.INCOME, "net_income"),
        ("Net earnings attributable to General Mills", Statement.INCOME, "net_income"),
        ("Net income attributable to noncontrolling interests", Statement.INCOME, None),
        ("Net income per share", Statement.INCOME, None),
        ("EBE", Statement.INCOME, "ebitda"),
        ("Total actif", Statement.BALANCE, "total_assets"),
        ("Total assets", Statement.BALANCE, "total_assets"),
        ("Dette financière brute", Statement.BALANCE, "gross_debt"),
        ("Total debt", Statement.BALANCE, "gross_debt"),
        ("Trésorerie et équivalents", Statement.BALANCE, "cash"),
        ("Cash and cash equivalents", Statement.BALANCE, "cash"),
        ("Cash and cash equivalents", Statement.CASHFLOW, None),
        (
            "Net cash (used in) provided by operating activities",
            Statement.CASHFLOW,
            "operating_cash_flow",
        ),
        ("Flux de trésorerie liés à l'activité", Statement.CASHFLOW, "operating_cash_flow"),
        ("Capital expenditures", Statement.CASHFLOW, "capex"),
        ("Purchases of property and equipment", Statement.CASHFLOW, "capex"),
        ("Depreciation and amortization", Statement.CASHFLOW, "depreciation"),
        ("Inventories", Statement.CASHFLOW, None),
        ("Total cost of sales", Statement.INCOME, "cost_of_sales"),
    ],
    ids=str,
)
def test_lookup_label(label: str, statement: Statement, key: str | None) -> None:
    rule = lookup_label(label, statement)
    assert (None if rule is None else rule.key) == key


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Compte de résultat consolidé", (True, Statement.INCOME)),
        ("3. Bilan consolidé", (True, Statement.BALANCE)),
        ("Tableau des flux de trésorerie", (True, Statement.CASHFLOW)),
        ("CONSOLIDATED STATEMENTS OF OPERATIONS", (True, Statement.INCOME)),
        ("NIKE, Inc. Consolidated Statements of Income", (True, Statement.INCOME)),
        ("CONSOLIDATED BALANCE SHEETS", (True, Statement.BALANCE)),
        ("COMPREHENSIVE INCOME STATEMENTS", (True, None)),
        ("Annexe aux comptes consolidés", (True, None)),
        ("translate the balance sheets, operational results and cash", (False, None)),
        ("are included in the consolidated statements of income.", (False, None)),
        ("Chiffres clés", (False, None)),
    ],
    ids=str,
)
def test_heading_kind(line: str, expected: tuple[bool, Statement | None]) -> None:
    assert heading_kind(line) == expected


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("En milliers d'euros Notes 2025 2024", ("k€", 1000)),
        ("(en k€) 31/12/2025", ("k€", 1000)),
        ("en millions d’euros", ("M€", 10**6)),
        ("(In millions, except per share amounts)\nRevenue $ 12", ("$ millions", 10**6)),
        ("(in thousands)", ("thousands", 1000)),
        ("Bilan", None),
    ],
    ids=["milliers", "k-euro", "millions-euro", "dollar-millions", "thousands", "none"],
)
def test_unit_of(text: str, unit: tuple[str, int] | None) -> None:
    assert unit_of(text) == unit


def test_real_filings(financebench_dir: Path) -> None:
    """Values read by hand from the page texts of three FinanceBench filings."""
    expected = {
        "MICROSOFT_2023_10K.pdf": [
            ("revenue", 2023, "211915", 58),
            ("net_income", 2022, "72738", 58),
            ("total_assets", 2023, "411976", 60),
            ("cash", 2022, "13931", 60),
            ("operating_cash_flow", 2023, "87582", 61),
        ],
        "LOCKHEEDMARTIN_2022_10K.pdf": [
            ("revenue", 2022, "65984", 63),
            ("net_income", 2020, "6833", 63),
            ("total_assets", 2022, "52880", 65),
            ("capex", 2022, "-1670", 66),
            ("dividends", 2021, "-2940", 66),
        ],
        "NETFLIX_2015_10K.pdf": [
            ("net_income", 2015, "122641", 40),
            ("total_assets", 2014, "7042500", 43),
            ("operating_cash_flow", 2015, "-749439", 42),
        ],
        "GENERALMILLS_2022_10K.pdf": [
            ("total_assets", 2022, "31090.1", 47),
            ("net_income", 2022, "2707.3", 45),
        ],
    }
    for name, fields in expected.items():
        statements = extract_statements(load_pages(financebench_dir / "pdfs" / name))
        for key, year, value, page in fields:
            found = statements.get(key, year)
            assert found is not None, (name, key, year)
            assert (found.value, found.page) == (Decimal(value), page), (name, key, year)
