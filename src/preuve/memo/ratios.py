"""Ratios (R-) and alerts (A-) computed in code from extracted statements, as facts.

Three ratios per company, each with its formula:

- ``R-<slug>-levier``: net debt / EBITDA (leverage), in x;
- ``R-<slug>-marge``: net income / revenue (net margin), in %;
- ``R-<slug>-gearing``: net debt / equity, in x.

Net debt is the reported line, else gross debt - cash, else long-term + current debt -
cash; EBITDA is the reported line, else operating income + depreciation; the formula
says which. A ratio is left out for a year whose denominator is zero or, for leverage and
gearing, negative (a negative EBITDA or equity makes the ratio meaningless).

Alerts are deterministic rules over fields and ratios (thresholds below), numbered
``A-<slug>-1``, ``A-<slug>-2``... in rule order. The company name and slug come from the
report's own text (:func:`detect_company`). Renderings are French, one line each:
``[R-ferlac-levier] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; formule :
dette nette / EBITDA``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from preuve.core.factlines import prose_structure
from preuve.core.facts import Fact, FactStructure, FactValue
from preuve.core.numbers import Locale
from preuve.memo.english import RATIO_NAMES_EN, format_decimal_en, formula_en
from preuve.memo.statements import Statements

__all__ = [
    "Alert",
    "Company",
    "Ratio",
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

LEVERAGE_ALERT = Decimal("4.0")  # x: above this, net debt is heavy for the cash it earns
LEVERAGE_JUMP = Decimal("1.0")  # x: a rise of a full turn of EBITDA in one year
EBITDA_DROP = Decimal("0.10")  # a fall of more than 10 % in one year
CASH_DROP = Decimal("0.30")  # a fall of more than 30 % of cash in one year
NNBSP = "\u202f"


# --- The company -----------------------------------------------------------------------

_GENERIC_WORDS = frozenset(
    {"maison", "groupe", "group", "societe", "compagnie", "company", "the", "les"}
    | {"la", "le", "l", "sa", "sas", "sasu", "sca", "se", "sarl", "snc", "inc"}
    | {"incorporated", "corp", "corporation", "plc", "ltd", "limited", "llc", "co"}
    | {"holding", "holdings", "nv", "ag"}
)
_TITLE_LINE = re.compile(
    r"^(?:rapport (?:annuel|financier|de gestion)|annual report|document d.enregistrement"
    r"|universal registration|united states|securities and exchange|table of contents"
    r"|sommaire|form\s+10-?[kq]|washington|exercice|fiscal year|page\s+\d|exhibit)",
    re.IGNORECASE,
)
_REGISTRANT = re.compile(r"exact\s+name\s+of\s+registrant", re.IGNORECASE)
_FILE_NUMBER = re.compile(r"^commission\s+file\s+(?:number|no)", re.IGNORECASE)
# Rules, check boxes and underscores around a name; a final "." (Inc.) or ")" stays.
_SPACE_BEFORE_MARK = re.compile(r"\s+([.,])(?=\s|$)")
_EDGES = re.compile(r"^[\W_]+|[^\w.)]+$")


@dataclass(frozen=True, slots=True)
class Company:
    """The company a report is about, as the report names it, and its id slug."""

    name: str
    slug: str


def slug_of(name: str) -> str:
    """``Maison Ferlac SAS`` → ``ferlac``: the first distinctive word, ASCII, lower case."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    words: list[str] = re.findall(r"[a-z0-9]+", folded)
    distinctive = [w for w in words if w not in _GENERIC_WORDS]
    return (distinctive or words or ["report"])[0]


def _clean(line: str) -> str:
    # PDF extraction may space a name's punctuation out ("NIKE, Inc ."): close it up
    return _EDGES.sub("", _SPACE_BEFORE_MARK.sub(r"\1", " ".join(line.split())))


def _first_name_line(lines: list[str]) -> str | None:
    for line in lines:
        text = _clean(line)
        if re.search(r"[^\W\d_]{2}", text) and not _TITLE_LINE.match(line.strip()):
            return text
    return None


