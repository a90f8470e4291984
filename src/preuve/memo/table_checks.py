"""Identities read from a table's own structure, plus the accounting identities of SPEC.

*Subtotals.* Rows are read top to bottom onto a stack. A row whose values equal, in every
period, the sum of the last k ≥ 2 items of the stack (or the first of them minus the others,
as US statements print costs unsigned) is a subtotal of them: the identity holds, and
those items are replaced on the stack by the subtotal, so that a total of subtotals
(``Total liabilities and equity``) is found too. The tolerance is declared:
:data:`TOLERANCE_PER_ITEM` units per item summed (each printed value is rounded to one
unit), at least one unit. A row that claims to be a total (``Total ...``, or values printed
without a label) whose parts are not found is *unresolved*: reported, never called violated,
since its parts may be elsewhere.

*Accounting identities* (SPEC): total assets = total equity and liabilities, per period;
operating + investing + financing cash flows = net change in cash when the table prints no
other reconciling row. Those can be *violated*, which is a defect.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from preuve.memo.concepts import MappedRow, map_concepts
from preuve.memo.lexicon import (
    _PARENTHETICAL,
    DERIVED,
    DERIVED_EXCLUDE,
    LabelRule,
    Statement,
    normalize_label,
)
from preuve.memo.periods import Period
from preuve.memo.tables import StatementTable, TableRow

__all__ = [
    "TOLERANCE_PER_ITEM",
    "Identity",
    "check_accounting",
    "check_structure",
    "checked_table",
    "derive_totals",
]

TOLERANCE_PER_ITEM = Decimal("0.5")
_MAX_ITEMS = 40


@dataclass(frozen=True, slots=True)
class Identity:
    """One checked identity: what it says, its pages, both sides per period, and whether it
    holds (None: unresolved, the parts were not found)."""

    name: str
    pages: tuple[int, ...]
    left: dict[Period, Decimal]
    right: dict[Period, Decimal]
    holds: bool | None
    row: int = -1  # the index of the total's row in its table (-1: an accounting identity)
    parts: tuple[int, ...] = ()  # the indexes of the rows (or subtotals) it adds up


@dataclass(frozen=True, slots=True)
class _Item:
    index: int
    label: str
    values: dict[Period, Decimal]
    pages: tuple[int, ...]
    unit: Decimal  # the rounding unit of its printed values (0.01 for "1.25")


def _values(row: TableRow) -> dict[Period, Decimal]:
    return {c.period: c.value for c in row.cells}


def _unit(row: TableRow) -> Decimal:
    """One unit of the last digit printed: a separator followed by one or two digits at the
    end marks decimals ("3.51", "2,9"); three digits are thousands ("1,200")."""
    decimals = 0
    for cell in row.cells:
        match = re.search(r"[.,](\d{1,2})\)?$", cell.raw)
        decimals = max(decimals, len(match.group(1)) if match else 0)
    return Decimal(1).scaleb(-decimals)


def _close(a: Decimal, b: Decimal, items: int, unit: Decimal = Decimal(1)) -> bool:
    return abs(a - b) <= max(unit, TOLERANCE_PER_ITEM * items * unit)


def _combine(
    items: Sequence[_Item], periods: Sequence[Period], signed: bool
) -> dict[Period, Decimal] | None:
    total: dict[Period, Decimal] = {}
    for period in periods:
        if any(period not in item.values for item in items):
            return None
        parts = [item.values[period] for item in items]
        total[period] = sum(parts, Decimal(0)) if signed else parts[0] - sum(parts[1:], Decimal(0))
    return total


def _match(
    stack: list[_Item], target: dict[Period, Decimal], claims: bool, unsigned_costs: bool
) -> tuple[int, dict[Period, Decimal]] | None:
    """The number of stack items (from the top) whose sum is ``target``, and that sum."""
    periods = sorted(target)
    if not claims and len(periods) < 2:
        return None  # one column is too little evidence for a row that claims nothing
    modes = (True, False) if unsigned_costs else (True,)
    for count in range(2, min(len(stack), _MAX_ITEMS) + 1):
        items = stack[-count:]
        unit = max(item.unit for item in items)
        for signed in modes:
            combined = _combine(items, periods, signed)
            if combined is not None and all(
                _close(combined[p], target[p], count, unit) for p in periods
            ):
                return count, combined
    return None


def check_structure(rows: Sequence[TableRow], income: bool = False) -> list[Identity]:
    """Subtotals found in ``rows`` (holds True) and claimed totals not resolved (None).
    Only an income statement (``income``) may print costs unsigned, to be subtracted."""
    stack: list[_Item] = []
    found: list[Identity] = []
    for index, row in enumerate(rows):
        target = _values(row)
        name = row.label or "(total without a label)"
        match = _match(stack, target, row.total, income) if target else None
        if match is not None:
            count, combined = match
            parts = stack[-count:]
            pages = tuple(sorted({p for item in parts for p in item.pages} | {row.page}))
            labels = " + ".join(item.label or "(total)" for item in parts)
            members = tuple(item.index for item in parts)
            found.append(
                Identity(f"{name} = {labels}", pages, target, combined, True, index, members)
            )
            del stack[-count:]
        elif row.total and target:
            found.append(Identity(f"{name}: parts not found", (row.page,), target, {}, None, index))
        stack.append(_Item(index, row.label, target, (row.page,), _unit(row)))
    return found


def _by_concept(rows: Sequence[MappedRow]) -> dict[str, TableRow]:
    return {m.concept: m.row for m in rows if m.concept is not None}


def _equal(name: str, left: TableRow, right: Sequence[TableRow]) -> Identity | None:
    a = _values(left)
    sums: dict[Period, Decimal] = {}
    for period in a:
        if all(period in _values(r) for r in right):
            sums[period] = sum((_values(r)[period] for r in right), Decimal(0))
    if not sums:
        return None
    holds = all(_close(a[p], sums[p], len(right)) for p in sums)
    pages = tuple(sorted({left.page, *(r.page for r in right)}))
    return Identity(name, pages, {p: a[p] for p in sums}, sums, holds)


def check_accounting(balance: Sequence[MappedRow], cashflow: Sequence[MappedRow]) -> list[Identity]:
    """The SPEC identities the mapped rows allow (none when an input is missing)."""
    found: list[Identity] = []
    b = _by_concept(balance)
    if "total_assets" in b and "total_equity_and_liabilities" in b:
        identity = _equal(
            "total assets = total equity and liabilities",
            b["total_assets"],
            [b["total_equity_and_liabilities"]],
        )
        found += [identity] if identity else []
    c = _by_concept(cashflow)
    flows = ("operating_cash_flow", "investing_cash_flow", "financing_cash_flow")
    if "net_change_in_cash" in c and all(f in c for f in flows):
        change = c["net_change_in_cash"]
        between = [m.row for m in cashflow]
        start = max(between.index(c[f]) for f in flows)
        reconciling = between[start + 1 : between.index(change)]
        if between.index(change) > start and not reconciling:
            identity = _equal(
                "operating + investing + financing cash flows = net change in cash",
                change,
                [c[f] for f in flows],
            )
            found += [identity] if identity else []
    return found


_GENERIC_TOTAL = re.compile(r"(?:total|sous total|subtotal)(?: général| general)?")


def _generic(label: str) -> bool:
    """A total named by no more than its place: empty, ``TOTAL (I)``, ``Total général``."""
    return not label or bool(
        _GENERIC_TOTAL.fullmatch(normalize_label(_PARENTHETICAL.sub(" ", label)))
    )


def derive_totals(
    mapped: Sequence[MappedRow],
    identities: Sequence[Identity],
    derived: Sequence[tuple[str, frozenset[str]]],
    exclude: dict[str, frozenset[str]] | None = None,
) -> list[MappedRow]:
    """Concepts for totals printed without a label or with a generic one (``TOTAL (II)``),
    from what they add up: a declared derived rule (``current_assets`` when the parts
    include ``inventories`` ...) names such a subtotal whose parts carry one of its
    concepts and none of its ``exclude`` ones, unless another row already has that
    concept."""
    taken = {m.concept for m in mapped if m.concept is not None}
    rows = list(mapped)
    for identity in identities:
        if (
            identity.holds is not True
            or identity.row < 0
            or rows[identity.row].concept is not None
            or not _generic(rows[identity.row].row.label)
        ):
            continue
        parts = {rows[i].concept for i in identity.parts} | {
            rows[i].rule_concept for i in identity.parts
        }
        for concept, cues in derived:
            banned = (exclude or {}).get(concept, frozenset())
            if concept not in taken and parts & cues and not parts & banned:
                rows[identity.row] = MappedRow(rows[identity.row].row, concept, concept)
                taken.add(concept)
                break
    return rows


def checked_table(
    table: StatementTable, user_rules: tuple[LabelRule, ...] = ()
) -> tuple[list[MappedRow], list[Identity]]:
    """A table's rows with their concepts (derived ones included) and its subtotals."""
    identities = check_structure(table.rows, table.statement is Statement.INCOME)
    derived = [(c, parts) for c, kind, parts in DERIVED if kind is table.statement]
    mapped = derive_totals(map_concepts(table, user_rules), identities, derived, DERIVED_EXCLUDE)
    return mapped, identities
