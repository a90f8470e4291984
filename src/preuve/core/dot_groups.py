"""What a dot means among a table's amounts: a thousands separator or a decimal point.

``58.000`` alone cannot tell: whole euros grouped by dots (``1.234.567``, Belgian or
German statements) read it 58 000, an English table of prices reads it 58. The token is
never decided on its own: the amounts around it decide, and when they do not (or say
both), the value is doubtful and not used (a missed value, never a wrong one).

- dots group thousands when some amount groups by dots unambiguously: two dot groups or
  more (``1.860.417``), or dot groups before a decimal comma (``41.862,5``);
- a dot is a decimal point when some amount shows it so: a dot followed by other than
  three digits (``12.5``, ``0.2500``), or commas grouping thousands (``1,234``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal
from enum import StrEnum

__all__ = ["DotReading", "dot_reading", "one_dot_group", "read_with_dots"]


class DotReading(StrEnum):
    THOUSANDS = "thousands"
    DECIMAL = "decimal"


_SIGNS = r"\-\u2212\u2013+"
# The digits of an amount as printed, without its sign, parentheses or currency.
_BODY = re.compile(rf"^[({_SIGNS}$€£¥\s]*(?P<body>\d[\d.,'\u2019\u202f\u00a0 ]*?)[)\s%]*$")
_ONE_GROUP = re.compile(r"\d{1,3}\.\d{3}")
_DOT_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+")
_DOT_DECIMAL = re.compile(r"\d*\.(?:\d{1,2}|\d{4,})|\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def _body(raw: str) -> str | None:
    match = _BODY.match(raw.strip())
    return match.group("body") if match else None


def one_dot_group(raw: str) -> bool:
    """Whether an amount as printed is digits, one dot, three digits (``58.000``,
    ``(14.000)``, ``-126.450``): a form whose dot the amount alone does not tell."""
    body = _body(raw)
    return body is not None and _ONE_GROUP.fullmatch(body) is not None


def dot_reading(raws: Iterable[str]) -> DotReading | None:
    """How the amounts ``raws`` (as printed) use the dot: thousands, decimals, or None
    when they show neither or both."""
    thousands = decimal = False
    for raw in raws:
        body = _body(raw)
        if body is None:
            continue
        thousands = thousands or _DOT_THOUSANDS.fullmatch(body) is not None
        decimal = decimal or _DOT_DECIMAL.fullmatch(body) is not None
    if thousands == decimal:
        return None
    return DotReading.THOUSANDS if thousands else DotReading.DECIMAL


def read_with_dots(raw: str, value: Decimal, reading: DotReading | None) -> Decimal | None:
    """The value of an amount read as ``value`` with its dot a decimal point, under the
    table's ``reading``: the same when the dot is no question (``1.234.567``, ``12.5``),
    a thousand times it for a one-group amount of a dot-thousands table, None when the
    table cannot tell."""
    if not one_dot_group(raw):
        return value
    if reading is DotReading.DECIMAL:
        return value
    if reading is DotReading.THOUSANDS:
        return (value * 1000).quantize(Decimal(1))
    return None