def detect_company(pages: Sequence[str]) -> Company:
    """The company named by the report: on an SEC cover, the line above "(Exact name of
    registrant ...)" or below "Commission file number"; else the first line of the cover
    page that is not a generic title."""
    for page in pages[:3]:
        lines = [_clean(line) for line in page.split("\n") if _clean(line)]
        for index, line in enumerate(lines):
            if _REGISTRANT.search(line) and index > 0:
                return Company(lines[index - 1], slug_of(lines[index - 1]))
            if _FILE_NUMBER.match(line) and index + 1 < len(lines):
                following = lines[index + 1]
                if not _REGISTRANT.search(following):
                    return Company(following, slug_of(following))
    found = _first_name_line(pages[0].split("\n")) if pages else None
    name = found or "Unknown company"
    return Company(name, slug_of(name))


# --- Formatting ------------------------------------------------------------------------


def format_decimal(value: Decimal, places: int) -> str:
    """French decimal: ``-0.5`` → ``-0,5``; thousands grouped by a narrow no-break space."""
    quantum = Decimal(1).scaleb(-places)
    rounded = value.quantize(quantum, rounding=ROUND_HALF_UP)
    sign = "-" if rounded < 0 else ""
    whole, _, fraction = f"{abs(rounded):f}".partition(".")
    grouped = f"{int(whole):,}".replace(",", NNBSP)
    return f"{sign}{grouped},{fraction}" if fraction else f"{sign}{grouped}"


def format_number(value: Decimal, places: int, locale: Locale = Locale.FR) -> str:
    """A number as a fact line of ``locale`` writes it."""
    return (
        format_decimal_en(value, places) if locale is Locale.EN else format_decimal(value, places)
    )


def _shown_decimal(shown: str, locale: Locale) -> Decimal:
    if locale is Locale.EN:
        return Decimal(shown.replace(",", ""))
    return Decimal(shown.replace(",", ".").replace(NNBSP, ""))


def _unit_label(unit: str) -> str:
    french = {"$ millions": "M$", "$ thousands": "k$", "$ billions": "Md$"}
    french |= {"millions": "millions", "thousands": "milliers", "billions": "milliards"}
    return french.get(unit, unit)


def format_amount(value: Decimal, unit: str, locale: Locale = Locale.FR) -> str:
    """An amount as written in a French fact: ``-47 225 k€``, ``18 992,8 M$`` (English:
    ``18,992.8 $ millions``)."""
    places = max(0, -int(value.normalize().as_tuple().exponent))
    label = unit if locale is Locale.EN else _unit_label(unit)
    text = format_number(value, places, locale)
    return f"{text} {label}" if label else text


# --- Ratios ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatioValue:
    year: int
    value: Decimal
    numerator: Decimal
    denominator: Decimal


@dataclass(frozen=True, slots=True)
class Ratio:
    """A ratio for the years it could be computed, most recent first."""

    id: str
    company: str
    name: str
    formula: str
    unit: str  # "x" or "%"
    places: int
    values: tuple[RatioValue, ...]
    locale: Locale = Locale.FR  # the language of the fact line

    def value(self, year: int) -> Decimal | None:
        return next((v.value for v in self.values if v.year == year), None)

    def display(self, value: Decimal) -> str:
        number = format_number(value, self.places, self.locale)
        return f"{number} %" if self.unit == "%" else f"{number}{self.unit}"

    def text(self) -> str:
        latest, *earlier = self.values
        if self.locale is Locale.EN:
            text = f"{self.company} - {self.name} {latest.year}: {self.display(latest.value)}"
            if earlier:
                previous = "; ".join(f"{v.year}: {self.display(v.value)}" for v in earlier)
                text += f" ({previous})"
            return f"{text}; formula: {self.formula}"
        text = f"{self.company} - {self.name} {latest.year} : {self.display(latest.value)}"
        if earlier:
            previous = " ; ".join(f"{v.year} : {self.display(v.value)}" for v in earlier)
            text += f" ({previous})"
        return f"{text} ; formule : {self.formula}"

    def render(self) -> str:
        return f"[{self.id}] {self.text()}"

    def structure(self) -> FactStructure:
        """Subject, metric and each year's value as the fact line shows it (rounded)."""
        values = tuple(
            FactValue(
                _shown_decimal(format_number(v.value, self.places, self.locale), self.locale),
                self.unit,
                self.name,
                str(v.year),
            )
            for v in self.values
        )
        return FactStructure(self.company, self.name, str(self.values[0].year), values)

    def to_fact(self) -> Fact:
        return Fact(self.id, self.text(), structure=self.structure())


