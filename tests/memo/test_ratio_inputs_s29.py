"""Ratio inputs of the fifteenth writer's layouts, in general form (issue 14, s29), on lines
written for these tests (a bus maker, a cheese dairy, a ski-lift operator): an IFRS income
statement by function, whose D&A only the cash-flow statement adds back (property, plant and
equipment, right-of-use assets and intangibles on three lines); an IFRS balance sheet that
prints the current portion of its borrowings, of its leases and its bank overdraft apart; French
statutory accounts whose cash sits beside marketable securities and whose depreciation is the
"Sur immobilisations : dotations aux amortissements" line."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.numbers import Locale
from preuve.memo import operands as op
from preuve.memo.english import formula_en
from preuve.memo.lexicon import Statement, lookup_label
from preuve.memo.maturity import maturity_fields
from preuve.memo.statements import Field, Statements

IN, BS, CF = Statement.INCOME, Statement.BALANCE, Statement.CASHFLOW


def _statements(*rows: tuple[str, str, Statement, int]) -> Statements:
    """One year (2026) of fields: (concept, label, statement, value)."""
    fields = tuple(
        Field(key, label, 2026, Decimal(value), 1, "k", statement, str(value), 1000, 12)
        for key, label, statement, value in rows
    )
    return Statements(fields=fields, locale=Locale.EN)


@pytest.mark.parametrize(
    ("label", "statement", "concept"),
    [
        ("Depreciation of property, plant and equipment", CF, "depreciation_tangible"),
        ("Depreciation of right-of-use assets", CF, "depreciation_right_of_use"),
        ("Amortisation of intangible assets", CF, "amortization"),
        ("Current portion of interest-bearing borrowings", BS, "current_debt"),
        ("Current portion of bank loans", BS, "current_debt"),
        ("Current portion of lease liabilities", BS, "lease_liabilities_current"),
        ("Bank overdrafts", BS, "bank_overdrafts"),
        ("Découverts bancaires", BS, "bank_overdrafts"),
        ("Valeurs mobilières de placement", BS, "cash_investments"),
        ("Sur immobilisations : dotations aux amortissements", IN, "depreciation"),
        ("Sur actif circulant : dotations aux dépréciations", IN, "operating_provisions_assets"),
        ("Pour risques et charges : dotations aux provisions", IN, "operating_provisions_risks"),
        (
            "Reprises sur amortissements et provisions, transferts de charges",
            IN,
            "operating_reversals",
        ),
        ("Autres produits", IN, "other_operating_income"),
        ("Autres charges", IN, "other_operating_charges"),
    ],
)
def test_the_lines_of_these_layouts_name_their_concept(
    label: str, statement: Statement, concept: str
) -> None:
    rule = lookup_label(label, statement)
    assert rule is not None and rule.key == concept


def test_an_overdraft_is_not_a_current_portion_nor_a_lease() -> None:
    # A cash-flow line is no balance-sheet overdraft, and a lease's current portion no debt's.
    assert lookup_label("Bank overdrafts", Statement.CASHFLOW) is None
    rule = lookup_label("Current portion of lease liabilities", BS)
    assert rule is not None and rule.key != "current_debt"


def test_ebitda_of_a_statement_by_function_adds_back_the_cash_flow_d_and_a() -> None:
    st = _statements(
        ("operating_income", "Operating profit", IN, 41_300),
        ("depreciation_tangible", "Depreciation of property, plant and equipment", CF, 18_200),
        ("depreciation_right_of_use", "Depreciation of right-of-use assets", CF, 3_900),
        ("amortization", "Amortisation of intangible assets", CF, 1_100),
    )
    ebitda = op.ebitda(st, 2026)
    assert ebitda is not None
    assert ebitda.value == Decimal(64_500) * 1000
    assert [f.key for f in ebitda.inputs] == [
        "operating_income",
        "depreciation_tangible",
        "depreciation_right_of_use",
        "amortization",
    ]
    assert "droits d'utilisation" in ebitda.formula
    assert "right-of-use" in formula_en(ebitda.formula)


def test_without_the_intangibles_line_no_ebitda_is_made_up() -> None:
    # Property, plant and equipment alone is part of the D&A: no EBITDA from it.
    st = _statements(
        ("operating_income", "Operating profit", IN, 41_300),
        ("depreciation_tangible", "Depreciation of property, plant and equipment", CF, 18_200),
    )
    assert op.ebitda(st, 2026) is None


def test_a_printed_d_and_a_line_wins_over_the_cash_flow_parts() -> None:
    st = _statements(
        ("operating_income", "Operating profit", IN, 41_300),
        ("depreciation", "Depreciation and amortisation", IN, 23_200),
        ("depreciation_tangible", "Depreciation of property, plant and equipment", CF, 18_200),
        ("amortization", "Amortisation of intangible assets", CF, 1_100),
    )
    ebitda = op.ebitda(st, 2026)
    assert ebitda is not None and ebitda.value == Decimal(64_500) * 1000


def test_net_debt_counts_the_current_portion_and_the_overdraft() -> None:
    st = _statements(
        ("long_term_debt", "Interest-bearing borrowings", BS, 52_000),
        ("current_debt", "Current portion of interest-bearing borrowings", BS, 9_500),
        ("bank_overdrafts", "Bank overdraft", BS, 4_200),
        ("cash", "Cash and cash equivalents", BS, 7_700),
        ("lease_liabilities_noncurrent", "Lease liabilities", BS, 12_000),
        ("lease_liabilities_current", "Current portion of lease liabilities", BS, 2_500),
    )
    debt = op.net_debt(st, 2026)
    assert debt is not None and debt.value == Decimal(58_000) * 1000
    assert {f.key for f in debt.inputs} >= {"current_debt", "bank_overdrafts"}
    with_leases = op.net_debt_leases(st, 2026)
    assert with_leases is not None and with_leases.value == Decimal(72_500) * 1000


def test_french_net_debt_takes_out_the_marketable_securities() -> None:
    st = _statements(
        ("bank_borrowings", "Emprunts et dettes auprès des établissements de crédit", BS, 3_400),
        ("cash", "Disponibilités", BS, 610),
        ("cash_investments", "Valeurs mobilières de placement", BS, 250),
    )
    debt = op.net_debt(st, 2026)
    assert debt is not None and debt.value == Decimal(2_540) * 1000
    assert "valeurs mobilières de placement" in debt.formula
    assert formula_en(debt.formula) == "(borrowings - cash - marketable securities)"
    without = _statements(
        ("bank_borrowings", "Emprunts et dettes auprès des établissements de crédit", BS, 3_400),
        ("cash", "Disponibilités", BS, 610),
    )
    plain = op.net_debt(without, 2026)
    assert plain is not None and plain.value == Decimal(2_790) * 1000


def test_statutory_accounts_give_their_ebe_from_the_operating_lines() -> None:
    # EBE = operating result + depreciation and provisions - reversals - other income
    # + other charges (the soldes intermédiaires de gestion), here 940 + 410 + 35 + 20 - 60
    # - 12 + 8 = 1 341.
    st = _statements(
        ("operating_income", "RÉSULTAT D'EXPLOITATION", IN, 940),
        ("depreciation", "Sur immobilisations : dotations aux amortissements", IN, 410),
        (
            "operating_provisions_assets",
            "Sur actif circulant : dotations aux dépréciations",
            IN,
            35,
        ),
        (
            "operating_provisions_risks",
            "Pour risques et charges : dotations aux provisions",
            IN,
            20,
        ),
        ("operating_reversals", "Reprises sur provisions, transferts de charges", IN, 60),
        ("other_operating_income", "Autres produits", IN, 12),
        ("other_operating_charges", "Autres charges", IN, 8),
    )
    ebe = op.ebitda(st, 2026)
    assert ebe is not None and ebe.value == Decimal(1_341) * 1000
    assert len(ebe.inputs) == 7
    assert "reprises et transferts de charges" in ebe.formula
    assert "reversals and transfers of charges" in formula_en(ebe.formula)


def test_without_a_reversals_line_ebitda_is_operating_income_plus_depreciation() -> None:
    st = _statements(
        ("operating_income", "Résultat d'exploitation", IN, 940),
        ("depreciation", "Dotations aux amortissements sur immobilisations", IN, 410),
        ("other_operating_charges", "Autres charges", IN, 8),
    )
    ebitda = op.ebitda(st, 2026)
    assert ebitda is not None and ebitda.value == Decimal(1_350) * 1000
    assert ebitda.formula == "(résultat d'exploitation + amortissements)"


def test_the_exceptional_reversals_are_no_operating_reversals() -> None:
    rule = lookup_label("Reprises sur provisions et transferts de charges", IN)
    assert rule is None or rule.key != "operating_reversals"


def test_statutory_turnover_counts_the_production_sold_of_goods_and_of_services() -> None:
    assert (rule := lookup_label("Production vendue services", IN)) is not None
    assert rule.key == "production_sold_services"
    assert (rule := lookup_label("Production vendue biens", IN)) is not None
    assert rule.key == "production_sold"
    st = _statements(
        ("sales_of_goods", "Ventes de marchandises", IN, 1_200),
        ("production_sold", "Production vendue biens", IN, 8_400),
        ("production_sold_services", "Production vendue services", IN, 650),
    )
    turnover = op.revenue(st, 2026)
    assert turnover is not None and turnover.value == Decimal(10_250) * 1000
    assert len(turnover.inputs) == 3
    # A company that sells services only still has a turnover.
    services = _statements(("production_sold_services", "Production vendue services", IN, 650))
    alone = op.revenue(services, 2026)
    assert alone is not None and alone.value == Decimal(650) * 1000


MATURITY_AT_CLOSING = """Annexe - État des échéances des dettes à la clôture
Montant brut  À 1 an au plus  De 1 à 5 ans  À plus de 5 ans
Emprunts auprès des établissements de crédit  5 200  1 100  3 100  1 000
Fournisseurs et comptes rattachés  2 300  2 300  –  –
TOTAL  7 500  3 400  3 100  1 000
"""


def test_a_maturity_table_dated_by_the_closing_is_the_latest_balance_sheet_s() -> None:
    # "à la clôture": the date of the latest balance sheet, whose debts its gross amount is.
    debts = {2026: Decimal(7_500), 2025: Decimal(6_900)}
    (found,) = maturity_fields([MATURITY_AT_CLOSING], Locale.FR, ("k€", 1000), debts)
    assert (found.key, found.year, found.value) == ("current_liabilities", 2026, Decimal(3_400))
    # Its gross amount must still be that balance sheet's debts, and without a balance sheet
    # the closing dates nothing.
    other = {2026: Decimal(7_900), 2025: Decimal(7_500)}
    assert maturity_fields([MATURITY_AT_CLOSING], Locale.FR, ("k€", 1000), other) == ()
    assert maturity_fields([MATURITY_AT_CLOSING], Locale.FR, ("k€", 1000)) == ()


def test_a_balance_sheet_line_above_the_total_assets_is_no_ratio_input() -> None:
    # Two columns' figures read as one ("486 331 712 840"): larger than the total assets, so
    # misread; the net debt is then not computed rather than computed on it.
    st = _statements(
        ("bank_borrowings", "Emprunts et dettes auprès des établissements de crédit", BS, 3_400),
        ("cash", "Disponibilités", BS, 486_331_712),
        ("total_assets", "TOTAL GÉNÉRAL", BS, 9_800),
    )
    assert op.net_debt(st, 2026) is None
    sound = _statements(
        ("bank_borrowings", "Emprunts et dettes auprès des établissements de crédit", BS, 3_400),
        ("cash", "Disponibilités", BS, 480),
        ("total_assets", "TOTAL GÉNÉRAL", BS, 9_800),
    )
    debt = op.net_debt(sound, 2026)
    assert debt is not None and debt.value == Decimal(2_920) * 1000
