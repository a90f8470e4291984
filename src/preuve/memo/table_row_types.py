"""The cells and rows a statement table is made of, and how a row's label and a table's
columns carry over from one line to the next (see :mod:`preuve.memo.table_rows`)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from preuve.memo.entities import GROUP
from preuve.memo.periods import Period
from preuve.memo.table_headings import CONNECTORS

__all__ = ["Cell", "TableRow", "continues", "same_columns"]


@dataclass(frozen=True, slots=True)
class Cell:
    """One value of a row: its period, signed value, text as printed and span in the page."""

    period: Period
    value: Decimal
    raw: str
    page: int
    start: int
    end: int
    # The entity whose column it is (:mod:`preuve.memo.entities`): the group's (""), the
    # parent company's, or unattributed ("?"); a table keeps only the group's in its rows.
    entity: str = GROUP


@dataclass(frozen=True, slots=True)
class TableRow:
    label: str
    cells: tuple[Cell, ...]
    page: int
    total: bool
    # "current" / "non_current": the balance-sheet section the row is printed under
    # ("Current liabilities" above "Borrowings"), which qualifies a label printed in both.
    section: str = ""

    def value(self, period: Period) -> Decimal | None:
        return next((c.value for c in self.cells if c.period == period), None)


def continues(pending: str, label: str) -> bool:
    """Whether ``label`` continues the text line before it (a label wrapped over lines):
    it is empty, starts in lower case or with a parenthesis, or the line before ends on a
    connector word or a comma."""
    words = pending.split()
    last = words[-1].casefold() if words else ""
    letters = [c for c in label if c.isalpha() or c == "("]
    return (
        not label
        or (bool(letters) and (letters[0].islower() or letters[0] == "("))
        or last in CONNECTORS
        or pending.endswith((",", ";", "/", "-", "–"))
    )


def same_columns(before: tuple[Period, ...], after: tuple[Period, ...]) -> tuple[Period, ...]:
    """A column line printed again without its dates (``2024 2025`` above the liabilities)
    names the columns read before it."""
    if len(before) == len(after) and all(
        a.year == b.year and a.months == b.months and not a.month
        for a, b in zip(after, before, strict=True)
    ):
        return before
    return after
