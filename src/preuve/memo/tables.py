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

import collections
import dataclasses
import functools
import itertools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from preuve.core.dot_groups import dot_reading, one_dot_group, read_with_dots
from preuve.core.numbers import Locale, detect_locale
from preuve.memo.lexicon import (
    _HEADINGS,
    _MAX_PREFIX_WORDS,
    _PROSE_WORDS,
    Statement,
    heading_kind,
    unit_of,
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
    without_codes,
    without_percent_cells,
    without_ratio_cell,
)
from preuve.memo.table_columns import (
    ColumnAnchors,
    aligned,
    place_run,
    spans_xs,
    value_pattern,
    widen_column_gaps,
)

__all__ = ["Cell", "StatementTable", "TableRow", "read_tables"]

_CONNECTORS = frozenset(
    {"de", "des", "du", "et", "à", "aux", "of", "and", "for", "the", "to", "in", "on", "/"}
)
_TOTAL = re.compile(r"^(?:total|sous[- ]total|subtotal)\b", re.I)
_FOOTNOTE = re.compile(r"(?:\s*\((?:\d|[a-z])\))+$")
_BARE_YEAR = re.compile(r"^(?:19[5-9]\d|20\d\d)$")
_ANY_YEAR = re.compile(r"(?:19|20)\d\d")
# A digit, superscripts and subscripts included (str.isdigit's, searched at C speed).
_DIGIT = re.compile(r"[\d\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089\u2460-\u2473]")
# A note reference, or a range of notes ("10-12": the notes on the assets a D&A line covers).
_NOTE_REF = re.compile(r"^\d{1,2}(?:\.\d{1,2})?[a-z]?(?:[-–]\d{1,2}(?:\.\d{1,2})?[a-z]?)?$")
_SPLIT_HEADING_LINES = 4
# Tables that complete a statement with figures it does not print: the French "soldes
# intermédiaires de gestion" (EBE), an IFRS report's alternative performance measures
# (EBITDA), a US filing's non-GAAP measures complete the income statement; the
# off-balance-sheet commitments note (French GAAP leasing: its principal outstanding,
# "capital restant dû") completes the balance sheet. Their rows give only the concepts the
# primary tables do not.
_SUPPLEMENT = re.compile(
    r"(?i)\b(?:soldes intermédiaires de gestion|indicateurs alternatifs de performance"
    r"|alternative performance measures|non[- ](?:gaap|ifrs) (?:financial )?measures)\b"
    # a note whose heading is the measure itself ("Note 3 — EBITDA", "Note 12: EBE")
    r"|^note\s+\d+(?:\.\d+)?\s*[—–:.-]\s*(?:ebitda|ebe|excédent brut d'exploitation)"
    r"(?:\s*\([^()]*\))?\s*$"  # its unit aside: "(en milliers d'euros)"
)
_COMMITMENTS = re.compile(
    r"(?i)\b(?:engagements hors[- ]bilan|off[- ]balance[- ]sheet (?:commitments|arrangements"
    r"|obligations|leases)"
    # a note on the leasing commitments alone ("Engagements de crédit-bail")
    r"|engagements (?:de|au titre des contrats de) (?:crédit[- ]bail|location|leasing)"
    r"|(?:finance )?lease commitments)\b"
)
# The note reconciling profit to the operating cash flow completes a cash-flow statement
# printed by the direct method (receipts and payments): its rows are the indirect method's.
_RECONCILIATION = re.compile(
    r"(?i)^(?:reconciliation of (?:the )?(?:net )?(?:profit|income|earnings|loss|result)\b.*"
    r"\bto (?:the )?net cash\b.*\boperating activities"
    r"|(?:rapprochement|réconciliation) (?:du|entre le) résultat\b.*\b(?:flux|trésorerie)\b"
    r".*\b(?:activité|exploitation|opérationnel(?:le)?s?)\b)"
)
# A leading "Note 24." / "Note 3 —" / "18" before a note's title.
_NOTE_PREFIX = re.compile(r"(?i)^(?:note\s+)?\d{1,2}(?:\.\d{1,2})?(?:\s*[—–:.-]\s*|\s+)")
# A sentence announcing a non-IFRS / non-GAAP measure and its reconciliation: the column
# line right after it heads that reconciliation (a directors' report prints no heading).
_MEASURE_CUE = re.compile(
    r"(?i)\bnon[- ](?:ifrs|gaap)\b|\balternative performance measures?\b"
    r"|\bindicateurs? alternatifs? de performance\b"
)
_CUE_LINES = 3  # lines of the sentence (blank lines apart) between the cue and the columns
_PROSE_LINE_WORDS = 12
# A balance-sheet section title: the rows under it are current or non-current ones.
_SECTION = re.compile(
    r"(?i)^(?:(non[- ]?current|long[- ]term)|(current|short[- ]term)) (?:assets|liabilities)\b"
    r"|^(?:passifs?|actifs?|dettes) (?:(non[- ]courant(?:e)?s?)|(courant(?:e)?s?))\b"
)
_SECTION_END = re.compile(r"(?i)^(?:total|sous[- ]total)\b")
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
    if _DIGIT.search(line) and years_of_line(line) is None:
        found, kind = heading_kind(line)
        if found and _AMOUNTS_END.search(line):
            # A row whose label names a statement or the notes ("income statement charge
            # (1.4) (1.3)", "Produits annexes 61 200 58 900") is no heading.
            return None
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
        if len(nxt.split()) > 3 or _DIGIT.search(nxt) or not nxt.strip():
            break
        joined.append(nxt)
        words = line.split()
        if len(words) <= 3 or (len(words) <= 6 and words[-1].casefold() in _CONNECTORS):
            found, kind = _compact_kind(" ".join(joined))
            if found:
                return extra + 1, kind
    return None


