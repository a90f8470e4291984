"""The table reader: every row of a statement, keyed by period, with its exact span."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from preuve.io.documents import load_documents
from preuve.memo.dashboard import build_dashboard
from preuve.memo.identities import IDENTITY_VIOLATED
from preuve.memo.lexicon import Statement
from preuve.memo.periods import Period, read_periods, years_of_line
from preuve.memo.pipeline import run_memo
from preuve.memo.rules_engine import memo_rules_model
from preuve.memo.tables import StatementTable, read_tables
from preuve.models.journal import Journal
from tests.pdfs import write_text_pdf

# --- Periods ------------------------------------------------------------------------

PERIOD_CASES = {
    "ten-q three and six months": (
        ["Three Months Ended", "June 30,", "Six Months Ended", "June 30,"],
        "2023 2022 2023 2022",
        False,
        ["3M 2023-06-30", "3M 2022-06-30", "6M 2023-06-30", "6M 2022-06-30"],
    ),
    "french dates": ([], "Notes 31/12/2025 31/12/2024", True, ["at 2025-12-31", "at 2024-12-31"]),
    "caption before the years": (
        ["Year Ended May 31,"],
        "(In millions, except per share data) 2018 2017 2016",
        False,
        ["12M 2018-05-31", "12M 2017-05-31", "12M 2016-05-31"],
    ),
    "older first, no date": ([], "2024 2025", False, ["FY2024", "FY2025"]),
    "each column its own day": (
        ["Fiscal years ended December 31, 2022, December 25, 2021 and December 26, 2020"],
        "2022 2021 2020",
        False,
        ["12M 2022-12-31", "12M 2021-12-25", "12M 2020-12-26"],
    ),
    "balance sheet dates on the column line": (
        [],
        "June 30, 2023 December 31, 2022",
        True,
        ["at 2023-06-30", "at 2022-12-31"],
    ),
    "nine months in french": (
        ["9 mois clos le 30 septembre"],
        "2025 2024",
        False,
        ["9M 2025-09-30", "9M 2024-09-30"],
    ),
}


@pytest.mark.parametrize("case", PERIOD_CASES)
def test_periods_of_a_heading_block(case: str) -> None:
    block, line, balance, expected = PERIOD_CASES[case]
    periods = read_periods([*block, line], line, balance)
    assert [p.key for p in periods] == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("2025 2024", [(2025, 0, 0), (2024, 0, 0)]),
        ("Notes 31/12/2025 31/12/2024", [(2025, 12, 31), (2024, 12, 31)]),
        ("Revenue 2025 grew by 12 percent over the prior year", None),
        ("Effectif au 31/12 420 410", None),
    ],
)
def test_column_lines(line: str, expected: list[tuple[int, int, int]] | None) -> None:
    assert years_of_line(line) == expected


# --- Tables -------------------------------------------------------------------------

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
        "Revenues",
        "Widgets $ 1,200 $ 1,000 $ 2,300 $ 1,900",
        "Services 300 250 600 500",
        "1,500 1,250 2,900 2,400",
        "Operating income 400 (20) 700 100",
    ]
)


def _table(pages: list[str], statement: Statement) -> StatementTable:
    return next(t for t in read_tables(pages) if t.statement is statement)


def _values(table: StatementTable) -> list[tuple[str, list[str]]]:
    return [(r.label, [str(c.value) for c in r.cells]) for r in table.rows]


def test_ten_q_keeps_three_and_six_months_apart() -> None:
    table = _table([TEN_Q], Statement.INCOME)
    assert table.unit == "thousands"
    assert [p.key for p in table.periods] == [
        "3M 2023-06-30",
        "3M 2022-06-30",
        "6M 2023-06-30",
        "6M 2022-06-30",
    ]
    assert _values(table) == [
        ("Widgets", ["1200", "1000", "2300", "1900"]),
        ("Services", ["300", "250", "600", "500"]),
        ("", ["1500", "1250", "2900", "2400"]),
        ("Operating income", ["400", "-20", "700", "100"]),
    ]
    assert table.rows[2].total  # a total printed without a label


def test_each_value_has_its_exact_span_on_its_page() -> None:
    page = TEN_Q
    table = _table([page], Statement.INCOME)
    for row in table.rows:
        for cell in row.cells:
            assert page[cell.start : cell.end] == cell.raw
    first = table.rows[0].cells[0]
    assert (first.raw, first.page) == ("1,200", 1)


FRENCH_TWO_PAGES = [
    "\n".join(
        [
            "Bilan conso lidé",
            "(en milliers d'euros)",
            "Notes 31/12/2025 31/12/2024",
            "Écarts d'acquisition 6 18 450 18 450",
            "Droits d'utilisation relatifs aux contrats de",
            "location 10 14 260 15 110",
            "Stocks 25 530 21 870",
            "58 240 55 430",
            "TOTAL ACTIF 58 240 55 430",
        ]
    ),
    "\n".join(
        [
            "Bilan consolidé (suite)",
            "Notes 31/12/2025 31/12/2024",
            "Capital social 12 000 12 000",
            "Emprunts 7 54 300 43 460",
            "Flux net de trésorerie généré par",
            "l'activité",
            "(8 060) 0",
            "TOTAL PASSIF 58 240 55 430",
        ]
    ),
]


def test_french_balance_sheet_across_two_pages() -> None:
    table = _table(FRENCH_TWO_PAGES, Statement.BALANCE)
    assert table.pages == [1, 2]
    assert table.unit == "k€"
    assert [p.key for p in table.periods] == ["at 2025-12-31", "at 2024-12-31"]
    assert _values(table) == [
        ("Écarts d'acquisition", ["18450", "18450"]),
        ("Droits d'utilisation relatifs aux contrats de location", ["14260", "15110"]),
        ("Stocks", ["25530", "21870"]),
        ("", ["58240", "55430"]),
        ("TOTAL ACTIF", ["58240", "55430"]),
        ("Capital social", ["12000", "12000"]),
        ("Emprunts", ["54300", "43460"]),
        ("Flux net de trésorerie généré par l'activité", ["-8060", "0"]),
        ("TOTAL PASSIF", ["58240", "55430"]),
    ]
    assert [r.page for r in table.rows] == [1, 1, 1, 1, 1, 2, 2, 2, 2]


HEADINGS = {
    "space inside a word": "Consolidated Statement of Incom e",
    "one word a line": "Consolidated\nStatements\nof Income",
    "company prefix": "NIKE, Inc. Consolidated Statements of Income",
}


@pytest.mark.parametrize("case", HEADINGS)
def test_broken_headings_are_recognised(case: str) -> None:
    page = f"{HEADINGS[case]}\n2022 2021\nNet sales 10 9\nNet income 2 1"
    table = _table([page], Statement.INCOME)
    assert _values(table) == [("Net sales", ["10", "9"]), ("Net income", ["2", "1"])]
    assert [p.key for p in table.periods] == ["FY2022", "FY2021"]


def test_prose_naming_a_statement_is_no_heading() -> None:
    page = "Analysis of the consolidated statements of income\n2022 2021\nNet sales 10 9"
    assert read_tables([page]) == []


def test_the_larger_table_is_the_primary_one() -> None:
    key_figures = "Compte de résultat\n2025 2024\nChiffre d'affaires 100 90"
    statement = "Compte de résultat\n2025 2024\nChiffre d'affaires 100 90\nRésultat net 5 4"
    table = _table([key_figures, statement], Statement.INCOME)
    assert (table.pages, len(table.rows)) == ([2], 2)


def test_a_repeated_year_header_restarts_the_columns() -> None:
    page = "Bilan\n2024 2025\nActif\nStocks 10 12\n2024 2025\nPassif\nDettes 3 4"
    table = _table([page], Statement.BALANCE)
    assert _values(table) == [("Stocks", ["10", "12"]), ("Dettes", ["3", "4"])]
    assert [c.period for c in table.rows[1].cells] == [Period(0, 2024), Period(0, 2025)]


def test_footnote_markers_leave_the_label() -> None:
    page = "Balance Sheets\n2022 2021\nRestricted cash (1) — 500,000"
    table = _table([page], Statement.BALANCE)
    assert _values(table) == [("Restricted cash", ["0", "500000"])]
    assert table.rows[0].value(Period(0, 2021)) == Decimal(500000)


def test_a_balance_sheet_that_does_not_balance_is_a_dashboard_defect(tmp_path: Path) -> None:
    lines = [
        "ACME SA",
        "Bilan consolide",
        "31/12/2025 31/12/2024",
        "Stocks 1 200 1 000",
        "Total actif 1 200 1 000",
        "Capital 500 500",
        "Dettes fournisseurs 600 500",
        "Total passif 1 100 1 000",
    ]
    pdf = write_text_pdf(tmp_path / "acme.pdf", [lines])
    with Journal(tmp_path / "journal.sqlite") as journal:
        run = run_memo(load_documents([pdf]), memo_rules_model(), journal=journal)
    (company,) = run.companies
    assert not company.identities.ok
    (defect,) = company.identities.defects()
    assert defect.code == IDENTITY_VIOLATED
    assert "2025: total_assets = total_equity_and_liabilities does not hold" in defect.detail
    assert company.identities.structural > 0  # "Total actif = Stocks" holds, per period
    assert build_dashboard(run).rows[0].identities.endswith(", 1 violated")
