"""Ratio inputs as analysts take them (issue 14, s25): the consolidated whole over the
group's share, net finance costs from the costs and income printed apart, capital
expenditure with the intangible assets bought, and the French GAAP notes a ratio needs
(a maturity table with several columns beyond one year and labels wrapped over lines, a
note on the leasing commitments alone). Made-up reports and wording."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from preuve.core.numbers import Locale
from preuve.memo import operands as op
from preuve.memo.english import formula_en
from preuve.memo.lexicon import Statement
from preuve.memo.maturity import maturity_fields
from preuve.memo.note_sentences import sentence_fields
from preuve.memo.statements import Field, Statements, extract_statements
from preuve.memo.table_fields import merged_statements, table_statements

INCOME = """Compte de résultat consolidé (en milliers d'euros)
2025 2024
Chiffre d'affaires 52 000 48 000
Résultat opérationnel 3 100 2 900
Résultat net (part du groupe) 1 100 980
Intérêts minoritaires 140 120
Résultat net de l'ensemble consolidé 1 240 1 100
"""


def _fields(pages: list[str], key: str) -> dict[int, Decimal]:
    return {f.year: f.value for f in table_statements(pages) if f.key == key}


def test_the_consolidated_net_income_beats_the_group_share() -> None:
    assert _fields([INCOME], "net_income") == {2025: Decimal(1240), 2024: Decimal(1100)}


def test_the_group_share_alone_is_the_net_income() -> None:
    page = "\n".join(line for line in INCOME.splitlines() if "ensemble" not in line)
    assert _fields([page], "net_income") == {2025: Decimal(1100), 2024: Decimal(980)}


def _field(key: str, value: int, statement: Statement = Statement.INCOME) -> Field:
    return Field(key, key, 2025, Decimal(value), 1, "k€", statement, str(value), 1000, 12)


def _st(*fields: Field) -> Statements:
    return Statements(fields=fields, locale=Locale.FR)


B = Statement.BALANCE
C = Statement.CASHFLOW

OPERANDS: dict[str, tuple[op.Getter, Statements, tuple[Decimal, str] | None]] = {
    "equity: the total when printed": (
        op.equity,
        _st(_field("equity", 900, B), _field("parent_equity", 850, B)),
        (Decimal(900_000), "capitaux propres"),
    ),
    "equity: group share plus minority interests without a total": (
        op.equity,
        _st(_field("parent_equity", 850, B), _field("minority_interests", 50, B)),
        (Decimal(900_000), "(capitaux propres part du groupe + intérêts minoritaires)"),
    ),
    "equity: the group share alone": (
        op.equity,
        _st(_field("parent_equity", 850, B)),
        (Decimal(850_000), "capitaux propres"),
    ),
    "interest: finance costs less finance income, no result line": (
        op.interest,
        _st(_field("financial_charges", -164), _field("financial_income", 9)),
        (Decimal(155_000), "(charges financières - produits financiers)"),
    ),
    "interest: the financial result wins over costs and income": (
        op.interest,
        _st(
            _field("financial_result", -150),
            _field("financial_charges", -164),
            _field("financial_income", 9),
        ),
        (Decimal(150_000), "(- résultat financier)"),
    ),
    "interest: finance costs alone": (
        op.interest,
        _st(_field("financial_charges", -164)),
        (Decimal(164_000), "charges financières"),
    ),
    "capex: tangible and intangible purchases": (
        op.capex,
        _st(_field("capex", -348, C), _field("capex_intangible", -24, C)),
        (Decimal(372_000), "investissements corporels et incorporels"),
    ),
    "capex: intangible purchases alone are no capex": (
        op.capex,
        _st(_field("capex_intangible", -24, C)),
        None,
    ),
    "free cash flow: operating cash flow less both purchases": (
        op.free_cash_flow,
        _st(
            _field("operating_cash_flow", 566, C),
            _field("capex", -348, C),
            _field("capex_intangible", -24, C),
        ),
        (
            Decimal(194_000),
            "(flux de trésorerie d'exploitation - investissements corporels et incorporels)",
        ),
    ),
}


@pytest.mark.parametrize("case", OPERANDS)
def test_operands(case: str) -> None:
    getter, statements, expected = OPERANDS[case]
    found = getter(statements, 2025)
    assert (None if found is None else (found.value, found.formula)) == expected


def test_the_purchases_of_intangible_assets_are_their_own_concept() -> None:
    page = """Consolidated cash flow statement (£ million)
2025 2024
Net cash from operating activities 56.6 71.2
Purchase of property, plant and equipment (34.8) (28.9)
Purchase of intangible assets (2.4) (2.7)
Net cash used in investing activities (37.2) (31.6)
"""
    assert _fields([page], "capex_intangible") == {2025: Decimal("-2.4"), 2024: Decimal("-2.7")}
    assert _fields([page], "capex") == {2025: Decimal("-34.8"), 2024: Decimal("-28.9")}


# Thousands grouped by narrow no-break spaces, as pypdfium2 gives a PDF's figures.
MATURITY = """Note 6 — État des échéances des dettes au 31 décembre 2025
(en euros)  Montant brut  À un an  De un à  À plus
au plus  cinq ans  de cinq ans
Emprunts et dettes auprès des
établissements de crédit  2 400 000  600 000  1 500 000  300 000
Dettes fournisseurs et comptes
rattachés  1 100 000  1 100 000
TOTAL  3 500 000  1 700 000  1 500 000  300 000
"""
MATURITY = re.sub(r"(?<=\d) (?=\d{3}\b)", "\u202f", MATURITY)


def test_a_maturity_note_with_two_columns_beyond_a_year_and_wrapped_labels() -> None:
    (found,) = maturity_fields(["Bilan", MATURITY], Locale.FR, ("€", 1))
    assert (found.key, found.year, found.value, found.page, found.label) == (
        "current_liabilities",
        2025,
        Decimal(1_700_000),
        2,
        "TOTAL — À un an",
    )


def test_a_maturity_total_that_is_not_the_sum_of_its_columns_gives_nothing() -> None:
    note = MATURITY.replace("TOTAL  3\u202f500", "TOTAL  3\u202f600")
    assert maturity_fields(["Bilan", note], Locale.FR, ("€", 1)) == ()


BALANCE = """Bilan au 31 décembre 2025 (en euros)
PASSIF 2025 2024
Capital social 3 000 000 3 000 000
Réserves 2 600 000 2 400 000
TOTAL (I) 5 600 000 5 400 000
Emprunts et dettes auprès des établissements de crédit 4 700 000 5 100 000
TOTAL (II) 4 700 000 5 100 000
TOTAL GÉNÉRAL (I + II) 10 300 000 10 500 000
"""

LEASING = """Note 11 — Engagements de crédit-bail
(en euros) 31/12/2025 31/12/2024
Redevances payées au cours de l'exercice 310 000 295 000
Capital restant dû 990 000 1 210 000
"""


def test_a_note_on_the_leasing_commitments_alone_gives_the_principal() -> None:
    assert _fields([BALANCE, LEASING], "off_balance_lease_principal") == {
        2025: Decimal(990_000),
        2024: Decimal(1_210_000),
    }


NOTE = "Note 14 — Informations complémentaires\n{}\n"
DATES = [(2025, 12, 31), (2024, 12, 31)]

SENTENCES: dict[str, tuple[str, set[tuple[str, int, Decimal, int]]]] = {
    "debts within a year, the date opening the sentence, a 'dont' left alone": (
        "À la clôture du 31 décembre 2024, les dettes à un an au plus atteignaient 18 450 k€, "
        "dont 1 200 k€ de concours bancaires.",
        set(),  # "À la clôture du" is no date the sentence opens with: nothing read
    ),
    "debts within a year, 'Au <date>,' first": (
        "Au 31 décembre 2024, les dettes à moins d'un an s'élevaient à 18 450 k€, dont 1 200 k€ "
        "de concours bancaires.",
        {("current_liabilities", 2024, Decimal(18450), 1000)},
    ),
    "rents still due, both years": (
        "Les loyers restant dus au titre des contrats de location simple d'engins s'élèvent à "
        "1 750 k€ au 31 décembre 2025 (1 320 k€ au 31 décembre 2024).",
        {
            ("off_balance_lease_commitments", 2025, Decimal(1750), 1000),
            ("off_balance_lease_commitments", 2024, Decimal(1320), 1000),
        },
    ),
    "no unit: nothing": (
        "Au 31 décembre 2024, les dettes à moins d'un an s'élevaient à 18 450.",
        set(),
    ),
    "no date: nothing": (
        "Les dettes à moins d'un an s'élèvent à 18 450 k€.",
        set(),
    ),
    "a date the balance sheet does not print: nothing": (
        "Au 30 juin 2025, les dettes à moins d'un an s'élevaient à 18 450 k€.",
        set(),
    ),
    "the subject far from its amount: nothing": (
        "Les dettes à moins d'un an, qui comprennent les avances reçues des clients et les "
        "dettes sociales de fin d'année versées en janvier, s'élèvent à 18 450 k€ au 31 "
        "décembre 2025.",
        set(),
    ),
}


@pytest.mark.parametrize("case", SENTENCES)
def test_amounts_a_note_states_in_a_sentence(case: str) -> None:
    sentence, expected = SENTENCES[case]
    found = sentence_fields(["Bilan", NOTE.format(sentence)], DATES)
    assert {(f.key, f.year, f.value, f.scale) for f in found} == expected
    assert all(f.page == 2 and f.statement is Statement.BALANCE and f.months == 0 for f in found)


def test_leverage_with_leases_from_the_rents_still_due() -> None:
    st = _st(
        _field("gross_debt", 4000, B),
        _field("cash", 500, B),
        _field("off_balance_lease_commitments", 1750, B),
    )
    found = op.net_debt_leases(st, 2025)
    assert found is not None
    assert (found.value, found.formula) == (
        Decimal(5_250_000),
        "((dette brute - trésorerie) + loyers restant dus des contrats de location hors bilan)",
    )


GAAP = """Bilan consolidé au 31 décembre 2025 (en milliers d'euros)
ACTIF 31/12/2025 31/12/2024
Immobilisations corporelles 30 000 28 000
Stocks 4 000 3 500
Clients et comptes rattachés 6 000 5 500
Disponibilités 2 000 2 500
Actif circulant 12 000 11 500
Total de l'actif 42 000 39 500
PASSIF 31/12/2025 31/12/2024
Capital 5 000 5 000
Réserves 9 000 8 000
Capitaux propres 14 000 13 000
Emprunts et dettes financières 16 000 15 000
Fournisseurs et comptes rattachés 7 000 6 500
Dettes fiscales et sociales 5 000 5 000
Dettes 28 000 26 500
Total du passif 42 000 39 500
"""

SCHEDULE = """Note 8 — Échéancier
31/12/2025, en milliers d'euros  Total  < 1 an  1 à 5 ans  > 5 ans
Emprunts bancaires  16 000  3 000  11 000  2 000
Total dettes financières  16 000  3 000  11 000  2 000
"""
SCHEDULE = re.sub(r"(?<=\d) (?=\d{3}\b)", "\u202f", SCHEDULE)


def _merged_gaap(pages: list[str]) -> Statements:
    return merged_statements(pages, extract_statements(pages))


def test_current_liabilities_from_a_schedule_of_the_financial_debts() -> None:
    statements = _merged_gaap([GAAP, SCHEDULE])
    found = op.current_liabilities(statements, 2025)
    assert found is not None
    assert (found.value, found.formula) == (
        Decimal(28_000 - 16_000 + 3_000) * 1000,
        "(dettes - dettes financières + dettes financières à moins d'un an)",
    )
    assert [(f.key, f.page, f.raw) for f in found.inputs] == [
        ("debts_total", 1, "28\u202f000"),
        ("gross_debt", 1, "16\u202f000"),
        ("financial_debts_within_one_year", 2, "3\u202f000"),
    ]
    # the schedule is dated 2025: 2024's current liabilities are not guessed
    assert op.current_liabilities(statements, 2024) is None


def test_a_schedule_that_is_neither_the_debts_nor_the_financial_debts_gives_nothing() -> None:
    other = SCHEDULE.replace(
        "16\u202f000  3\u202f000  11\u202f000", "17\u202f000  4\u202f000  11\u202f000"
    )
    statements = _merged_gaap([GAAP, other])
    assert op.current_liabilities(statements, 2025) is None
    assert not [f for f in statements.fields if f.key.startswith(("debts", "financial_debts"))]


def test_a_schedule_of_all_the_debts_gives_the_current_liabilities() -> None:
    note = """Note 8 — Échéancier
31/12/2025, en milliers d'euros  Total  < 1 an  1 à 5 ans  > 5 ans
Emprunts et dettes financières  16 000  3 000  11 000  2 000
Fournisseurs et dettes fiscales  12 000  12 000  —  —
Total  28 000  15 000  11 000  2 000
"""
    statements = _merged_gaap([GAAP, re.sub(r"(?<=\d) (?=\d{3}\b)", "\u202f", note)])
    found = op.current_liabilities(statements, 2025)
    assert found is not None
    assert (found.value, found.formula) == (Decimal(15_000_000), "passif courant")


@pytest.mark.parametrize(
    ("french", "english"),
    [
        (
            "(flux de trésorerie d'exploitation - investissements corporels et incorporels)",
            "(operating cash flow - capital expenditure on tangible and intangible assets)",
        ),
        (
            "résultat opérationnel / (charges financières - produits financiers)",
            "operating income / (financial charges - financial income)",
        ),
        (
            "dette nette / (capitaux propres part du groupe + intérêts minoritaires)",
            "net debt / (equity attributable to the parent + minority interests)",
        ),
        (
            "actif courant / (dettes - dettes financières + dettes financières à moins d'un an)",
            "current assets / (liabilities - financial debts"
            " + financial debts due within one year)",
        ),
    ],
)
def test_the_new_formulas_in_english(french: str, english: str) -> None:
    assert formula_en(french) == english
