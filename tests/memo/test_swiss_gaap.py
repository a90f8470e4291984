"""Swiss GAAP RPC / Code of obligations statements in French: apostrophe thousands (plain
and U+2019), an "Annexe" notes column, en-dash and minus-sign negatives, a dash alone for
nil, and the CO's wording of the lines (art. 959a/959b). Made-up figures and wording."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.memo.table_fields import table_statements
from preuve.memo.tables import read_tables

BALANCE = """Bilan consolidé au 31 décembre 2025

en milliers de CHF                       Annexe        31.12.2025        31.12.2024
Liquidités et équivalents de liquidités              4'210             3'980
Créances résultant de ventes et de prestations de services   3    12'406    11'870
Autres créances à court terme                          905               –
Stocks                                           4     9\u2019120            8\u2019775
Total des actifs circulants                          26'641            24'625
Immobilisations corporelles                      5    31'002            30'118
Total des actifs                                     57'643            54'743
Dettes à court terme résultant d'achats et de prestations de services   6'330   5'912
Dettes financières à court terme                 7     3'000             1'500
Total des capitaux étrangers à court terme            9'330             7'412
Dettes financières à long terme                  7    18'000            19'500
Total des capitaux étrangers                         27'330            26'912
Capital-actions                                       5'000             5'000
Total des capitaux propres                           30'313            27'831
Total des passifs                                    57'643            54'743
"""

INCOME = """Compte de résultat consolidé

en milliers de CHF                       Annexe          2025          2024
Produits nets des ventes de marchandises         1    61'480        58'214
Charges de personnel                             2   −22'310       −21'004
Résultat opérationnel avant amortissements et corrections de valeur   9'870   8'950
Amortissements                                        –3'120        –2'980
Résultat d'exploitation                                6'750         5'970
Charges exceptionnelles                                –410             –
Bénéfice annuel                                        4'182         3'655
"""

CASH_FLOWS = """Tableau des flux de trésorerie consolidé

en milliers de CHF                                     2025          2024
Flux de trésorerie provenant de l'activité d'exploitation   7'940   6'815
Investissements d'immobilisations corporelles          –3'904        –4'410
Flux de trésorerie affectés à l'activité d'investissement   –3'850   –4'390
Variation nette des liquidités                            230          –610
"""


def _fields() -> dict[tuple[str, int], Decimal]:
    return {(f.key, f.year): f.value for f in table_statements([BALANCE, INCOME, CASH_FLOWS])}


@pytest.mark.parametrize(
    ("concept", "year", "value"),
    [
        ("cash", 2025, Decimal(4210)),
        ("trade_receivables", 2025, Decimal(12406)),  # a note reference before the value
        ("other_receivables", 2024, Decimal(0)),  # an en dash alone: nil
        ("inventories", 2024, Decimal(8775)),  # U+2019 apostrophes
        ("current_assets", 2025, Decimal(26641)),
        ("total_assets", 2025, Decimal(57643)),
        ("trade_payables", 2025, Decimal(6330)),
        ("current_liabilities", 2025, Decimal(9330)),
        ("total_liabilities", 2025, Decimal(27330)),
        ("share_capital", 2025, Decimal(5000)),
        ("equity", 2024, Decimal(27831)),
        ("revenue", 2025, Decimal(61480)),
        ("personnel_expenses", 2025, Decimal(-22310)),  # minus sign U+2212
        ("ebitda", 2025, Decimal(9870)),
        ("net_income", 2025, Decimal(4182)),
        ("operating_cash_flow", 2025, Decimal(7940)),
        ("capex", 2025, Decimal(-3904)),  # en-dash negative
        ("investing_cash_flow", 2024, Decimal(-4390)),
        ("net_change_in_cash", 2024, Decimal(-610)),
    ],
)
def test_swiss_statement_lines_take_their_concepts(concept: str, year: int, value: Decimal) -> None:
    assert _fields()[(concept, year)] == value


def test_the_annexe_column_stays_out_of_the_labels() -> None:
    labels = [r.label for t in read_tables([BALANCE]) for r in t.rows]
    assert "Stocks" in labels
    assert "Créances résultant de ventes et de prestations de services" in labels
    assert not any(label.endswith((" 3", " 4", " 5", " 7")) for label in labels)


def test_every_value_is_read_whole_with_its_span() -> None:
    pages = [INCOME]
    cells = {
        c.raw: (c.value, pages[0][c.start : c.end])
        for t in read_tables(pages)
        for r in t.rows
        for c in r.cells
    }
    assert cells["61'480"] == (Decimal(61480), "61'480")
    assert cells["−22'310"] == (Decimal(-22310), "−22'310")
    assert cells["–"] == (Decimal(0), "–")
