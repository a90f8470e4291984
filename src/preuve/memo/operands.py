"""The operands of the ratios, each built from identified statement fields.

An :class:`Operand` is a value, the words of its formula (French; :mod:`preuve.memo.english`
translates them) and the fields it was built from, so every ratio cites its inputs (label,
page, value as printed). A getter returns None when a field it needs is missing: no
operand is ever made up. Fallbacks are declared in order and the formula says which one
was used (net debt is the reported line, else gross debt - cash, else borrowings - cash).

:func:`durations` gives the flow durations of an operand's inputs, so a ratio can refuse
to put a three-month and a six-month figure in one value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from preuve.memo.ebitda_parts import by_function_ebitda, statutory_ebe
from preuve.memo.lexicon import Statement
from preuve.memo.statements import Field, Statements

__all__ = [
    "FINANCIAL_DEBTS",
    "Getter",
    "Operand",
    "adjusted_ebitda",
    "capex",
    "cost_base",
    "current_assets_less_inventories",
    "current_liabilities",
    "durations",
    "ebit",
    "ebitda",
    "equity",
    "field",
    "free_cash_flow",
    "interest",
    "net_debt",
    "net_debt_leases",
    "revenue",
]


@dataclass(frozen=True, slots=True)
class Operand:
    """A ratio's numerator or denominator for one year."""

    value: Decimal
    formula: str
    inputs: tuple[Field, ...]


Getter = Callable[[Statements, int], "Operand | None"]


def _get(st: Statements, key: str, year: int) -> Field | None:
    """The field, unless it is a balance-sheet amount larger than the year's total assets,
    which no line of a balance sheet is: misread (two columns' figures read as one), so no
    ratio input."""
    found = st.get(key, year)
    if found is None or found.statement is not Statement.BALANCE or key in _TOTALS:
        return found
    total = st.get("total_assets", year)
    if total is not None and abs(found.amount) > abs(total.amount) and not key.startswith("off_"):
        return None
    return found


_TOTALS = frozenset({"total_assets", "total_equity_and_liabilities"})


def field(key: str, formula: str) -> Getter:
    """The field ``key`` as it is (in currency units)."""

    def operand(st: Statements, year: int) -> Operand | None:
        found = _get(st, key, year)
        return None if found is None else Operand(found.amount, formula, (found,))

    return operand


def _magnitude(key: str, formula: str) -> Getter:
    """The field ``key`` as a positive amount (costs and outflows are printed negative)."""

    def operand(st: Statements, year: int) -> Operand | None:
        found = _get(st, key, year)
        return None if found is None else Operand(abs(found.amount), formula, (found,))

    return operand


def net_debt(st: Statements, year: int) -> Operand | None:
    reported = _get(st, "net_debt", year)
    if reported is not None:
        return Operand(reported.amount, "dette nette", (reported,))
    cash = _get(st, "cash", year)
    gross = _get(st, "gross_debt", year)
    if gross is not None and cash is not None:
        return Operand(gross.amount - cash.amount, "(dette brute - trésorerie)", (gross, cash))
    borrowings = [
        found
        for key in ("bank_borrowings", "bond_debt", "other_borrowings")
        if (found := _get(st, key, year)) is not None
    ]
    if cash is not None and any(f.key != "other_borrowings" for f in borrowings):
        # French GAAP prints its borrowings by lender, overdrafts included, with no
        # current / non-current split; the marketable securities held beside the cash
        # ("valeurs mobilières de placement") are cash too.
        total = sum((f.amount for f in borrowings), Decimal(0))
        securities = _get(st, "cash_investments", year)
        if securities is not None:
            return Operand(
                total - cash.amount - securities.amount,
                "(emprunts et dettes financières - disponibilités"
                " - valeurs mobilières de placement)",
                (*borrowings, cash, securities),
            )
        return Operand(
            total - cash.amount,
            "(emprunts et dettes financières - disponibilités)",
            (*borrowings, cash),
        )
    long_term = _get(st, "long_term_debt", year)
    if long_term is not None and cash is not None:
        # Belgian GAAP prints apart the long-term debts falling due within the year and
        # the short-term investments held beside the cash; an IFRS balance sheet its
        # current borrowings and its bank overdraft.
        debts = [
            f
            for key in ("current_debt", "current_maturities", "bank_overdrafts")
            if (f := _get(st, key, year))
        ]
        investments = _get(st, "cash_investments", year)
        held = (cash,) if investments is None else (cash, investments)
        value = long_term.amount + sum((f.amount for f in debts), Decimal(0))
        value -= sum((f.amount for f in held), Decimal(0))
        return Operand(value, "(dettes financières - trésorerie)", (long_term, *debts, *held))
    return None


