"""Alerts (A-): deterministic rules over a report's fields and ratios, as facts.

Each rule fires on the most recent year (compared with the year before) and says the
numbers that made it fire; alerts are numbered ``A-<slug>-1``, ``A-<slug>-2``... in rule
order. Thresholds are declared below. Messages follow the report's language:
``[A-ferlac-2] Maison Ferlac SAS - Free cash-flow négatif en 2025 : -14 930 k€``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from preuve.core.factlines import prose_structure
from preuve.core.facts import Fact, FactStructure, FactValue
from preuve.core.numbers import Locale
from preuve.memo.amounts import format_amount, format_decimal, format_number
from preuve.memo.company import Company
from preuve.memo.ratio_facts import Ratio
from preuve.memo.statements import Statements

__all__ = ["Alert", "compute_alerts"]

LEVERAGE_ALERT = Decimal("4.0")  # x: above this, net debt is heavy for the cash it earns
LEVERAGE_JUMP = Decimal("1.0")  # x: a rise of a full turn of EBITDA in one year
EBITDA_DROP = Decimal("0.10")  # a fall of more than 10 % in one year
CASH_DROP = Decimal("0.30")  # a fall of more than 30 % of cash in one year


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
    by_suffix = {r.id.removeprefix(f"R-{company.slug}-"): r for r in ratios}
    context = _Context(statements, by_suffix, year, year - 1, locale)
    alerts: list[Alert] = []
    for rule, check in _RULES:
        message = check(context)
        if message is not None:
            alert_id = f"A-{company.slug}-{len(alerts) + 1}"
            alerts.append(Alert(alert_id, company.name, rule, year, message, locale))
    return tuple(alerts)
