"""IFRS layouts the table reader must read wherever they are printed (issue 14, s27): an
income statement under IAS 1's name (``statement of profit or loss``) with no operating
line (the finance lines follow the expenses), a notes column holding a range of notes, an
EBITDA printed only in a non-IFRS reconciliation that a sentence announces (no heading of
its own), net finance costs printed positive there, and a direct-method cash-flow
statement whose indirect reconciliation is a note. A made-up report in its own wording."""

from __future__ import annotations

from decimal import Decimal

from preuve.memo import operands as op
from preuve.memo.english import formula_en
from preuve.memo.lexicon import Statement, heading_kind, unit_of
from preuve.memo.statements import Statements, extract_statements
from preuve.memo.table_fields import merged_statements, table_statements
from preuve.memo.tables import StatementTable, read_tables

REVIEW = """Strategic report
Trading
Adjusted EBITDA is an alternative performance measure which the board uses to follow
the business; the table below reconciles it to the profit reported under IFRS.

2025 2024
€'000 €'000
Profit for the financial year 1,200 900
Taxation 400 300
Net finance costs 650 700
Depreciation and amortisation 2,100 2,000
EBITDA 4,350 3,900
Restructuring costs 300 -
Adjusted EBITDA 4,650 3,900
Outlook
Orders for the coming winter are in line with the board's plan and the new depot opens in spring.
"""

INCOME = """Group statement of profit or loss
for the year to 31 March 2025
Note 2025 2024
€'000 €'000
Revenue from contracts with customers 2 31,400 28,900
Staff costs 3 (15,900) (14,800)
Fuel and energy (6,100) (5,200)
Other operating costs (5,350) (4,900)
Depreciation and amortisation charge 7-8 (2,100) (2,000)
Finance income 50 20
Finance costs 5 (700) (720)
Profit before taxation 1,600 1,200
Taxation 6 (400) (300)
Profit for the financial year 1,200 900
Items that may be reclassified subsequently to profit or loss
Cash flow hedges (30) 10
"""

CASH = """Group statement of cash flows
for the year to 31 March 2025
Note 2025 2024
€'000 €'000
Cash receipts from customers 31,000 28,500
Cash paid to suppliers and employees (26,900) (24,600)
Tax paid (380) (290)
Net cash from operating activities 3,720 3,610
Purchase of property, plant and equipment (2,400) (2,100)
Net cash used in investing activities (2,400) (2,100)
"""

NOTE = """Notes to the group financial statements
18 Reconciliation of profit for the year to net cash from operating activities
2025 2024
€'000 €'000
Profit for the financial year 1,200 900
Depreciation and amortisation 2,100 2,000
Increase in receivables (180) (90)
Increase in payables 600 800
Net cash from operating activities 3,720 3,610
"""

PAGES = [REVIEW, INCOME, CASH, NOTE]


def _table(tables: list[StatementTable], page: int) -> StatementTable:
    return next(t for t in tables if t.pages[0] == page)


def _fields(key: str) -> dict[int, Decimal]:
    return {f.year: f.value for f in table_statements(PAGES) if f.key == key}


def test_the_ias_1_name_opens_an_income_statement_and_a_title_naming_it_does_not() -> None:
    assert heading_kind("Group statement of profit or loss") == (True, Statement.INCOME)
    assert heading_kind("Consolidated statement of profit or loss and other comprehensive income")[
        1
    ] is (Statement.INCOME)
    assert heading_kind("Items that may be reclassified subsequently to profit or loss") == (
        False,
        None,
    )


def test_a_column_headed_in_thousands_of_dollars_or_euros() -> None:
    assert unit_of("2025 2024\n$'000 $'000") == ("$ thousands", 1000)
    assert unit_of("€'000 €'000") == ("k€", 1000)
    # another country's dollar keeps its letters (it was "$ thousands", read as US dollars)
    assert unit_of("A$’000") == ("A$ thousands", 1000)
    assert unit_of("Group\nS$'000 S$'000") == ("S$ thousands", 1000)
    assert unit_of("(in millions of US$)\nUS$ millions") == ("$ millions", 10**6)
    assert unit_of("Notes 2025 2024 2000") is None  # a year is no unit


def test_the_income_statement_rows_with_a_range_of_notes() -> None:
    income = _table(read_tables(PAGES), 2)
    assert income.statement is Statement.INCOME and not income.supplement
    assert income.unit == "k€"
    labels = [r.label for r in income.rows]
    assert "Depreciation and amortisation charge" in labels
    assert "Revenue from contracts with customers" in labels
    assert _fields("revenue") == {2025: Decimal(31400), 2024: Decimal(28900)}
    assert _fields("depreciation") == {2025: Decimal(-2100), 2024: Decimal(-2000)}
    assert _fields("pre_tax_income") == {2025: Decimal(1600), 2024: Decimal(1200)}
    assert _fields("income_tax") == {2025: Decimal(-400), 2024: Decimal(-300)}