def _supplement_heading(line: str) -> Statement | None:
    """The statement a note table's heading completes, or None."""
    text = line.strip()
    if text.endswith((".", ";", ",")):
        return None
    title = _NOTE_PREFIX.sub("", text)
    if len(title.split()) <= _MAX_PREFIX_WORDS + 10 and _RECONCILIATION.match(title):
        return Statement.CASHFLOW
    if len(text.split()) > _MAX_PREFIX_WORDS + 6:
        return None
    if _SUPPLEMENT.search(text) is not None:
        return Statement.INCOME
    return Statement.BALANCE if _COMMITMENTS.search(text) is not None else None


def _announced_measures(lines: list[str], index: int) -> int | None:
    """When ``lines[index]`` is a sentence naming a non-IFRS / non-GAAP measure and a
    column line follows it within the sentence's lines, the lines up to that column line
    (a reconciliation printed without a heading of its own); else None."""
    if _MEASURE_CUE.search(lines[index]) is None:
        return None
    prose = 0
    for ahead, nxt in enumerate(lines[index + 1 :], start=1):
        years = years_of_line(nxt)
        if years is not None and len(years) >= 2:
            return ahead
        prose += bool(nxt.strip())
        if _DIGIT.search(nxt) or prose > _CUE_LINES:
            return None  # figures or more prose before any column line: no table announced
    return None


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


_AMOUNTS_END = re.compile(
    r"[-−–(]?\d[\d\u202f\u00a0 .,'\u2019]*\)?\s+[-−–(]?\d[\d\u202f\u00a0 .,'\u2019]*\)?$"
)
_FIGURES_SPACED = re.compile(r"\d \(?[-−–]?\d")


@dataclass(slots=True)
class _Reader:
    """State while reading one page of one statement."""

    page: int
    locale: Locale
    periods: tuple[Period, ...] = ()
    notes_column: bool = False
    codes_column: bool = False  # a chart of accounts' codes before the values
    notes_right: bool = False  # the notes column after the periods' ones
    extra_columns: int = 0  # gross and depreciation columns before the periods' ones
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
        for period, raw, value in zip(self.periods, raws[skip:], values[skip:], strict=False):
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
        if self.codes_column:
            words = without_codes(words)
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
        self.periods = _same_columns(
            self.periods, read_periods(self.block, self._column_line(), balance)
        )
        self.notes_column = has_notes_column(self.block)
        self.codes_column = has_codes_column(self.block)
        self.notes_right = notes_on_the_right(self.block)
        self.extra_columns = extra_columns(self.block)
        self.ratio_column = ratio_column(line)
        self.percent_columns = percent_heading(line)
        self.flush_tail()
        self.pending = ""
        self.last_row = False
        self.anchors = ColumnAnchors(printed or line, offset, len(self.periods))

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
            tokens = without_ratio_cell(tokens)
        if self.percent_columns:
            tokens = without_percent_cells(tokens)
        periods = len(self.periods)
        width = periods + self.extra_columns
        tokens = self.without_note(tokens, width, periods)
        if self.codes_column:
            tokens = codes_as_text(tokens, width)
        cuts = _cut_rows(tokens, width, self.locale, periods)
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
            Cell(self.periods[column], token.value, token.raw, self.page, start, end)
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
            Cell(period, token.value, token.raw, self.page, start, end)
            for period, token, (start, end) in zip(
                self.periods, tail, spans[-len(tail) :], strict=True
            )
            if token.value is not None
        )
        label = self.label(" ".join(t.raw for t in words))
        self.rows.append(TableRow(label, cells, self.page, bool(_TOTAL.match(label)), self.section))
        return True


def _opening(lines: list[str], index: int) -> tuple[tuple[int, Statement | None] | None, bool]:
    """The heading starting at ``index`` (lines it takes, statement), and whether it opens a
    note table completing a statement. A note table's heading is tried first: "Engagements
    hors bilan" names no balance sheet."""
    completed = _supplement_heading(lines[index])
    if completed is not None:
        return (1, completed), True
    heading = _heading(lines, index)
    if heading is not None:
        return heading, False
    announced = _announced_measures(lines, index)
    return (None, False) if announced is None else ((announced, Statement.INCOME), True)


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
    reader: _Reader | None = None
    table: StatementTable | None = None
    index = 0
    while index < len(lines):
        heading, supplement = _opening(lines, index)
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
                table.rows = reader.rows
            reader, table = None, None
            if kind is not None:
                head = " ".join(lines[index : index + taken])
                table = StatementTable(kind, [page], "", 1, (), heading=head)
                table.supplement = supplement
                table.continued = bool(re.search(r"(?i)suite|continued|\(cont", head))
                reader = _Reader(page, locale, lefts=lefts, fiscal_year=fiscal_year)
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
    return [t for t in tables if t.rows]


def read_tables(
    pages: Sequence[str], positions: Callable[[int], Sequence[float]] | None = None
) -> list[StatementTable]:
    """The primary table of each statement found in ``pages`` (page 1 first);
    ``positions``: the x of each character of page N's text (:func:`preuve.io.pdf.
    char_lefts`), read only for the pages a statement is on, to place blank cells."""
    whole = "\n".join(pages)
    locale = detect_locale(whole)
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
        if candidates:
            primary.append(max(candidates, key=lambda t: (len(t.rows), -t.pages[0])))
    # Note tables completing a statement the report has, after the primary tables.
    kinds = {t.statement for t in primary}
    supplements = [t for t in merged if t.supplement and t.statement in kinds]
    return sorted(primary, key=lambda t: t.pages[0]) + supplements
