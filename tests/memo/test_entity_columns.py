"""A parent company's statements printed beside the group's: columns keyed by entity.

Malaysian, Singaporean, Hong Kong, UK, Irish and French parent-company reports print four
value columns, the group's two years then the company's (``Group | Company`` above ``2025
2024 2025 2024``, one label per column, ``Consolidated | Parent``, ``Groupe | Société``).
The group's columns are the statement's; the company's are kept apart and never reach a
ratio; columns that nothing attributes (two years printed twice, no labels) are flagged
and not used, never guessed. The reports below are written for these tests (their own
companies, labels and figures), with a notes column, labels wrapped over two lines and a
unit line under the years, in English and French, as text and as a real PDF.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from preuve.core.numbers import Locale
from preuve.io.pdf import load_pages, pdf_positions
from preuve.memo.entities import COMPANY, GROUP, UNATTRIBUTED, column_entities, entity_labels
from preuve.memo.lexicon import Statement
from preuve.memo.periods import Period, years_of_line
from preuve.memo.ratios import ratios_not_computed
from preuve.memo.statements import extract_statements
from preuve.memo.table_fields import merged_statements
from preuve.memo.tables import StatementTable, TableRow, read_tables

Values = dict[str, list[str]]


def _table(pages: list[str], statement: Statement) -> StatementTable:
    return next(t for t in read_tables(pages) if t.statement is statement and not t.supplement)


def _values(rows: Sequence[TableRow]) -> Values:
    return {r.label: [str(c.value) for c in r.cells] for r in rows}


# --- English, labels on a line above the years, a notes column, a unit line -------------

KINABALU_BALANCE = """Kinabalu Tiles Berhad
STATEMENTS OF FINANCIAL POSITION
AS AT 31 DECEMBER 2025
                                        Group                  Company
                              Note    2025       2024       2025       2024
                                      RM'000     RM'000     RM'000     RM'000
Non-current assets
Property, plant and equipment   5    214,630    198,270      3,410      3,905
Investments in subsidiary
  companies                     6          -          -    120,500    118,000
Total non-current assets             214,630    198,270    123,910    121,905
Current assets
Inventories                     7     58,905     61,440          -          -
Trade and other receivables     8     44,210     39,875      2,615      1,980
Cash and cash equivalents                27,340     19,560      1,204        876
Total current assets                 130,455    120,875      3,819      2,856
Total assets                         345,085    319,145    127,729    124,761
Equity and liabilities
                                        Group                  Company
                                      2025       2024       2025       2024
Share capital                   9    150,000    150,000    150,000    150,000
Retained earnings                     98,745     81,505    -24,971    -27,139
Total equity                         248,745    231,505    125,029    122,861
Borrowings                     10     61,300     58,900          -          -
Trade and other payables              35,040     28,740      2,700      1,900
Total liabilities                     96,340     87,640      2,700      1,900
Total equity and liabilities         345,085    319,145    127,729    124,761
"""

KINABALU_GROUP = {
    "Property, plant and equipment": ["214630", "198270"],
    "Investments in subsidiary companies": ["0", "0"],
    "Total non-current assets": ["214630", "198270"],
    "Inventories": ["58905", "61440"],
    "Trade and other receivables": ["44210", "39875"],
    "Cash and cash equivalents": ["27340", "19560"],
    "Total current assets": ["130455", "120875"],
    "Total assets": ["345085", "319145"],
    "Share capital": ["150000", "150000"],
    "Retained earnings": ["98745", "81505"],
    "Total equity": ["248745", "231505"],
    "Borrowings": ["61300", "58900"],
    "Trade and other payables": ["35040", "28740"],
    "Total liabilities": ["96340", "87640"],
    "Total equity and liabilities": ["345085", "319145"],
}


def test_group_and_company_above_the_years_keep_the_group_columns() -> None:
    table = _table([KINABALU_BALANCE], Statement.BALANCE)
    assert _values(table.rows) == KINABALU_GROUP
    assert [p.key for p in table.periods] == ["at 2025-12-31", "at 2024-12-31"]
    company = _values(table.company_rows)
    assert company["Investments in subsidiary companies"] == ["120500", "118000"]
    assert company["Total equity and liabilities"] == ["127729", "124761"]
    assert not table.unattributed_rows


def test_company_values_never_become_fields() -> None:
    pages = [KINABALU_BALANCE]
    statements = merged_statements(pages, extract_statements(pages))
    assert statements.value("total_assets", 2025) == Decimal("345085")
    assert statements.value("total_assets", 2024) == Decimal("319145")
    assert statements.value("cash", 2025) == Decimal("27340")
    company = {"127729", "124761", "1204", "876", "3410", "120500"}
    assert not {str(f.value) for f in statements.fields} & company
    assert statements.doubtful == ()


# --- English, one entity label per column on the column line, company columns first ----

HARBOUR_INCOME = """Harbourline Logistics plc
Income statements
for the year ended 31 March 2025
                      Company 2025  Company 2024  Group 2025  Group 2024
                Notes       £'000         £'000       £'000       £'000