def test_an_announced_non_ifrs_reconciliation_completes_the_income_statement() -> None:
    review = _table(read_tables(PAGES), 1)
    assert review.statement is Statement.INCOME and review.supplement
    assert [r.label for r in review.rows][-1] == "Adjusted EBITDA"
    assert "Outlook" not in " ".join(r.label for r in review.rows)
    # The statements' own lines win; the reconciliation gives what they do not print.
    assert _fields("ebitda") == {2025: Decimal(4350), 2024: Decimal(3900)}
    assert _fields("adjusted_ebitda") == {2025: Decimal(4650), 2024: Decimal(3900)}
    assert _fields("income_tax") == {2025: Decimal(-400), 2024: Decimal(-300)}
    # Costs printed positive are a net cost of debt, never a financial result of +650.
    assert _fields("net_financial_expense") == {2025: Decimal(650), 2024: Decimal(700)}
    assert _fields("financial_result") == {}


def test_a_sentence_naming_a_measure_with_figures_after_it_opens_no_table() -> None:
    page = (
        "Adjusted EBITDA is a non-GAAP measure; it rose by 8% in the year.\n"
        "Revenue grew 9% to 31,400 and margins held 1,200 900\n"
    )
    assert read_tables([page]) == []


def test_the_indirect_reconciliation_note_completes_a_direct_cash_flow_statement() -> None:
    tables = read_tables(PAGES)
    face, note = _table(tables, 3), _table(tables, 4)
    assert (face.statement, face.supplement) == (Statement.CASHFLOW, False)
    assert (note.statement, note.supplement) == (Statement.CASHFLOW, True)
    assert [r.label for r in note.rows] == [
        "Profit for the financial year",
        "Depreciation and amortisation",
        "Increase in receivables",
        "Increase in payables",
        "Net cash from operating activities",
    ]
    # The operating cash flow is the face's (page 3), read once.
    flows = [f for f in table_statements(PAGES) if f.key == "operating_cash_flow"]
    assert {(f.year, f.page) for f in flows} == {(2025, 3), (2024, 3)}


def test_interest_cover_and_ebitda_without_an_operating_line() -> None:
    pages = [INCOME]
    statements = merged_statements(pages, extract_statements(pages))
    earnings = op.ebit(statements, 2025)
    assert earnings is not None
    # profit before tax + finance costs - finance income
    assert earnings.value == Decimal(1_600_000 + 700_000 - 50_000)
    assert earnings.formula == "(résultat avant impôt + charges financières - produits financiers)"
    ebitda = op.ebitda(statements, 2025)
    assert ebitda is not None and ebitda.value == Decimal(2_250_000 + 2_100_000)
    cost = op.interest(statements, 2025)
    assert cost is not None and cost.value == Decimal(650_000)


def test_operating_income_stays_the_ebit_when_printed() -> None:
    page = INCOME.replace(
        "Finance income 50 20", "Operating profit 1,950 2,000\nFinance income 50 20"
    )
    statements = merged_statements([page], extract_statements([page]))
    earnings = op.ebit(statements, 2025)
    assert earnings is not None and earnings.value == Decimal(1_950_000)
    assert earnings.formula == "résultat opérationnel"


def test_ebit_from_a_financial_result_or_a_net_cost() -> None:
    def statements(*rows: tuple[str, int]) -> Statements:
        page = "Group statement of profit or loss\n2025 2024\n€'000 €'000\n" + "".join(
            f"{label} {value:,} {value:,}\n" for label, value in rows
        )
        return merged_statements([page], extract_statements([page]))

    with_result = statements(("Net financial result", -300), ("Profit before tax", 900))
    earnings = op.ebit(with_result, 2025)
    assert earnings is not None and earnings.value == Decimal(1_200_000)
    with_cost = statements(("Net finance costs", -300), ("Profit before tax", 900))
    earnings = op.ebit(with_cost, 2025)
    assert earnings is not None and earnings.value == Decimal(1_200_000)
    assert (
        op.ebit(
            statements(
                ("Profit before tax", 900),
            ),
            2025,
        )
        is None
    )


def test_the_ebit_formulas_in_english() -> None:
    statements = merged_statements([INCOME], extract_statements([INCOME]))
    earnings, ebitda = op.ebit(statements, 2025), op.ebitda(statements, 2025)
    assert earnings is not None and ebitda is not None
    assert formula_en(earnings.formula) == (
        "(profit before tax + financial charges - financial income)"
    )
    assert formula_en(ebitda.formula) == (
        "(profit before tax + financial charges - financial income + D&A)"
    )
