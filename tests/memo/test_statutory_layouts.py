"""Tables in whole currency units grouped by dots, and periods written from their first day
to their last under columns named ``Exercice | Exercice précédent`` (made-up statements)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.memo.lexicon import Statement
from preuve.memo.periods import names_relative_columns, relative_columns, years_of_line
from preuve.memo.statements import extract_statements
from preuve.memo.table_fields import merged_statements
from preuve.memo.tables import StatementTable, read_tables


def _rows(table: StatementTable) -> list[tuple[str, list[tuple[str, str]]]]:
    return [(r.label, [(c.period.key, str(c.value)) for c in r.cells]) for r in table.rows]


def _table(pages: list[str], statement: Statement) -> StatementTable:
    return next(t for t in read_tables(pages) if t.statement is statement)


_FLOWS = (
    "Tableau des flux de trésorerie (en euros)\n"
    "                                         2025           2024\n"
    "Résultat net                        1.204.330        987.120\n"
    "Dotations nettes aux provisions        35.000       (12.500)\n"
    "Flux net de trésorerie d'exploitation 1.239.330    974.620\n"
)


def test_one_dot_group_is_thousands_where_the_table_groups_by_dots() -> None:
    assert _rows(_table([_FLOWS], Statement.CASHFLOW)) == [
        ("Résultat net", [("FY2025", "1204330"), ("FY2024", "987120")]),
        ("Dotations nettes aux provisions", [("FY2025", "35000"), ("FY2024", "-12500")]),
        ("Flux net de trésorerie d'exploitation", [("FY2025", "1239330"), ("FY2024", "974620")]),
    ]


def test_a_dot_nothing_tells_is_doubtful_and_not_read() -> None:
    pages = [
        "Compte de résultat (en euros)\n"
        "                         2025        2024\n"
        "Chiffre d'affaires    450.000     380.000\n"
        "Résultat net           38.250      21.600\n"
    ]
    assert [t for t in read_tables(pages) if t.statement is Statement.INCOME] == []


def test_a_decimal_point_table_keeps_three_decimals() -> None:
    pages = [
        "Consolidated income statement\n"
        "(in millions of dollars, except per share amounts)   2025     2024\n"
        "Revenue                                           1,204.5    987.1\n"
        "Earnings per share                                  2.125    1.875\n"
    ]
    rows = dict(_rows(_table(pages, Statement.INCOME)))
    assert rows["Earnings per share"] == [("FY2025", "2.125"), ("FY2024", "1.875")]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Exercice du 1er juillet 2024 au 30 juin 2025", [(2025, 6, 30)]),
        ("For the period from 1 April 2024 to 31 March 2025", [(2025, 3, 31)]),
        ("Période du 01/10/2024 au 30/09/2025", [(2025, 9, 30)]),
    ],
)
def test_a_period_from_its_first_day_to_its_last_is_one_column(
    line: str, expected: list[tuple[int, int, int]]
) -> None:
    assert years_of_line(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Notes   Exercice   Exercice précédent", "2025 2024"),
        ("Exercice antérieur   Exercice", "2024 2025"),
        ("Note   Current year   Prior year", "2025 2024"),
    ],
)
def test_columns_named_current_and_prior_year(line: str, expected: str) -> None:
    assert names_relative_columns(line)
    resolved = relative_columns(line, 2025)
    assert resolved is not None
    assert " ".join(str(y) for y, _, _ in years_of_line(resolved) or []) == expected


def test_exercice_and_exercice_precedent_take_the_heading_block_s_years() -> None:
    pages = [
        "Bilan\n"
        "Exercice du 1er juillet 2024 au 30 juin 2025\n"
        "Exercice précédent du 1er juillet 2023 au 30 juin 2024\n"
        "Montants exprimés en euros\n"
        "                      Exercice    Exercice précédent\n"
        "Capital souscrit     1.500.000     1.500.000\n"
        "Réserves               412.600       388.100\n"
        "Total du passif      6.920.410     6.455.870\n"
    ]
    assert _rows(_table(pages, Statement.BALANCE)) == [
        ("Capital souscrit", [("at 2025-06-30", "1500000"), ("at 2024-06-30", "1500000")]),
        ("Réserves", [("at 2025-06-30", "412600"), ("at 2024-06-30", "388100")]),
        ("Total du passif", [("at 2025-06-30", "6920410"), ("at 2024-06-30", "6455870")]),
    ]


_SCHEME_ASSETS = (
    "Bilan après répartition\n"
    "ACTIF\n"
    "Exercice du 1er janvier 2025 au 31 décembre 2025\n"
    "Exercice précédent du 1er janvier 2024 au 31 décembre 2024\n"
    "Montants exprimés en euros\n"
    "                              Ann.    Codes      Exercice    Exercice précédent\n"
    "Immobilisations corporelles   4.2     22/27     3.410.200     3.118.950\n"
    "Stocks                                3           812.400       790.300\n"
    "Créances commerciales         4.5/4.6 40        1.906.330     1.744.018\n"
    "Charges à reporter                    490/1        21.800        19.400\n"
    "TOTAL DE L'ACTIF                      20/58     6.150.730     5.672.668\n"
)
_SCHEME_LIABILITIES = (
    "Bilan après répartition\n"
    "PASSIF\n"
    "Exercice du 1er janvier 2025 au 31 décembre 2025\n"
    "Exercice précédent du 1er janvier 2024 au 31 décembre 2024\n"
    "Montants exprimés en euros\n"
    "                              Ann.    Codes      Exercice    Exercice précédent\n"
    "Capitaux propres                      10/15     2.900.000     2.750.000\n"
    "Provisions pour risques et charges    160/5        95.000        60.000\n"
    "  (litiges et garanties)\n"
    "Dettes à un an au plus        4.9     42/48     3.134.730     2.843.268\n"
    "Charges à reporter                    492/3        21.000        19.400\n"
    "TOTAL DU PASSIF                       10/49     6.150.730     5.672.668\n"
)
_SCHEME_INCOME = (
    "Compte de résultats\n"
    "Exercice du 1er janvier 2025 au 31 décembre 2025\n"
    "Exercice précédent du 1er janvier 2024 au 31 décembre 2024\n"
    "                              Ann.    Codes      Exercice    Exercice précédent\n"
    "Chiffre d'affaires            4.10    70       12.480.300    11.902.640\n"
    "Bénéfice (Perte) d'exploitation       9901      1.204.610       998.420\n"
    "Bénéfice (Perte) de l'exercice        9904        702.115       611.090\n"
)


def test_a_codes_column_is_neither_a_value_nor_part_of_the_label() -> None:
    income = _table([_SCHEME_INCOME], Statement.INCOME)
    assert _rows(income) == [
        ("Chiffre d'affaires", [("12M 2025-12-31", "12480300"), ("12M 2024-12-31", "11902640")]),
        (
            "Bénéfice (Perte) d'exploitation",
            [("12M 2025-12-31", "1204610"), ("12M 2024-12-31", "998420")],
        ),
        (
            "Bénéfice (Perte) de l'exercice",
            [("12M 2025-12-31", "702115"), ("12M 2024-12-31", "611090")],
        ),
    ]


def test_the_assets_and_liabilities_pages_sharing_a_label_are_one_balance_sheet() -> None:
    balance = _table([_SCHEME_ASSETS, _SCHEME_LIABILITIES], Statement.BALANCE)
    assert balance.pages == [1, 2]
    labels = [r.label for r in balance.rows]
    assert labels == [
        "Immobilisations corporelles",
        "Stocks",
        "Créances commerciales",
        "Charges à reporter",
        "TOTAL DE L'ACTIF",
        "Capitaux propres",
        "Provisions pour risques et charges (litiges et garanties)",
        "Dettes à un an au plus",
        "Charges à reporter",
        "TOTAL DU PASSIF",
    ]
    stocks = balance.rows[1]
    assert [(c.period.key, str(c.value)) for c in stocks.cells] == [
        ("at 2025-12-31", "812400"),
        ("at 2024-12-31", "790300"),
    ]


def test_a_summary_and_its_full_statement_stay_apart() -> None:
    summary = (
        "Bilan après répartition\n"
        "                       2025          2024\n"
        "Capitaux propres   2.900.000     2.750.000\n"
        "Dettes             3.250.730     2.922.668\n"
        "Total du passif    6.150.730     5.672.668\n"
    )
    full = (
        "Bilan après répartition\n"
        "                       2025          2024\n"
        "Capital               500.000       500.000\n"
        "Réserves            2.400.000     2.250.000\n"
        "Capitaux propres   2.900.000     2.750.000\n"
        "Dettes             3.250.730     2.922.668\n"
        "Total du passif    6.150.730     5.672.668\n"
    )
    balance = _table([summary, full], Statement.BALANCE)
    assert balance.pages == [2]


def test_the_lexicon_reader_s_doubtful_dot_amounts_are_not_merged_either() -> None:
    pages = [
        "Compte de résultat (en euros)\n"
        "                         2025        2024\n"
        "Chiffre d'affaires    450.000     380.000\n"
        "Résultat net           38.250      21.600\n"
    ]
    lexicon = extract_statements(pages)
    assert lexicon.value("revenue", 2025) == Decimal("450.000")  # read alone, as decimals
    assert merged_statements(pages, lexicon).fields == ()


def test_the_lexicon_reader_s_amounts_take_the_tables_dot_reading() -> None:
    lexicon = extract_statements([_FLOWS])
    merged = merged_statements([_FLOWS], lexicon)
    provisions = [f for f in merged.fields if f.raw in {"35.000", "(12.500)"}]
    assert all(f.value in {Decimal(35000), Decimal(-12500)} for f in provisions)
