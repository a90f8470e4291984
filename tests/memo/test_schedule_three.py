"""An Indian Schedule III layout: "Statement of Profit and Loss", a balance sheet over two
pages ending on the signatures' place and date (made-up company and figures)."""

from __future__ import annotations

from preuve.memo.lexicon import Statement, heading_kind
from preuve.memo.tables import StatementTable, read_tables


def _table(pages: list[str], statement: Statement) -> StatementTable:
    return next(t for t in read_tables(pages) if t.statement is statement)


def test_the_statement_of_profit_and_loss_is_an_income_statement() -> None:
    heading = "Standalone Statement of Profit and Loss for the year ended 31 March 2025"
    assert heading_kind(heading) == (True, Statement.INCOME)
    page = (
        "Standalone Statement of Profit and Loss for the year ended 31 March 2025\n"
        "(All amounts in ₹ lakhs)\n"
        "Particulars                       Note     Year ended       Year ended\n"
        "                                        31 March 2025    31 March 2024\n"
        "Revenue from operations            21     3,48,112.40      3,02,870.15\n"
        "Profit for the year                          21,406.88        18,115.02\n"
    )
    income = _table([page], Statement.INCOME)
    assert [(r.label, [str(c.value) for c in r.cells]) for r in income.rows] == [
        ("Revenue from operations", ["348112.40", "302870.15"]),
        ("Profit for the year", ["21406.88", "18115.02"]),
    ]


_FIRST = (
    "Standalone Balance Sheet as at 31 March 2025\n"
    "Particulars                       Note        As at            As at\n"
    "                                        31 March 2025    31 March 2024\n"
    "Property, plant and equipment      4      1,12,300.10        98,406.55\n"
    "Total non-current assets                  1,40,118.62      1,22,960.04\n"
    "Continued on next page\n"
)
_SECOND = (
    "Standalone Balance Sheet as at 31 March 2025 (continued)\n"
    "Particulars                       Note        As at            As at\n"
    "                                        31 March 2025    31 March 2024\n"
    "Trade payables                    18        22,814.30        20,118.47\n"
    "TOTAL EQUITY AND LIABILITIES              1,92,406.11      1,70,224.80\n"
    "For and on behalf of the Board\n"
    "Nashik, 19 May 2025\n"
    "                                     6\n"
)


def test_a_signature_s_place_and_date_does_not_restart_the_columns() -> None:
    balance = _table([_FIRST, _SECOND], Statement.BALANCE)
    assert balance.pages == [1, 2]
    assert [p.key for p in balance.periods] == ["at 2025-03-31", "at 2024-03-31"]
    assert [r.label for r in balance.rows][-2:] == [
        "Trade payables",
        "TOTAL EQUITY AND LIABILITIES",
    ]
