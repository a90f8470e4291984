"""Where one cell of a statement row ends and the next begins, when the text alone says it:
a tab between cells (a spreadsheet's or an accounting package's text export), amounts
grouped by spaces in a report written in English, a blank cell. Made-up wording, sectors
and figures, in other layouts than the held-out reports."""

from __future__ import annotations

import pytest

from preuve.core.numbers import Locale
from preuve.core.space_groups import amounts_locale, groups_by_spaces
from preuve.memo.lexicon import Statement
from preuve.memo.statements import _tokenize
from preuve.memo.tables import StatementTable, read_tables


def _table(text: str, statement: Statement) -> StatementTable:
    return next(t for t in read_tables([text]) if t.statement is statement)


def _values(table: StatementTable) -> dict[str, list[str]]:
    return {r.label: [str(c.value) for c in r.cells] for r in table.rows}


# An English report grouping thousands by spaces (Nordic style), amounts in NOK thousand.
_SPACED_EN = (
    "Statement of financial position\n"
    "NOK thousand 2025 2024\n"
    "Vessels and equipment 1 204 550 1 180 300\n"
    "Spare parts 12 400 11 950\n"
    "Fuel stocks 980 1 020\n"
    "Receivables from charterers 54 300 61 200\n"
    "Prepaid port dues 2 750 —\n"
    "Bank deposits 88 640 70 115\n"
    "Total assets 1 362 620 1 324 585\n"
    "Share capital 400 000 400 000\n"
    "Retained earnings 512 700 470 300\n"
    "Loans from credit institutions 380 000 395 000\n"
    "Accounts payable 69 920 59 285\n"
    "Total equity and liabilities 1 362 620 1 324 585\n"
)


def test_an_english_report_grouping_by_spaces_reads_its_amounts_whole() -> None:
    values = _values(_table(_SPACED_EN, Statement.BALANCE))
    assert values["Vessels and equipment"] == ["1204550", "1180300"]
    assert values["Fuel stocks"] == ["980", "1020"]
    # a dash in the comparative column is nil, never the half of "2 750"
    assert values["Prepaid port dues"] == ["2750", "0"]
    assert values["Total equity and liabilities"] == ["1362620", "1324585"]


def test_a_document_grouping_by_commas_stays_english() -> None:
    commas = "Revenue 1,204,550 1,180,300\n" * 30 + "Pages 2 100 and 3 200\n"
    assert not groups_by_spaces(commas)
    assert amounts_locale(commas, Locale.EN) is Locale.EN
    assert groups_by_spaces(_SPACED_EN * 3)
    assert amounts_locale(_SPACED_EN * 3, Locale.EN) is Locale.FR
    # a few space-grouped figures are no evidence (a list of note numbers, of years)
    assert not groups_by_spaces("Notes 3 100, 4 200 and 5 300 apply.")


def test_a_tab_sets_cells_apart() -> None:
    tokens = _tokenize("Fees\t1 250\t–\t1 250\t980", Locale.FR)
    assert [(t.raw, t.spaced) for t in tokens[1:3]] == [("1", True), ("250", False)]
    assert tokens[3].spaced and tokens[4].spaced


# A French statutory balance sheet exported as text, its cells separated by tabs:
# Brut | Amort. | Net N | Net N-1, a dash for a nil depreciation.
_TABBED_FR = (
    "BILAN ACTIF\n"
    "Montants en euros\tBrut\tAmort.\tNet\tNet\n"
    "\t\tet dépr.\t31/03/2026\t31/03/2025\n"
    "Logiciels\t42 600\t30 150\t12 450\t15 900\n"
    "Droit au bail\t150 000\t–\t150 000\t150 000\n"
    "Outillage\t318 420\t201 300\t117 120\t98 760\n"
    "Acomptes versés\t6 300\t–\t6 300\t–\n"
    "Créances clients\t611 045\t12 200\t598 845\t540 210\n"
    "Trésorerie\t204 118\t–\t204 118\t318 006\n"
    "TOTAL ACTIF\t1 332 483\t243 650\t1 088 833\t1 122 876\n"
)


def test_a_tab_separated_statement_reads_like_its_printed_page() -> None:
    values = _values(_table(_TABBED_FR, Statement.BALANCE))
    # the two Net columns, never two cells joined across a tab ("150 000 150 000")
    assert values["Droit au bail"] == ["150000", "150000"]
    assert values["Acomptes versés"] == ["6300", "0"]
    assert values["Trésorerie"] == ["204118", "318006"]
    assert values["TOTAL ACTIF"] == ["1088833", "1122876"]