Revenue             3       4,120         3,980     186,420     171,305
Cost of sales                   -             -    (131,750)   (120,990)
Gross profit                4,120         3,980      54,670      50,315
Administrative expenses
and other operating costs       (2,310)       (2,040)     (31,200)    (29,870)
Operating profit            1,810         1,940      23,470      20,445
Finance costs       5        (120)         (135)      (4,860)     (5,120)
Profit before tax           1,690         1,805      18,610      15,325
Income tax expense  6        (310)         (290)      (4,470)     (3,680)
Profit for the year         1,380         1,515      14,140      11,645
"""


def test_one_label_per_column_and_the_company_printed_first() -> None:
    table = _table([HARBOUR_INCOME], Statement.INCOME)
    group = _values(table.rows)
    assert group["Revenue"] == ["186420", "171305"]
    assert group["Administrative expenses and other operating costs"] == ["-31200", "-29870"]
    assert group["Profit for the year"] == ["14140", "11645"]
    assert _values(table.company_rows)["Profit for the year"] == ["1380", "1515"]
    assert [p.key for p in table.periods] == ["12M 2025-03-31", "12M 2024-03-31"]


# --- French, "Groupe | Société", notes column, French numbers ---------------------------

VERCORS_INCOME = """Vercors Matériaux SA
Comptes de résultat
(en milliers d'euros)
                                          Groupe                Société
                           Notes     2025       2024       2025       2024
Chiffre d'affaires           4     412 380    398 115     18 240     17 905
Achats consommés                  -201 440   -195 320          -          -
Charges de personnel         5     -98 610    -94 270     -6 115     -5 980
Dotations aux amortissements
et aux provisions                  -24 905    -23 410     -1 020       -985
Résultat opérationnel               87 425     85 115     11 105     10 940
Coût de l'endettement
financier net                6      -7 310     -7 905       -240       -260
Résultat net                        58 790     55 600     10 865     10 680
"""


def test_french_groupe_and_societe() -> None:
    table = _table([VERCORS_INCOME], Statement.INCOME)
    assert _values(table.rows) == {
        "Chiffre d'affaires": ["412380", "398115"],
        "Achats consommés": ["-201440", "-195320"],
        "Charges de personnel": ["-98610", "-94270"],
        "Dotations aux amortissements et aux provisions": ["-24905", "-23410"],
        "Résultat opérationnel": ["87425", "85115"],
        "Coût de l'endettement financier net": ["-7310", "-7905"],
        "Résultat net": ["58790", "55600"],
    }
    assert _values(table.company_rows)["Résultat net"] == ["10865", "10680"]


# --- "Consolidated | Parent" over dated columns ------------------------------------------

LIFFEY_BALANCE = """Liffey Foods plc
Balance sheets
                              Consolidated                  Parent
                        31.12.2025   31.12.2024   31.12.2025   31.12.2024
                              €000         €000         €000         €000
Intangible assets           18,400       19,100            -            -
Investment in subsidiaries       -            -       42,000       42,000
Cash and cash equivalents    9,870        7,450          310          295
Total assets                28,270       26,550       42,310       42,295
Total equity                16,270       15,050       41,910       41,895
Borrowings                  12,000       11,500          400          400
Total equity and liabilities 28,270      26,550       42,310       42,295
"""


def test_consolidated_and_parent_over_dated_columns() -> None:
    table = _table([LIFFEY_BALANCE], Statement.BALANCE)
    assert _values(table.rows)["Total assets"] == ["28270", "26550"]
    assert _values(table.rows)["Cash and cash equivalents"] == ["9870", "7450"]
    assert _values(table.company_rows)["Total assets"] == ["42310", "42295"]


# --- Two years printed twice, nothing telling the groups apart ---------------------------

UNLABELLED_BALANCE = """Tasman Pumps Limited
Statements of financial position
At 30 June 2025
                                 Note     2025      2024      2025      2024
                                         $'000     $'000     $'000     $'000
Property, plant and equipment       4    8,920     9,405       210       230
Cash and cash equivalents                3,115     2,870       640       515
Total assets                            12,035    12,275       850       745
Total equity                             7,035     6,875       850       745
Borrowings                          7    5,000     5,400         -         -
Total equity and liabilities            12,035    12,275       850       745
"""


def test_two_years_twice_without_labels_are_flagged_not_guessed() -> None:
    pages = [UNLABELLED_BALANCE]
    table = _table(pages, Statement.BALANCE)
    assert not table.rows and not table.company_rows
    assert _values(table.unattributed_rows)["Total assets"] == ["12035", "12275", "850", "745"]
    statements = merged_statements(pages, extract_statements(pages))
    assert not [f for f in statements.fields if f.statement is Statement.BALANCE]
    assert len(statements.doubtful) == 1
    assert "not attributed to the group or the company" in statements.doubtful[0]
    # The memo says why a ratio lacks its balance-sheet inputs.
    reasons = ratios_not_computed(statements, Locale.EN)
    assert reasons[0].startswith("doubtful input, not used: balance p. 1: 6 rows")


def test_a_heading_naming_both_entities_in_order_tells_the_groups_apart() -> None:
    page = UNLABELLED_BALANCE.replace(
        "Statements of financial position",
        "Statements of financial position of the Group and of the Company",
    )
    table = _table([page], Statement.BALANCE)
    assert _values(table.rows)["Total assets"] == ["12035", "12275"]
    assert _values(table.company_rows)["Total assets"] == ["850", "745"]


# --- The rules, one by one -----------------------------------------------------------------

LABEL_LINES = {
    "two labels": ("Group Company", [GROUP, COMPANY]),
    "articles": ("The Group          The Company", [GROUP, COMPANY]),
    "french": ("Groupe       Société mère", [GROUP, COMPANY]),
    "consolidated entity": ("Consolidated entity   Parent entity", [GROUP, COMPANY]),
    "with years": (
        "Group 2025 | Group 2024 | Company 2025 | Company 2024",
        [GROUP] * 2 + [COMPANY] * 2,
    ),
    "units": ("RM'000 Group RM'000 Company", [GROUP, COMPANY]),
    "a sentence": ("The Group's revenue rose while the Company held", []),
    "a label": ("Amounts due from group companies", []),
    "no entity": ("Note 2025 2024", []),
}


@pytest.mark.parametrize("case", LABEL_LINES)
def test_entity_label_lines(case: str) -> None:
    line, expected = LABEL_LINES[case]
    assert entity_labels(line) == expected


_Y25, _Y24 = Period(12, 2025), Period(12, 2024)

ENTITY_CASES = {
    "labels above": (
        ["Group Company"],
        "2025 2024 2025 2024",
        [_Y25, _Y24] * 2,
        [GROUP] * 2 + [COMPANY] * 2,
    ),
    "labels each": (
        ["Group Group Company Company"],
        "2025 2024 2025 2024",
        [_Y25, _Y24] * 2,
        [GROUP] * 2 + [COMPANY] * 2,
    ),
    "on the line, one year for the company": (
        [],
        "Group 2025 2024 Company 2025",
        [_Y25, _Y24, _Y25],
        [GROUP, GROUP, COMPANY],
    ),
    "no labels, two years twice": ([], "2025 2024 2025 2024", [_Y25, _Y24] * 2, [UNATTRIBUTED] * 4),
    "labels that do not divide": (
        ["Group Company"],
        "2025 2024 2025",
        [_Y25, _Y24, _Y25],
        [UNATTRIBUTED] * 3,
    ),
    "one entity named, periods twice": (
        ["Group"],
        "2025 2024 2025 2024",
        [_Y25, _Y24] * 2,
        [UNATTRIBUTED] * 4,
    ),
    "one entity named": (["Consolidated"], "2025 2024", [_Y25, _Y24], [GROUP] * 2),
    "an entity printing one year twice": (
        ["Group Company"],
        "2025 2025 2024 2024",
        [_Y25, _Y25, _Y24, _Y24],
        [UNATTRIBUTED] * 4,
    ),
    "plain columns": ([], "2025 2024", [_Y25, _Y24], [GROUP] * 2),
}


@pytest.mark.parametrize("case", ENTITY_CASES)
def test_column_entities(case: str) -> None:
    above, line, keys, expected = ENTITY_CASES[case]
    assert list(column_entities(above, line, keys)) == expected


def test_a_column_line_with_entity_labels_is_a_column_line() -> None:
    assert years_of_line("Group 2025 | Group 2024 | Company 2025 | Company 2024") == [
        (2025, 0, 0),
        (2024, 0, 0),
        (2025, 0, 0),
        (2024, 0, 0),
    ]


# --- A real PDF: right-aligned columns, a blank group cell ----------------------------------

PDF_ROWS: list[tuple[str, tuple[str | None, ...]]] = [
    ("", ("Group", None, "Company", None)),
    ("Note", ("2025", "2024", "2025", "2024")),
    ("", ("S$'000", "S$'000", "S$'000", "S$'000")),
    ("Revenue", ("96,410", "90,125", "2,300", "2,150")),
    ("Dividend income from subsidiaries", (None, None, "5,000", "4,000")),
    ("Staff costs", ("(31,870)", "(29,940)", "(1,100)", "(1,020)")),
    ("Depreciation of property, plant", (None, None, None, None)),
    ("and equipment", ("(6,205)", "(5,980)", "(40)", "(38)")),
    ("Profit before tax", ("14,630", "12,905", "6,020", "4,960")),
    ("Profit for the year", ("11,140", "9,875", "5,820", "4,790")),
]


def _write_pdf(path: Path) -> Path:
    pdf = canvas.Canvas(str(path))
    pdf.setFont("Helvetica", 8)
    y = 790.0
    for text in (
        "Merlion Instruments Ltd",
        "Statements of profit or loss",
        "Year ended 31 December 2025",
    ):
        pdf.drawString(50, y, text)
        y -= 12
    columns = (330.0, 400.0, 470.0, 540.0)
    for label, cells in PDF_ROWS:
        pdf.drawString(50, y, label)
        for x, cell in zip(columns, cells, strict=True):
            if cell is not None:
                pdf.drawRightString(x, y, cell)
        y -= 12
    pdf.showPage()
    pdf.save()
    return path


@pytest.mark.parametrize("positions", [True, False])
def test_a_pdf_with_group_and_company_columns(tmp_path: Path, positions: bool) -> None:
    path = _write_pdf(tmp_path / "merlion.pdf")
    pages = load_pages(path)
    tables = read_tables(pages, pdf_positions(path, pages) if positions else None)
    table = next(t for t in tables if t.statement is Statement.INCOME)
    group = _values(table.rows)
    assert group["Revenue"] == ["96410", "90125"]
    assert group["Depreciation of property, plant and equipment"] == ["-6205", "-5980"]
    assert group["Profit for the year"] == ["11140", "9875"]
    assert "Dividend income from subsidiaries" not in group  # the group prints no value
    company = _values(table.company_rows)
    assert company["Profit for the year"] == ["5820", "4790"]
    if positions:  # its x-positions place the company's two values in its columns
        assert company["Dividend income from subsidiaries"] == ["5000", "4000"]
    statements = merged_statements(pages, extract_statements(pages), (), tables)
    assert statements.value("net_income", 2025) == Decimal("11140")
    assert statements.value("revenue", 2024) == Decimal("90125")


# --- Other places for the labels: on the column line, under it; French accounts' names ----

ORCHARD_BALANCE = """Orchard Crest Holdings Limited
Statements of Financial Position
As at 31 March 2025
                       Note Group 2025 | Group 2024 | Company 2025 | Company 2024
                                 HK$'000      HK$'000        HK$'000        HK$'000
Investment properties     11     402,300      388,150              -              -
Amounts due from
subsidiaries              12           -            -        96,400         91,250
Bank balances and cash            31,875       28,410          1,130            985
Total assets                     434,175      416,560         97,530         92,235
"""


def test_one_label_per_column_on_the_column_line() -> None:
    table = _table([ORCHARD_BALANCE], Statement.BALANCE)
    assert _values(table.rows) == {
        "Investment properties": ["402300", "388150"],
        "Amounts due from subsidiaries": ["0", "0"],
        "Bank balances and cash": ["31875", "28410"],
        "Total assets": ["434175", "416560"],
    }
    assert _values(table.company_rows)["Amounts due from subsidiaries"] == ["96400", "91250"]
    assert [p.key for p in table.periods] == ["at 2025-03-31", "at 2024-03-31"]


def test_labels_under_the_years() -> None:
    page = ORCHARD_BALANCE.replace(
        "Note Group 2025 | Group 2024 | Company 2025 | Company 2024", "Note 2025 2024 2025 2024"
    ).replace("HK$'000      HK$'000        HK$'000        HK$'000", "Group Group Company Company")
    table = _table([page], Statement.BALANCE)
    assert _values(table.rows)["Total assets"] == ["434175", "416560"]
    assert _values(table.company_rows)["Total assets"] == ["97530", "92235"]


AUBRAC_CASH = """Aubrac Distribution SA
Tableaux des flux de trésorerie
(en milliers d'euros)
                                    Comptes consolidés      Comptes sociaux
                                     2025       2024       2025       2024
Résultat net                       12 480     10 915      4 210      3 870
Dotations aux amortissements        6 305      5 990        410        395
Flux net de trésorerie généré
par l'activité                     17 240     15 110      4 380      4 020
Acquisitions d'immobilisations     -8 415     -7 030       -120        -95
Variation de la trésorerie          2 105      1 480        315        240
"""


def test_french_consolidated_and_statutory_accounts() -> None:
    table = _table([AUBRAC_CASH], Statement.CASHFLOW)
    assert _values(table.rows) == {
        "Résultat net": ["12480", "10915"],
        "Dotations aux amortissements": ["6305", "5990"],
        "Flux net de trésorerie généré par l'activité": ["17240", "15110"],
        "Acquisitions d'immobilisations": ["-8415", "-7030"],
        "Variation de la trésorerie": ["2105", "1480"],
    }
    assert _values(table.company_rows)["Résultat net"] == ["4210", "3870"]


# --- The parent company's own statement, printed after the group's -----------------------

GROUP_PAGE = """Consolidated statement of financial position
At 31 December 2025
                                   2025       2024
                                   £000       £000
Goodwill                          8,400      8,400
Trade receivables                 5,215      4,980
Cash at bank                      2,310      1,875
Total assets                     15,925     15,255
"""
COMPANY_PAGE = """Company statement of financial position
At 31 December 2025
                                   2025       2024
                                   £000       £000
Investments in subsidiaries      12,000     12,000
Loans to subsidiaries             1,500      1,500
Other receivables                    40         35
Prepayments                          12         10
Cash at bank                        105         90
Total assets                     13,657     13,635
"""


def test_the_company_statement_is_not_the_primary_one() -> None:
    table = _table([GROUP_PAGE, COMPANY_PAGE], Statement.BALANCE)
    assert table.pages == [1]
    assert _values(table.rows)["Total assets"] == ["15925", "15255"]
    # Alone, a statement headed for the company is the report's statement; beside one
    # whose heading names no entity, the rows decide as before (nothing says which is whose).
    assert _table([COMPANY_PAGE], Statement.BALANCE).pages == [1]
    plain = GROUP_PAGE.replace("Consolidated statement", "Statement")
    assert _table([plain, COMPANY_PAGE], Statement.BALANCE).pages == [2]


TITLES = {
    "group and company": (
        "Statements of financial position of the Group and of the Company",
        [GROUP, COMPANY],
    ),
    "company and group": ("Company and Group income statements", [COMPANY, GROUP]),
    "french": ("Bilans du groupe et de la société", [GROUP, COMPANY]),
    "a company and its subsidiaries": (
        "Acme Company and Subsidiaries Consolidated Balance Sheets",
        [],
    ),
    "consolidated only": ("Consolidated statement of profit or loss", []),
}


@pytest.mark.parametrize("case", TITLES)
def test_a_heading_orders_the_entities_only_when_it_names_both_side_by_side(case: str) -> None:
    title, order = TITLES[case]
    keys = [_Y25, _Y24] * 2
    expected = [order[0]] * 2 + [order[1]] * 2 if order else [UNATTRIBUTED] * 4
    assert list(column_entities([], "2025 2024 2025 2024", keys, title)) == expected


# --- Labels that do not divide the columns, placed by their x on a PDF page -------------


def test_labels_over_unequal_column_groups_are_placed_by_position(tmp_path: Path) -> None:
    path = tmp_path / "uneven.pdf"
    pdf = canvas.Canvas(str(path))
    pdf.setFont("Helvetica", 8)
    y = 790.0
    for text in ("Statements of financial position", "As at 31 December 2025"):
        pdf.drawString(50, y, text)
        y -= 12
    columns = (360.0, 430.0, 520.0)
    pdf.drawCentredString(375.0, y, "Group")  # over the first two columns
    pdf.drawCentredString(505.0, y, "Company")  # over the third
    y -= 12
    rows = [
        ("", ("2025", "2024", "2025")),
        ("Cash and cash equivalents", ("8,410", "7,925", "312")),
        ("Trade receivables", ("12,060", "11,480", "45")),
        ("Total assets", ("20,470", "19,405", "357")),
    ]
    for label, cells in rows:
        pdf.drawString(50, y, label)
        for x, cell in zip(columns, cells, strict=True):
            pdf.drawRightString(x, y, cell)
        y -= 12
    pdf.showPage()
    pdf.save()
    pages = load_pages(path)
    table = next(t for t in read_tables(pages, pdf_positions(path, pages)))
    assert _values(table.rows)["Total assets"] == ["20470", "19405"]
    assert _values(table.company_rows)["Total assets"] == ["357"]
    # From the text alone two labels do not divide three columns: flagged, not guessed.
    alone = next(t for t in read_tables(pages))
    assert not alone.rows and alone.unattributed_rows
