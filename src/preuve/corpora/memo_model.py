"""The financial model behind the bundled annual reports: primitives in, three statements out.

A company is described by its closing balance sheet of the year before the report
(``opening``) and the flows of each reported year (``YearFlows``). Every printed line is
derived here, so the statements are consistent by construction: the cash-flow statement
explains the change in cash, the balance sheet balances, and net debt = gross debt - cash.
Costs and outflows are carried as negative values, as the reports print them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "LINES",
    "Balance",
    "Kind",
    "LineSpec",
    "YearFlows",
    "derive_years",
]


class Kind(StrEnum):
    """The statement a line belongs to."""

    INCOME = "income"
    BALANCE = "balance"
    CASHFLOW = "cashflow"


@dataclass(frozen=True, slots=True)
class LineSpec:
    """One printed line: its field key, statement, default French label and whether it is a
    subtotal (printed in bold with a rule above)."""

    key: str
    kind: Kind
    label: str
    subtotal: bool = False
    section: str = ""


LINES: tuple[LineSpec, ...] = (
    LineSpec("revenue", Kind.INCOME, "Chiffre d'affaires"),
    LineSpec("purchases", Kind.INCOME, "Achats consommés"),
    LineSpec("external_charges", Kind.INCOME, "Charges externes"),
    LineSpec("personnel_expenses", Kind.INCOME, "Charges de personnel"),
    LineSpec("taxes_duties", Kind.INCOME, "Impôts et taxes"),
    LineSpec("ebitda", Kind.INCOME, "EBITDA (excédent brut d'exploitation)", subtotal=True),
    LineSpec("depreciation", Kind.INCOME, "Dotations aux amortissements"),
    LineSpec("operating_income", Kind.INCOME, "Résultat d'exploitation", subtotal=True),
    LineSpec("net_financial_expense", Kind.INCOME, "Coût de l'endettement financier net"),
    LineSpec("income_tax", Kind.INCOME, "Impôt sur les résultats"),
    LineSpec("net_income", Kind.INCOME, "Résultat net", subtotal=True),
    LineSpec("intangible_assets", Kind.BALANCE, "Immobilisations incorporelles", section="actif"),
    LineSpec("tangible_assets", Kind.BALANCE, "Immobilisations corporelles", section="actif"),
    LineSpec("inventories", Kind.BALANCE, "Stocks et en-cours", section="actif"),
    LineSpec("trade_receivables", Kind.BALANCE, "Clients et comptes rattachés", section="actif"),
    LineSpec("other_receivables", Kind.BALANCE, "Autres créances", section="actif"),
    LineSpec("cash", Kind.BALANCE, "Trésorerie et équivalents de trésorerie", section="actif"),
    LineSpec("total_assets", Kind.BALANCE, "Total actif", subtotal=True, section="actif"),
    LineSpec("equity", Kind.BALANCE, "Capitaux propres", section="passif"),
    LineSpec("gross_debt", Kind.BALANCE, "Emprunts et dettes financières", section="passif"),
    LineSpec("trade_payables", Kind.BALANCE, "Fournisseurs et comptes rattachés", section="passif"),
    LineSpec("other_liabilities", Kind.BALANCE, "Autres dettes", section="passif"),
    LineSpec("total_liabilities", Kind.BALANCE, "Total dettes", subtotal=True, section="passif"),
    LineSpec(
        "total_equity_and_liabilities",
        Kind.BALANCE,
        "Total passif",
        subtotal=True,
        section="passif",
    ),
    LineSpec("net_debt", Kind.BALANCE, "Dette financière nette", subtotal=True, section="dette"),
    LineSpec("funds_from_operations", Kind.CASHFLOW, "Capacité d'autofinancement"),
    LineSpec("working_capital_change", Kind.CASHFLOW, "Variation du besoin en fonds de roulement"),
    LineSpec(
        "operating_cash_flow", Kind.CASHFLOW, "Flux de trésorerie liés à l'activité", subtotal=True
    ),
    LineSpec("capex", Kind.CASHFLOW, "Acquisitions d'immobilisations corporelles et incorporelles"),
    LineSpec(
        "free_cash_flow",
        Kind.CASHFLOW,
        "Flux de trésorerie disponible (free cash-flow)",
        subtotal=True,
    ),
    LineSpec("net_borrowings", Kind.CASHFLOW, "Variation nette des emprunts"),
    LineSpec("dividends", Kind.CASHFLOW, "Dividendes versés"),
    LineSpec(
        "financing_cash_flow",
        Kind.CASHFLOW,
        "Flux de trésorerie liés aux opérations de financement",
        subtotal=True,
    ),
    LineSpec("net_change_in_cash", Kind.CASHFLOW, "Variation de la trésorerie", subtotal=True),
)


@dataclass(frozen=True, slots=True)
class Balance:
    """A closing balance sheet, before totals (k€, all positive)."""

    intangible_assets: int
    tangible_assets: int
    inventories: int
    trade_receivables: int
    other_receivables: int
    cash: int
    equity: int
    gross_debt: int
    trade_payables: int
    other_liabilities: int

    def imbalance(self) -> int:
        """Assets minus equity and liabilities: zero for a balance sheet that balances."""
        assets = (
            self.intangible_assets
            + self.tangible_assets
            + self.inventories
            + self.trade_receivables
            + self.other_receivables
            + self.cash
        )
        return assets - self.equity - self.gross_debt - self.trade_payables - self.other_liabilities


@dataclass(frozen=True, slots=True)
class YearFlows:
    """What happens during one year (k€). Charges, capex and dividends are given as positive
    amounts; ``income_tax`` is a charge when positive, a credit when negative; the ``d_*``
    are changes of working-capital items (increase positive)."""

    year: int
    revenue: int
    purchases: int
    external_charges: int
    personnel_expenses: int
    taxes_duties: int
    amortization_intangible: int
    depreciation_tangible: int
    net_financial_expense: int
    income_tax: int
    capex_intangible: int
    capex_tangible: int
    net_borrowings: int
    dividends: int
    d_inventories: int
    d_trade_receivables: int
    d_other_receivables: int
    d_trade_payables: int
    d_other_liabilities: int


def _income(flows: YearFlows) -> dict[str, int]:
    ebitda = (
        flows.revenue
        - flows.purchases
        - flows.external_charges
        - flows.personnel_expenses
        - flows.taxes_duties
    )
    depreciation = flows.amortization_intangible + flows.depreciation_tangible
    operating = ebitda - depreciation
    net = operating - flows.net_financial_expense - flows.income_tax
    return {
        "revenue": flows.revenue,
        "purchases": -flows.purchases,
        "external_charges": -flows.external_charges,
        "personnel_expenses": -flows.personnel_expenses,
        "taxes_duties": -flows.taxes_duties,
        "ebitda": ebitda,
        "depreciation": -depreciation,
        "operating_income": operating,
        "net_financial_expense": -flows.net_financial_expense,
        "income_tax": -flows.income_tax,
        "net_income": net,
    }


def _cashflow(flows: YearFlows, net_income: int) -> dict[str, int]:
    depreciation = flows.amortization_intangible + flows.depreciation_tangible
    funds = net_income + depreciation
    wc_change = (
        -flows.d_inventories
        - flows.d_trade_receivables
        - flows.d_other_receivables
        + flows.d_trade_payables
        + flows.d_other_liabilities
    )
    operating = funds + wc_change
    capex = -(flows.capex_intangible + flows.capex_tangible)
    free = operating + capex
    financing = flows.net_borrowings - flows.dividends
    return {
        "funds_from_operations": funds,
        "working_capital_change": wc_change,
        "operating_cash_flow": operating,
        "capex": capex,
        "free_cash_flow": free,
        "net_borrowings": flows.net_borrowings,
        "dividends": -flows.dividends,
        "financing_cash_flow": financing,
        "net_change_in_cash": free + financing,
    }


def _roll(before: Balance, flows: YearFlows, lines: dict[str, int]) -> Balance:
    return Balance(
        intangible_assets=before.intangible_assets
        + flows.capex_intangible
        - flows.amortization_intangible,
        tangible_assets=before.tangible_assets + flows.capex_tangible - flows.depreciation_tangible,
        inventories=before.inventories + flows.d_inventories,
        trade_receivables=before.trade_receivables + flows.d_trade_receivables,
        other_receivables=before.other_receivables + flows.d_other_receivables,
        cash=before.cash + lines["net_change_in_cash"],
        equity=before.equity + lines["net_income"] - flows.dividends,
        gross_debt=before.gross_debt + flows.net_borrowings,
        trade_payables=before.trade_payables + flows.d_trade_payables,
        other_liabilities=before.other_liabilities + flows.d_other_liabilities,
    )


def _balance_lines(balance: Balance) -> dict[str, int]:
    assets = (
        balance.intangible_assets
        + balance.tangible_assets
        + balance.inventories
        + balance.trade_receivables
        + balance.other_receivables
        + balance.cash
    )
    liabilities = balance.gross_debt + balance.trade_payables + balance.other_liabilities
    return {
        "intangible_assets": balance.intangible_assets,
        "tangible_assets": balance.tangible_assets,
        "inventories": balance.inventories,
        "trade_receivables": balance.trade_receivables,
        "other_receivables": balance.other_receivables,
        "cash": balance.cash,
        "total_assets": assets,
        "equity": balance.equity,
        "gross_debt": balance.gross_debt,
        "trade_payables": balance.trade_payables,
        "other_liabilities": balance.other_liabilities,
        "total_liabilities": liabilities,
        "total_equity_and_liabilities": balance.equity + liabilities,
        "net_debt": balance.gross_debt - balance.cash,
    }


def derive_years(opening: Balance, years: tuple[YearFlows, ...]) -> dict[int, dict[str, int]]:
    """Every printed line of every year, keyed by year then field key (in ``LINES`` order).

    ``years`` are in chronological order; ``opening`` is the balance sheet closing the year
    before the first one. Raises ``ValueError`` if the opening balance does not balance.
    """
    if opening.imbalance() != 0:
        raise ValueError(f"opening balance sheet is off by {opening.imbalance()} k€")
    result: dict[int, dict[str, int]] = {}
    balance = opening
    for flows in years:
        lines = _income(flows)
        lines.update(_cashflow(flows, lines["net_income"]))
        balance = _roll(balance, flows, lines)
        lines.update(_balance_lines(balance))
        result[flows.year] = {spec.key: lines[spec.key] for spec in LINES}
    return result
