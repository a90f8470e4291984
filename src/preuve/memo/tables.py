"""Every row of a report's primary statements, read from the table itself.

Unlike :mod:`preuve.memo.statements` (which keeps the rows whose label the lexicon knows),
this reader keeps *every* row of a statement: its label as printed (a label wrapped over
two lines is joined; a total printed without a label has an empty label), one value per
period column, the page and the exact span of each value in the page text.

Detection tolerates what PDF text does:

- a heading split one word per line, or with a space inside a word (``Statement of
  Incom e``, ``Bilan conso lidé``) is recognised on its letters alone;
- the heading block (the lines up to the first row) is read as a whole: the unit may be
  anywhere in it; the columns' periods come from :mod:`preuve.memo.periods`;
- a column line printed again further down (above the liabilities) restarts the columns;
- a statement continued on the next page (``(suite)``, ``(continued)``, or the same
  heading again) is one table across the two pages;
- a note-reference column between label and values (``Notes``) is kept out of the label;
- an amount whose dot the amount alone does not tell (``58.000``) is read as the table's
  other amounts use the dot (:mod:`preuve.core.dot_groups`), or left out.

Headings are found by :mod:`preuve.memo.table_headings`, a page's rows read by
:mod:`preuve.memo.table_rows`; this module puts the tables of a report together.

A statement can appear more than once (key figures, selected data, notes): the table with
the most rows is the primary one, earlier pages on a tie; one headed for the parent company
alone (``Company balance sheet``) is not, beside one headed for the group. A parent
company's columns printed beside the group's are kept apart (``company_rows``), columns no
cue attributes to an entity are flagged (``unattributed_rows``): see
:mod:`preuve.memo.entities`.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from preuve.core.dot_groups import dot_reading, one_dot_group, read_with_dots
from preuve.core.numbers import Locale, detect_locale
from preuve.core.space_groups import amounts_locale
from preuve.memo.entities import COMPANY, GROUP, UNATTRIBUTED, heading_entities
from preuve.memo.lexicon import Statement, unit_of
from preuve.memo.periods import Period, years_of_line
from preuve.memo.table_headings import opening
from preuve.memo.table_rows import Cell, RowReader, TableRow

__all__ = ["Cell", "StatementTable", "TableRow", "read_tables"]

_ANY_YEAR = re.compile(r"(?:19|20)\d\d")
_PROSE_LINE_WORDS = 12


@dataclass(slots=True)
class StatementTable:
    """A statement's table: its kind, pages, unit, column periods and rows."""

    statement: Statement
    pages: list[int]
    unit: str
    scale: int
    periods: tuple[Period, ...]
    rows: list[TableRow] = field(default_factory=list)
    heading: str = ""
    continued: bool = False
    supplement: bool = False  # a note table completing a statement (see table_headings)
    # The parent company's own columns, printed beside the group's: shown, never used.
    company_rows: list[TableRow] = field(default_factory=list)
    # Values of columns no cue attributes to an entity (two years printed twice): doubtful,
    # shown and not used (see preuve.memo.entities).
    unattributed_rows: list[TableRow] = field(default_factory=list)

    @property
    def printed_rows(self) -> int:
        """How many rows the table prints, whichever entity's columns are read."""
        return max(len(self.rows), len(self.company_rows), len(self.unattributed_rows))


def _by_entity(rows: list[TableRow], entity: str) -> list[TableRow]:
    """The rows with their values in ``entity``'s columns only."""
    kept: list[TableRow] = []
    for row in rows:
        cells = tuple(c for c in row.cells if c.entity == entity)
        if cells:
            kept.append(
                row if len(cells) == len(row.cells) else dataclasses.replace(row, cells=cells)
            )
    return kept


def _set_rows(table: StatementTable, rows: list[TableRow]) -> None:
    """The table's rows: the group's columns; the company's and unattributed ones apart."""
    table.rows = _by_entity(rows, GROUP)
    table.company_rows += _by_entity(rows, COMPANY)
    table.unattributed_rows += _by_entity(rows, UNATTRIBUTED)


