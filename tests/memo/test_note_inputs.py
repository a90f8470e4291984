"""Ratio inputs French GAAP prints only in its notes (issue 14, s24): the leasing principal
of the off-balance-sheet commitments note (leverage with leases) and the total due within
one year of a dated maturity note (current ratio). Made-up reports and wording; a table
that does not say what the reader needs gives nothing, and the ratio says which input is
missing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.numbers import Locale
from preuve.memo.lexicon import Statement
from preuve.memo.maturity import maturity_fields
from preuve.memo.operands import net_debt_leases
from preuve.memo.ratios import ratios_not_computed
from preuve.memo.statements import Statements, extract_statements
from preuve.memo.table_fields import merged_statements, table_statements
from preuve.memo.tables import read_tables

BALANCE = """Bilan au 31 décembre 2025 (en milliers d'euros)
ACTIF 2025 2024
Installations techniques 8 000 8 400
TOTAL (I) 8 000 8 400
Stocks de marchandises 1 500 1 300
Clients et comptes rattachés 3 200 3 000
Disponibilités 900 1 100
TOTAL (II) 5 600 5 400
TOTAL GÉNÉRAL (I + II) 13 600 13 800
PASSIF 2025 2024
Capital social 3 000 3 000
Réserves 2 600 2 400
TOTAL (I) 5 600 5 400
Emprunts et dettes auprès des établissements de crédit 4 700 5 100
Dettes fournisseurs et comptes rattachés 3 300 3 300
TOTAL (II) 8 000 8 400
TOTAL GÉNÉRAL (I + II) 13 600 13 800
"""

COMMITMENTS = """Note 12 — Engagements hors bilan
Location financière (véhicules) 2025 2024
Loyers restant à courir 1 900 2 300
Capital restant dû 1 650 2 050
Les engagements donnés au titre des garanties de passif s'élèvent à 300 k€ et ne sont pas
"""

MATURITY = """Note 9 — État des échéances des dettes au 31 décembre 2025
Total Moins d'un an De 1 à 5 ans
Emprunts et dettes auprès des établissements de crédit 4 700 1 200 3 500
Dettes fournisseurs et comptes rattachés 3 300 3 300 —
Total 8 000 4 500 3 500
"""

MATURITY_EN = """Note 7 - Maturity of liabilities at December 31, 2025
Amount Less than 1 year More than 1 year
Borrowings 4,700 1,200 3,500
Trade payables 3,300 3,300 —
Total 8,000 4,500 3,500
"""


def _merged(pages: list[str]) -> Statements:
    return merged_statements(pages, extract_statements(pages))


def test_the_commitments_note_gives_the_leasing_principal() -> None:
    tables = read_tables([BALANCE, COMMITMENTS])
    assert [(t.statement, t.supplement) for t in tables] == [
        (Statement.BALANCE, False),
        (Statement.BALANCE, True),
    ]
    fields = table_statements([BALANCE, COMMITMENTS])
    leases = {(f.year, f.value, f.page) for f in fields if f.key == "off_balance_lease_principal"}
    assert leases == {(2025, Decimal(1650), 2), (2024, Decimal(2050), 2)}
    debt = net_debt_leases(Statements(fields=fields, locale=Locale.FR), 2025)
    assert debt is not None
    assert (debt.value, debt.formula) == (
        Decimal(4700 - 900 + 1650) * 1000,
        "((emprunts et dettes financières - disponibilités) + capital restant dû des contrats"
        " de location hors bilan)",
    )


def test_without_a_commitments_note_leverage_with_leases_says_what_is_missing() -> None:
    reasons = ratios_not_computed(_merged([BALANCE]))
    assert any(
        r.startswith(
            "Levier y compris dettes de location 2025: no net debt and lease liabilities"
            " (or off-balance-sheet lease principal)"
        )
        for r in reasons
    )


@pytest.mark.parametrize(
    ("note", "value", "label"),
    [
        pytest.param(MATURITY, Decimal(4500), "Total — Moins d'un an", id="french"),
        pytest.param(MATURITY_EN, Decimal(4500), "Total — Less than 1 year", id="english"),
    ],
)
def test_a_maturity_note_gives_the_debts_due_within_a_year(
    note: str, value: Decimal, label: str
) -> None:
    locale = Locale.EN if "Maturity" in note else Locale.FR
    (found,) = maturity_fields([BALANCE, note], locale, ("k€", 1000))
    assert (found.key, found.year, found.value, found.page, found.label) == (
        "current_liabilities",
        2025,
        value,
        2,
        label,
    )
    assert found.statement is Statement.BALANCE and found.months == 0


@pytest.mark.parametrize(
    "note",
    [
        pytest.param(MATURITY.replace(" au 31 décembre 2025", ""), id="no date"),
        pytest.param(MATURITY.replace("Total 8 000 4 500 3 500", "Total 8 000 4 500"), id="short"),
        pytest.param(MATURITY.replace("Moins d'un an ", "Courant "), id="no within-a-year column"),
        pytest.param(MATURITY.replace("\nTotal 8 000 4 500 3 500", ""), id="no total"),
        pytest.param(MATURITY.replace("Total Moins", "Échéance Moins"), id="no gross column"),
        pytest.param(
            MATURITY.replace("Total 8 000 4 500 3 500", "Total 8 000 4 400 3 500"),
            id="gross not the sum",
        ),
    ],
)
def test_a_maturity_note_that_does_not_say_gives_nothing(note: str) -> None:
    assert maturity_fields([BALANCE, note], Locale.FR, ("k€", 1000)) == ()


def test_the_current_ratio_from_the_maturity_note_for_its_year_only() -> None:
    statements = _merged([BALANCE, MATURITY])
    current = {(f.year, f.value) for f in statements.fields if f.key == "current_liabilities"}
    assert current == {(2025, Decimal(4500))}
    reasons = ratios_not_computed(statements)
    assert not any(r.startswith("Ratio de liquidité générale 2025") for r in reasons)
    assert (
        "Ratio de liquidité générale 2024: no current liabilities"
        " (or a dated maturity note's total within a year)"
    ) in reasons
