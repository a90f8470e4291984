"""Numbers and amounts as a fact line writes them, in French or English.

French: ``-0,5``, thousands grouped by a narrow no-break space (``-47 225 k€``); English:
``-0.5``, thousands grouped by commas (``18,992.8 $ millions``).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from preuve.core.numbers import Locale
from preuve.memo.english import format_decimal_en

__all__ = ["NNBSP", "format_amount", "format_decimal", "format_number", "shown_decimal"]

NNBSP = "\u202f"


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


def shown_decimal(shown: str, locale: Locale) -> Decimal:
    if locale is Locale.EN:
        return Decimal(shown.replace(",", ""))
    return Decimal(shown.replace(",", ".").replace(NNBSP, ""))


def _unit_label(unit: str) -> str:
    french = {"$ millions": "M$", "$ thousands": "k$", "$ billions": "Md$"}
    french |= {"£ millions": "M£", "£ thousands": "k£", "£ billions": "Md£"}
    french |= {"millions": "millions", "thousands": "milliers", "billions": "milliards"}
    return french.get(unit, unit)


def format_amount(value: Decimal, unit: str, locale: Locale = Locale.FR) -> str:
    """An amount as written in a French fact: ``-47 225 k€``, ``18 992,8 M$`` (English:
    ``18,992.8 $ millions``)."""
    places = max(0, -int(value.normalize().as_tuple().exponent))
    label = unit if locale is Locale.EN else _unit_label(unit)
    text = format_number(value, places, locale)
    return f"{text} {label}" if label else text
