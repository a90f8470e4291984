"""Statement layouts common in French reports: change columns, gross/depreciation/net
columns, labels wrapped with their values on the first line, abbreviated month names,
amounts whose thousands are separated by plain spaces. Made-up wording and sectors."""

from __future__ import annotations

import pytest

from preuve.core.numbers import Locale
from preuve.memo.lexicon import Statement
from preuve.memo.periods import years_of_line
from preuve.memo.statements import _cut_rows, _tokenize
from preuve.memo.tables import StatementTable, read_tables


def _table(text: str, statement: Statement) -> StatementTable:
    return next(t for t in read_tables([text]) if t.statement is statement)


def _values(table: StatementTable) -> list[tuple[str, list[str]]]:
    return [(r.label, [str(c.value) for c in r.cells]) for r in table.rows]


LAYOUTS: dict[str, tuple[str, Statement, list[tuple[str, list[str]]], list[str]]] = {
    "a change column in percent and n.s.": (
        "Compte de résultat (en milliers d'euros)\n"
        "2025 2024 Var.\n"
        "Ventes de marchandises 12 400 11 800 5,1 %\n"
        "Autres produits 300 310 n.s.\n"
        "Résultat d'exploitation -45 1 020 -104,4%\n",
        Statement.INCOME,
        [
            ("Ventes de marchandises", ["12400", "11800"]),
            ("Autres produits", ["300", "310"]),
            ("Résultat d'exploitation", ["-45", "1020"]),
        ],
        ["FY2025", "FY2024"],
    ),
    "gross, depreciation and net columns before the years": (
        "Bilan (en milliers d'euros)\n"
        "Actif Brut Amortissements Net Net\n"
        "et provisions 30/06/2025 30/06/2024\n"
        "Fonds commercial 5 000 — 5 000 5 000\n"
        "Matériel de transport 8 400 3 150 5 250 4 900\n"
        "Créances d'exploitation 2 310 140 2 170 1 980\n"
        "Passif 30/06/2025 30/06/2024\n"
        "Capital souscrit 1 000 1 000\n",
        Statement.BALANCE,
        [
            ("Fonds commercial", ["5000", "5000"]),
            ("Matériel de transport", ["5250", "4900"]),
            ("Créances d'exploitation", ["2170", "1980"]),
            ("Capital souscrit", ["1000", "1000"]),
        ],
        ["at 2025-06-30", "at 2024-06-30"],
    ),
    "a label wrapped with its values on its first line": (
        "Compte de résultat\n"
        "2025 2024\n"
        "Redevances pour concessions, brevets et 120 110\n"
        " licences similaires\n"
        "Charges de personnel 4 300 4 120\n"
        "Quotes-parts de résultat sur opérations 15 —\n"
        " faites en commun\n",
        Statement.INCOME,
        [
            ("Redevances pour concessions, brevets et licences similaires", ["120", "110"]),
            ("Charges de personnel", ["4300", "4120"]),
            ("Quotes-parts de résultat sur opérations faites en commun", ["15", "0"]),
        ],
        ["FY2025", "FY2024"],
    ),
    "a label wrapped with its values on its last line": (
        "Compte de résultat\n"
        "2025 2024\n"
        "Résultat net 900 800\n"
        "dont part revenant aux porteurs\n"
        "minoritaires 40 35\n"
        "Résultat par action 1,2 1,1\n",
        Statement.INCOME,
        [
            ("Résultat net", ["900", "800"]),
            ("dont part revenant aux porteurs minoritaires", ["40", "35"]),
            ("Résultat par action", ["1.2", "1.1"]),
        ],
        ["FY2025", "FY2024"],
    ),
    "abbreviated french month names": (
        "Bilan consolidé\n"
        "Note 30 juin 2024 31 déc. 2024\n"
        "4 Écarts d'acquisition 12,5 12,5\n"
        "Stocks 8,1 7,9\n",
        Statement.BALANCE,
        [("Écarts d'acquisition", ["12.5", "12.5"]), ("Stocks", ["8.1", "7.9"])],
        ["at 2024-06-30", "at 2024-12-31"],
    ),
}


@pytest.mark.parametrize("case", LAYOUTS)
def test_statement_layouts(case: str) -> None:
    text, statement, rows, periods = LAYOUTS[case]
    table = _table(text, statement)
    assert _values(table) == rows
    assert [p.key for p in table.periods] == periods


# Amounts whose thousands are separated by a plain space, as PDF text gives them.
GROUPED: dict[str, tuple[str, int, list[tuple[str, list[str]]]]] = {
    "a signed amount is never a note reference": (
        "Variation des créances -2 310 450",
        2,
        [("Variation des créances", ["-2310", "450"])],
    ),
    "a note reference before the values": (
        "Stocks 5 1 250 1 180",
        2,
        [("Stocks 5", ["1250", "1180"])],
    ),
    "a footnote marker before the values": (
        "Dettes bancaires (2) 3 400 2 950",
        2,
        [("Dettes bancaires (2)", ["3400", "2950"])],
    ),
    "a dash is never a note reference": (
        "Brevets 1 040 — 1 040 980",
        4,
        [("Brevets", ["1040", "0", "1040", "980"])],
    ),
    # "040" is the thousands of an amount, never an amount of its own: no reading of
    # these four tokens into three amounts
    "a leading zero starts no amount": ("Brevets 1 040 980", 3, []),
    "a column gap of two blanks is no thousands separator": (
        "Provisions      12   450",
        2,
        [("Provisions", ["12", "450"])],
    ),
}


@pytest.mark.parametrize("case", GROUPED)
def test_plain_space_thousands(case: str) -> None:
    line, columns, expected = GROUPED[case]
    cuts = _cut_rows(_tokenize(line, Locale.FR), columns, Locale.FR)
    assert [(c.label, [str(t.value) for t in c.values]) for c in cuts] == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("31 déc. 2024 31 déc. 2025", [(2024, 0, 0), (2025, 0, 0)]),
        ("30 juin 2025 31 janv. 2025", [(2025, 0, 0), (2025, 0, 0)]),
        ("Var. 2025 2024", [(2025, 0, 0), (2024, 0, 0)]),
    ],
)
def test_abbreviated_months_on_column_lines(
    line: str, expected: list[tuple[int, int, int]]
) -> None:
    assert years_of_line(line) == expected