def _sections(
    page: int,
    text: str,
    locale: Locale,
    lefts: Callable[[], Sequence[float]] | None = None,
    fiscal_year: Callable[[], int | None] | None = None,
) -> list[StatementTable]:
    lines = text.split("\n")
    offsets: list[int] = []
    position = 0
    for line in lines:
        offsets.append(position)
        position += len(line) + 1
    tables: list[StatementTable] = []
    reader: RowReader | None = None
    table: StatementTable | None = None
    index = 0
    while index < len(lines):
        heading, supplement = opening(lines, index)
        if (
            heading is None
            and reader is not None
            and table is not None
            and table.supplement
            and reader.rows
            and sum(any(c.isalpha() for c in w) for w in lines[index].split()) >= _PROSE_LINE_WORDS
        ):
            heading = (1, None)  # prose after a note table ends it
        if (
            heading is not None
            and reader is not None
            and table is not None
            and heading[1] is table.statement
            and reader.periods
            and not any(years_of_line(ln) for ln in lines[index + 1 : index + 5])
        ):
            heading = None  # a section title naming the statement ("Flux de trésorerie liés à")
        if heading is not None:
            taken, kind = heading
            if reader is not None and table is not None:
                reader.flush_tail()
                _set_rows(table, reader.rows)
            reader, table = None, None
            if kind is not None:
                head = " ".join(lines[index : index + taken])
                table = StatementTable(kind, [page], "", 1, (), heading=head)
                table.supplement = supplement
                table.continued = bool(re.search(r"(?i)suite|continued|\(cont", head))
                reader = RowReader(page, locale, lefts=lefts, fiscal_year=fiscal_year, title=head)
                tables.append(table)
            index += taken
            continue
        if reader is not None and table is not None:
            before = len(reader.rows)
            reader.line(lines[index], offsets[index], table.statement is Statement.BALANCE)
            if before == 0 and not reader.rows:
                unit = unit_of(lines[index])
                if unit and not table.unit:
                    table.unit, table.scale = unit
        index += 1
    if reader is not None and table is not None:
        reader.flush_tail()
        _set_rows(table, reader.rows)
    for done in tables:
        # The columns, in printed order, as the rows hold them (a header stacked over
        # several lines, or printed again above the liabilities, gives them all).
        done.periods = tuple(dict.fromkeys(c.period for r in done.rows for c in r.cells))
    return [t for t in tables if t.printed_rows]


def _shared_labels(first: StatementTable, second: StatementTable) -> set[str]:
    return {r.label for r in first.rows} & {r.label for r in second.rows} - {""}


# A statement's two halves may share a label or two ("Comptes de régularisation" among the
# assets and among the liabilities); a summary and the full statement share most of them.
_SHARED_PART = 4


def _other_rows(first: StatementTable, second: StatementTable) -> bool:
    """Whether ``second`` prints other rows than ``first``: they share no label, or few
    (at most one in ``_SHARED_PART`` of the smaller table's labels)."""
    shared = _shared_labels(first, second)
    smaller = min(len({r.label for r in t.rows} - {""}) for t in (first, second))
    return len(shared) * _SHARED_PART <= smaller


def _merge(tables: list[StatementTable]) -> list[StatementTable]:
    """A statement continued on the next page becomes one table: the next page's heading
    says so (``(suite)``, ``(continued)``), or it repeats the heading over other rows (a
    summary followed by the full statement shares its labels, and stays apart)."""
    merged: list[StatementTable] = []
    for table in tables:
        last = merged[-1] if merged else None
        if (
            last is not None
            and last.statement is table.statement
            and table.pages[0] == last.pages[-1] + 1
            and len(table.periods) == len(last.periods)
            and table.supplement == last.supplement
            and (table.continued or _other_rows(last, table))
        ):
            last.pages.append(table.pages[0])
            last.rows.extend(table.rows)
            last.company_rows.extend(table.company_rows)
            last.unattributed_rows.extend(table.unattributed_rows)
            continue
        merged.append(table)
    return merged


