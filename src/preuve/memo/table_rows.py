"""The rows of one statement's table on one page, read line by line.

A label wrapped over two lines is joined (its values on the first line or on the last); a
total printed without a label has an empty label; a column line printed again further down
restarts the columns; a notes or codes column between label and values, gross and
depreciation columns before the periods' ones, change and share columns around them are
kept out of the values; on a PDF page, the characters' x-positions place a row's blank
cells (:mod:`preuve.memo.table_columns`).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from preuve.core.numbers import Locale
from preuve.memo.entities import (
    COMPANY,
    GROUP,
    UNATTRIBUTED,
    column_entities,
    entity_labels,
)
from preuve.memo.periods import (
    Period,
    names_relative_columns,
    read_periods,
    relative_columns,
    years_of_line,
)
from preuve.memo.statements import (
    _Cut,
    _cut_rows,
    _glued_header,
    _regroup,
    _Token,
    _tokenize,
)
from preuve.memo.table_cells import (
    codes_as_text,
    extra_columns,
    has_codes_column,
    has_notes_column,
    joined,
    notes_on_the_right,
    percent_heading,
    ratio_column,
    run_spans,
    tab_captions,
    tab_cells,
    without_codes,
    without_percent_cells,
    without_ratio_cell,
)
from preuve.memo.table_columns import (
    ColumnAnchors,
    aligned,
    entities_placed,
    place_run,
    spans_xs,
    value_pattern,
    widen_column_gaps,
)
from preuve.memo.table_row_types import Cell, TableRow, continues, same_columns

__all__ = ["Cell", "RowReader", "TableRow"]

_TOTAL = re.compile(r"^(?:total|sous[- ]total|subtotal)\b", re.I)
_FOOTNOTE = re.compile(r"(?:\s*\((?:\d|[a-z])\))+$")
_BARE_YEAR = re.compile(r"^(?:19[5-9]\d|20\d\d)$")
# A note reference, or a range of notes ("10-12": the notes on the assets a D&A line covers).
_NOTE_REF = re.compile(r"^\d{1,2}(?:\.\d{1,2})?[a-z]?(?:[-–]\d{1,2}(?:\.\d{1,2})?[a-z]?)?$")
# A balance-sheet section title: the rows under it are current or non-current ones.
_SECTION = re.compile(
    r"(?i)^(?:(non[- ]?current|long[- ]term)|(current|short[- ]term)) (?:assets|liabilities)\b"
    r"|^(?:passifs?|actifs?|dettes) (?:(non[- ]courant(?:e)?s?)|(courant(?:e)?s?))\b"
)
_SECTION_END = re.compile(r"(?i)^(?:total|sous[- ]total)\b")


_FIGURES_SPACED = re.compile(r"\d \(?[-−–]?\d")


@dataclass(slots=True)
class RowReader:
    """State while reading one page of one statement."""

    page: int
    locale: Locale
    periods: tuple[Period, ...] = ()
    notes_column: bool = False
    codes_column: bool = False  # a chart of accounts' codes before the values
    notes_right: bool = False  # the notes column after the periods' ones
    extra_columns: int = 0  # gross and depreciation columns before the periods' ones
    tab_columns: int = 0  # value columns a tab-separated heading names (periods' last)
    ratio_column: bool = False  # a change column (Var. %) after them
    percent_columns: bool = False  # share columns between them (2025 % CA 2024 % CA)
    pending: str = ""
    last_row: bool = False  # the line before was a row (its label may wrap below it)
    tail: bool = False  # ``pending`` may end the label of the row above
    block: list[str] = field(default_factory=list)
    column_lines: list[str] = field(default_factory=list)
    rows: list[TableRow] = field(default_factory=list)
    lefts: Callable[[], Sequence[float]] | None = None  # the page's x-positions, when known
    anchors: ColumnAnchors | None = None
    section: str = ""  # the balance-sheet section the next rows are under
    gapped: bool = False  # the current line shows column gaps on the page
    fiscal_year: Callable[[], int | None] | None = None  # for columns named N, N-1
    title: str = ""  # the statement's heading (it may name its entities in order)
    entities: tuple[str, ...] = ()  # each column's entity (see preuve.memo.entities)
    labels_at: tuple[str, int] | None = None  # the last entity-label line and its offset

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
        self,
        line: str,
        offset: int,
        raws: Sequence[str],
        values: Sequence[Decimal],
        skip: int = 0,
    ) -> list[Cell]:
        """The cells of a row's last values (``skip``: the values of other columns before
        them, passed over so that a value printed twice gets its own column's span)."""
        cells: list[Cell] = []
        position = 0
        for raw in raws[:skip]:
            match = value_pattern(raw).search(line, position)
            position = match.end() if match else position
        for column, (period, raw, value) in enumerate(
            zip(self.periods, raws[skip:], values[skip:], strict=False)
        ):
            match = value_pattern(raw).search(line, position)
            start, end = (match.start(), match.end()) if match else (position, position)
            position = end
            cell = Cell(period, value, raw, self.page, offset + start, offset + end)
            cells.append(self.attributed(cell, column))
        return cells

    def attributed(self, cell: Cell, column: int) -> Cell:
        """``cell`` (of the ``column``-th value column) with its column's entity."""
        if column < len(self.entities) and self.entities[column] != GROUP:
            return dataclasses.replace(cell, entity=self.entities[column])
        return cell

    def heading_line(self, line: str, offset: int) -> None:
        """A line without values: part of the heading block, a section title or a label."""
        self.block.append(line)
        if entity_labels(line):
            self.labels_at = (line, offset)
        if self.column_lines:  # a line under the years: the notes, the entities
            self.under_the_years(line)
        self.text_line(line)

    def under_the_years(self, line: str) -> None:
        """A line between the column line and the first row naming a notes column (the unit
        line, ``Notes £'000 £'000``) or the columns' entities (``Group Group Company``)."""
        self.notes_column |= has_notes_column([line])
        if entity_labels(line):
            self.entities = column_entities([line], self._column_line(), self.periods, self.title)
            self.entities_by_position()

    def entities_by_position(self) -> None:
        """Columns the labels' count leaves unattributed (``Group`` over two columns,
        ``Company`` over one), placed by the labels' x-positions on a PDF page."""
        if UNATTRIBUTED not in self.entities or self.labels_at is None or self.lefts is None:
            return
        if self.anchors is not None and (lefts := self.lefts()):
            found = entities_placed(self.labels_at, self.anchors, lefts, self.periods)
            self.entities = found or self.entities

    def read_entities(self) -> None:
        """Each column's entity, from the heading block's labels; a column line printed
        again without them (above the liabilities) keeps the columns' entities."""
        found = column_entities(self.block[:-1], self._column_line(), self.periods, self.title)
        if COMPANY not in found and COMPANY in self.entities and len(self.entities) == len(found):
            return
        self.entities = found

    def flush_tail(self) -> None:
        """A lower-case text line after a row that the next line does not continue ends
        that row's label (a label wrapped with its values on its first line)."""
        if self.tail and self.pending and self.rows:
            last = self.rows[-1]
            self.rows[-1] = dataclasses.replace(last, label=f"{last.label} {self.pending}")
            self.pending = ""
        self.tail = False

    def label(self, label: str) -> str:
        if self.tail and not (self.pending and continues(self.pending, label.strip())):
            self.flush_tail()
        self.tail = False
        words = label.split()
        if self.codes_column:
            words = without_codes(words)
        if self.notes_column:
            while words and _NOTE_REF.match(words[-1]):
                words.pop()
            if len(words) > 1 and _NOTE_REF.match(words[0]) and words[1][:1].isalpha():
                words.pop(0)  # a notes column printed before the label
        label = _FOOTNOTE.sub("", " ".join(words))
        if self.pending and continues(self.pending, label):
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
        if (
            self.last_row
            and letters
            # a word, or an aside in words ("(utilisations et reprises)"), never a
            # footnote's mark ("(1) dont ...")
            and (text[0].isalpha() or (text[0] == "(" and text[1:2].isalpha()))
            and letters[0].islower()
        ):
            # The end of the row above, or the start of the next row's label: the next
            # line tells (see flush_tail).
            self.pending, self.tail, self.last_row = text, True, False
            return
        self.last_row = False
        if self.tail and not (text and continues(self.pending, text)):
            self.flush_tail()
        if self.pending and text and continues(self.pending, text):
            self.pending = f"{self.pending} {text}"
        else:
            self.pending = text

    def add_row(self, label: str, cells: list[Cell]) -> None:
        total = not label or bool(_TOTAL.match(label))
        self.rows.append(TableRow(label, tuple(cells), self.page, total, self.section))
        if _SECTION_END.match(label):
            self.section = ""  # "Total current liabilities" closes its section

    def tokens(self, line: str, offset: int) -> list[_Token]:
        """The line's words; once the columns are known, figures a column gap apart on the
        page (x-positions) are never joined into one amount (``186 420 | 201 870``)."""
        if self.periods and self.lefts is not None and _FIGURES_SPACED.search(line):
            lefts = self.lefts()
            widened = widen_column_gaps(line, offset, lefts) if lefts else line
            self.gapped = widened != line
            if self.gapped:
                return joined(_tokenize(widened, self.locale), self.locale)
        self.gapped = False
        return _tokenize(line, self.locale)

    def misplaced(self, cells: Sequence[Cell]) -> bool:
        """Whether a row of amounts read from space-grouped figures, on a line whose page
        shows its column gaps, has a value that is not in its column (a misread grouping:
        ``1 286 | 744`` for ``1 286 744``): such a row is doubtful and left out (missed,
        never misread)."""
        if not self.gapped or self.anchors is None or self.lefts is None:
            return False  # a line drawn as one string shows no columns to check against
        if len(cells) != len(self.periods):
            return False
        if not any(re.search(r"\d[\u202f\u00a0 ]\d", c.raw) for c in cells):
            return False
        lefts = self.lefts()
        xs = spans_xs(lefts, [(c.start, c.end) for c in cells]) if lefts else None
        anchors = self.anchors.anchors(lefts) if lefts else ()
        # Columns whose place is unknown cannot tell: the row is kept as read.
        return xs is not None and len(anchors) == len(xs) and not aligned(xs, anchors)

    def without_note(self, tokens: list[_Token], width: int, periods: int) -> list[_Token]:
        """A row's tokens without the note reference that ends it, when the notes column
        is printed after the periods' ones (``186 420 201 870 4.1``) and the row still
        reads as ``width`` values without it."""
        if (
            self.notes_right
            and len(tokens) >= 3
            and tokens[-1].value is not None
            and tokens[-2].value is not None
            and _NOTE_REF.match(tokens[-1].raw)
            and _cut_rows(tokens[:-1], width, self.locale, periods)
        ):
            return tokens[:-1]
        return tokens

    def columns_line(self, line: str, offset: int, balance: bool, printed: str = "") -> None:
        """A line naming the columns: the periods and the other columns' layout
        (``printed``: the line as the page prints it, when ``line`` writes its relative
        columns as years)."""
        self.block.append(line)
        self.column_lines.append(line)
        before = len(self.periods)
        self.periods = same_columns(
            self.periods, read_periods(self.block, self._column_line(), balance)
        )
        # The columns printed again (above the liabilities) keep their notes column.
        restarted = bool(self.rows) and before == len(self.periods)
        self.notes_column = has_notes_column(self.block) or (restarted and self.notes_column)
        self.codes_column = has_codes_column(self.block)
        self.notes_right = notes_on_the_right(self.block)
        self.extra_columns = extra_columns(self.block)
        self.tab_columns = tab_captions(self.block, len(self.periods))
        self.ratio_column = ratio_column(line)
        self.percent_columns = percent_heading(line)
        self.read_entities()
        self.flush_tail()
        self.pending = ""
        self.last_row = False
        self.anchors = ColumnAnchors(printed or line, offset, len(self.periods))
        self.entities_by_position()

    def place_and_date(self, columns: list[tuple[int, int, int]]) -> bool:
        """Whether a line naming one date under rows of several columns is a signature's
        place and date ("Pune, 22 May 2025"), not the columns restarting."""
        return bool(self.rows) and len(columns) == 1 and len(self.periods) > 1

    def relative(self, line: str) -> str | None:
        """``line`` with its columns named N, N-1 (or current and prior year) written as
        the fiscal year's, or None."""
        if self.fiscal_year is None or not names_relative_columns(line):
            return None
        # The heading block's own periods first ("Exercice du 1er janvier 2025 au ..."),
        # else the report's fiscal year.
        year = max(p.year for p in self.periods) if self.periods else self.fiscal_year()
        return None if year is None else relative_columns(line, year)

    def line(self, line: str, offset: int, balance: bool) -> None:
        tokens = self.tokens(line, offset)
        columns = years_of_line(line)
        if columns is None and (resolved := self.relative(line)) is not None:
            self.columns_line(resolved, offset, balance, printed=line)
            return
        if (
            columns is not None
            and not any(t.value is not None and t.year is None and not t.is_day for t in tokens)
            and not self.place_and_date(columns)
        ):
            self.columns_line(line, offset, balance)
            return
        if all(t.value is None or t.year is not None or t.is_day for t in tokens):
            self.heading_line(line, offset)
            return
        glued, rest = _glued_header(tokens)
        if glued and not self.periods:
            self.periods = read_periods([*self.block, line], " ".join(map(str, glued)), balance)
            tokens = rest
        self.block, self.column_lines = [], []
        if not self.periods:
            return
        if self.ratio_column:
            tokens = without_ratio_cell(tokens)
        if self.percent_columns:
            tokens = without_percent_cells(tokens)
        periods = len(self.periods)
        width = periods + self.extra_columns
        tokens = self.without_note(tokens, width, periods)
        if self.codes_column:
            tokens = codes_as_text(tokens, width)
        cuts = self.tabbed(line, width) or _cut_rows(tokens, width, self.locale, periods)
        if not cuts and all(t.value is not None for t in tokens):
            # Values alone: a total printed without a label, or the values of the label
            # on the line before ("Net cash from operating activities" / "(80) 410").
            run = _regroup(tokens, width, self.locale, periods)
            if len(run) >= width:
                cuts = [_Cut("", tuple(run[-width:]))]
        # The periods' values are the last of each row (gross and depreciation before).
        position = 0
        for number, cut in enumerate(cuts):
            label = self.label(cut.label) if number == 0 else cut.label
            if any(_BARE_YEAR.match(t.raw) for t in cut.values[-periods:]):
                continue  # "Company — Annual report 2025 — 4": a page footer, not a row
            values = [t.value if t.value is not None else Decimal(0) for t in cut.values]
            raws = [t.raw for t in cut.values]
            skip = len(raws) - periods
            cells = self.cells(line[position:], offset + position, raws, values, skip)
            if cells:
                position = cells[-1].end - offset
            if self.misplaced(cells):
                continue
            self.add_row(label, cells)
            if self.anchors is not None:
                self.anchors.observe([(c.start, c.end) for c in cells])
        if not cuts and not self.blank_cells(line, offset, tokens):
            self.text_line(line)  # numbers inside a wrapped label ("10,000,000 shares")
        else:
            self.last_row = True

    def tabbed(self, line: str, width: int) -> list[_Cut]:
        """A tab-separated row with a cell under each of its heading's captions (other
        columns before the periods' ones, see :func:`tab_captions`), else no row."""
        if self.tab_columns <= width or (cells := tab_cells(line, self.locale)) is None:
            return []
        return [_Cut(cells[0], tuple(cells[1]))] if len(cells[1]) == self.tab_columns else []

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
        if len(run) > len(self.periods):
            return self.period_tail(line, offset, tokens[:first], run)
        placed = place_run(line, offset, [t.raw for t in run], self.lefts(), self.anchors)
        if placed is None:
            return False
        cells = tuple(
            self.attributed(
                Cell(self.periods[column], token.value, token.raw, self.page, start, end), column
            )
            for (column, start, end), token in zip(placed, run, strict=True)
            if token.value is not None
        )
        label = self.label(" ".join(t.raw for t in tokens[:first]))
        self.rows.append(TableRow(label, cells, self.page, bool(_TOTAL.match(label)), self.section))
        return True

    def period_tail(self, line: str, offset: int, words: list[_Token], run: list[_Token]) -> bool:
        """A row printing other columns before the periods' ones (``France | Export |
        2025 | 2024``; ``Brut | Amort. | Net`` with a blank cell): its last values are the
        periods' when each sits in its period column on the page and the value before
        them is left of the first one. False when that cannot be told surely."""
        if self.anchors is None or self.lefts is None:
            return False
        lefts = self.lefts()
        if not lefts:
            return False
        tail = run[-len(self.periods) :]
        spans = run_spans(line, offset, [t.raw for t in run])
        if spans is None:
            return False
        xs = spans_xs(lefts, spans)
        anchors = self.anchors.anchors(lefts)
        if xs is None or len(anchors) != len(tail) or not aligned(xs[-len(tail) :], anchors):
            return False
        gap = min(b - a for a, b in itertools.pairwise(anchors))
        if xs[-len(tail) - 1] > anchors[0] - gap / 2:
            return False
        cells = tuple(
            self.attributed(Cell(period, token.value, token.raw, self.page, start, end), column)
            for column, (period, token, (start, end)) in enumerate(
                zip(self.periods, tail, spans[-len(tail) :], strict=True)
            )
            if token.value is not None
        )
        label = self.label(" ".join(t.raw for t in words))
        self.rows.append(TableRow(label, cells, self.page, bool(_TOTAL.match(label)), self.section))
        return True