@dataclass(frozen=True, slots=True)
class _Operand:
    value: Decimal
    formula: str


def _net_debt(st: Statements, year: int) -> _Operand | None:
    reported = st.amount("net_debt", year)
    if reported is not None:
        return _Operand(reported, "dette nette")
    cash = st.amount("cash", year)
    gross = st.amount("gross_debt", year)
    if gross is not None and cash is not None:
        return _Operand(gross - cash, "(dette brute - trésorerie)")
    long_term = st.amount("long_term_debt", year)
    if long_term is not None and cash is not None:
        current = st.amount("current_debt", year) or Decimal(0)
        return _Operand(long_term + current - cash, "(dettes financières - trésorerie)")
    return None


def _ebitda(st: Statements, year: int) -> _Operand | None:
    reported = st.amount("ebitda", year)
    if reported is not None:
        return _Operand(reported, "EBITDA")
    operating, depreciation = st.amount("operating_income", year), st.amount("depreciation", year)
    if operating is not None and depreciation is not None:
        return _Operand(operating + abs(depreciation), "(résultat d'exploitation + amortissements)")
    return None


def _field(key: str, formula: str) -> Callable[[Statements, int], _Operand | None]:
    def operand(st: Statements, year: int) -> _Operand | None:
        value = st.amount(key, year)
        return None if value is None else _Operand(value, formula)

    return operand


def _equity(st: Statements, year: int) -> _Operand | None:
    return _field("equity", "capitaux propres")(st, year) or _field(
        "parent_equity", "capitaux propres"
    )(st, year)


def _net_debt_leases(st: Statements, year: int) -> _Operand | None:
    debt = _net_debt(st, year)
    long_term = st.amount("lease_liabilities_noncurrent", year)
    current = st.amount("lease_liabilities_current", year)
    if debt is None or long_term is None:
        return None
    leases = long_term + (current or Decimal(0))
    return _Operand(debt.value + leases, f"({debt.formula} + dettes de location)")


def _interest(st: Statements, year: int) -> _Operand | None:
    """The net cost of debt as a positive charge (printed negative in IFRS statements);
    without one, minus the financial result when it is a charge, else the financial charges."""
    value = st.amount("net_financial_expense", year)
    if value is not None:
        return _Operand(abs(value), "coût de l'endettement net")
    result = st.amount("financial_result", year)
    if result is not None and result < 0:
        return _Operand(-result, "(- résultat financier)")
    charges = st.amount("financial_charges", year)
    return None if charges is None else _Operand(abs(charges), "charges financières")


def _capex(st: Statements, year: int) -> _Operand | None:
    value = st.amount("capex", year)
    return None if value is None else _Operand(abs(value), "investissements corporels")


_Getter = Callable[[Statements, int], _Operand | None]
# (id suffix, name, numerator, denominator, scale, unit, places, positive denominator only)
_RATIOS: tuple[tuple[str, str, _Getter, _Getter, int, str, int, bool], ...] = (
    ("levier", "Levier", _net_debt, _ebitda, 1, "x", 1, True),
    (
        "marge",
        "Marge nette",
        _field("net_income", "résultat net"),
        _field("revenue", "chiffre d'affaires"),
        100,
        "%",
        1,
        False,
    ),
    ("gearing", "Gearing", _net_debt, _equity, 1, "x", 2, True),
    # Credit ratios beyond the three above (see the module docstring).
    (
        "levier-loyers",
        "Levier y compris dettes de location",
        _net_debt_leases,
        _ebitda,
        1,
        "x",
        1,
        True,
    ),
    (
        "couverture",
        "Couverture des intérêts",
        _field("operating_income", "résultat opérationnel"),
        _interest,
        1,
        "x",
        1,
        True,
    ),
    (
        "marge-ebitda",
        "Marge d'EBITDA",
        _ebitda,
        _field("revenue", "chiffre d'affaires"),
        100,
        "%",
        1,
        False,
    ),
    (
        "liquidite",
        "Ratio de liquidité générale",
        _field("current_assets", "actif courant"),
        _field("current_liabilities", "passif courant"),
        1,
        "x",
        2,
        True,
    ),
    (
        "capex",
        "Intensité capitalistique",
        _capex,
        _field("revenue", "chiffre d'affaires"),
        100,
        "%",
        1,
        False,
    ),
    (
        "roe",
        "Rentabilité des capitaux propres",
        _field("net_income", "résultat net"),
        _equity,
        100,
        "%",
        1,
        True,
    ),
    (
        "roa",
        "Rentabilité de l'actif",
        _field("net_income", "résultat net"),
        _field("total_assets", "total actif"),
        100,
        "%",
        1,
        True,
    ),
)