def fiscal_year(pages: Sequence[str]) -> int | None:
    """The report's fiscal year: the latest year its column lines name most often (a
    balance sheet's ``31/12/2024 31/12/2025``, an income statement's ``2025 2024``)."""
    latest: collections.Counter[int] = collections.Counter()
    for text in pages:
        for line in text.split("\n"):
            if _ANY_YEAR.search(line) and (years := years_of_line(line)) and len(years) >= 2:
                latest[max(y for y, _, _ in years)] += 1
    return max(latest, key=lambda y: (latest[y], y)) if latest else None


def _with_dots_read(tables: list[StatementTable]) -> list[StatementTable]:
    """Tables whose one-dot-group amounts (``58.000``) are read as the table's other
    amounts use the dot (:mod:`preuve.core.dot_groups`), else as the document's tables
    do; a value neither tells is doubtful and left out (missed, never misread)."""
    raws = {id(t): [c.raw for r in t.rows for c in r.cells] for t in tables}
    if not any(one_dot_group(raw) for values in raws.values() for raw in values):
        return tables
    document = dot_reading(raw for values in raws.values() for raw in values)
    for table in tables:
        reading = dot_reading(raws[id(table)]) or document
        rows: list[TableRow] = []
        for row in table.rows:
            cells = []
            for cell in row.cells:
                value = read_with_dots(cell.raw, cell.value, reading)
                if value is not None:
                    cells.append(dataclasses.replace(cell, value=value))
            if cells:
                rows.append(dataclasses.replace(row, cells=tuple(cells)))
        table.rows = rows
    return [t for t in tables if t.printed_rows]


def read_tables(
    pages: Sequence[str], positions: Callable[[int], Sequence[float]] | None = None
) -> list[StatementTable]:
    """The primary table of each statement found in ``pages`` (page 1 first);
    ``positions``: the x of each character of page N's text (:func:`preuve.io.pdf.
    char_lefts`), read only for the pages a statement is on, to place blank cells."""
    whole = "\n".join(pages)
    locale = amounts_locale(whole, detect_locale(whole))  # how its amounts are written
    # The document's unit, read once and only for a table whose page states none.
    document_unit = functools.cache(lambda: unit_of(whole) or ("", 1))
    found: list[StatementTable] = []
    # Read only when a statement names its columns N, N-1 (French statements).
    fiscal = functools.cache(functools.partial(fiscal_year, pages))
    for number, text in enumerate(pages, start=1):
        lefts = None if positions is None else functools.cache(functools.partial(positions, number))
        for table in _sections(number, text, locale, lefts, fiscal):
            if not table.unit:
                table.unit, table.scale = unit_of(text[:2000]) or document_unit()
            found.append(table)
    merged = _merge(_with_dots_read(found))
    primary: list[StatementTable] = []
    for statement in Statement:
        candidates = [t for t in merged if t.statement is statement and not t.supplement]
        # The parent company's own statement (``Company balance sheet``) is never the
        # primary one beside one headed for the group, however many rows it prints.
        named = [heading_entities(t.heading) for t in candidates]
        if any(kinds == {GROUP} for kinds in named):
            candidates = [
                t for t, kinds in zip(candidates, named, strict=True) if kinds != {COMPANY}
            ]
        if candidates:
            primary.append(max(candidates, key=lambda t: (t.printed_rows, -t.pages[0])))
    # Note tables completing a statement the report has, after the primary tables.
    kinds = {t.statement for t in primary}
    supplements = [t for t in merged if t.supplement and t.statement in kinds]
    return sorted(primary, key=lambda t: t.pages[0]) + supplements
