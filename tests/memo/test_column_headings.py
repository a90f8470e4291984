"""Column headings that name periods in words: ``Fiscal 2025``, ``FY25``, the French
``Exercice N-1 / Exercice N`` (years resolved from the report's other statements), a
prose sentence in the heading block, and a US filing's non-GAAP table completing the
income statement. Made-up wording, companies and figures."""

from __future__ import annotations

import pytest

from preuve.memo.lexicon import Statement
from preuve.memo.periods import names_relative_columns, relative_columns, years_of_line
from preuve.memo.tables import StatementTable, fiscal_year, read_tables


def _rows(table: StatementTable) -> list[tuple[str, list[tuple[str, str]]]]:
    return [(r.label, [(c.period.key, str(c.value)) for c in r.cells]) for r in table.rows]


COLUMN_LINES: dict[str, tuple[str, list[tuple[int, int, int]] | None]] = {
    "fiscal years after a caption": (
        "($ in thousands, except per share data) Fiscal 2025 Fiscal 2024 Fiscal 2023",
        [(2025, 0, 0), (2024, 0, 0), (2023, 0, 0)],
    ),
    "fiscal years in one word": ("(In millions) FY2025 FY2024", [(2025, 0, 0), (2024, 0, 0)]),
    "two-digit fiscal years": ("FY25 FY24", [(2025, 0, 0), (2024, 0, 0)]),
    "exercice before each year": (
        "Montants en milliers d'euros Note Exercice 2024 Exercice 2025",
        [(2024, 0, 0), (2025, 0, 0)],
    ),
    "a prose line naming fiscal years is no column line": (
        "Capital expenditures were higher in fiscal 2025 than we planned in fiscal 2024",
        None,
    ),
}


@pytest.mark.parametrize("case", COLUMN_LINES)
def test_period_words_on_column_lines(case: str) -> None:
    line, expected = COLUMN_LINES[case]
    assert years_of_line(line) == expected


# (line, names relative columns, the line with years for fiscal 2025)
RELATIVE: dict[str, tuple[str, bool, str | None]] = {
    "previous year first": (
        "Montants en milliers d'euros Note Exercice N-1 Exercice N",
        True,
        "Montants en milliers d'euros Note Exercice 2024 Exercice 2025",
    ),
    "current year first, en dash": ("Exercice N Exercice N–1", True, "Exercice 2025 Exercice 2024"),
    "one relative column only": ("Exercice N", False, None),
    "the same column twice": ("N N", False, None),
    "words around them: no column line": ("Nombre N-1 de salariés en N", True, None),
}


@pytest.mark.parametrize("case", RELATIVE)
def test_relative_columns(case: str) -> None:
    line, relative, expected = RELATIVE[case]
    assert names_relative_columns(line) is relative
    assert relative_columns(line, 2025) == expected


_BALANCE = (
    "Bilan au 30 septembre 2025\n"
    "(en milliers d'euros) 30/09/2024 30/09/2025\n"
    "Capital social 800 800\n"
    "Total capitaux propres 4 210 4 655\n"
)
_CASH_FLOWS = (
    "Tableau des flux de trésorerie\n"
    "En milliers d'euros Exercice N-1 Exercice N\n"
    "Capacité d'autofinancement 1 120 1 340\n"
    "Variation du besoin en fonds de roulement -310 85\n"
    "Flux net de trésorerie généré par l'activité 810 1 425\n"
)


def test_columns_named_n_take_the_years_of_the_other_statements() -> None:
    pages = [_BALANCE, _CASH_FLOWS]
    assert fiscal_year(pages) == 2025
    table = next(t for t in read_tables(pages) if t.statement is Statement.CASHFLOW)
    assert _rows(table) == [
        ("Capacité d'autofinancement", [("FY2024", "1120"), ("FY2025", "1340")]),
        (
            "Variation du besoin en fonds de roulement",
            [("FY2024", "-310"), ("FY2025", "85")],
        ),
        (
            "Flux net de trésorerie généré par l'activité",
            [("FY2024", "810"), ("FY2025", "1425")],
        ),
    ]


def test_columns_named_n_without_any_dated_statement_are_not_read() -> None:
    assert fiscal_year([_CASH_FLOWS]) is None
    assert [t for t in read_tables([_CASH_FLOWS]) if t.statement is Statement.CASHFLOW] == []


def test_a_sentence_in_the_heading_block_names_no_gross_column() -> None:
    # "brut" and "amortissements" in a sentence about the table: the rows still have two
    # values, the periods', not a gross and a depreciation value before them.
    text = (
        "Bilan – Actif\n"
        "Montants nets d'amortissements. Le détail brut / amortissements figure en note 2.\n"
        "Note 31/12/2024 31/12/2025\n"
        "Constructions 2.1 1 450 1 390\n"
        "Stocks 610 705\n"
        "Disponibilités 2 300 1 960\n"
    )
    table = next(t for t in read_tables([text]) if t.statement is Statement.BALANCE)
    assert _rows(table) == [
        ("Constructions", [("at 2024-12-31", "1450"), ("at 2025-12-31", "1390")]),
        ("Stocks", [("at 2024-12-31", "610"), ("at 2025-12-31", "705")]),
        ("Disponibilités", [("at 2024-12-31", "2300"), ("at 2025-12-31", "1960")]),
    ]


def test_a_non_gaap_table_completes_the_income_statement() -> None:
    pages = [
        "Consolidated Statements of Operations\n"
        "(in thousands) Fiscal 2025 Fiscal 2024\n"
        "Net sales 410,200 388,900\n"
        "Operating income 31,400 29,050\n"
        "Net income 12,300 14,800\n",
        "Non-GAAP financial measures\n"
        "EBITDA is not a measure of financial performance under U.S. GAAP.\n"
        "(in thousands) Fiscal 2025 Fiscal 2024\n"
        "Net income 12,300 14,800\n"
        "Depreciation and amortization 18,200 17,600\n"
        "EBITDA 52,950 51,480\n",
    ]
    tables = read_tables(pages)
    supplement = next(t for t in tables if t.supplement)
    assert supplement.statement is Statement.INCOME
    assert supplement.pages == [2]
    assert ("EBITDA", [("FY2025", "52950"), ("FY2024", "51480")]) in _rows(supplement)


@pytest.mark.parametrize(
    "heading",
    ["Note 6 – Excédent brut d'exploitation", "Note 6 – Excédent brut d'exploitation (en k€)"],
)
def test_a_note_headed_by_the_measure_completes_the_income_statement(heading: str) -> None:
    pages = [
        "Compte de résultat (en k€)\n"
        "2025 2024\n"
        "Chiffre d'affaires 24 800 23 100\n"
        "Résultat d'exploitation 1 900 1 750\n",
        f"{heading}\n"
        "2025 2024\n"
        "Résultat d'exploitation 1 900 1 750\n"
        "Dotations aux amortissements 2 300 2 150\n"
        "Excédent brut d'exploitation (EBE) 4 200 3 900\n",
    ]
    supplement = next(t for t in read_tables(pages) if t.supplement)
    assert supplement.statement is Statement.INCOME
    assert ("Excédent brut d'exploitation (EBE)", [("FY2025", "4200"), ("FY2024", "3900")]) in (
        _rows(supplement)
    )