# An English statement exported with tabs, the comparative year first and a notes column.
_TABBED_EN = (
    "Statement of financial position\n"
    "\tNotes\t2024\t2025\n"
    "\t\tZAR'000\tZAR'000\n"
    "Plant and machinery\t4\t212 400\t230 950\n"
    "Income tax refundable\t\t–\t1 875\n"
    "Cash at bank\t7\t15 230\t9 870\n"
    "Income tax due\t\t2 940\t–\n"
    "Trade creditors\t\t48 300\t52 120\n"
    "Total assets\t\t227 630\t242 695\n"
) + "Other line 1 000 2 000\n" * 20


def test_a_tab_separated_english_statement_with_dashes() -> None:
    values = _values(_table(_TABBED_EN, Statement.BALANCE))
    assert values["Plant and machinery"] == ["212400", "230950"]
    assert values["Income tax refundable"] == ["0", "1875"]
    assert values["Income tax due"] == ["2940", "0"]
    periods = [c.period.year for c in _table(_TABBED_EN, Statement.BALANCE).rows[0].cells]
    assert periods == [2024, 2025]


@pytest.mark.parametrize("text", [_SPACED_EN, _TABBED_FR, _TABBED_EN])
def test_spans_are_the_values_as_printed(text: str) -> None:
    for row in _table(text, Statement.BALANCE).rows:
        for cell in row.cells:
            assert text[cell.start : cell.end].replace("\u202f", " ") == cell.raw.replace(
                "\u202f", " "
            )


def test_a_blank_cell_the_gaps_cannot_place_leaves_the_row_out() -> None:
    """Columns set apart by runs of blanks (a fixed-width export), a blank depreciation
    cell: ``1 415 730`` must not be cut into ``1 415 | 730`` to fill the four columns."""
    text = (
        "Bilan actif (en euros)\n"
        "                         Brut       Amort.         Net         Net\n"
        "                                              30/09/2025  30/09/2024\n"
        "Matériel de transport    84 500     31 200      53 300      61 800\n"
        "Stocks                  256 990                256 990     240 115\n"
        "Banques                 730 122                730 122   1 415 730\n"
    )
    values = _values(_table(text, Statement.BALANCE))
    assert values["Matériel de transport"] == ["53300", "61800"]
    assert values["Stocks"] == ["256990", "240115"]  # each Net a figure between gaps
    assert "Banques" not in values  # the Net N-1 figure is no certain cut: doubtful


@pytest.mark.parametrize(
    "heading",
    [
        "Tableau de flux de trésorerie",
        "TABLEAU DES FLUX DE TRÉSORERIE",
        "État de flux de trésorerie",
    ],
)
def test_a_cash_flow_heading_with_or_without_the_article(heading: str) -> None:
    text = (
        f"{heading}\nen milliers d'euros 2025 2024\n"
        "Résultat de la période 1 840 1 512\nAmortissements 920 870\n"
        "Flux de trésorerie d'exploitation 2 760 2 382\n"
    )
    table = _table(text, Statement.CASHFLOW)
    assert _values(table)["Amortissements"] == ["920", "870"]


def test_tab_separated_columns_before_the_periods_ones() -> None:
    """A tab-separated income statement printing by market before the two years' totals
    (``Domestic | Abroad | Total | Total``): the periods' values are the last cells."""
    text = (
        "Compte de résultat\n"
        "En euros\n"
        "Local\tInternational\tCumul\tCumul\n"
        "30/06/2026\t30/06/2025\n"
        "Prestations de conseil\t410 300\t95 120\t505 420\t471 880\n"
        "Ventes de licences\t62 000\t–\t62 000\t58 400\n"
        "Subventions\t4 500\t3 900\n"
        "Total des produits\t476 800\t95 120\t571 920\t534 180\n"
    )
    values = _values(_table(text, Statement.INCOME))
    assert values["Prestations de conseil"] == ["505420", "471880"]
    assert values["Ventes de licences"] == ["62000", "58400"]
    assert values["Subventions"] == ["4500", "3900"]
    assert values["Total des produits"] == ["571920", "534180"]
    # a row with another count of cells than the captions is not read by them
    shifted = text.replace("Ventes de licences\t62 000\t–\t", "Ventes de licences\t62 000\t")
    assert "Ventes de licences" not in _values(_table(shifted, Statement.INCOME))
