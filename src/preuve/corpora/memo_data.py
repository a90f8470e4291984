"""The three bundled companies: identity, figures (as model primitives), style and prose.

Figures reproduce the reference facts of SPEC.md (Maison Ferlac SAS: leverage 5,5x in 2025
and 3,6x in 2024, free cash flow -14 930 k€, net margin -0,5 %; Solvéa Énergies SA: net
income 11 175 k€ but free cash flow -47 225 k€ in 2025); the rest is invented and kept
consistent by :mod:`preuve.corpora.memo_model`. Label overrides give each report its own
wording, as real reports differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from preuve.corpora.memo_model import Balance, YearFlows
from preuve.corpora.memo_prose import Section
from preuve.corpora.memo_text_ferlac import FERLAC_NOTES, FERLAC_REPORT
from preuve.corpora.memo_text_helvane import HELVANE_NOTES, HELVANE_REPORT
from preuve.corpora.memo_text_solvea import SOLVEA_NOTES, SOLVEA_REPORT

__all__ = ["COMPANIES", "CompanySpec", "HeaderStyle", "NegativeStyle", "Style"]


class NegativeStyle(StrEnum):
    PARENTHESES = "parentheses"  # (61 300)
    MINUS = "minus"  # −61 300 (U+2212)


class HeaderStyle(StrEnum):
    YEARS = "years"  # 2025 | 2024
    DATES = "dates"  # 31/12/2025 | 31/12/2024
    EXERCICE = "exercice"  # Exercice 2025 | Exercice 2024


@dataclass(frozen=True, slots=True)
class Style:
    """How one report prints its statements."""

    negatives: NegativeStyle
    header: HeaderStyle
    unit_caption: str
    note_caption: str
    headings: tuple[str, str, str]  # income statement, balance sheet, cash-flow statement
    labels: tuple[tuple[str, str], ...] = ()  # (field key, label) overrides
    zero_dash: bool = False  # print a zero as an em dash


@dataclass(frozen=True, slots=True)
class CompanySpec:
    """Everything the generator needs for one report."""

    slug: str
    name: str
    legal: str
    activity: str
    year: int
    opening: Balance
    flows: tuple[YearFlows, ...]
    style: Style
    report: tuple[Section, ...]
    notes: tuple[Section, ...]
    notes_by_field: tuple[tuple[str, str], ...] = ()  # (field key, note number) references

    def label(self, key: str, default: str) -> str:
        return dict(self.style.labels).get(key, default)


def _flows(
    year: int,
    *,
    income: tuple[int, int, int, int, int],
    depreciation: tuple[int, int],
    below_ebitda: tuple[int, int],
    capex: tuple[int, int],
    funding: tuple[int, int],
    working_capital: tuple[int, int, int, int, int],
) -> YearFlows:
    """One year, grouped the way an analyst reads it (see ``YearFlows`` for signs):
    income = (revenue, purchases, external charges, personnel, taxes and duties);
    depreciation and capex = (intangible, tangible); below_ebitda = (net financial expense,
    income tax); funding = (net borrowings, dividends); working_capital = changes of
    (inventories, trade receivables, other receivables, trade payables, other liabilities)."""
    revenue, purchases, external, personnel, taxes = income
    d_inv, d_rec, d_orec, d_pay, d_oliab = working_capital
    return YearFlows(
        year=year,
        revenue=revenue,
        purchases=purchases,
        external_charges=external,
        personnel_expenses=personnel,
        taxes_duties=taxes,
        amortization_intangible=depreciation[0],
        depreciation_tangible=depreciation[1],
        net_financial_expense=below_ebitda[0],
        income_tax=below_ebitda[1],
        capex_intangible=capex[0],
        capex_tangible=capex[1],
        net_borrowings=funding[0],
        dividends=funding[1],
        d_inventories=d_inv,
        d_trade_receivables=d_rec,
        d_other_receivables=d_orec,
        d_trade_payables=d_pay,
        d_other_liabilities=d_oliab,
    )


# Balance(intangible, tangible, inventories, trade receivables, other receivables, cash,
#         equity, gross debt, trade payables, other liabilities) at the end of 2023.
_FERLAC = CompanySpec(
    slug="ferlac",
    name="Maison Ferlac SAS",
    legal="Société par actions simplifiée au capital de 8 000 000 € – Siège social : Thiers",
    activity="Articles culinaires et coutellerie",
    year=2025,
    opening=Balance(12_400, 61_800, 24_600, 27_300, 5_200, 17_540, 37_790, 74_350, 21_900, 14_800),
    flows=(
        _flows(
            2024,
            income=(151_300, 63_900, 30_950, 36_800, 2_500),
            depreciation=(1_050, 8_050),
            below_ebitda=(3_980, 1_100),
            capex=(1_500, 12_500),
            funding=(5_000, 1_800),
            working_capital=(800, 700, 100, 300, 100),
        ),
        _flows(
            2025,
            income=(142_600, 61_300, 29_800, 34_900, 2_400),
            depreciation=(1_150, 8_500),
            below_ebitda=(5_120, 143),
            capex=(1_800, 16_200),
            funding=(12_000, 1_430),
            working_capital=(3_100, 2_900, 467, 400, 200),
        ),
    ),
    style=Style(
        negatives=NegativeStyle.PARENTHESES,
        header=HeaderStyle.YEARS,
        unit_caption="En milliers d'euros",
        note_caption="Notes",
        headings=(
            "Compte de résultat consolidé",
            "Bilan consolidé",
            "Tableau des flux de trésorerie consolidés",
        ),
    ),
    report=FERLAC_REPORT,
    notes=FERLAC_NOTES,
    notes_by_field=(("revenue", "3"), ("gross_debt", "9")),
)

_SOLVEA = CompanySpec(
    slug="solvea",
    name="Solvéa Énergies SA",
    legal="Société anonyme à conseil d'administration au capital de 24 500 000 € – "
    "Siège social : Montpellier",
    activity="Production d'électricité renouvelable",
    year=2025,
    opening=Balance(
        28_500, 412_000, 2_100, 15_800, 9_600, 52_000, 164_000, 318_000, 14_200, 23_800
    ),
    flows=(
        _flows(
            2024,
            income=(91_700, 5_900, 17_600, 10_400, 4_300),
            depreciation=(2_000, 25_600),
            below_ebitda=(11_500, 3_600),
            capex=(2_500, 58_500),
            funding=(25_000, 3_500),
            working_capital=(100, 1_500, 300, 600, 200),
        ),
        _flows(
            2025,
            income=(98_400, 6_200, 18_900, 11_300, 4_600),
            depreciation=(2_100, 27_800),
            below_ebitda=(12_600, 3_725),
            capex=(3_000, 83_000),
            funding=(45_000, 4_000),
            working_capital=(200, 3_100, 900, 1_500, 400),
        ),
    ),
    style=Style(
        negatives=NegativeStyle.MINUS,
        header=HeaderStyle.DATES,
        unit_caption="(en k€)",
        note_caption="",
        headings=("Compte de résultat", "Bilan", "Tableau des flux de trésorerie"),
        labels=(
            ("purchases", "Achats et variations de stocks"),
            ("external_charges", "Autres achats et charges externes"),
            ("depreciation", "Dotations aux amortissements et provisions"),
            ("operating_income", "Résultat opérationnel"),
            ("income_tax", "Impôt sur les bénéfices"),
            ("net_income", "Résultat net de l'exercice"),
            ("cash", "Disponibilités"),
            ("equity", "Total capitaux propres"),
            ("gross_debt", "Dettes financières"),
            ("net_debt", "Endettement financier net"),
            ("operating_cash_flow", "Flux net de trésorerie généré par l'activité"),
            ("capex", "Investissements corporels et incorporels"),
        ),
    ),
    report=SOLVEA_REPORT,
    notes=SOLVEA_NOTES,
    notes_by_field=(("tangible_assets", "4"), ("gross_debt", "10")),
)

_HELVANE = CompanySpec(
    slug="helvane",
    name="Helvane",
    legal="Société anonyme au capital de 3 150 000 € – Siège social : Meylan (Isère)",
    activity="Automates et réactifs de biologie médicale",
    year=2025,
    opening=Balance(9_800, 7_600, 8_900, 10_400, 2_300, 5_500, 9_100, 20_900, 7_800, 6_700),
    flows=(
        _flows(
            2024,
            income=(41_200, 15_100, 9_400, 12_500, 300),
            depreciation=(1_700, 1_350),
            below_ebitda=(1_050, -450),
            capex=(2_100, 1_800),
            funding=(2_500, 0),
            working_capital=(500, 400, 100, 200, 100),
        ),
        _flows(
            2025,
            income=(36_800, 13_900, 9_200, 12_300, 250),
            depreciation=(1_900, 1_400),
            below_ebitda=(1_350, -600),
            capex=(2_000, 600),
            funding=(-1_800, 0),
            working_capital=(-600, -900, 300, -700, 200),
        ),
    ),
    style=Style(
        negatives=NegativeStyle.PARENTHESES,
        header=HeaderStyle.EXERCICE,
        unit_caption="En milliers d’euros",
        note_caption="Note",
        headings=(
            "Comptes de résultat consolidés",
            "Bilan consolidé",
            "Tableau des flux de trésorerie consolidés",
        ),
        labels=(
            ("revenue", "Chiffre d’affaires"),
            ("ebitda", "Excédent brut d’exploitation (EBE)"),
            ("depreciation", "Dotations nettes aux amortissements"),
            ("operating_income", "Résultat d’exploitation"),
            ("net_financial_expense", "Coût de l’endettement financier net"),
            ("income_tax", "Impôt sur les résultats (crédit d’impôt recherche)"),
            ("funds_from_operations", "Capacité d’autofinancement"),
            ("operating_cash_flow", "Flux de trésorerie liés à l’activité"),
            ("capex", "Acquisitions d’immobilisations"),
            ("free_cash_flow", "Free cash-flow"),
        ),
        zero_dash=True,
    ),
    report=HELVANE_REPORT,
    notes=HELVANE_NOTES,
    notes_by_field=(("gross_debt", "8"),),
)

COMPANIES: tuple[CompanySpec, ...] = (_FERLAC, _SOLVEA, _HELVANE)
