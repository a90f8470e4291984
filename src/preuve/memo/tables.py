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
- a note-reference column between label and values (``Notes``) is kept out of the label.

A statement can appear more than once (key figures, selected data, notes): the table with
the most rows is the primary one, earlier pages on a tie.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from preuve.core.numbers import Locale, detect_locale
from preuve.memo.lexicon import (
    _HEADINGS,
    _MAX_PREFIX_WORDS,
    _PROSE_WORDS,
    Statement,
    heading_kind,
    unit_of,
)
from preuve.memo.periods import Period, read_periods, years_of_line
from preuve.memo.statements import _Cut, _cut_rows, _glued_header, _regroup, _Token, _tokenize
from preuve.memo.table_columns import ColumnAnchors, place_run, value_pattern

__all__ = ["Cell", "StatementTable", "TableRow", "read_tables"]

_CONNECTORS = frozenset(
    {"de", "des", "du", "et", "à", "aux", "of", "and", "for", "the", "to", "in", "on", "/"}
)
_TOTAL = re.compile(r"^(?:total|sous[- ]total|subtotal)\b", re.I)
_FOOTNOTE = re.compile(r"(?:\s*\((?:\d|[a-z])\))+$")
_BARE_YEAR = re.compile(r"^(?:19[5-9]\d|20\d\d)$")
_NOTE_REF = re.compile(r"^\d{1,2}(?:\.\d{1,2})?[a-z]?$")
_SPLIT_HEADING_LINES = 4
# Tables that complete a statement with figures it does not print: the French "soldes
# intermédiaires de gestion" (EBE), an IFRS report's alternative performance measures
# (EBITDA) complete the income statement; the off-balance-sheet commitments note (French
# GAAP leasing: its principal outstanding, "capital restant dû") completes the balance
# sheet. Their rows give only the concepts the primary tables do not.
_SUPPLEMENT = re.compile(
    r"(?i)\b(?:soldes intermédiaires de gestion|indicateurs alternatifs de performance"
    r"|alternative performance measures)\b"
)
_COMMITMENTS = re.compile(
    r"(?i)\b(?:engagements hors[- ]bilan|off[- ]balance[- ]sheet (?:commitments|arrangements"
    r"|obligations|leases))\b"
)
_PROSE_LINE_WORDS = 12
# A balance-sheet section title: the rows under it are current or non-current ones.
_SECTION = re.compile(
    r"(?i)^(?:(non[- ]?current|long[- ]term)|(current|short[- ]term)) (?:assets|liabilities)\b"
    r"|^(?:passifs?|actifs?|dettes) (?:(non[- ]courant(?:e)?s?)|(courant(?:e)?s?))\b"
)
_SECTION_END = re.compile(r"(?i)^(?:total|sous[- ]total)\b")
_GROSS = re.compile(r"(?i)(?:^|\s)(?:brut|brute|gross)(?:\s|$)")
_NET = re.compile(r"(?i)(?:^|\s)nets?(?:\s|$)")
_DEPRECIATION = re.compile(r"(?i)\b(?:amort|dépréc|deprec|accumulated|provisions?\b)")
_CHANGE = re.compile(
    r"(?i)(?:\d|\s)(?:var\.?|variation|évol\.?|évolution|change|%|% change|chg\.?)\s*$"
)
_NOT_MEANINGFUL = re.compile(r"n\.\s?s\.?|n\.\s?m\.?|ns|nm|n/s|n/m")
_PERCENT = re.compile(r"\(?[-−–+]?\d+(?:[.,]\d+)?\s?%\)?")
_COMPACT = tuple(
    (kind, re.compile(p.pattern.replace(r"\s+", "").replace(r"\b", ""))) for kind, p in _HEADINGS
)


@dataclass(frozen=True, slots=True)
class Cell:
    """One value of a row: its period, signed value, text as printed and span in the page."""

    period: Period
    value: Decimal
    raw: str
    page: int
    start: int
    end: int


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
    supplement: bool = False  # a note table completing a statement (see _SUPPLEMENT)


