"""French tables whose thousands are grouped by plain spaces, read by the figures'
x-positions (real PDFs through pypdfium2): a column gap is never a thousands separator.

PDF text gives ``312 450 298 760`` for two right-aligned columns: from the text alone it
could be one amount. The tables here are written for these tests (their own labels and
figures), in the layouts the mechanisms are for: a notes column right of the periods', a
gross / depreciation / net balance sheet with a blank cell, extra columns before the
periods' (domestic / export), share columns between them, fiscal years over two calendar
years, whole euros.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from preuve.eval.statements_eval import load_gold_rows
from preuve.io.pdf import load_pages, pdf_positions
from preuve.memo.lexicon import Statement, unit_of
from preuve.memo.periods import years_of_line
from preuve.memo.table_columns import aligned, widen_column_gaps
from preuve.memo.tables import StatementTable, read_tables

_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

Line = tuple[str, tuple[str | None, ...]]  # a label and one cell per column (None: blank)


def _write(path: Path, heading: list[str], columns: tuple[float, ...], rows: list[Line]) -> Path:
    """One page: heading lines at the left, then rows whose cells are right-aligned at
    ``columns`` (the first row may be the column line itself)."""
    pdf = canvas.Canvas(str(path))
    font = "Helvetica"
    if _FONT.is_file():
        pdfmetrics.registerFont(TTFont("DejaVu", str(_FONT)))
        font = "DejaVu"
    pdf.setFont(font, 8)
    y = 790.0
    for text in heading:
        pdf.drawString(50, y, text)
        y -= 12
    for label, cells in rows:
        pdf.drawString(50, y, label)
        for x, cell in zip(columns, cells, strict=True):
            if cell is not None:
                pdf.drawRightString(x, y, cell)
        y -= 12
    pdf.showPage()
    pdf.save()
    return path


def _table(path: Path, statement: Statement, positions: bool = True) -> StatementTable:
    pages = load_pages(path)
    found = read_tables(pages, pdf_positions(path, pages) if positions else None)
    return next(t for t in found if t.statement is statement and not t.supplement)


def _values(table: StatementTable) -> dict[str, list[str]]:
    return {r.label: [str(c.value) for c in r.cells] for r in table.rows}


NOTES_RIGHT: list[Line] = [
    ("", ("2025", "2024", "Notes")),
    ("Ventes de produits finis", ("312 450", "298 760", "3.2")),
    ("Autres produits", ("4 120", "3 980", None)),
    ("Charges de personnel", ("-81 300", "-79 640", "3.4")),
    ("Dotations aux amortissements", ("-640", "-640", "7")),
    ("Résultat d'exploitation", ("234 630", "223 100", None)),
]


@pytest.fixture(scope="module")
def notes_right(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("gaps") / "notes_right.pdf"
    heading = ["COMPTE DE RÉSULTAT", "(en milliers d'euros)"]
    return _write(path, heading, (380.0, 450.0, 500.0), NOTES_RIGHT)


EXPECTED_NOTES_RIGHT = {
    "Ventes de produits finis": ["312450", "298760"],
    "Autres produits": ["4120", "3980"],
    "Charges de personnel": ["-81300", "-79640"],
    "Dotations aux amortissements": ["-640", "-640"],
    "Résultat d'exploitation": ["234630", "223100"],
}


def test_a_notes_column_right_of_the_periods_is_no_value(notes_right: Path) -> None:
    assert _values(_table(notes_right, Statement.INCOME)) == EXPECTED_NOTES_RIGHT


def test_without_positions_the_note_is_still_no_value(notes_right: Path) -> None:
    # From the text alone "312 450 298 760 3.2" reads as two values once the note is off.
    assert _values(_table(notes_right, Statement.INCOME, positions=False)) == (EXPECTED_NOTES_RIGHT)


GROSS_NET: list[Line] = [
    ("", ("Brut", "Amort.", "Net", "Net")),
    ("", ("", "", "31/03/2025", "31/03/2024")),
    ("Terrains et aménagements", ("210 000", None, "210 000", "210 000")),
    ("Matériel de transport", ("1 840 600", "1 102 380", "738 220", "812 400")),
    ("Trésorerie", ("56 310", None, "56 310", "2 418 905")),
    ("Stocks", ("918 440", "12 000", "906 440", "877 120")),
]


def test_a_blank_depreciation_cell_keeps_the_net_values(tmp_path: Path) -> None:
    heading = ["BILAN — ACTIF", "(montants en euros)"]
    path = _write(tmp_path / "gross.pdf", heading, (280.0, 360.0, 440.0, 520.0), GROSS_NET)
    table = _table(path, Statement.BALANCE)
    assert _values(table) == {
        "Terrains et aménagements": ["210000", "210000"],
        "Matériel de transport": ["738220", "812400"],
        "Trésorerie": ["56310", "2418905"],
        "Stocks": ["906440", "877120"],
    }


EXTRA_COLUMNS: list[Line] = [
    ("", ("Métropole", "Outre-mer", "31/03/2025", "31/03/2024")),
    ("Ventes de services", ("4 205 118", "310 442", "4 515 560", "4 380 001")),
    ("Produits annexes", (None, None, "61 200", "58 900")),
    ("Achats consommés", (None, None, "−1 905 330", "−1 842 775")),
]


def test_columns_before_the_periods_are_left_out(tmp_path: Path) -> None:
    heading = ["COMPTE DE RÉSULTAT", "(en euros)"]
    path = _write(tmp_path / "extra.pdf", heading, (300.0, 370.0, 450.0, 530.0), EXTRA_COLUMNS)
    table = _table(path, Statement.INCOME)
    assert _values(table) == {
        "Ventes de services": ["4515560", "4380001"],
        "Produits annexes": ["61200", "58900"],
        "Achats consommés": ["-1905330", "-1842775"],
    }
    assert (table.unit, table.scale) == ("€", 1)


SHARES: list[Line] = [
    ("", ("2025", "% CA", "2024", "% CA")),
    ("Marge brute", ("1 204 300", "38,2 %", "1 150 880", "37,9 %")),
    ("Excédent brut d'exploitation", ("402 118", "12,8 %", "377 040", "12,4 %")),
]


def test_share_columns_between_the_periods_are_left_out(tmp_path: Path) -> None:
    heading = ["COMPTE DE RÉSULTAT", "(en euros)"]
    path = _write(tmp_path / "shares.pdf", heading, (330.0, 380.0, 460.0, 510.0), SHARES)
    assert _values(_table(path, Statement.INCOME)) == {
        "Marge brute": ["1204300", "1150880"],
        "Excédent brut d'exploitation": ["402118", "377040"],
    }


CASH_FLOWS: list[Line] = [
    ("", ("2024/2025", "2023/2024")),
    ("Résultat de l'exercice", ("218 400", "−35 120")),
    ("Capacité d'autofinancement", ("640 712", "402 300")),
    ("FLUX DE TRÉSORERIE LIÉS AUX INVESTISSEMENTS", (None, None)),
    ("Acquisitions d'immobilisations", ("−512 000", "−98 450")),
    ("Variation de trésorerie", ("128 712", "303 850")),
]


def test_a_fiscal_year_over_two_years_and_a_section_naming_the_statement(tmp_path: Path) -> None:
    heading = ["TABLEAU DES FLUX DE TRÉSORERIE", "(en euros)"]
    path = _write(tmp_path / "cash.pdf", heading, (420.0, 500.0), CASH_FLOWS)
    table = _table(path, Statement.CASHFLOW)
    assert [(p.months, p.year) for p in table.periods] == [(12, 2025), (12, 2024)]
    assert _values(table) == {
        "Résultat de l'exercice": ["218400", "-35120"],
        "Capacité d'autofinancement": ["640712", "402300"],
        "Acquisitions d'immobilisations": ["-512000", "-98450"],
        "Variation de trésorerie": ["128712", "303850"],
    }


YEAR_LINES = {
    "fiscal years": ("2024/2025 2023/2024", [(2025, 0, 0), (2024, 0, 0)]),
    "short second year": ("2024-25 2023-24", [(2025, 0, 0), (2024, 0, 0)]),
    "not consecutive": ("2021/2025 2020/2024", None),
}


@pytest.mark.parametrize("case", YEAR_LINES)
def test_years_of_a_column_line(case: str) -> None:
    line, expected = YEAR_LINES[case]
    assert years_of_line(line) == expected


UNITS = {
    "whole euros": ("(montants exprimés en euros)", ("€", 1)),
    "euros in parentheses": ("Compte de résultat (euros)", ("€", 1)),
    "a scaled unit wins": ("en euros, sauf mention ; en milliers d'euros", ("k€", 1000)),
}


@pytest.mark.parametrize("case", UNITS)
def test_unit_of(case: str) -> None:
    text, expected = UNITS[case]
    assert unit_of(text) == expected


def _lefts(line: str, advance: float, gaps: dict[int, float]) -> list[float]:
    """x of each character: ``advance`` apart, plus ``gaps[i]`` before character i."""
    xs: list[float] = []
    x = 0.0
    for index in range(len(line)):
        x += gaps.get(index, 0.0)
        xs.append(x)
        x += advance
    return xs


WIDEN = {
    "a column gap": ("186 420 201 870", {8: 30.0}, "186 420  201 870"),
    "separators only": ("186 420 201 870", {}, "186 420 201 870"),
    "a gap before a minus": ("-1 940 -215", {7: 25.0}, "-1 940  -215"),
    "a gap after a parenthesis": ("(4 550) (3 100)", {8: 25.0}, "(4 550)  (3 100)"),
}


@pytest.mark.parametrize("case", WIDEN)
def test_widen_column_gaps(case: str) -> None:
    line, gaps, expected = WIDEN[case]
    shifted = {index + 2: width for index, width in gaps.items()}  # after the "x " prefix
    lefts = _lefts(f"x {line}", 5.0, shifted)
    assert widen_column_gaps(f"x {line}", 0, lefts) == f"x {expected}"


def test_unknown_positions_widen_nothing() -> None:
    line = "186 420 201 870"
    assert widen_column_gaps(line, 0, [math.nan] * len(line)) == line
    assert widen_column_gaps(line, 0, []) == line


ALIGNED = {
    "in their columns": ([398.0, 480.0], [400.0, 480.0], True),
    "one a column off": ([440.0, 480.0], [400.0, 480.0], False),
    "too few values": ([400.0], [400.0, 480.0], False),
    "columns unknown": ([400.0], [400.0], False),
}


@pytest.mark.parametrize("case", ALIGNED)
def test_aligned(case: str) -> None:
    xs, anchors, expected = ALIGNED[case]
    assert aligned(xs, anchors) is expected


def test_gold_amounts_keep_decimals_finer_than_the_report(tmp_path: Path) -> None:
    gold = {
        "decimals": 1,
        "statements": {
            "income": [
                {"label": "Earnings per share", "page": 3, "values": {"2025": 0.52}},
                {"label": "Revenue", "page": 3, "values": {"2025": 286.40000000000003}},
            ]
        },
    }
    path = tmp_path / "x.gold.json"
    path.write_text(json.dumps(gold), encoding="utf-8")
    rows = load_gold_rows(path)
    assert [list(r.values.values()) for r in rows] == [[Decimal("0.52")], [Decimal("286.4")]]
