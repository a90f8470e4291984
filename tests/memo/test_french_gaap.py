"""French GAAP statutory accounts (plan comptable général) and note tables: generic totals
named by their parts, borrowings by lender, production sold as revenue, EBE from the
"soldes intermédiaires de gestion". Made-up figures and wording."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.numbers import Locale
from preuve.memo.lexicon import Statement
from preuve.memo.operands import interest, net_debt, revenue
from preuve.memo.statements import Statements
from preuve.memo.table_fields import table_identities, table_statements
from preuve.memo.tables import read_tables

BALANCE = """Bilan au 30 septembre 2025 (en milliers d'euros)
ACTIF Brut Amort. Net Net
30/09/2025 30/09/2024
Actif immobilisé
Concessions, brevets et droits similaires 900 300 600 650
Installations techniques 12 000 7 000 5 000 5 400
TOTAL (I) 12 900 7 300 5 600 6 050
Actif circulant
Stocks de marchandises 1 300 100 1 200 1 100
Clients et comptes rattachés 4 500 200 4 300 3 900
Disponibilités 700 — 700 950
TOTAL (II) 6 500 300 6 200 5 950
TOTAL GÉNÉRAL (I + II) 19 400 7 600 11 800 12 000
PASSIF 30/09/2025 30/09/2024
Capital social 2 000 2 000
Réserves 3 100 2 900
Résultat de l'exercice 300 200
TOTAL (I) 5 400 5 100
Emprunts et dettes auprès des établissements de crédit 3 900 4 300
Emprunts et dettes financières divers 400 500
Dettes fournisseurs et comptes rattachés 2 100 2 100
TOTAL (II) 6 400 6 900
TOTAL GÉNÉRAL (I + II) 11 800 12 000
"""

INCOME = """Compte de résultat (en milliers d'euros)
2025 2024
Ventes de marchandises 2 000 1 800
Production vendue (services) 9 000 8 700
Chiffre d'affaires net 11 000 10 500
Charges financières (IV) 210 190
RÉSULTAT FINANCIER (III - IV) -150 -120
"""

NOTE = """Annexe
Note 4 — Soldes intermédiaires de gestion
2025 2024
Valeur ajoutée 5 200 5 000
Charges de personnel 3 600 3 500
Excédent brut d'exploitation 1 600 1 500
La valeur ajoutée progresse de 4 % sur l'exercice, dans un marché resté stable.
Provisions pour litiges 400 380
"""


def _fields(pages: list[str]) -> dict[tuple[str, int], Decimal]:
    return {(f.key, f.year): f.value for f in table_statements(pages)}


@pytest.mark.parametrize(
    ("concept", "value"),
    [
        ("current_assets", Decimal(6200)),  # TOTAL (II) of the assets: it adds up receivables
        ("total_assets", Decimal(11800)),
        ("equity", Decimal(5400)),  # TOTAL (I) of the liabilities: capital and reserves
        ("total_equity_and_liabilities", Decimal(11800)),
        ("bank_borrowings", Decimal(3900)),
        ("other_borrowings", Decimal(400)),
    ],
)
def test_generic_totals_take_the_concept_of_their_parts(concept: str, value: Decimal) -> None:
    assert _fields([BALANCE])[(concept, 2025)] == value


def test_debts_mixing_borrowings_and_payables_are_no_current_liabilities() -> None:
    fields = _fields([BALANCE])
    assert ("current_liabilities", 2025) not in fields  # TOTAL (II) holds long-term loans


def test_french_gaap_identities_hold() -> None:
    identities = table_identities([BALANCE])
    assert identities
    assert [i.name for i in identities if i.holds is not True] == []


def _statements(pages: list[str]) -> Statements:
    return Statements(fields=table_statements(pages), locale=Locale.FR)


def test_net_debt_from_borrowings_by_lender() -> None:
    debt = net_debt(_statements([BALANCE]), 2025)
    assert debt is not None
    assert (debt.value, debt.formula) == (
        Decimal(3600) * 1000,
        "(emprunts et dettes financières - disponibilités)",
    )


_NO_TOTAL = INCOME.replace("Chiffre d'affaires net 11 000 10 500\n", "")
REVENUES = {
    "a revenue line": (INCOME, Decimal(11000), "chiffre d'affaires"),
    "goods and production, no total": (
        _NO_TOTAL,
        Decimal(11000),
        "(ventes de marchandises + production vendue)",
    ),
    "production alone": (
        _NO_TOTAL.replace("Ventes de marchandises 2 000 1 800\n", ""),
        Decimal(9000),
        "production vendue",
    ),
}


@pytest.mark.parametrize("case", REVENUES)
def test_revenue_of_a_statement_by_nature(case: str) -> None:
    text, value, formula = REVENUES[case]
    found = revenue(_statements([text]), 2025)
    assert found is not None
    assert (found.value, found.formula) == (value * 1000, formula)


def test_roman_numeral_totals_keep_their_concepts() -> None:
    charge = interest(_statements([INCOME]), 2025)
    assert charge is not None
    assert (charge.value, charge.formula) == (Decimal(150) * 1000, "(- résultat financier)")


def test_a_note_table_gives_only_what_the_statements_do_not_print() -> None:
    pages = [INCOME, NOTE]
    tables = read_tables(pages)
    assert [(t.statement, t.supplement) for t in tables] == [
        (Statement.INCOME, False),
        (Statement.INCOME, True),
    ]
    # the prose line ends the note table: the provision after it is no row of it
    assert [r.label for r in tables[1].rows] == [
        "Valeur ajoutée",
        "Charges de personnel",
        "Excédent brut d'exploitation",
    ]
    fields = _fields(pages)
    assert fields[("ebitda", 2025)] == Decimal(1600)
    assert fields[("revenue", 2025)] == Decimal(11000)


def test_a_note_table_alone_is_no_statement() -> None:
    assert read_tables([NOTE]) == []