# --- Headings -----------------------------------------------------------------------


def _compact(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    return re.sub(r"\s+", "", text)


def _compact_kind(text: str) -> tuple[bool, Statement | None]:
    """A heading recognised on its letters alone (spaces inside words, words on lines)."""
    words = text.split()
    if not words or len(words) > 14 or text.rstrip().endswith((".", ";", ",")):
        return False, None
    compact = _compact(text)
    best: tuple[int, Statement | None] | None = None
    for kind, pattern in _COMPACT:
        match = pattern.search(compact)
        if match is None or (best is not None and match.start() >= best[0]):
            continue
        # The name starts the heading or follows a short prefix (a company's name), never
        # a phrase of prose ("analysis of the consolidated statements of income").
        prefix: list[str] = []
        length = 0
        for word in words:
            length += len(_compact(word))
            if length > match.start():
                break
            prefix.append(word.casefold())
        if len(prefix) <= _MAX_PREFIX_WORDS and not set(prefix) & _PROSE_WORDS:
            best = (match.start(), kind)
    return (False, None) if best is None else (True, best[1])


def _heading(lines: list[str], index: int) -> tuple[int, Statement | None] | None:
    """(lines the heading takes, statement) when a heading starts at ``index``."""
    line = lines[index]
    if any(ch.isdigit() for ch in line) and years_of_line(line) is None:
        found, kind = heading_kind(line)
        return (1, kind) if found else None
    found, kind = heading_kind(line)
    if not found:
        found, kind = _compact_kind(line)
    if found:
        return 1, kind
    # One word a line: join a few short lines without digits.
    joined = [line]
    for extra in range(1, _SPLIT_HEADING_LINES):
        if index + extra >= len(lines):
            break
        nxt = lines[index + extra]
        if len(nxt.split()) > 3 or any(ch.isdigit() for ch in nxt) or not nxt.strip():
            break
        joined.append(nxt)
        if len(line.split()) <= 3:
            found, kind = _compact_kind(" ".join(joined))
            if found:
                return extra + 1, kind
    return None


def _supplement_heading(line: str) -> Statement | None:
    """The statement a note table's heading completes, or None."""
    text = line.strip()
    if len(text.split()) > _MAX_PREFIX_WORDS + 6 or text.endswith((".", ";", ",")):
        return None
    if _SUPPLEMENT.search(text) is not None:
        return Statement.INCOME
    return Statement.BALANCE if _COMMITMENTS.search(text) is not None else None


def _continues(pending: str, label: str) -> bool:
    """Whether ``label`` continues the text line before it (a label wrapped over lines):
    it is empty, starts in lower case or with a parenthesis, or the line before ends on a
    connector word or a comma."""
    words = pending.split()
    last = words[-1].casefold() if words else ""
    letters = [c for c in label if c.isalpha() or c == "("]
    return (
        not label
        or (bool(letters) and (letters[0].islower() or letters[0] == "("))
        or last in _CONNECTORS
        or pending.endswith((",", ";", "/", "-", "–"))
    )


# --- Rows ---------------------------------------------------------------------------


def _same_columns(before: tuple[Period, ...], after: tuple[Period, ...]) -> tuple[Period, ...]:
    """A column line printed again without its dates (``2024 2025`` above the liabilities)
    names the columns read before it."""
    if len(before) == len(after) and all(
        a.year == b.year and a.months == b.months and not a.month
        for a, b in zip(after, before, strict=True)
    ):
        return before
    return after


def _has_notes_column(block: list[str]) -> bool:
    return any(re.search(r"(?i)(?:^|\s)notes?(?:\s|$)", line) for line in block[-3:])


def _extra_columns(block: list[str]) -> int:
    """Value columns printed before the periods' ones: a gross and a depreciation column
    (``Brut | Amort. et dépréc. | Net 2025 | Net 2024``, ``Gross | Accumulated
    depreciation | Net``); the periods' values are the net ones, the last of each row."""
    text = " ".join(block[-3:])
    if not (_GROSS.search(text) and _NET.search(text)):
        return 0
    return 2 if _DEPRECIATION.search(text) else 1


def _ratio_column(line: str) -> bool:
    """Whether a column line ends with a change column (``2025 2024 Var.``, ``% change``)."""
    return _CHANGE.search(line) is not None


def _without_ratio_cell(tokens: list[_Token]) -> list[_Token]:
    """A row's tokens without the trailing change cell (``-7,9 %``, ``12%``, ``n.s.``)."""
    if tokens and _NOT_MEANINGFUL.fullmatch(tokens[-1].raw.casefold()):
        return tokens[:-1]
    if len(tokens) >= 2 and tokens[-1].raw == "%" and tokens[-2].value is not None:
        return tokens[:-2]
    if tokens and tokens[-1].value is None and _PERCENT.fullmatch(tokens[-1].raw):
        return tokens[:-1]
    return tokens


@dataclass(slots=True)
class _Reader:
    """State while reading one page of one statement."""

    page: int
    locale: Locale
    periods: tuple[Period, ...] = ()
    notes_column: bool = False
    extra_columns: int = 0  # gross and depreciation columns before the periods' ones
    ratio_column: bool = False  # a change column (Var. %) after them
    pending: str = ""
    last_row: bool = False  # the line before was a row (its label may wrap below it)
    tail: bool = False  # ``pending`` may end the label of the row above
    block: list[str] = field(default_factory=list)
    column_lines: list[str] = field(default_factory=list)
    rows: list[TableRow] = field(default_factory=list)
    lefts: Callable[[], Sequence[float]] | None = None  # the page's x-positions, when known
    anchors: ColumnAnchors | None = None
    section: str = ""  # the balance-sheet section the next rows are under

    def _column_line(self) -> str:
        """The columns of the heading block: years stacked one a line ("July 2," / "2023"
        / "July 3," / "2022") add up; a year line repeating the previous one counts once."""
        lines = [years_of_line(line) or [] for line in self.column_lines]
        if len(lines) >= 2 and lines[-1] == lines[-2]:
            return self.column_lines[-1]
        if len(lines) >= 2 and len(lines[-1]) >= 2:
            return self.column_lines[-1]
        return " ".join(self.column_lines)

    def cells(
        self, line: str, offset: int, raws: Sequence[str], values: Sequence[Decimal]
    ) -> list[Cell]:
        cells: list[Cell] = []
        position = 0
        for period, raw, value in zip(self.periods, raws, values, strict=False):
            match = value_pattern(raw).search(line, position)
            start, end = (match.start(), match.end()) if match else (position, position)
            position = end
            cells.append(Cell(period, value, raw, self.page, offset + start, offset + end))
        return cells

    def flush_tail(self) -> None:
        """A lower-case text line after a row that the next line does not continue ends
        that row's label (a label wrapped with its values on its first line)."""
        if self.tail and self.pending and self.rows:
            last = self.rows[-1]
            self.rows[-1] = dataclasses.replace(last, label=f"{last.label} {self.pending}")
            self.pending = ""
        self.tail = False

    def label(self, label: str) -> str:
        if self.tail and not (self.pending and _continues(self.pending, label.strip())):
            self.flush_tail()
        self.tail = False
        words = label.split()
        if self.notes_column:
            while words and _NOTE_REF.match(words[-1]):
                words.pop()
            if len(words) > 1 and _NOTE_REF.match(words[0]) and words[1][:1].isalpha():
                words.pop(0)  # a notes column printed before the label
        label = _FOOTNOTE.sub("", " ".join(words))
        if self.pending and _continues(self.pending, label):
            label = f"{self.pending} {label}".strip()
        self.pending = ""
        return label

    def text_line(self, line: str) -> None:
        """A line without values: a section title, the first part of a wrapped label, or
        the end of the label of the row just above when it starts in lower case (a label
        wrapped with its values on its first line)."""
        text = line.strip()
        titled = _SECTION.match(text.rstrip(":"))
        if titled and len(text.split()) <= 4:
            self.section = "non_current" if titled.group(1) or titled.group(3) else "current"
        letters = [c for c in text if c.isalpha()]
        if self.last_row and letters and text[0].isalpha() and letters[0].islower():
            # The end of the row above, or the start of the next row's label: the next
            # line tells (see flush_tail).
            self.pending, self.tail, self.last_row = text, True, False
            return
        self.last_row = False
        if self.tail and not (text and _continues(self.pending, text)):
            self.flush_tail()
        if self.pending and text and _continues(self.pending, text):
            self.pending = f"{self.pending} {text}"
        else:
            self.pending = text

    def add_row(self, label: str, cells: list[Cell]) -> None:
        total = not label or bool(_TOTAL.match(label))
        self.rows.append(TableRow(label, tuple(cells), self.page, total, self.section))
        if _SECTION_END.match(label):
            self.section = ""  # "Total current liabilities" closes its section

    def line(self, line: str, offset: int, balance: bool) -> None:
        tokens = _tokenize(line, self.locale)
        columns = years_of_line(line)
        if columns is not None and not any(
            t.value is not None and t.year is None and not t.is_day for t in tokens
        ):
            self.block.append(line)
            self.column_lines.append(line)
            self.periods = _same_columns(
                self.periods, read_periods(self.block, self._column_line(), balance)
            )
            self.notes_column = _has_notes_column(self.block)
            self.extra_columns = _extra_columns(self.block)
            self.ratio_column = _ratio_column(line)
            self.flush_tail()
            self.pending = ""
            self.last_row = False
            self.anchors = ColumnAnchors(line, offset, len(self.periods))
            return
        if all(t.value is None or t.year is not None or t.is_day for t in tokens):
            self.block.append(line)
            self.text_line(line)
            return
        glued, rest = _glued_header(tokens)
        if glued and not self.periods:
            self.periods = read_periods([*self.block, line], " ".join(map(str, glued)), balance)
            tokens = rest
        self.block, self.column_lines = [], []
        if not self.periods:
            return
        if self.ratio_column:
            tokens = _without_ratio_cell(tokens)
        periods = len(self.periods)
        width = periods + self.extra_columns
        cuts = _cut_rows(tokens, width, self.locale, periods)
        if not cuts and all(t.value is not None for t in tokens):
            # Values alone: a total printed without a label, or the values of the label
            # on the line before ("Net cash from operating activities" / "(80) 410").
            run = _regroup(tokens, width, self.locale, periods)
            if len(run) >= width:
                cuts = [_Cut("", tuple(run[-width:]))]
        # The periods' values are the last of each row (gross and depreciation before).
        cuts = [_Cut(cut.label, cut.values[-periods:]) for cut in cuts]
        position = 0
        for number, cut in enumerate(cuts):
            label = self.label(cut.label) if number == 0 else cut.label
            if any(_BARE_YEAR.match(t.raw) for t in cut.values):
                continue  # "Company — Annual report 2025 — 4": a page footer, not a row
            values = [t.value for t in cut.values if t.value is not None]
            raws = [t.raw for t in cut.values]
            cells = self.cells(line[position:], offset + position, raws, values)
            if cells:
                position = cells[-1].end - offset
            self.add_row(label, cells)
            if self.anchors is not None:
                self.anchors.observe([(c.start, c.end) for c in cells])
        if not cuts and not self.blank_cells(line, offset, tokens):
            self.text_line(line)  # numbers inside a wrapped label ("10,000,000 shares")
        else:
            self.last_row = True

    def blank_cells(self, line: str, offset: int, tokens: list[_Token]) -> bool:
        """A row with fewer values than columns, placed by the values' x-positions (see
        :mod:`preuve.memo.table_columns`); False when it cannot be placed surely."""
        if self.anchors is None or self.lefts is None:
            return False
        first = len(tokens)
        while first > 0 and tokens[first - 1].value is not None:
            first -= 1
        run = tokens[first:]
        if first == 0 or not run or any(_BARE_YEAR.match(t.raw) for t in run):
            return False
        placed = place_run(line, offset, [t.raw for t in run], self.lefts(), self.anchors)
        if placed is None:
            return False
        cells = tuple(
            Cell(self.periods[column], token.value, token.raw, self.page, start, end)
            for (column, start, end), token in zip(placed, run, strict=True)
            if token.value is not None
        )
        label = self.label(" ".join(t.raw for t in tokens[:first]))
        self.rows.append(TableRow(label, cells, self.page, bool(_TOTAL.match(label)), self.section))
        return True


def _sections(
    page: int, text: str, locale: Locale, lefts: Callable[[], Sequence[float]] | None = None
) -> list[StatementTable]:
    lines = text.split("\n")
    offsets: list[int] = []
    position = 0
    for line in lines:
        offsets.append(position)
        position += len(line) + 1
    tables: list[StatementTable] = []
    reader: _Reader | None = None
    table: StatementTable | None = None
    index = 0
    while index < len(lines):
        # A note table's heading first: "Engagements hors bilan" names no balance sheet.
        completed = _supplement_heading(lines[index])
        heading = _heading(lines, index) if completed is None else None
        if completed is not None:
            heading = (1, completed)
            supplement = True
        else:
            supplement = False
        if (
            heading is None
            and reader is not None
            and table is not None
            and table.supplement
            and reader.rows
            and len(lines[index].split()) >= _PROSE_LINE_WORDS
        ):
            heading = (1, None)  # prose after a note table ends it
        if heading is not None:
            taken, kind = heading
            if reader is not None and table is not None:
                reader.flush_tail()
                table.rows = reader.rows
            reader, table = None, None
            if kind is not None:
                head = " ".join(lines[index : index + taken])
                table = StatementTable(kind, [page], "", 1, (), heading=head)
                table.supplement = supplement
                table.continued = bool(re.search(r"(?i)suite|continued|\(cont", head))
                reader = _Reader(page, locale, lefts=lefts)
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
        table.rows = reader.rows
    for done in tables:
        # The columns, in printed order, as the rows hold them (a header stacked over
        # several lines, or printed again above the liabilities, gives them all).
        done.periods = tuple(dict.fromkeys(c.period for r in done.rows for c in r.cells))
    return [t for t in tables if t.rows]


def _shared_labels(first: StatementTable, second: StatementTable) -> set[str]:
    return {r.label for r in first.rows} & {r.label for r in second.rows} - {""}


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
            and (table.continued or not _shared_labels(last, table))
        ):
            last.pages.append(table.pages[0])
            last.rows.extend(table.rows)
            continue
        merged.append(table)
    return merged