def revenue(st: Statements, year: int) -> Operand | None:
    """The revenue line, else (a French GAAP statement, which prints no total) the sales of
    goods plus the production sold, of goods and of services when printed on two lines."""
    reported = _get(st, "revenue", year)
    if reported is not None:
        return Operand(reported.amount, "chiffre d'affaires", (reported,))
    sold = [f for k in ("production_sold", "production_sold_services") if (f := _get(st, k, year))]
    if not sold:
        return None
    goods = _get(st, "sales_of_goods", year)
    total = sum((f.amount for f in sold), Decimal(0))
    if goods is None:
        return Operand(total, "production vendue", tuple(sold))
    return Operand(
        goods.amount + total,
        "(ventes de marchandises + production vendue)",
        (goods, *sold),
    )


def ebitda(st: Statements, year: int) -> Operand | None:
    """The EBITDA printed, else the adjusted one when the report prints only that, else
    operating income plus D&A (statutory accounts' EBE, a statement by function's D&A from
    its cash-flow statement: see :mod:`preuve.memo.ebitda_parts`)."""
    reported = _get(st, "ebitda", year)
    if reported is not None:
        return Operand(reported.amount, "EBITDA", (reported,))
    adjusted = _get(st, "adjusted_ebitda", year)
    if adjusted is not None:
        return Operand(adjusted.amount, "EBITDA ajusté", (adjusted,))
    operating, depreciation = _get(st, "operating_income", year), _get(st, "depreciation", year)
    amortization = _get(st, "amortization", year)
    if (
        operating is not None
        and depreciation is not None
        and amortization is not None
        and "amort" not in depreciation.label.casefold()
    ):
        # Depreciation and the amortization of intangibles printed as two lines: D&A is both.
        return Operand(
            operating.amount + abs(depreciation.amount) + abs(amortization.amount),
            "(résultat d'exploitation + amortissements + amortissements des incorporels)",
            (operating, depreciation, amortization),
        )
    gross = statutory_ebe(st, year)
    if gross is not None:
        return Operand(*gross)
    if operating is not None and depreciation is not None:
        return Operand(
            operating.amount + abs(depreciation.amount),
            "(résultat d'exploitation + amortissements)",
            (operating, depreciation),
        )
    parts = by_function_ebitda(st, year)
    if parts is not None:
        return Operand(*parts)
    earnings = ebit(st, year) if operating is None else None
    if earnings is not None and depreciation is not None:
        return Operand(
            earnings.value + abs(depreciation.amount),
            f"({earnings.formula.strip('()')} + amortissements)",
            (*earnings.inputs, depreciation),
        )
    return None


def ebit(st: Statements, year: int) -> Operand | None:
    """Operating income, else (a statement printing no operating line: the finance lines
    follow the expenses) the profit before tax with the finance lines added back: minus
    the financial result, or plus the net cost of debt, or plus the finance costs less
    the finance income, or plus the finance costs when no finance income is printed."""
    operating = _get(st, "operating_income", year)
    if operating is not None:
        return Operand(operating.amount, "résultat opérationnel", (operating,))
    before = _before_exceptional(st, year)
    if before is not None:
        return before
    pre_tax = _get(st, "pre_tax_income", year)
    if pre_tax is None:
        return None
    cost = _get(st, "net_financial_expense", year)
    if cost is not None:
        return Operand(
            pre_tax.amount + abs(cost.amount),
            "(résultat avant impôt + coût de l'endettement net)",
            (pre_tax, cost),
        )
    result = _get(st, "financial_result", year)
    if result is not None:
        return Operand(
            pre_tax.amount - result.amount,
            "(résultat avant impôt - résultat financier)",
            (pre_tax, result),
        )
    charges, income = _get(st, "financial_charges", year), _get(st, "financial_income", year)
    if charges is None:
        return None
    if income is None:
        return Operand(
            pre_tax.amount + abs(charges.amount),
            "(résultat avant impôt + charges financières)",
            (pre_tax, charges),
        )
    return Operand(
        pre_tax.amount + abs(charges.amount) - abs(income.amount),
        "(résultat avant impôt + charges financières - produits financiers)",
        (pre_tax, charges, income),
    )