# Ratios whose value depends on the flows' period: the formula says it when not a year.
_FLOW_PERIOD = frozenset({"marge", "couverture", "marge-ebitda", "capex"})
# Ratios of a flow (income, cash flow) to a balance: meaningless on less than a year of flows.
_ANNUAL_ONLY = frozenset({"levier", "levier-loyers", "roe", "roa"})

# What each ratio needs, in words, to say which input is missing (numerator, denominator).
_INPUTS: dict[str, tuple[str, str]] = {
    "levier": ("net debt (or borrowings and cash)", "EBITDA (or operating income and D&A)"),
    "marge": ("net income", "revenue"),
    "gearing": ("net debt (or borrowings and cash)", "equity"),
    "levier-loyers": ("net debt and lease liabilities", "EBITDA (or operating income and D&A)"),
    "couverture": ("operating income", "net cost of debt (or financial result or charges)"),
    "marge-ebitda": ("EBITDA (or operating income and D&A)", "revenue"),
    "liquidite": ("current assets", "current liabilities"),
    "capex": ("capital expenditure", "revenue"),
    "roe": ("net income", "equity"),
    "roa": ("net income", "total assets"),
}


def ratios_not_computed(statements: Statements) -> tuple[str, ...]:
    """For each ratio and extracted year it could not be computed for, which input is
    missing (or why the value would mean nothing): no ratio is ever made up."""
    reasons: list[str] = []
    for suffix, name, top, bottom, _, _, _, positive in _RATIOS:
        if suffix in _ANNUAL_ONLY and statements.flow_months != 12:
            reasons.append(
                f"{name}: the income and cash-flow columns cover {statements.flow_months}"
                " months, not a year"
            )
            continue
        for year in statements.years:
            numerator, denominator = top(statements, year), bottom(statements, year)
            missing = [
                what
                for what, operand in zip(_INPUTS[suffix], (numerator, denominator), strict=True)
                if operand is None
            ]
            if missing:
                reasons.append(f"{name} {year}: no {' and no '.join(missing)}")
            elif denominator is not None and (
                denominator.value == 0 or (positive and denominator.value < 0)
            ):
                reasons.append(f"{name} {year}: {_INPUTS[suffix][1]} is not positive")
    return tuple(reasons)


def compute_ratios(
    statements: Statements, company: Company, locale: Locale = Locale.FR
) -> tuple[Ratio, ...]:
    """The three ratios, for each extracted year where their operands exist."""
    ratios: list[Ratio] = []
    months = statements.flow_months
    for suffix, name, top, bottom, scale, unit, places, positive in _RATIOS:
        if suffix in _ANNUAL_ONLY and months != 12:
            continue  # a half-year EBITDA over year-end debt is no leverage
        values: list[RatioValue] = []
        formula = ""
        for year in statements.years:
            numerator, denominator = top(statements, year), bottom(statements, year)
            if numerator is None or denominator is None or denominator.value == 0:
                continue
            if positive and denominator.value < 0:
                continue
            value = numerator.value * scale / denominator.value
            values.append(RatioValue(year, value, numerator.value, denominator.value))
            formula = formula or f"{numerator.formula} / {denominator.formula}"
        if values and months != 12 and suffix in _FLOW_PERIOD:
            formula += f" (sur {months} mois)"
        if values:
            ratio_id = f"R-{company.slug}-{suffix}"
            shown_name = RATIO_NAMES_EN[suffix] if locale is Locale.EN else name
            shown_formula = formula_en(formula) if locale is Locale.EN else formula
            ratios.append(
                Ratio(
                    ratio_id,
                    company.name,
                    shown_name,
                    shown_formula,
                    unit,
                    places,
                    tuple(values),
                    locale,
                )
            )
    return tuple(ratios)


