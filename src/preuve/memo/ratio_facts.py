"""A computed ratio as an R- fact: its values per year, formula, inputs and fact line.

``[R-ferlac-levier] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; formule :
dette nette / EBITDA``. A ratio's unit is ``x``, ``%``, ``j`` (days: ``45 jours``,
``45 days``) or, for an amount such as free cash flow, the unit of its inputs as printed
(``k€``, ``$ millions``). Each value keeps the statement fields it was computed from.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from preuve.core.facts import Fact, FactStructure, FactValue
from preuve.core.numbers import Locale, extract_numbers
from preuve.memo.amounts import format_amount, format_number, shown_decimal
from preuve.memo.statements import Field

__all__ = ["RATIO_UNITS", "Ratio", "RatioValue", "describe_input"]

RATIO_UNITS = frozenset({"x", "%", "j"})


@dataclass(frozen=True, slots=True)
class RatioValue:
    year: int
    value: Decimal
    numerator: Decimal
    denominator: Decimal
    inputs: tuple[Field, ...] = ()


def describe_input(item: Field) -> str:
    """``revenue "Chiffre d'affaires" FY2025 p. 3: 148 230``: an input, as cited."""
    period = "" if item.months is None else (" at" if item.months == 0 else f" {item.months}M")
    return f'{item.key} "{item.label}" {item.year}{period} p. {item.page}: {item.raw}'


@dataclass(frozen=True, slots=True)
class Ratio:
    """A ratio for the years it could be computed, most recent first."""

    id: str
    company: str
    name: str
    formula: str
    unit: str  # "x", "%", "j" (days) or an amount's unit
    places: int
    values: tuple[RatioValue, ...]
    locale: Locale = Locale.FR  # the language of the fact line
    change: bool = False  # a growth rate: each value states a direction (up or down)
    extra: tuple[FactValue, ...] = ()  # other values the formula states (a threshold)

    def value(self, year: int) -> Decimal | None:
        return next((v.value for v in self.values if v.year == year), None)

    def display(self, value: Decimal) -> str:
        if self.unit not in RATIO_UNITS:
            return format_amount(value, self.unit, self.locale)
        number = format_number(value, self.places, self.locale)
        if self.unit == "j":
            return f"{number} {'days' if self.locale is Locale.EN else 'jours'}"
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

    def _fact_value(self, value: RatioValue) -> FactValue:
        if self.unit in RATIO_UNITS:
            shown = format_number(value.value, self.places, self.locale)
            unit = None if self.unit == "j" else self.unit
            number = shown_decimal(shown, self.locale)
            direction = None if not self.change or not number else "up" if number > 0 else "down"
            return FactValue(number, unit, self.name, str(value.year), direction)
        # An amount: its value and unit as the memo check reads the fact line.
        (mention,) = extract_numbers(self.display(value.value), self.locale)[:1]
        return FactValue(mention.value, mention.unit, self.name, str(value.year))

    def structure(self) -> FactStructure:
        """Subject, metric and each year's value as the fact line shows it (rounded)."""
        values = tuple(self._fact_value(v) for v in self.values) + self.extra
        return FactStructure(self.company, self.name, str(self.values[0].year), values)

    def to_fact(self) -> Fact:
        return Fact(self.id, self.text(), structure=self.structure())
