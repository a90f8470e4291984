"""Accounting identities checked in code on extracted statements; a broken one is reported.

Checked for every year where all terms were extracted, with a tolerance of one unit of
the statement (rounding):

- the balance sheet balances: total assets = total equity and liabilities, and total
  assets = equity + liabilities;
- net debt = gross debt - cash; free cash flow = operating cash flow - capex;
- subtotals (EBITDA, operating income, net income, total assets, total liabilities,
  operating and financing cash flows, change in cash, and the change in cash between two
  balance sheets) only where the statement was *fully mapped*: with an unrecognised line
  in between, a subtotal cannot be recomputed from its parts.

Costs are summed as outflows whatever their printed sign (``(61 300)`` or ``61,300``);
income tax and financial expense follow the statement's own convention, read from the
sign of its cost lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from preuve.core.defects import Defect
from preuve.memo.lexicon import Statement
from preuve.memo.statements import Statements

__all__ = [
    "IDENTITIES",
    "IDENTITY_VIOLATED",
    "Identity",
    "IdentityReport",
    "Term",
    "Violation",
    "check_identities",
]

IDENTITY_VIOLATED = "identity_violated"
TOLERANCE = Decimal(1)
# Equity attributable to the parent stands in for total equity when that is all a sheet gives.
_FALLBACK = {"equity": "parent_equity"}


class Term(StrEnum):
    """How a part enters its total."""

    PLUS = "+"
    MINUS = "-"
    OUTFLOW = "outflow"  # a cost: subtract its magnitude, whatever its printed sign
    CHARGE = "charge"  # tax, interest: signed when the statement signs its costs
    PRIOR = "prior"  # the same key one year earlier, subtracted


@dataclass(frozen=True, slots=True)
class Identity:
    """``total`` equals the sum of ``parts``. ``subtotal`` identities need a fully mapped
    ``statement``; ``unless`` lists keys whose presence means another layout."""

    name: str
    total: str
    parts: tuple[tuple[str, Term], ...]
    statement: Statement
    subtotal: bool = False
    unless: tuple[str, ...] = ()

    @property
    def formula(self) -> str:
        signs = {Term.PLUS: "+", Term.CHARGE: "+", Term.MINUS: "-", Term.OUTFLOW: "-"}
        text = ""
        for index, (key, term) in enumerate(self.parts):
            name = f"{key}(n-1)" if term is Term.PRIOR else key
            sign = "-" if term is Term.PRIOR else signs[term]
            text += name if index == 0 and sign == "+" else f" {sign} {name}"
        return f"{self.total} = {text.strip()}"


_P, _M, _O, _C = Term.PLUS, Term.MINUS, Term.OUTFLOW, Term.CHARGE
_I, _B, _F = Statement.INCOME, Statement.BALANCE, Statement.CASHFLOW

IDENTITIES: tuple[Identity, ...] = (
    Identity("balance", "total_assets", (("total_equity_and_liabilities", _P),), _B),
    Identity(
        "assets_equity_liabilities",
        "total_assets",
        (("equity", _P), ("total_liabilities", _P)),
        _B,
        subtotal=True,
        # French GAAP prints provisions (II) between equity (I) and debts (III).
        unless=("provisions_total",),
    ),
    Identity("net_debt", "net_debt", (("gross_debt", _P), ("cash", _M)), _B),
    Identity("free_cash_flow", "free_cash_flow", (("operating_cash_flow", _P), ("capex", _O)), _F),
    Identity(
        "ebitda",
        "ebitda",
        (
            ("revenue", _P),
            ("purchases", _O),
            ("external_charges", _O),
            ("personnel_expenses", _O),
            ("taxes_duties", _O),
        ),
        _I,
        subtotal=True,
        unless=("cost_of_sales",),
    ),
    Identity(
        "operating_income",
        "operating_income",
        (("ebitda", _P), ("depreciation", _O)),
        _I,
        subtotal=True,
    ),
    Identity(
        "net_income",
        "net_income",
        (("operating_income", _P), ("net_financial_expense", _C), ("income_tax", _C)),
        _I,
        subtotal=True,
        unless=("pre_tax_income",),
    ),
    Identity(
        "total_assets",
        "total_assets",
        (
            ("intangible_assets", _P),
            ("tangible_assets", _P),
            ("inventories", _P),
            ("trade_receivables", _P),
            ("other_receivables", _P),
            ("cash", _P),
        ),
        _B,
        subtotal=True,
        unless=("current_assets",),
    ),
    Identity(
        "total_liabilities",
        "total_liabilities",
        (("gross_debt", _P), ("trade_payables", _P), ("other_liabilities", _P)),
        _B,
        subtotal=True,
        unless=("current_liabilities", "long_term_debt", "current_debt"),
    ),
    Identity(
        "operating_cash_flow",
        "operating_cash_flow",
        (("funds_from_operations", _P), ("working_capital_change", _P)),
        _F,
        subtotal=True,
    ),
    Identity(
        "financing_cash_flow",
        "financing_cash_flow",
        (("net_borrowings", _P), ("dividends", _O)),
        _F,
        subtotal=True,
    ),
    Identity(
        "net_change_in_cash",
        "net_change_in_cash",
        (("free_cash_flow", _P), ("financing_cash_flow", _P)),
        _F,
        subtotal=True,
        unless=("investing_cash_flow",),
    ),
    Identity(
        "cash_roll_forward",
        "net_change_in_cash",
        (("cash", _P), ("cash", Term.PRIOR)),
        _F,
        subtotal=True,
    ),
)


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken identity for one year, with the numbers that show it."""

    identity: str
    formula: str
    total: str  # the key of the reported total; ``parts`` holds the keys it is summed from
    year: int
    reported: Decimal
    computed: Decimal
    parts: tuple[tuple[str, Decimal], ...]
    page: int
    unit: str

    @property
    def difference(self) -> Decimal:
        return self.reported - self.computed

    def to_defect(self) -> Defect:
        parts = ", ".join(f"{key}={value}" for key, value in self.parts)
        return Defect(
            IDENTITY_VIOLATED,
            f"{self.year}: {self.formula} does not hold (page {self.page}): reported "
            f"{self.reported} {self.unit}, computed {self.computed} {self.unit}, difference "
            f"{self.difference}; parts: {parts}",
            path=f"statements.{self.identity}",
        )