# --- Alerts ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Alert:
    """A deterministic rule that fired for one year, with the numbers that made it fire."""

    id: str
    company: str
    rule: str
    year: int
    message: str
    locale: Locale = Locale.FR

    def text(self) -> str:
        return f"{self.company} - {self.message}"

    def render(self) -> str:
        return f"[{self.id}] {self.text()}"

    def structure(self) -> FactStructure:
        """The message read as a sentence (facts are written in French); a number its
        sentence gives no period is the alert's year's."""
        read = prose_structure(self.company, self.message, self.locale)
        values = tuple(
            v
            if v.period is not None
            else FactValue(v.value, v.unit, v.metric, str(self.year), v.direction)
            for v in read.values
        )
        return FactStructure(self.company, None, str(self.year), values, self.message)

    def to_fact(self) -> Fact:
        return Fact(self.id, self.text(), structure=self.structure())


@dataclass(frozen=True, slots=True)
class _Context:
    st: Statements
    ratios: dict[str, Ratio]
    year: int
    prior: int
    locale: Locale = Locale.FR

    def say(self, french: str, english: str) -> str:
        return english if self.locale is Locale.EN else french

    def num(self, value: Decimal, places: int) -> str:
        return format_number(value, places, self.locale)

    def amount(self, key: str, year: int | None = None) -> Decimal | None:
        return self.st.value(key, self.year if year is None else year)

    def shown(self, key: str, year: int | None = None) -> str:
        field = self.st.get(key, self.year if year is None else year)
        if field is None:
            raise ValueError(f"{key} missing")  # rules only show what they tested
        return format_amount(field.value, field.unit, self.locale)

    def free_cash_flow(self, year: int | None = None) -> Decimal | None:
        year = self.year if year is None else year
        reported = self.st.value("free_cash_flow", year)
        if reported is not None:
            return reported
        operating, capex = self.st.value("operating_cash_flow", year), self.st.value("capex", year)
        return None if operating is None or capex is None else operating - abs(capex)

    def fcf_shown(self) -> str:
        field = self.st.get("operating_cash_flow", self.year) or self.st.get("capex", self.year)
        value = self.free_cash_flow()
        return format_amount(value or Decimal(0), field.unit if field else "", self.locale)

    def ratio(self, suffix: str, year: int | None = None) -> Decimal | None:
        ratio = self.ratios.get(suffix)
        return None if ratio is None else ratio.value(self.year if year is None else year)

    def ratio_shown(self, suffix: str, year: int | None = None) -> str:
        value = self.ratio(suffix, year)
        return "" if value is None else self.ratios[suffix].display(value)


def _profit_but_cash_burn(c: _Context) -> str | None:
    income, fcf = c.amount("net_income"), c.free_cash_flow()
    if income is None or fcf is None or not (income > 0 > fcf):
        return None
    income_shown = c.shown("net_income")
    return c.say(
        f"Résultat net de {income_shown} mais free cash-flow de {c.fcf_shown()} en {c.year}",
        f"Net income of {income_shown} but free cash flow of {c.fcf_shown()} in {c.year}",
    )


def _net_loss(c: _Context) -> str | None:
    income = c.amount("net_income")
    if income is None or income >= 0:
        return None
    margin = c.ratio_shown("marge")
    suffix = c.say(f" (marge nette : {margin})", f" (net margin: {margin})") if margin else ""
    return c.say(
        f"Perte nette en {c.year} : résultat net de {c.shown('net_income')}{suffix}",
        f"Net loss in {c.year}: net income of {c.shown('net_income')}{suffix}",
    )


def _negative_fcf(c: _Context) -> str | None:
    income, fcf = c.amount("net_income"), c.free_cash_flow()
    if fcf is None or fcf >= 0 or (income is not None and income > 0):
        return None  # a profitable year with negative FCF is _profit_but_cash_burn
    return c.say(
        f"Free cash-flow négatif en {c.year} : {c.fcf_shown()}",
        f"Negative free cash flow in {c.year}: {c.fcf_shown()}",
    )