def _before_exceptional(st: Statements, year: int) -> Operand | None:
    """The operating profit of a statement that prints a profit before exceptional items
    and tax (Schedule III): the finance costs added back, the other income (interest,
    dividends: no operating income) taken out; the exceptional items are never in it."""
    before = _get(st, "pre_exceptional_income", year)
    charges = _get(st, "financial_charges", year)
    if before is None or charges is None:
        return None
    other = _get(st, "other_income", year)
    if other is None:
        return Operand(
            before.amount + abs(charges.amount),
            "(résultat avant éléments exceptionnels et impôt + charges financières)",
            (before, charges),
        )
    return Operand(
        before.amount + abs(charges.amount) - other.amount,
        "(résultat avant éléments exceptionnels et impôt + charges financières - autres produits)",
        (before, charges, other),
    )


def adjusted_ebitda(st: Statements, year: int) -> Operand | None:
    """The adjusted EBITDA of a report that prints both it and the EBITDA (with the
    adjusted one alone, :func:`ebitda` is already that one)."""
    adjusted = _get(st, "adjusted_ebitda", year)
    if adjusted is None or _get(st, "ebitda", year) is None:
        return None
    return Operand(adjusted.amount, "EBITDA ajusté", (adjusted,))


def equity(st: Statements, year: int) -> Operand | None:
    """Total equity, else the group's share plus the minority interests (a consolidated
    balance sheet that prints no total of the two), else the group's share."""
    total = field("equity", "capitaux propres")(st, year)
    if total is not None:
        return total
    parent, minority = _get(st, "parent_equity", year), _get(st, "minority_interests", year)
    if parent is not None and minority is not None:
        return Operand(
            parent.amount + minority.amount,
            "(capitaux propres part du groupe + intérêts minoritaires)",
            (parent, minority),
        )
    return field("parent_equity", "capitaux propres")(st, year)


_OFF_BALANCE_LEASES = (
    ("off_balance_lease_principal", "capital restant dû"),
    ("off_balance_lease_commitments", "loyers restant dus"),
)


def net_debt_leases(st: Statements, year: int) -> Operand | None:
    """Net debt plus the lease liabilities on the balance sheet (IFRS 16), else plus the
    principal outstanding of the leases the off-balance-sheet commitments note lists
    (French GAAP leasing, "capital restant dû du crédit-bail"), else plus the rents still
    due on the leases kept off the balance sheet ("loyers restant dus")."""
    debt = net_debt(st, year)
    long_term = _get(st, "lease_liabilities_noncurrent", year)
    current = _get(st, "lease_liabilities_current", year)
    if debt is not None and long_term is None:
        # Leases off the balance sheet: their principal outstanding, else (no principal
        # stated) the rents still due.
        for concept, term in _OFF_BALANCE_LEASES:
            off_balance = _get(st, concept, year)
            if off_balance is not None:
                return Operand(
                    debt.value + off_balance.amount,
                    f"({debt.formula} + {term} des contrats de location hors bilan)",
                    (*debt.inputs, off_balance),
                )
    if debt is None or long_term is None:
        return None
    leases = long_term.amount + (current.amount if current else Decimal(0))
    parts = (long_term,) if current is None else (long_term, current)
    return Operand(
        debt.value + leases, f"({debt.formula} + dettes de location)", debt.inputs + parts
    )


def interest(st: Statements, year: int) -> Operand | None:
    """The net cost of debt as a positive charge (printed negative in IFRS statements);
    without one, minus the financial result when it is a charge (the net financial charge,
    as the net cost of debt is net), else the financial charges."""
    cost = _get(st, "net_financial_expense", year)
    if cost is not None:
        return Operand(abs(cost.amount), "coût de l'endettement net", (cost,))
    result = _get(st, "financial_result", year)
    if result is not None and result.amount < 0:
        return Operand(-result.amount, "(- résultat financier)", (result,))
    charges, income = _get(st, "financial_charges", year), _get(st, "financial_income", year)
    if result is None and charges is not None and income is not None:
        # Finance costs and finance income printed apart, with no result line: the net charge.
        return Operand(
            abs(charges.amount) - abs(income.amount),
            "(charges financières - produits financiers)",
            (charges, income),
        )
    return _magnitude("financial_charges", "charges financières")(st, year)