@dataclass(frozen=True, slots=True)
class IdentityReport:
    """How many (identity, year) checks ran, and the ones that failed; ``structural`` and
    ``structural_violated`` count the identities read from the tables' own structure
    (:mod:`preuve.memo.table_checks`), whose violations are defects too."""

    checked: int
    violations: tuple[Violation, ...]
    structural: int = 0
    structural_violations: tuple[Defect, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations and not self.structural_violations

    @property
    def total_checked(self) -> int:
        return self.checked + self.structural

    @property
    def total_violated(self) -> int:
        return len(self.violations) + len(self.structural_violations)

    def defects(self) -> tuple[Defect, ...]:
        return tuple(v.to_defect() for v in self.violations) + self.structural_violations


def _costs_signed(statements: Statements, statement: Statement) -> bool:
    """Whether ``statement`` prints its costs as negatives (French style, or Lockheed's)."""
    outflows = {key for i in IDENTITIES for key, term in i.parts if term is Term.OUTFLOW}
    return any(
        f.value < 0 for f in statements.fields if f.statement is statement and f.key in outflows
    )


def _contribution(value: Decimal, term: Term, signed: bool) -> Decimal:
    if term is Term.OUTFLOW:
        return -abs(value)
    if term is Term.CHARGE:
        return value if signed else -value
    return -value if term in {Term.MINUS, Term.PRIOR} else value


def _value(statements: Statements, key: str, year: int) -> Decimal | None:
    value = statements.value(key, year)
    if value is None and key in _FALLBACK:
        value = statements.value(_FALLBACK[key], year)
    return value


def _check(identity: Identity, statements: Statements, year: int) -> tuple[bool, Violation | None]:
    """Whether the identity could be checked for ``year``, and its violation if it fails."""
    total = statements.get(identity.total, year)
    parts: list[tuple[str, Decimal, Term]] = []
    for key, term in identity.parts:
        value = _value(statements, key, year - 1 if term is Term.PRIOR else year)
        if value is None:
            return False, None
        parts.append((key, value, term))
    if total is None:
        return False, None
    signed = _costs_signed(statements, identity.statement)
    computed = sum((_contribution(v, t, signed) for _, v, t in parts), Decimal(0))
    if abs(total.value - computed) <= TOLERANCE:
        return True, None
    return True, Violation(
        identity=identity.name,
        formula=identity.formula,
        total=identity.total,
        year=year,
        reported=total.value,
        computed=computed,
        parts=tuple((k, v) for k, v, _ in parts),
        page=total.page,
        unit=total.unit,
    )


def _applies(identity: Identity, statements: Statements) -> bool:
    present = {f.key for f in statements.fields}
    if any(key in present for key in identity.unless):
        return False
    if not identity.subtotal:
        return True
    # "assets = equity + liabilities" is a subtotal check only when the sheet gives no
    # total of equity and liabilities of its own; otherwise "balance" already covers it.
    if (
        identity.name == "assets_equity_liabilities"
        and "total_equity_and_liabilities" not in present
    ):
        return True
    statements_used = {identity.statement} | {
        f.statement for f in statements.fields if f.key in {k for k, _ in identity.parts}
    }
    return all(statements.fully_mapped(s) for s in statements_used)


def check_identities(statements: Statements) -> IdentityReport:
    """Every applicable identity for every extracted year."""
    checked = 0
    violations: list[Violation] = []
    for identity in IDENTITIES:
        if not _applies(identity, statements):
            continue
        for year in statements.years:
            ran, violation = _check(identity, statements, year)
            checked += ran
            if violation is not None:
                violations.append(violation)
    return IdentityReport(checked=checked, violations=tuple(violations))
