"""A range a document states for a quantity, and the operating points inside it.

A sheet that gives a quantity as a range (``Plage de débit : 0,1 à 1 200 mL/h``, ``Operating
temperature: -40 to 85 °C``) says the quantity is set or varies within it. A value another
document writes for that quantity inside the range (a test run ``at 25 mL/h``, an incident
``(flow 125 mL/h)``) is an operating point of it, not a claim about it: it contradicts
neither the range nor another operating point. A value outside the range still does (a
maximum of 1 500 mL/h against a range up to 1 200).

:func:`range_of` reads, from the passage a value was quoted in, the range that value closes
(its lower bound written before it with ``à`` / ``to`` / a dash); :func:`inside_ranges` lists
the values of a group that lie inside a range another document states.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from decimal import Decimal

from preuve.synthesis.types import SourcedValue
from preuve.synthesis.values import meaning

__all__ = ["inside_ranges", "range_of"]

_NUMBER = r"[-+−]?\d+(?:[ \u00a0\u202f]\d{3})*(?:[.,]\d+)?"
_LEADING = re.compile(rf"\s*({_NUMBER})")
_BEFORE = re.compile(rf"({_NUMBER})\s*(?:à|a|to|–|—|-)\s*$")

Range = tuple[tuple[Hashable, ...], Decimal, Decimal]


def _measure(value: str) -> tuple[tuple[Hashable, ...], Decimal] | None:
    """(kind, unit, periods) and amount of a value that is one quantity or count."""
    keys = meaning(value)
    if len(keys) != 1:
        return None
    key = keys[0]
    if not isinstance(key, tuple) or len(key) != 4 or key[0] not in ("quantity", "count"):
        return None
    amount = key[3]
    return (key[:3], amount) if isinstance(amount, Decimal) else None


def range_of(value: str, passage: str) -> Range | None:
    """The range ``value`` closes in ``passage`` (``0,1 à 1 200 mL/h`` for ``1 200 mL/h``),
    as (kind of the value, low, high); None when it closes none."""
    measured = _measure(value)
    leading = _LEADING.match(value)
    if measured is None or leading is None:
        return None
    written = leading.group(1)
    flat = " ".join(passage.split())
    for found in re.finditer(r"(?<![\d.,])" + re.escape(" ".join(written.split())), flat):
        before = _BEFORE.search(flat[: found.start()])
        if before is None:
            continue
        low = _measure(value.replace(written, before.group(1).replace("−", "-"), 1))
        if low is not None and low[0] == measured[0] and low[1] < measured[1]:
            return measured[0], low[1], measured[1]
    return None


def inside_ranges(
    values: Sequence[SourcedValue], quotes: Mapping[tuple[str, str], str]
) -> frozenset[tuple[str, str]]:
    """The (doc id, value) of ``values`` that lie inside a range another document states
    (``quotes``: (doc id, value) -> the passage stating it)."""
    ranges = [
        (doc_id, found)
        for v in values
        for doc_id in v.sources
        if (found := range_of(v.value, quotes.get((doc_id, v.value), ""))) is not None
    ]
    out: set[tuple[str, str]] = set()
    for v in values:
        measured = _measure(v.value)
        if measured is None:
            continue
        for doc_id in v.sources:
            if any(
                other != doc_id and kind == measured[0] and low <= measured[1] <= high
                for other, (kind, low, high) in ranges
            ):
                out.add((doc_id, v.value))
    return frozenset(out)