def capex(st: Statements, year: int) -> Operand | None:
    """Capital expenditure as a positive amount: the purchases of property, plant and
    equipment, plus those of intangible assets when the cash-flow statement prints them
    on a line of their own."""
    tangible, intangible = _get(st, "capex", year), _get(st, "capex_intangible", year)
    if tangible is None:
        return None
    if intangible is None:
        return Operand(abs(tangible.amount), "investissements corporels", (tangible,))
    return Operand(
        abs(tangible.amount) + abs(intangible.amount),
        "investissements corporels et incorporels",
        (tangible, intangible),
    )


def cost_base(st: Statements, year: int) -> Operand | None:
    """What inventories and payables turn over against: the cost of sales, else (a
    statement by nature) the purchases consumed, the goods' and the raw materials' when a
    French statement prints them on two lines (never one of them alone, a component)."""
    sold = _magnitude("cost_of_sales", "coût des ventes")(st, year)
    if sold is not None:
        return sold
    goods, materials = _get(st, "purchases", year), _get(st, "purchases_materials", year)
    parts = tuple(f for f in (goods, materials) if f is not None)
    if not parts:
        return None
    return Operand(sum((abs(f.amount) for f in parts), Decimal(0)), "achats consommés", parts)


# Balance-sheet concepts that are financial debts (borrowings, leasing debts), in the order
# an operand lists them; the table reader checks a maturity note's total against them too.
FINANCIAL_DEBTS = (
    "gross_debt",
    "bank_borrowings",
    "bond_debt",
    "other_borrowings",
    "long_term_debt",
    "current_debt",
    "bank_overdrafts",
    "lease_liabilities_noncurrent",
    "lease_liabilities_current",
)


def current_liabilities(st: Statements, year: int) -> Operand | None:
    """The current liabilities printed (or a maturity note's total due within a year), else
    (French GAAP, debts by nature) the balance sheet's debts less its financial debts plus
    the financial debts due within one year a dated maturity note gives, the note's gross
    amount being those financial debts (checked where the note is read)."""
    printed = _get(st, "current_liabilities", year)
    if printed is not None:
        return Operand(printed.amount, "passif courant", (printed,))
    debts, within = _get(st, "debts_total", year), _get(st, "financial_debts_within_one_year", year)
    financial = [
        found
        for key in FINANCIAL_DEBTS
        if (found := _get(st, key, year)) is not None and found.statement is Statement.BALANCE
    ]
    if debts is None or within is None or not financial:
        return None
    value = debts.amount - sum((f.amount for f in financial), Decimal(0)) + within.amount
    # A part due within one year given without the bank overdrafts, which are due at once.
    overdrafts = _get(st, "overdrafts_within_one_year", year)
    if overdrafts is not None:
        return Operand(
            value + overdrafts.amount,
            "(dettes - dettes financières + dettes financières à moins d'un an"
            " + concours bancaires courants)",
            (debts, *financial, within, overdrafts),
        )
    return Operand(
        value,
        "(dettes - dettes financières + dettes financières à moins d'un an)",
        (debts, *financial, within),
    )


def current_assets_less_inventories(st: Statements, year: int) -> Operand | None:
    assets, stock = _get(st, "current_assets", year), _get(st, "inventories", year)
    if assets is None or stock is None:
        return None
    return Operand(assets.amount - stock.amount, "(actif courant - stocks)", (assets, stock))


def free_cash_flow(st: Statements, year: int) -> Operand | None:
    """The reported free cash flow, else operating cash flow - capital expenditure."""
    reported = _get(st, "free_cash_flow", year)
    if reported is not None:
        return Operand(reported.amount, "free cash-flow", (reported,))
    operating, spent = _get(st, "operating_cash_flow", year), capex(st, year)
    if operating is None or spent is None:
        return None
    return Operand(
        operating.amount - spent.value,
        f"(flux de trésorerie d'exploitation - {spent.formula})",
        (operating, *spent.inputs),
    )


def durations(operands: tuple[Operand, ...], flow_months: int) -> set[int | None]:
    """The durations (months) of the flow fields among the operands' inputs; a field read
    by year only counts as the report's flow duration in an annual report, else as
    unknown (None)."""
    found: set[int | None] = set()
    for operand in operands:
        for item in operand.inputs:
            if item.statement is Statement.BALANCE or item.months == 0:
                continue
            months = item.months
            if months is None and flow_months == 12:
                months = 12
            found.add(months)
    return found
