"""A concept printed by two statements is read from the one that states it first-hand."""

from __future__ import annotations

from decimal import Decimal

from preuve.memo.statements import extract_statements
from preuve.memo.table_fields import merged_statements

# The cash-flow table comes first (a management report's), and its add-back line counts the
# provisions too; the income statement prints the depreciation alone, further on.
CASH = """Tableau des flux de trésorerie (en milliers d'euros)
2025 2024
Résultat net 410 380
Dotations aux amortissements et provisions 905 860
Variation du besoin en fonds de roulement (120) 40
Flux net de trésorerie généré par l'activité 1 195 1 280
Acquisitions d'immobilisations (700) (650)
Flux net de trésorerie lié aux opérations d'investissement (700) (650)
Flux net de trésorerie lié aux opérations de financement (300) (420)
Variation de trésorerie 195 210
"""
INCOME = """Compte de résultat (en milliers d'euros)
2025 2024
Chiffre d'affaires 9 800 9 200
Achats consommés (6 100) (5 700)
Dotations aux amortissements (830) (800)
Résultat d'exploitation 1 120 1 010
Charges financières (410) (380)
Résultat avant impôt 710 630
Impôt sur les bénéfices (300) (250)
Résultat net 410 380
"""


def test_the_income_statements_depreciation_wins_over_the_cash_flow_add_back() -> None:
    pages = [CASH, INCOME]
    statements = merged_statements(pages, extract_statements(pages))
    depreciation = statements.get("depreciation", 2025)
    assert depreciation is not None
    assert (abs(depreciation.value), depreciation.page) == (Decimal(830), 2)