def read_tables(
    pages: Sequence[str], positions: Callable[[int], Sequence[float]] | None = None
) -> list[StatementTable]:
    """The primary table of each statement found in ``pages`` (page 1 first);
    ``positions``: the x of each character of page N's text (:func:`preuve.io.pdf.
    char_lefts`), read only for the pages a statement is on, to place blank cells."""
    whole = "\n".join(pages)
    locale = detect_locale(whole)
    document_unit = unit_of(whole) or ("", 1)
    found: list[StatementTable] = []
    for number, text in enumerate(pages, start=1):
        lefts = None if positions is None else functools.cache(functools.partial(positions, number))
        for table in _sections(number, text, locale, lefts):
            if not table.unit:
                table.unit, table.scale = unit_of(text[:2000]) or document_unit
            found.append(table)
    merged = _merge(found)
    primary: list[StatementTable] = []
    for statement in Statement:
        candidates = [t for t in merged if t.statement is statement and not t.supplement]
        if candidates:
            primary.append(max(candidates, key=lambda t: (len(t.rows), -t.pages[0])))
    # Note tables completing a statement the report has, after the primary tables.
    kinds = {t.statement for t in primary}
    supplements = [t for t in merged if t.supplement and t.statement in kinds]
    return sorted(primary, key=lambda t: t.pages[0]) + supplements
