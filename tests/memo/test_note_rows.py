"""Ratio inputs from notes and statement lines read in s26: a debt note's "of which due
within one year" row (current ratio of a French GAAP balance sheet), a maturity table
whose heading carries a unit aside and whose column says "À 1 an", the rents still due
of a crédit-bail note, US GAAP lease liabilities "net of current portion", an adjusted
EBITDA printed beside the EBITDA, and purchases printed on two lines. Made-up reports."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.numbers import Locale
from preuve.memo import operands as op
from preuve.memo.company import Company
from preuve.memo.lexicon import Statement, lookup_label
from preuve.memo.maturity import maturity_fields
from preuve.memo.ratios import compute_ratios, ratios_not_computed
from preuve.memo.statements import Field, Statements, extract_statements
from preuve.memo.table_fields import merged_statements
from preuve.memo.within_rows import within_one_year_rows

BALANCE = """Bilan au 31 décembre 2025 (en milliers d'euros)
Actif 31/12/2025 31/12/2024
Immobilisations corporelles 9 000 8 600
Actif immobilisé 9 000 8 600
Stocks 1 200 1 100
Clients et comptes rattachés 2 800 2 500
Disponibilités 700 1 300
Actif circulant 4 700 4 900
Total de l'actif 13 700 13 500
Passif 31/12/2025 31/12/2024
Capital 2 000 2 000
Réserves 3 100 2 900
Capitaux propres 5 100 4 900
Emprunts et dettes financières 5 400 5 500
Fournisseurs et comptes rattachés 2 100 2 000
Dettes fiscales et sociales 1 100 1 100
Dettes 8 600 8 600
Total du passif 13 700 13 500
"""

DEBT_NOTE = """Note 5 – Endettement financier (en milliers d'euros)
2025 2024
Emprunts bancaires 4 900 5 350
Concours bancaires courants 500 150
Emprunts et dettes financières 5 400 5 500
dont échéances à moins d'un an (hors concours) 1 300 1 250
Disponibilités -700 -1 300
Endettement financier net 4 700 4 200
"""


def _merged(pages: list[str]) -> Statements:
    return merged_statements(pages, extract_statements(pages))


def test_a_debt_note_part_row_gives_the_current_liabilities() -> None:
    statements = _merged([BALANCE, DEBT_NOTE])
    within = {
        (f.key, f.year): (f.value, f.page, f.label)
        for f in statements.fields
        if f.key in {"financial_debts_within_one_year", "overdrafts_within_one_year"}
    }
    assert within == {
        ("financial_debts_within_one_year", 2025): (
            Decimal(1300),
            2,
            "dont échéances à moins d'un an (hors concours)",
        ),
        ("financial_debts_within_one_year", 2024): (
            Decimal(1250),
            2,
            "dont échéances à moins d'un an (hors concours)",
        ),
        ("overdrafts_within_one_year", 2025): (Decimal(500), 2, "Concours bancaires courants"),
        ("overdrafts_within_one_year", 2024): (Decimal(150), 2, "Concours bancaires courants"),
    }
    # debts 8 600 - financial debts 5 400 + 1 300 due within a year + 500 overdrafts
    current = op.current_liabilities(statements, 2025)
    assert current is not None and current.value == Decimal(5_000_000)
    assert current.formula.endswith("+ concours bancaires courants)")
    previous = op.current_liabilities(statements, 2024)
    assert previous is not None and previous.value == Decimal(4_500_000)


@pytest.mark.parametrize(
    "note",
    [
        pytest.param(DEBT_NOTE.replace("5 400 5 500", "5 400 5 600"), id="part of another total"),
        pytest.param(DEBT_NOTE.replace("2025 2024\n", ""), id="no column line"),
        pytest.param(
            DEBT_NOTE.replace("Concours bancaires courants 500 150\n", ""),
            id="overdrafts excluded but not printed",
        ),
        pytest.param(
            DEBT_NOTE.replace("à moins d'un an ", "à plus de cinq ans "), id="another maturity"
        ),
    ],
)
def test_a_part_row_that_does_not_say_gives_nothing(note: str) -> None:
    assert (
        within_one_year_rows(
            [BALANCE, note], Locale.FR, ("k€", 1000), {2025: Decimal(5400), 2024: Decimal(5500)}
        )
        == ()
    )


def test_a_part_row_including_the_overdrafts_is_read_alone() -> None:
    note = DEBT_NOTE.replace(" (hors concours) 1 300 1 250", " 1 800 1 400")
    found = within_one_year_rows(
        [BALANCE, note], Locale.FR, ("k€", 1000), {2025: Decimal(5400), 2024: Decimal(5500)}
    )
    assert [(f.key, f.year, f.value) for f in found] == [
        ("financial_debts_within_one_year", 2025, Decimal(1800)),
        ("financial_debts_within_one_year", 2024, Decimal(1400)),
    ]


def test_a_maturity_heading_with_a_unit_aside_and_an_a_1_an_column() -> None:
    note = (
        "Note 3.4 – État des échéances des dettes au 31 décembre 2025 (en milliers d'euros)\n"
        "Montant À 1 an De 1 à À plus de\n"
        "brut au plus 5 ans 5 ans\n"
        "Emprunts et dettes financières 5 400 1 800 2 600 1 000\n"
        "Fournisseurs et comptes rattachés 2 100 2 100 - -\n"
        "Dettes fiscales et sociales 1 100 1 100 - -\n"
        "Total 8 600 5 000 2 600 1 000\n"
    )
    (found,) = maturity_fields([BALANCE, note], Locale.FR, ("k€", 1000))
    assert (found.key, found.year, found.value, found.label) == (
        "current_liabilities",
        2025,
        Decimal(5000),
        "Total — À 1 an",
    )


def _field(key: str, value: int, statement: Statement = Statement.INCOME, label: str = "") -> Field:
    months = 0 if statement is Statement.BALANCE else 12
    return Field(
        key, label or key, 2025, Decimal(value), 3, "k$", statement, str(value), 1000, months
    )


B = Statement.BALANCE


def test_leverage_on_the_adjusted_ebitda_printed_beside_the_ebitda() -> None:
    fields = (
        _field("long_term_debt", 300, B),
        _field("cash", 20, B),
        _field("ebitda", 70, label="EBITDA"),
        _field("adjusted_ebitda", 80, label="Adjusted EBITDA"),
    )
    ratios = {
        r.id: r.values[0].value
        for r in compute_ratios(Statements(fields, Locale.EN), Company("Acme Inc.", "acme"))
    }
    assert ratios["R-acme-levier"] == Decimal(4)  # 280 / 70
    assert ratios["R-acme-levier-ajuste"] == Decimal("3.5")  # 280 / 80


def test_an_adjusted_ebitda_alone_is_the_ebitda_and_no_second_leverage() -> None:
    fields = (
        _field("long_term_debt", 300, B),
        _field("cash", 20, B),
        _field("adjusted_ebitda", 80, label="Adjusted EBITDA"),
    )
    statements = Statements(fields, Locale.EN)
    ratios = {r.id: r for r in compute_ratios(statements, Company("Acme Inc.", "acme"))}
    assert ratios["R-acme-levier"].values[0].value == Decimal("3.5")
    assert ratios["R-acme-levier"].formula.endswith("/ EBITDA ajusté")
    assert "R-acme-levier-ajuste" not in ratios
    assert not any("ajusté" in reason for reason in ratios_not_computed(statements))


def test_purchases_of_goods_and_of_raw_materials_are_the_cost_base_together() -> None:
    statements = Statements(
        (
            _field("purchases", -150, label="Achats de marchandises"),
            _field("purchases_materials", -2_000, label="Achats de matières premières"),
        ),
        Locale.FR,
    )
    base = op.cost_base(statements, 2025)
    assert base is not None and base.value == Decimal(2_150_000)
    assert [f.label for f in base.inputs] == [
        "Achats de marchandises",
        "Achats de matières premières",
    ]


LABELS: dict[str, tuple[str, str]] = {
    "us gaap lease liabilities net of current portion": (
        "Operating lease liabilities, net of current portion",
        "lease_liabilities_noncurrent",
    ),
    "crédit-bail rents still due": (
        "Total des redevances restant à payer",
        "off_balance_lease_commitments",
    ),
    "adjusted ebitda": ("Adjusted EBITDA", "adjusted_ebitda"),
    "ebitda ajusté": ("EBITDA ajusté", "adjusted_ebitda"),
    "french raw materials": (
        "Achats de matières premières et autres approvisionnements",
        "purchases_materials",
    ),
}


@pytest.mark.parametrize("case", LABELS)
def test_concept_labels(case: str) -> None:
    label, concept = LABELS[case]
    statement = Statement.BALANCE if concept.startswith(("lease", "off")) else Statement.INCOME
    rule = lookup_label(label, statement)
    assert rule is not None and rule.key == concept
