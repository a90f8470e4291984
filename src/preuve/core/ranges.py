"""Two numbers that bound a range (``14–16 °C``, ``1.5–2.5 kW``, ``10-12%``, ``de 3 à 5
jours``, ``between 3 and 5 days``): neither is a value of its own.

A range is found between two numbers next to each other in a text:

- a dash between them, glued to both (``10-12%``) or, for an en or em dash, spaced
  (``14 – 16 °C``), the first below the second;
- words around them: ``entre X et Y`` / ``between X and Y``, and ``de X à Y`` / ``from X
  to Y`` unless a verb of change comes just before (``passé de 12 à 14``, ``rose from 12
  to 14``: a starting level and an arrival, two values); bare ``X à Y`` / ``X to Y``
  likewise, and after a verb of change only with the same unit on both bounds.

Two years are a span of years (``2024-2025``), never a range of values here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

__all__ = ["Bounded", "range_pairs"]


@dataclass(frozen=True, slots=True)
class Bounded:
    """What the range finder needs of a number: its span, the end of its unit, its value."""

    start: int
    end: int
    unit_end: int
    value: Decimal
    is_year: bool


_GLUED_DASH = re.compile(r"[-\u2010\u2011\u2012\u2013\u2014\u2212]")
_SPACED_DASH = re.compile(r"[ \u00a0\u202f\u2009]+[\u2013\u2014][ \u00a0\u202f\u2009]+")
_SPACE = r"[ \u00a0\u202f\u2009]+"
# (word before the first number, word between them); "de"/"from" only without a verb of
# change before them.
_OPENERS = (
    (
        re.compile(rf"(?i)(?:^|\W)(?:entre|between){_SPACE}$"),
        re.compile(rf"(?i){_SPACE}(?:et|and){_SPACE}"),
        False,
    ),
    (
        re.compile(rf"(?i)(?:^|\W)(?:de|from|d'){_SPACE}?$"),
        re.compile(rf"(?i){_SPACE}(?:à|a|to){_SPACE}"),
        True,
    ),
)
# A verb of change a few words before "de X à Y" / "from X to Y" (general vocabulary).
_CHANGE = re.compile(
    r"(?i)\b(?:pass|augment|diminu|baiss|progress|recul|rédui|redui|hauss|chut|ramen|"
    r"port|évolu|evolu|amélior|amelior|dégrad|degrad|cr[oûu]|glissé|grimp|bondi|"
    r"ris|rose|fell|fall|increas|decreas|grew|grow|declin|went|mov|drop|improv|"
    r"lower|rais|climb|jump|slipp|shrank|shrunk|expand|narrow|widen)\w*"
    r"(?:\W+\w+){0,3}\W*$"
)
_BEFORE = 60  # characters looked at before the first number for a verb of change


# A dash glued to digits before the first number or after the second: a chain of numbers
# (``2025-06-30``, ``+32-4-123-45-67``), no range.
_CHAIN_BEFORE = re.compile(r"\d[-\u2010\u2011\u2012\u2013\u2212/.]$")
_CHAIN_AFTER = re.compile(r"^[-\u2010\u2011\u2012\u2013\u2212/.]\d")


def _dash_range(text: str, low: Bounded, high: Bounded) -> bool:
    between = text[low.unit_end : high.start]
    if _CHAIN_BEFORE.search(text[: low.start]) or _CHAIN_AFTER.match(text[high.end :]):
        return False
    if low.unit_end != low.end and not _GLUED_DASH.fullmatch(between):
        return False  # "5 % – 7 %" is two values with their units; "5–7 %" is a range
    return bool(_GLUED_DASH.fullmatch(between) or _SPACED_DASH.fullmatch(between))


_BARE_JOINER = re.compile(rf"(?i){_SPACE}(?:à|to){_SPACE}")


def _bare_range(text: str, low: Bounded, high: Bounded, before: str) -> bool:
    """``3 to 5 days``, ``4% to 6%``, ``en 3 à 5 jours``: no opener, no year; after a verb
    of change only when both bounds write the same unit (``rose 4% to $171m`` is a change
    and an arrival)."""
    if low.is_year or high.is_year or not _BARE_JOINER.fullmatch(text[low.unit_end : high.start]):
        return False
    if _CHANGE.search(before):
        low_unit = text[low.end : low.unit_end].strip()
        return bool(low_unit) and low_unit == text[high.end : high.unit_end].strip()
    return True


def _word_range(text: str, low: Bounded, high: Bounded) -> bool:
    between = text[low.unit_end : high.start]
    before = text[max(0, low.start - _BEFORE) : low.start]
    for opener, joiner, changes in _OPENERS:
        opened = opener.search(before)
        if opened is not None and joiner.fullmatch(between):
            return not (changes and _CHANGE.search(before[: opened.start() + 1]))
    return _bare_range(text, low, high, before)


def range_pairs(text: str, numbers: Sequence[Bounded]) -> list[tuple[int, int]]:
    """The indexes ``(i, i + 1)`` of each two numbers of ``text`` (in order) that bound a
    range."""
    pairs: list[tuple[int, int]] = []
    index = 0
    while index + 1 < len(numbers):
        low, high = numbers[index], numbers[index + 1]
        if (
            not (low.is_year and high.is_year)
            and low.value >= 0
            and low.value < high.value
            and (_dash_range(text, low, high) or _word_range(text, low, high))
        ):
            pairs.append((index, index + 1))
            index += 2
            continue
        index += 1
    return pairs
