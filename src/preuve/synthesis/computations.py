"""Computations in code, general: what the findings' numbers support, each input cited.

The writer never computes (SPEC rule 2); code computes what the statements' units allow:

- :func:`yearly_totals`: a count of things (``12 GPU``, for 2027) times the one amount per
  one of those things per period (``2 300 € HT par GPU et par mois``) is a total, given per
  year (``331 200 € HT par an``): units are matched, never guessed;
- :func:`yearly_equivalents`: an amount per month, week, day or quarter, also per year (a
  unit conversion: ``14,90 € par mois`` is ``178,8 € par an``);
- :func:`contradiction_gaps`: the difference and the ratio between the retained and each
  rejected quantity of a contradiction (``340 ms`` against ``120 ms``: ``220``, ``2,83``);
- :func:`period_changes`: the growth of one quantity between two periods (``6 GPU`` in
  2026, ``12 GPU`` in 2027: ``+100 %``);
- :func:`flow_totals`: the sum over years of an amount per year (a flow). A level at a date
  (a fleet, a stored volume) is never summed across periods
  (:func:`~preuve.synthesis.checks.total_over_periods` refuses it).

Only unambiguous inputs are used: the one value of a (subject, attribute, context), or the
value code retained in a contradiction; two amounts for one unit compute nothing.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from itertools import pairwise

from preuve.core.numbers import Locale, extract_numbers
from preuve.synthesis.checks import QuantityKind, product, total_over_periods
from preuve.synthesis.matcher import group_key
from preuve.synthesis.types import (
    ComputedValue,
    Contradiction,
    Finding,
    FindingStatus,
    Statement,
    distinct_values,
)
from preuve.synthesis.values import Value, read_values

__all__ = [
    "Input",
    "compute_values",
    "contradiction_gaps",
    "flow_totals",
    "inputs_of",
    "period_changes",
    "yearly_equivalents",
    "yearly_totals",
]

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_PER_YEAR = {"mois": 12, "semaine": 52, "jour": 365, "trimestre": 4}
_PERIOD_WORDS = {
    "fr": {"mois": "mois", "semaine": "semaines", "jour": "jours", "trimestre": "trimestres"},
    "en": {"mois": "months", "semaine": "weeks", "jour": "days", "trimestre": "quarters"},
}
_CENT = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class Input:
    """One unambiguous value of the findings: its number as written, what follows the
    number (its unit words), its reading (units, periods), period and documents."""

    subject: str
    attribute: str
    number: Decimal
    unit_text: str
    value: Value
    year: str | None
    sources: tuple[str, ...]


def _locale(text: str) -> Locale:
    return Locale.EN if re.search(r"\d,\d{3}(?![\d,])", text) else Locale.FR


def _input(first: Statement, written: str, sources: tuple[str, ...]) -> Input | None:
    locale = _locale(written)
    read = read_values(written, locale=locale)
    numbers = extract_numbers(written, locale)
    if not read or not numbers:
        return None
    value, number = read[0], numbers[0]
    unit_text = written[number.end : value.end].strip()
    years = _YEAR.findall(f"{first.context} {written[value.end :]} {first.attribute}")
    return Input(first.subject, first.attribute, number.value, unit_text, value,
                 years[0] if years else None, sources)  # fmt: skip


def inputs_of(findings: Sequence[Finding], contradictions: Sequence[Contradiction]) -> list[Input]:
    """The unambiguous values of the findings (see the module docstring)."""
    ok = [s for f in findings if f.status is FindingStatus.OK for s in f.statements]
    groups: dict[tuple[Hashable, ...], list[Statement]] = {}
    for s in ok:
        groups.setdefault(group_key(s.subject, s.attribute, s.value, s.context), []).append(s)
    out = []
    for key, statements in groups.items():
        values = distinct_values(s.value for s in statements)
        if len(values) == 1:
            sources = tuple(dict.fromkeys(d for s in statements for d in s.doc_ids))
            found = _input(statements[0], values[0], sources)
        else:
            retained = next(
                (c.retained for c in contradictions
                 if c.retained is not None
                 and group_key(c.subject, c.attribute, c.values[0].value, c.context) == key),
                None,
            )  # fmt: skip
            found = _input(statements[0], retained.value, retained.sources) if retained else None
        if found is not None:
            out.append(found)
    return out


def _period_word(lang: str, period: str) -> str:
    return _PERIOD_WORDS.get(lang, _PERIOD_WORDS["en"])[period]


def _sources(*inputs: Input) -> tuple[str, ...]:
    return tuple(dict.fromkeys(d for i in inputs for d in i.sources))


def _money(value: Value) -> tuple[str, str]:
    currency = value.unit.split(":", 1)[-1]
    symbol = {"EUR": "€", "USD": "$", "GBP": "£"}.get(currency, currency)
    tax = str(value.key[2]) if len(value.key) > 2 and value.key[2] else ""
    return symbol, tax


def yearly_totals(inputs: Sequence[Input], lang: str = "fr") -> list[ComputedValue]:
    """Counts times the one amount per counted thing and per period (see the docstring)."""
    out = []
    for count in (i for i in inputs if i.value.kind == "count"):
        noun = count.value.unit.split(":", 1)[1]
        prices = [
            i for i in inputs
            if i.value.kind == "money" and noun in i.value.per and len(i.value.periods) == 1
        ]  # fmt: skip
        if len(prices) != 1 or prices[0].value.periods[0] not in _PER_YEAR:
            continue  # no amount for that unit, or several: nothing to compute safely
        price = prices[0]
        period = price.value.periods[0]
        symbol, tax = _money(price.value)
        written = f"{count.number} {count.unit_text}"
        if lang == "fr":
            when = f" en {count.year}" if count.year else ""
            label, unit = f"coût annuel de {written}{when}", f"{symbol} {tax} par an"
        else:
            when = f" in {count.year}" if count.year else ""
            label, unit = f"yearly cost of {written}{when}", f"{symbol} {tax} per year"
        factors = [
            (count.number, count.unit_text),
            (price.number, price.unit_text),
            (Decimal(_PER_YEAR[period]), _period_word(lang, period)),
        ]  # fmt: skip
        out.append(product(label, factors, " ".join(unit.split()), _sources(count, price)))
    return out


def yearly_equivalents(inputs: Sequence[Input], lang: str = "fr") -> list[ComputedValue]:
    """Amounts per month, week, day or quarter, per year (a conversion of units)."""
    out = []
    for amount in inputs:
        periods = amount.value.periods
        if amount.value.kind != "money" or len(periods) != 1 or periods[0] not in _PER_YEAR:
            continue
        symbol, tax = _money(amount.value)
        per = _PER_YEAR[periods[0]]
        words = _period_word(lang, periods[0])
        label = (
            f"{amount.subject}, {amount.attribute} par an"
            if lang == "fr"
            else f"{amount.subject}, {amount.attribute} per year"
        )
        unit = f"{symbol} {tax} {'par an' if lang == 'fr' else 'per year'}"
        if amount.value.per:
            unit += f" {'par' if lang == 'fr' else 'per'} {' '.join(amount.value.per)}"
        factors = [(amount.number, amount.unit_text), (Decimal(per), words)]
        out.append(product(label, factors, " ".join(unit.split()), amount.sources))
    return out


def _quantity(text: str) -> tuple[Value, Decimal] | None:
    read = read_values(text, locale=_locale(text))
    return (read[0], read[0].amount) if read and read[0].amount is not None else None


def contradiction_gaps(
    contradictions: Sequence[Contradiction], lang: str = "fr"
) -> list[ComputedValue]:
    """Difference and ratio of the retained quantity to each rejected one, same unit."""
    out = []
    for c in contradictions:
        if c.retained is None:
            continue
        kept = _quantity(c.retained.value)
        for rejected in c.rejected:
            other = _quantity(rejected.value)
            if kept is None or other is None or kept[0].key[:3] != other[0].key[:3]:
                continue
            if not other[1]:
                continue
            sources = tuple(dict.fromkeys((*c.retained.sources, *rejected.sources)))
            ratio = (kept[1] / other[1]).quantize(_CENT, ROUND_HALF_EVEN)
            about = f"{c.subject}, {c.attribute}"
            formula = f"{c.retained.value} / {rejected.value}"
            names = ("rapport retenu / rejeté", "écart retenu - rejeté") if lang == "fr" else (
                "ratio retained / rejected", "difference retained - rejected")  # fmt: skip
            out.append(ComputedValue(f"{about} : {names[0]}", ratio, "x", formula, sources))
            written = _written_numbers(c.retained.value, rejected.value)
            if written is not None:
                difference = written[0] - written[1]
                unit = _unit_words(c.retained.value)
                formula = f"{c.retained.value} - {rejected.value}"
                gap = ComputedValue(f"{about} : {names[1]}", difference, unit, formula, sources)
                out.append(gap)
    return out


def _written_numbers(a: str, b: str) -> tuple[Decimal, Decimal] | None:
    """The two numbers as written, when both values are written in the same unit words (a
    difference of 340 ms and 120 ms is 220 ms; of 0.8 s and 120 ms it is not computed)."""
    first, second = extract_numbers(a, _locale(a)), extract_numbers(b, _locale(b))
    if len(first) != 1 or len(second) != 1 or _unit_words(a) != _unit_words(b):
        return None
    return first[0].value, second[0].value


def _unit_words(value: str) -> str:
    numbers = extract_numbers(value, _locale(value))
    return value[numbers[0].end :].strip() if numbers else value


def flow_totals(inputs: Sequence[Input], lang: str = "fr") -> list[ComputedValue]:
    """The total over periods of an amount per year (a flow) stated for several years; a
    count at a date (a stock) is never summed (:func:`total_over_periods` refuses it)."""
    out = []
    series: dict[tuple[Hashable, ...], list[Input]] = {}
    for i in inputs:
        if i.year is not None and i.value.kind == "money" and i.value.periods == ("an",):
            series.setdefault((i.subject, i.attribute, i.value.key[:4]), []).append(i)
    for items in series.values():
        years = sorted({i.year for i in items if i.year})
        if len(years) < 2 or len(years) != len(items):
            continue
        ordered = sorted(items, key=lambda i: i.year or "")
        first = ordered[0]
        label = f"{first.subject}, {first.attribute} : total {years[0]}-{years[-1]}"
        symbol, tax = _money(first.value)
        total = total_over_periods(
            label, [(i.year or "", i.number) for i in ordered], f"{symbol} {tax}".strip(),
            QuantityKind.FLOW, _sources(*ordered),
        )  # fmt: skip
        out.append(total)
    return out


def period_changes(inputs: Sequence[Input], lang: str = "fr") -> list[ComputedValue]:
    """Change and growth of one quantity between consecutive periods (never a sum)."""
    out = []
    by_quantity: dict[tuple[Hashable, ...], list[Input]] = {}
    for i in inputs:
        if i.year is not None and i.value.kind in {"count", "quantity", "money"}:
            kind = (i.subject, i.attribute.replace(i.year, ""), i.value.key[:-1])
            by_quantity.setdefault(kind, []).append(i)
    for series in by_quantity.values():
        ordered = sorted(series, key=lambda i: i.year or "")
        for before, after in pairwise(ordered):
            if before.year == after.year or not before.number:
                continue
            change = after.number - before.number
            growth = (100 * change / before.number).quantize(_CENT, ROUND_HALF_EVEN)
            about = f"{after.subject}, {after.unit_text}"
            word = "croissance" if lang == "fr" else "growth"
            formula = f"({after.number} - {before.number}) / {before.number} x 100"
            out.append(ComputedValue(f"{about} : {word} {before.year}-{after.year}",
                                     growth, "%", formula,
                                     _sources(before, after)))  # fmt: skip
    return out


def compute_values(
    findings: Sequence[Finding], contradictions: Sequence[Contradiction], lang: str = "fr"
) -> tuple[ComputedValue, ...]:
    """Every computation the findings support (see the module docstring)."""
    inputs = inputs_of(findings, contradictions)
    return (
        *yearly_totals(inputs, lang),
        *yearly_equivalents(inputs, lang),
        *period_changes(inputs, lang),
        *flow_totals(inputs, lang),
        *contradiction_gaps(contradictions, lang),
    )
