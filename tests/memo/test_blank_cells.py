"""A row with a blank cell is placed by its values' x-positions (real PDF through pypdfium2)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from preuve.io.pdf import char_lefts, load_pages, pdf_positions
from preuve.memo.lexicon import Statement
from preuve.memo.table_columns import place
from preuve.memo.tables import StatementTable, read_tables

# (label, value per column; None is a blank cell). Columns end at these x (right-aligned).
COLUMNS = (380.0, 460.0, 540.0)
ROWS: tuple[tuple[str, tuple[str | None, ...]], ...] = (
    ("Net income", ("1,906", "512", "960")),
    ("Depreciation", ("1,352", "1,399", "1,390")),
    ("Asbestos claim payments", (None, "(130)", "(50)")),
    ("Tax assessment refunds", (None, "101", None)),
    ("Excess consideration paid", ("(803)", None, None)),
    ("Sale of equipment", (None, None, "78")),
    ("Other, net", ("(97)", "(12)", "150")),
)


def _write(path: Path, rows: tuple[tuple[str, tuple[str | None, ...]], ...]) -> Path:
    pdf = canvas.Canvas(str(path))
    pdf.setFont("Helvetica", 9)
    y = 780.0
    pdf.drawString(60, y, "Consolidated Statements of Cash Flows")
    y -= 14
    pdf.drawString(60, y, "Year ended December 31,")
    y -= 14
    pdf.drawString(60, y, "(In millions)")
    for x, year in zip(COLUMNS, ("2021", "2020", "2019"), strict=True):
        pdf.drawRightString(x - 8, y, year)  # headers set a little left of the figures
    for label, values in rows:
        y -= 14
        pdf.drawString(60, y, label)
        for x, value in zip(COLUMNS, values, strict=True):
            if value is not None:
                # accounting style: a closing parenthesis hangs right of the digits
                pdf.drawRightString(x + (4 if value.endswith(")") else 0), y, value)
    pdf.showPage()
    pdf.save()
    return path


def _cash_flows(pages: list[str], path: Path | None) -> StatementTable:
    positions = None if path is None else pdf_positions(path, pages)
    return next(t for t in read_tables(pages, positions) if t.statement is Statement.CASHFLOW)


def _by_year(table: StatementTable) -> dict[str, dict[int, Decimal]]:
    return {r.label: {c.period.year: c.value for c in r.cells} for r in table.rows}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write(tmp_path_factory.mktemp("blank") / "cash.pdf", ROWS)


def test_blank_cells_are_placed_in_their_period_column(report: Path) -> None:
    pages = load_pages(report)
    assert _by_year(_cash_flows(pages, report)) == {
        "Net income": {2021: Decimal(1906), 2020: Decimal(512), 2019: Decimal(960)},
        "Depreciation": {2021: Decimal(1352), 2020: Decimal(1399), 2019: Decimal(1390)},
        "Asbestos claim payments": {2020: Decimal(-130), 2019: Decimal(-50)},
        "Tax assessment refunds": {2020: Decimal(101)},
        "Excess consideration paid": {2021: Decimal(-803)},
        "Sale of equipment": {2019: Decimal(78)},
        "Other, net": {2021: Decimal(-97), 2020: Decimal(-12), 2019: Decimal(150)},
    }


def test_each_placed_value_keeps_its_exact_span(report: Path) -> None:
    pages = load_pages(report)
    for row in _cash_flows(pages, report).rows:
        for cell in row.cells:
            assert pages[0][cell.start : cell.end] == cell.raw


def test_without_positions_a_short_row_is_missed_never_misplaced(report: Path) -> None:
    pages = load_pages(report)
    assert sorted(_by_year(_cash_flows(pages, None))) == [
        "Depreciation",
        "Net income",
        "Other, net",
    ]


def test_positions_of_another_text_are_not_used(report: Path) -> None:
    pages = load_pages(report)
    assert char_lefts(report, 1, pages[0] + "x") == []
    assert char_lefts(report, 2, pages[0]) == []
    assert char_lefts(report.with_suffix(".missing"), 1, pages[0]) == []


PLACE_CASES: dict[str, tuple[list[float], list[float], list[int] | None]] = {
    "middle column": ([498.0], [412.0, 498.0, 584.0], [1]),
    "last two": ([497.0, 585.0], [412.0, 498.0, 584.0], [1, 2]),
    "near enough": ([440.0], [412.0, 498.0, 584.0], [0]),
    "halfway between two columns": ([455.0], [412.0, 498.0, 584.0], None),
    "two values in one column": ([495.0, 500.0], [412.0, 498.0, 584.0], None),
    "out of order": ([584.0, 412.0], [412.0, 498.0, 584.0], None),
    "a full row needs no placing": ([412.0, 498.0, 584.0], [412.0, 498.0, 584.0], None),
    "columns not left to right": ([498.0], [584.0, 498.0, 412.0], None),
}


@pytest.mark.parametrize("case", PLACE_CASES)
def test_place(case: str) -> None:
    xs, anchors, expected = PLACE_CASES[case]
    assert place(xs, anchors) == expected