def _leverage_high(c: _Context) -> str | None:
    leverage = c.ratio("levier")
    if leverage is None or leverage <= LEVERAGE_ALERT:
        return None
    threshold = c.ratios["levier"].display(LEVERAGE_ALERT)
    shown = c.ratio_shown("levier")
    return c.say(
        f"Levier de {shown} en {c.year}, au-dessus du seuil d'alerte de {threshold}",
        f"Leverage of {shown} in {c.year}, above the alert threshold of {threshold}",
    )


def _leverage_up(c: _Context) -> str | None:
    now, before = c.ratio("levier"), c.ratio("levier", c.prior)
    if now is None or before is None or now - before < LEVERAGE_JUMP:
        return None
    return c.say(
        f"Levier en hausse : {c.ratio_shown('levier')} en {c.year} contre "
        f"{c.ratio_shown('levier', c.prior)} en {c.prior}",
        f"Leverage up: {c.ratio_shown('levier')} in {c.year} against "
        f"{c.ratio_shown('levier', c.prior)} in {c.prior}",
    )


def _drop(c: _Context, key: str, threshold: Decimal) -> Decimal | None:
    now, before = c.amount(key), c.amount(key, c.prior)
    if now is None or before is None or before <= 0 or now >= before * (1 - threshold):
        return None
    return (before - now) * 100 / before


def _ebitda_drop(c: _Context) -> str | None:
    fall = _drop(c, "ebitda", EBITDA_DROP)
    if fall is None:
        return None
    return c.say(
        f"EBITDA en baisse de {format_decimal(fall, 1)} % : {c.shown('ebitda')} en {c.year} "
        f"contre {c.shown('ebitda', c.prior)} en {c.prior}",
        f"EBITDA down {c.num(fall, 1)} %: {c.shown('ebitda')} in {c.year} "
        f"against {c.shown('ebitda', c.prior)} in {c.prior}",
    )


def _cash_drop(c: _Context) -> str | None:
    fall = _drop(c, "cash", CASH_DROP)
    if fall is None:
        return None
    return c.say(
        f"Trésorerie en baisse de {format_decimal(fall, 1)} % : {c.shown('cash')} fin {c.year} "
        f"contre {c.shown('cash', c.prior)} fin {c.prior}",
        f"Cash down {c.num(fall, 1)} %: {c.shown('cash')} at the end of {c.year} "
        f"against {c.shown('cash', c.prior)} at the end of {c.prior}",
    )


def _negative_operating_cash(c: _Context) -> str | None:
    operating = c.amount("operating_cash_flow")
    if operating is None or operating >= 0:
        return None
    shown = c.shown("operating_cash_flow")
    return c.say(
        f"Flux de trésorerie liés à l'activité négatifs en {c.year} : {shown}",
        f"Negative operating cash flow in {c.year}: {shown}",
    )


def _negative_equity(c: _Context) -> str | None:
    equity = c.amount("equity")
    if equity is None or equity > 0:
        return None
    return c.say(
        f"Capitaux propres négatifs fin {c.year} : {c.shown('equity')}",
        f"Negative equity at the end of {c.year}: {c.shown('equity')}",
    )


_RULES: tuple[tuple[str, Callable[[_Context], str | None]], ...] = (
    ("profit_but_cash_burn", _profit_but_cash_burn),
    ("net_loss", _net_loss),
    ("negative_free_cash_flow", _negative_fcf),
    ("leverage_high", _leverage_high),
    ("leverage_up", _leverage_up),
    ("ebitda_drop", _ebitda_drop),
    ("cash_drop", _cash_drop),
    ("negative_operating_cash_flow", _negative_operating_cash),
    ("negative_equity", _negative_equity),
)


def compute_alerts(
    statements: Statements,
    ratios: Sequence[Ratio],
    company: Company,
    locale: Locale = Locale.FR,
) -> tuple[Alert, ...]:
    """The alert rules that fire on the most recent year (compared with the year before)."""
    if not statements.years:
        return ()
    year = statements.years[0]
    by_suffix = {r.id.rsplit("-", 1)[1]: r for r in ratios}
    context = _Context(statements, by_suffix, year, year - 1, locale)
    alerts: list[Alert] = []
    for rule, check in _RULES:
        message = check(context)
        if message is not None:
            alert_id = f"A-{company.slug}-{len(alerts) + 1}"
            alerts.append(Alert(alert_id, company.name, rule, year, message, locale))
    return tuple(alerts)
