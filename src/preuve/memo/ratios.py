"""Ratios (R-) computed in code from identified statement fields, as facts.

Each ratio is declared once (:data:`RATIOS`): its id suffix, name, operands (see
:mod:`preuve.memo.operands`), scale, unit and what its value needs. Kinds:

- a *quotient*: numerator × scale / denominator (leverage, margins, gearing, interest
  cover, current and quick ratios, capex intensity, fixed-asset turnover, ROE, ROA, and
  DSO / DIO / DPO in days);
- a *growth* rate: (this year - the year before) / the year before, in %, from two
  periods of the same duration, the year before exactly one year earlier;
- an *amount* derived from fields: free cash flow (operating cash flow - capex), in the
  unit of its inputs.

A ratio is computed for a year only when every input is there, its denominator is not
zero (and positive where a negative one makes it meaningless), and its flow inputs cover
one duration: a three-month and a six-month figure never meet in one value. A ratio of a
flow to a balance (leverage, ROE, ROA, turnover, days) needs a year of flows.
:func:`ratios_not_computed` says, for each ratio and year refused, why. Each value keeps
the fields it was computed from (label, page, value as printed).

This module also re-exports the names other modules import from it: the company
(:mod:`preuve.memo.company`), formatting (:mod:`preuve.memo.amounts`) and alerts
(:mod:`preuve.memo.alerts`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from preuve.core.numbers import Locale
from preuve.memo import operands as op
from preuve.memo.alerts import Alert, compute_alerts
from preuve.memo.amounts import format_amount, format_decimal, format_number
from preuve.memo.company import Company, detect_company, slug_of
from preuve.memo.english import RATIO_NAMES_EN, formula_en
from preuve.memo.lexicon import Statement
from preuve.memo.ratio_facts import Ratio, RatioValue
from preuve.memo.statements import Statements

__all__ = [
    "RATIOS",
    "Alert",
    "Company",
    "Ratio",
    "RatioDef",
    "RatioValue",
    "compute_alerts",
    "compute_ratios",
    "detect_company",
    "format_amount",
    "format_decimal",
    "format_number",
    "ratios_not_computed",
    "slug_of",
]

QUOTIENT, GROWTH, AMOUNT = "quotient", "growth", "amount"
DAYS_IN_YEAR = 365
_NET_DEBT = "net debt (or borrowings and cash)"
_EBITDA = "EBITDA (or operating income and D&A)"
_COST_BASE = "cost of sales (or purchases consumed)"


@dataclass(frozen=True, slots=True)
class RatioDef:
    """One declared ratio. ``needs`` names the operands in words, for refusals."""

    suffix: str
    name: str  # French; English names in preuve.memo.english
    numerator: op.Getter
    denominator: op.Getter | None
    needs: tuple[str, ...]
    unit: str = "x"
    places: int = 1
    scale: int = 1
    positive: bool = True  # a zero or negative denominator makes the ratio meaningless
    annual_only: bool = False  # a flow over a balance: needs twelve months of flows
    kind: str = QUOTIENT
    # A ratio only some reports have (an adjusted EBITDA beside the EBITDA): where this
    # operand is absent, it is not applicable, so not listed among the ratios not computed.
    applies: op.Getter | None = None


_REVENUE = op.revenue
_NET_INCOME = op.field("net_income", "résultat net")

RATIOS: tuple[RatioDef, ...] = (
    RatioDef("levier", "Levier", op.net_debt, op.ebitda, (_NET_DEBT, _EBITDA), annual_only=True),
    RatioDef(
        "marge", "Marge nette", _NET_INCOME, _REVENUE, ("net income", "revenue"), "%", 1, 100, False
    ),
    RatioDef("gearing", "Gearing", op.net_debt, op.equity, (_NET_DEBT, "equity"), "x", 2),
    RatioDef(
        "levier-loyers",
        "Levier y compris dettes de location",
        op.net_debt_leases,
        op.ebitda,
        ("net debt and lease liabilities (or off-balance-sheet lease principal)", _EBITDA),
        annual_only=True,
    ),
    # Reports that print an adjusted EBITDA beside the EBITDA (the covenant's base, often):
    # leverage on both, each with its formula.
    RatioDef(
        "levier-ajuste",
        "Levier sur EBITDA ajusté",
        op.net_debt,
        op.adjusted_ebitda,
        (_NET_DEBT, "adjusted EBITDA printed beside the EBITDA"),
        annual_only=True,
        applies=op.adjusted_ebitda,
    ),
    RatioDef(
        "levier-loyers-ajuste",
        "Levier y compris dettes de location, sur EBITDA ajusté",
        op.net_debt_leases,
        op.adjusted_ebitda,
        (
            "net debt and lease liabilities (or off-balance-sheet lease principal)",
            "adjusted EBITDA printed beside the EBITDA",
        ),
        annual_only=True,
        applies=op.adjusted_ebitda,
    ),
    RatioDef(
        "couverture",
        "Couverture des intérêts",
        op.ebit,
        op.interest,
        (
            "operating income (or profit before tax and the finance lines)",
            "net cost of debt (or financial result or charges)",
        ),
    ),
    RatioDef(
        "marge-ebitda",
        "Marge d'EBITDA",
        op.ebitda,
        _REVENUE,
        (_EBITDA, "revenue"),
        "%",
        1,
        100,
        False,
    ),
    RatioDef(
        "liquidite",
        "Ratio de liquidité générale",
        op.field("current_assets", "actif courant"),
        op.current_liabilities,
        ("current assets", "current liabilities (or a dated maturity note's total within a year)"),
        "x",
        2,
    ),
    RatioDef(
        "capex",
        "Intensité capitalistique",
        op.capex,
        _REVENUE,
        ("capital expenditure", "revenue"),
        "%",
        1,
        100,
        False,
    ),
    RatioDef(
        "roe",
        "Rentabilité des capitaux propres",
        _NET_INCOME,
        op.equity,
        ("net income", "equity"),
        "%",
        1,
        100,
        annual_only=True,
    ),
    RatioDef(
        "roa",
        "Rentabilité de l'actif",
        _NET_INCOME,
        op.field("total_assets", "total actif"),
        ("net income", "total assets"),
        "%",
        1,
        100,
        annual_only=True,
    ),
    RatioDef(
        "liquidite-reduite",
        "Ratio de liquidité réduite",
        op.current_assets_less_inventories,
        op.current_liabilities,
        ("current assets and inventories", "current liabilities"),
        "x",
        2,
    ),
    RatioDef(
        "dso",
        "Délai de recouvrement clients",
        op.field("trade_receivables", "créances clients"),
        _REVENUE,
        ("trade receivables", "revenue"),
        "j",
        0,
        DAYS_IN_YEAR,
        annual_only=True,
    ),
    RatioDef(
        "dio",
        "Rotation des stocks",
        op.field("inventories", "stocks"),
        op.cost_base,
        ("inventories", _COST_BASE),
        "j",
        0,
        DAYS_IN_YEAR,
        annual_only=True,
    ),
    RatioDef(
        "dpo",
        "Délai de paiement fournisseurs",
        op.field("trade_payables", "dettes fournisseurs"),
        op.cost_base,
        ("trade payables", _COST_BASE),
        "j",
        0,
        DAYS_IN_YEAR,
        annual_only=True,
    ),
    RatioDef(
        "rotation-immo",
        "Rotation des immobilisations corporelles",
        _REVENUE,
        op.field("tangible_assets", "immobilisations corporelles"),
        ("revenue", "property, plant and equipment"),
        "x",
        2,
        annual_only=True,
    ),
    RatioDef(
        "variation-ca",
        "Variation du chiffre d'affaires",
        _REVENUE,
        None,
        ("revenue",),
        "%",
        1,
        100,
        kind=GROWTH,
    ),
    RatioDef(
        "variation-ebitda",
        "Variation de l'EBITDA",
        op.ebitda,
        None,
        (_EBITDA,),
        "%",
        1,
        100,
        kind=GROWTH,
    ),
    RatioDef(
        "fcf",
        "Free cash-flow",
        op.free_cash_flow,
        None,
        ("operating cash flow and capital expenditure (or a reported free cash flow)",),
        "",
        0,
        kind=AMOUNT,
    ),
)


@dataclass(frozen=True, slots=True)
class _Computed:
    value: RatioValue
    formula: str
    unit: str  # an amount's unit, else the ratio's


def _formula(definition: RatioDef, top: op.Operand, bottom: op.Operand | None) -> str:
    if definition.kind == GROWTH:
        return f"variation {top.formula} / {top.formula} de l'exercice précédent"
    if bottom is None:
        return top.formula
    per_day = " par jour" if definition.unit == "j" else ""
    return f"{top.formula} / {bottom.formula}{per_day}"


def _operands(
    definition: RatioDef, st: Statements, year: int
) -> tuple[op.Operand | None, op.Operand | None]:
    top = definition.numerator(st, year)
    if definition.kind == GROWTH:
        return top, definition.numerator(st, year - 1)
    bottom = None if definition.denominator is None else definition.denominator(st, year)
    return top, bottom


def _missing(
    definition: RatioDef, year: int, top: op.Operand | None, bottom: op.Operand | None
) -> list[str]:
    if definition.kind == QUOTIENT:
        pairs = list(zip(definition.needs, (top, bottom), strict=True))
    elif definition.kind == GROWTH:
        pairs = [(definition.needs[0], top), (f"{definition.needs[0]} for {year - 1}", bottom)]
    else:
        pairs = [(definition.needs[0], top)]
    return [what for what, operand in pairs if operand is None]


def _name(definition: RatioDef, locale: Locale) -> str:
    return RATIO_NAMES_EN[definition.suffix] if locale is Locale.EN else definition.name


def _attempt(
    definition: RatioDef, st: Statements, year: int, locale: Locale = Locale.FR
) -> _Computed | str | None:
    """The ratio for ``year``, or why not (None: nothing to say, the oldest year of a growth);
    the reason names the ratio in ``locale``."""
    name = f"{_name(definition, locale)} {year}"
    if definition.kind == GROWTH and year - 1 not in st.years:
        return None if year == min(st.years) else f"{name}: no figures for {year - 1}"
    top, bottom = _operands(definition, st, year)
    missing = _missing(definition, year, top, bottom)
    if missing or top is None:
        return f"{name}: no {' and no '.join(missing)}"
    present = (top,) if bottom is None else (top, bottom)
    spans = op.durations(present, st.flow_months)
    if len(spans) > 1 or None in spans:
        shown = ", ".join(sorted("unknown" if m is None else f"{m} months" for m in spans))
        return f"{name}: inputs cover different periods ({shown})"
    if bottom is not None and (bottom.value == 0 or (definition.positive and bottom.value < 0)):
        growth = definition.kind == GROWTH
        what = definition.needs[0 if growth else 1]
        return f"{name}: {what}{f' for {year - 1}' if growth else ''} is not positive"
    inputs = top.inputs + (() if bottom is None else bottom.inputs)
    formula = _formula(definition, top, bottom)
    if definition.kind == AMOUNT:
        first = top.inputs[0]
        printed = RatioValue(year, top.value / first.scale, top.value, Decimal(1), inputs)
        return _Computed(printed, formula, first.unit)
    assert bottom is not None
    change = top.value - bottom.value if definition.kind == GROWTH else top.value
    value = RatioValue(
        year, change * definition.scale / bottom.value, top.value, bottom.value, inputs
    )
    return _Computed(value, formula, definition.unit)


def _annual_refusal(definition: RatioDef, st: Statements, locale: Locale = Locale.FR) -> str | None:
    if definition.annual_only and st.flow_months != 12:
        return (
            f"{_name(definition, locale)}: the income and cash-flow columns cover {st.flow_months}"
            " months, not a year"
        )
    return None


def ratios_not_computed(statements: Statements, locale: Locale = Locale.FR) -> tuple[str, ...]:
    """For each ratio and extracted year it could not be computed for, which input is
    missing (or why the value would mean nothing): no ratio is ever made up. Ratios are
    named in ``locale``, the memo's language (an English report's are not "Levier")."""
    # An input left out as doubtful (an identity it is in does not hold) is said first.
    reasons: list[str] = [f"doubtful input, not used: {d}" for d in statements.doubtful]
    for definition in RATIOS:
        applies = definition.applies
        years = [y for y in statements.years if applies is None or applies(statements, y)]
        if not years:
            continue
        refusal = _annual_refusal(definition, statements, locale)
        if refusal is not None:
            reasons.append(refusal)
            continue
        for year in years:
            outcome = _attempt(definition, statements, year, locale)
            if isinstance(outcome, str):
                reasons.append(outcome)
    return tuple(reasons)


def compute_ratios(
    statements: Statements, company: Company, locale: Locale = Locale.FR
) -> tuple[Ratio, ...]:
    """Every declared ratio, for each extracted year where it can be computed."""
    ratios: list[Ratio] = []
    months = statements.flow_months
    for definition in RATIOS:
        if _annual_refusal(definition, statements) is not None:
            continue  # a half-year EBITDA over year-end debt is no leverage
        done = [
            outcome
            for year in statements.years
            if isinstance(outcome := _attempt(definition, statements, year), _Computed)
        ]
        if not done:
            continue
        formula = done[0].formula
        if months != 12 and not definition.annual_only and _flows(done):
            formula += f" (sur {months} mois)"
        ratios.append(
            Ratio(
                f"R-{company.slug}-{definition.suffix}",
                company.name,
                _name(definition, locale),
                formula_en(formula) if locale is Locale.EN else formula,
                done[0].unit,
                definition.places,
                tuple(c.value for c in done),
                locale,
                definition.kind == GROWTH,
            )
        )
    return tuple(ratios)


def _flows(done: list[_Computed]) -> bool:
    """Whether a ratio's inputs include a flow (its value depends on the flows' period)."""
    return any(item.statement is not Statement.BALANCE for c in done for item in c.value.inputs)
