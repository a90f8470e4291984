"""Statement fields from a report's page texts: income statement, balance sheet, cash flows.

Works on any French or English report, from general cues only:

1. a *heading* line names a statement (``Compte de résultat``, ``Consolidated Balance
   Sheets``...; see :func:`preuve.memo.lexicon.heading_kind`); its section runs to the next
   heading or the end of the page;
2. a *header* line (or a few consecutive ones) gives the year of each value column
   (``2025 2024``, ``31/12/2025``, ``Exercice 2025``, ``Year Ended June 30, 2023 2022``);
3. every line is cut into *rows*: a label followed by one value per column (a longer run
   of numbers keeps its last values; the ones before are note references);
4. each label is looked up in the lexicon; amounts are read with the document's locale
   (parentheses and minus signs make negatives, a dash is zero).

A statement can appear more than once (a summary in the management report, selected
data): the section with the most recognised rows wins, earlier pages on a tie. Each field
keeps its page (from 1), its unit and the amount as written.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from preuve.core.numbers import Locale, detect_locale, parse_number
from preuve.core.space_groups import amounts_locale
from preuve.memo.lexicon import (
    LEXICON,
    LabelRule,
    Statement,
    heading_kind,
    lookup_label,
    unit_of,
)
from preuve.memo.sections import balance_section, closes_section, qualified_labels

__all__ = ["Field", "Row", "Statements", "extract_statements"]


@dataclass(frozen=True, slots=True)
class Field:
    """One statement line for one year: ``value`` is signed, as written, in ``unit``
    (e.g. ``k€``); ``scale`` turns it into currency units (1000 for k€, 1 if unknown).
    ``months`` is the column's period: 0 for a balance-sheet date, 3, 6, 9 or 12 for a
    flow, None when the reader gave a year only (the lexicon reader)."""

    key: str
    label: str
    year: int
    value: Decimal
    page: int
    unit: str
    statement: Statement
    raw: str
    scale: int = 1
    months: int | None = None

    @property
    def amount(self) -> Decimal:
        """The value in currency units, so that fields of differently scaled tables compare."""
        return self.value * self.scale


@dataclass(frozen=True, slots=True)
class Row:
    """A parsed row of a statement section, recognised (``key``) or not."""

    label: str
    key: str | None
    statement: Statement
    page: int
    years: tuple[int, ...]
    values: tuple[Decimal, ...]
    raws: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Statements:
    """The fields of one report, and the rows of its chosen sections that no rule knew."""

    fields: tuple[Field, ...]
    locale: Locale
    unmapped: tuple[Row, ...] = ()
    flow_months: int = 12  # the duration of the income and cash-flow fields (6 for a 10-Q)
    # Inputs left out because an identity they are in does not hold (``2025 total_assets:
    # total_assets = total_equity_and_liabilities does not hold``): no ratio uses them.
    doubtful: tuple[str, ...] = ()

    @property
    def years(self) -> tuple[int, ...]:
        """Years with at least one field, most recent first."""
        return tuple(sorted({f.year for f in self.fields}, reverse=True))

    def get(self, key: str, year: int) -> Field | None:
        return next((f for f in self.fields if f.key == key and f.year == year), None)

    def value(self, key: str, year: int) -> Decimal | None:
        found = self.get(key, year)
        return None if found is None else found.value

    def amount(self, key: str, year: int) -> Decimal | None:
        """The value in currency units (see :attr:`Field.amount`)."""
        found = self.get(key, year)
        return None if found is None else found.amount

    def fully_mapped(self, statement: Statement) -> bool:
        """True when every row of the chosen section of ``statement`` was recognised, so
        that its subtotals can be checked against their parts."""
        has_fields = any(f.statement is statement for f in self.fields)
        return has_fields and not any(r.statement is statement for r in self.unmapped)


@dataclass(frozen=True, slots=True)
class _Section:
    statement: Statement
    page: int
    unit: str
    scale: int
    rows: tuple[Row, ...]

    @property
    def mapped(self) -> int:
        return sum(r.key is not None for r in self.rows)


@dataclass(slots=True)
class _Cursor:
    """Parsing state inside one section."""

    columns: tuple[int, ...] = ()
    pending: tuple[int, ...] = ()
    previous_text: str = ""
    section: str = ""  # the balance-sheet section the next rows are under (memo/sections.py)


# --- Tokens and rows -------------------------------------------------------------------

_DASHES = frozenset({"—", "–", "-", "−"})
_CURRENCY = re.compile(r"^(?:US\$|\$|€|£)")
# Digits grouped by points, commas, no-break spaces or apostrophes ("131'480", Swiss).
_AMOUNT = re.compile(r"^\(?[-−–]?\d[\d.,'\u2019\u202f\u00a0]*\)?$")
_DATE_YEAR = re.compile(r"^\(?\d{1,2}[/.-]\d{1,2}[/.-]((?:19|20)\d\d)\)?[,;:]?$")
_LONE_SPACE = re.compile(r"(?<!\d)[\u00a0\u202f\u2009]|[\u00a0\u202f\u2009](?!\d)")
_MAX_HEADER_WORDS = 10
_LEADING_ZERO = re.compile(r"\(?[-−–]?0\d+\)?")
_MAX_SPREAD = Decimal(10)  # two years of one line are rarely ten times apart
# Numbers left in front of a row's values: a note ("6.1"), a footnote ("(1)"), the end of a
# label ("(IFRS 16)"); never a signed amount or a dash.
_NOTE_REF = re.compile(r"\d{1,3}(?:[.,]\d{1,2})?[a-z]?\)?|\(\d\)")
_MONTHS = frozenset(
    {"january", "february", "march", "april", "may", "june", "july", "august"}
    | {"september", "october", "november", "december", "jan", "feb", "mar", "apr"}
    | {"jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "janvier", "février"}
    | {"mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre"}
    | {"novembre", "décembre", "janv", "févr", "fév", "avr", "juil", "déc"}
)
# Only ASCII blanks separate words: str.split() would also cut at U+202F inside "61 300".
_ASCII_SPACE = re.compile(r"[ \t\r\f\v]+")
_ASCII_SPACE_KEPT = re.compile(r"([ \t\r\f\v]+)")


@dataclass(frozen=True, slots=True)
class _Token:
    """A word of a line: an amount (``value`` set) or text."""

    raw: str
    value: Decimal | None = None
    is_day: bool = False  # the day of a date: "June 30, 2023", "31 décembre"
    spaced: bool = False  # set apart from the word before by two blanks or more (a column gap)

    @property
    def year(self) -> int | None:
        """The year this token names, for a bare four-digit amount or a date."""
        date = _DATE_YEAR.match(self.raw)
        if date:
            return int(date.group(1))
        if self.value is not None and re.fullmatch(r"(?:19[5-9]\d|20\d\d)", self.raw):
            return int(self.raw)
        return None


@dataclass(frozen=True, slots=True)
class _Cut:
    """A row cut from a line: its label and its value tokens (one per column)."""

    label: str
    values: tuple[_Token, ...]


def _amount(core: str, locale: Locale) -> Decimal | None:
    if core in _DASHES:  # a dash in a value column means nil
        return Decimal(0)
    if not _AMOUNT.match(core):
        return None
    if core.count("(") != core.count(")"):
        # One half of "(4 550)" cut at a plain space: a piece that _regroup joins back.
        return parse_number(core.strip("()"), locale)
    return parse_number(core, locale)


def _tokenize(line: str, locale: Locale) -> list[_Token]:
    """Words of a line; a narrow or plain no-break space between digits stays inside the
    amount (thousands separator), elsewhere it separates words."""
    words: list[str] = []
    gaps: list[bool] = []  # whether two blanks or more, or a tab, come before each word
    pieces = _ASCII_SPACE_KEPT.split(_LONE_SPACE.sub(" ", line).strip())
    wide = False
    for number, word in enumerate(pieces):
        if number % 2:
            wide = wide or len(word) >= 2 or "\t" in word  # a tab separates cells
        elif word == ")" and words:  # "(207 )": a closing parenthesis set apart
            words[-1] += word
        elif word and _CURRENCY.fullmatch(word) is None:
            words.append(word)
            gaps.append(wide)
            wide = False
    tokens: list[_Token] = []
    for index, word in enumerate(words):
        value = _amount(_CURRENCY.sub("", word).rstrip(",;:*"), locale)
        if value is None:
            tokens.append(_Token(word, spaced=gaps[index]))
            continue
        after_month = index > 0 and words[index - 1].casefold().rstrip(".") in _MONTHS
        before_month = index + 1 < len(words) and words[index + 1].casefold().rstrip(".") in _MONTHS
        day = re.fullmatch(r"\d{1,2},?", word) is not None and (
            word.endswith(",") or after_month or before_month
        )
        tokens.append(_Token(word.rstrip(",;:*"), value, day, gaps[index]))
    return tokens


def _is_amount(token: _Token) -> bool:
    """An amount that is neither a year nor the day of a date."""
    return token.value is not None and token.year is None and not token.is_day


def _header_years(tokens: list[_Token]) -> tuple[int, ...] | None:
    """Column years named by a header line (digits that are only years, days or dates, and
    a few words), or None when the line is not a header."""
    if any(_is_amount(t) for t in tokens) or all(
        t.value is None and t.year is None for t in tokens
    ):
        return None
    words = sum(t.value is None and t.year is None for t in tokens)
    return None if words > _MAX_HEADER_WORDS else tuple(y for t in tokens if (y := t.year))


def _glued_header(tokens: list[_Token]) -> tuple[tuple[int, ...], list[_Token]]:
    """Years written on the same line as the first rows, before the first amount
    (``2022 2021 2020 Net sales $ 18,992.8 ...``): the years and the tokens after them."""
    first = next((i for i, t in enumerate(tokens) if _is_amount(t)), len(tokens))
    marks = [i for i in range(first) if tokens[i].year is not None]
    if len(marks) < 2:
        return (), tokens
    return tuple(tokens[i].year or 0 for i in marks), tokens[marks[-1] + 1 :]


def _groups(tokens: tuple[_Token, ...], locale: Locale) -> list[_Token] | None:
    """Tokens read as one French amount grouped by plain spaces (``61 300``), or None."""
    heads, tails = tokens[0].raw, [t.raw for t in tokens[1:]]
    if _LEADING_ZERO.fullmatch(heads):
        return None  # "040": the thousands of an amount, never an amount of its own
    if not tails:  # one token: an amount of its own, if its parentheses close
        return [tokens[0]] if heads.count("(") == heads.count(")") else None
    if not re.fullmatch(r"\(?[-−–]?\d{1,3}", heads):
        return None
    if any(not re.fullmatch(r"\d{3}\)?", t) for t in tails) or any(")" in t for t in tails[:-1]):
        return None
    if any(t.spaced for t in tokens[1:]):
        return None  # a column gap (two blanks or more) is no thousands separator
    raw = "\u202f".join([heads, *tails])
    value = _amount(raw, locale) if raw.count("(") == raw.count(")") else None
    return None if value is None else [_Token(raw, value)]


def _regroup(run: list[_Token], columns: int, locale: Locale, periods: int = 0) -> list[_Token]:
    """Split a run of amounts whose thousands were separated by plain spaces into
    ``columns`` amounts (what is left in front are note references: unsigned numbers).
    Two years of one line are of a similar size: among readings whose last ``periods``
    values (all when 0; a gross and a depreciation column come before the years) stay
    within a factor of ``_MAX_SPREAD``, the one that uses the most tokens wins; then the
    closest values. No reading at all gives no amounts (the row is missed, not misread)."""
    if locale is not Locale.FR or len(run) > 16:
        return run
    if len(run) <= columns:
        # "1 040 980" over three columns: "040" is the thousands of an amount, not a value.
        return [] if any(_LEADING_ZERO.fullmatch(t.raw) for t in run) else run
    best: tuple[tuple[bool, int, Decimal], list[_Token], list[int]] | None = None

    def search(end: int, parts: list[_Token], starts: list[int]) -> None:
        nonlocal best
        if len(parts) == columns:
            if not all(_NOTE_REF.fullmatch(t.raw) for t in run[:end]):
                return  # left in front, a signed amount or a dash is no note reference
            sizes = [abs(p.value) for p in parts[-periods:] if p.value]
            spread = max(sizes) / min(sizes) if sizes else Decimal(1)
            score = (spread > _MAX_SPREAD, end, spread)
            if best is None or score < best[0]:
                best = (score, [*run[:end], *parts], starts)
            return
        for start in range(end - 1, -1, -1):
            group = _groups(tuple(run[start:end]), locale)
            if group is not None:
                search(start, group + parts, [start, *starts])

    search(len(run), [], [])
    # No reading into ``columns`` amounts: the row is not read (missed, never misread).
    if best is None or _guessed_cut(run, best[2][-periods:] if periods else best[2]):
        return []
    return best[1]


def _guessed_cut(run: list[_Token], starts: Sequence[int]) -> bool:
    """Whether a value starting at one of ``starts`` (indexes in ``run``) is cut from the
    figures before it where no column gap shows and both could be one amount (``1 286 |
    744``), on a line that shows its column gaps (two blanks or more, a tab): there the
    gaps tell the cells apart, and a cut they do not show is a guess (a blank cell that
    shifts the columns), so the row is doubtful."""
    if not any(t.spaced for t in run[1:]):
        return False  # single blanks throughout: the line shows no gaps to go by
    return any(
        0 < start < len(run)
        and not run[start].spaced
        and re.fullmatch(r"\d{3}\)?", run[start].raw) is not None
        and re.fullmatch(r"\(?[-−–]?\d{1,3}", run[start - 1].raw) is not None
        for start in starts
    )


def _opens_label(token: _Token) -> bool:
    """Whether a word can start a new row's label: capitalised, as in ``... 1,505.2
    Receivables 1,692.1``; a lower-case word continues the label (``net of doubtful
    accounts - $42 and $46 2,004``)."""
    letters = [c for c in token.raw if c.isalpha()]
    return bool(letters) and letters[0].isupper()


def _cut_rows(tokens: list[_Token], columns: int, locale: Locale, periods: int = 0) -> list[_Cut]:
    """Rows of a line: a run of at least ``columns`` amounts that ends the line or is
    followed by a capitalised word closes a row whose label is the text before it
    (several rows can share a line in some PDFs' text)."""
    cuts: list[_Cut] = []
    label: list[str] = []
    index = 0
    while index < len(tokens):
        if tokens[index].value is None:
            label.append(tokens[index].raw)
            index += 1
            continue
        end = index
        while end < len(tokens) and tokens[end].value is not None:
            end += 1
        run = _regroup(tokens[index:end], columns, locale, periods)
        closes = end == len(tokens) or _opens_label(tokens[end])
        if len(run) >= columns and closes:
            label += [t.raw for t in run[:-columns]]
            if label:
                cuts.append(_Cut(" ".join(label), tuple(run[-columns:])))
            label = []
        else:
            label += [t.raw for t in run]
        index = end
    return cuts


def _lookup(label: str, statement: Statement, section: str) -> LabelRule | None:
    """The rule of a row's label, qualified first by the section it is printed under."""
    for form in qualified_labels(label, section):
        rule = lookup_label(form, statement)
        if rule is not None:
            return rule
    return None


def _make_row(
    cut: _Cut, statement: Statement, page: int, columns: tuple[int, ...], section: str = ""
) -> Row:
    label, rule = cut.label, _lookup(cut.label, statement, section)
    if rule is None and ":" in label:
        # Section titles glued before a label ("Current assets: Cash and cash equivalents").
        tail = label.rsplit(":", 1)[1].strip()
        rule = lookup_label(tail, statement) if tail else None
        label = tail if rule is not None else label
    return Row(
        label=label,
        key=None if rule is None else rule.key,
        statement=statement,
        page=page,
        years=columns,
        values=tuple(t.value for t in cut.values if t.value is not None),
        raws=tuple(t.raw for t in cut.values),
    )


def _line_rows(
    tokens: list[_Token], cursor: _Cursor, statement: Statement, page: int, locale: Locale
) -> list[Row]:
    """Rows of one line holding amounts; updates the year columns first."""
    if len(cursor.pending) >= 2:
        cursor.columns = cursor.pending
    cursor.pending = ()
    glued, rest = _glued_header(tokens)
    if glued:
        cursor.columns, tokens = glued, rest
    if not cursor.columns:
        return []
    columns = len(cursor.columns)
    if tokens and tokens[0].value is not None and cursor.previous_text:
        # Values on the line below their label ("Net cash provided by ...\n(80) 410 300").
        tokens = [_Token(cursor.previous_text), *tokens]
        cursor.previous_text = ""
    cuts = _cut_rows(tokens, columns, locale)
    rows, section = [], cursor.section
    for cut in cuts:
        rows.append(_make_row(cut, statement, page, cursor.columns, cursor.section))
        if closes_section(cut.label):
            cursor.section = ""  # "Total current liabilities" closes its section
        titled = balance_section(cut.label) if statement is Statement.BALANCE else None
        if titled is not None:
            cursor.section = titled  # "Dettes à un an au plus 42/48 ...": a title with figures
    if rows and rows[0].key is None and cursor.previous_text:
        # A label wrapped over two lines: retry with the text line before it.
        joined = _Cut(f"{cursor.previous_text} {cuts[0].label}", cuts[0].values)
        retry = _make_row(joined, statement, page, cursor.columns, section)
        if retry.key is not None:
            rows[0] = retry
    return rows


def _section_rows(lines: list[str], statement: Statement, page: int, locale: Locale) -> list[Row]:
    cursor = _Cursor()
    rows: list[Row] = []
    for line in lines:
        tokens = _tokenize(line, locale)
        years = _header_years(tokens)
        if years is not None:
            cursor.pending += years
            continue
        if all(t.value is None for t in tokens):
            cursor.previous_text = line.strip()
            section = balance_section(line) if statement is Statement.BALANCE else None
            cursor.section = cursor.section if section is None else section
            continue
        rows += _line_rows(tokens, cursor, statement, page, locale)
        cursor.previous_text = ""
    return rows


def _sections(
    pages: Sequence[str], locale: Locale, default_unit: tuple[str, int]
) -> list[_Section]:
    sections: list[_Section] = []
    for page_number, text in enumerate(pages, start=1):
        lines = text.split("\n")
        starts = [(i, heading_kind(line)) for i, line in enumerate(lines)]
        bounds = [(i, kind) for i, (is_heading, kind) in starts if is_heading] + [
            (len(lines), None)
        ]
        for (start, statement), (end, _) in itertools.pairwise(bounds):
            if statement is None:
                continue
            body = lines[start + 1 : end]
            rows = _section_rows(body, statement, page_number, locale)
            if not rows:
                continue
            # The unit is stated between the heading and the first rows.
            unit, scale = unit_of("\n".join(lines[start : start + 8])) or default_unit
            sections.append(_Section(statement, page_number, unit, scale, tuple(rows)))
    return sections


def _ranked(sections: list[_Section]) -> dict[Statement, list[_Section]]:
    ranked: dict[Statement, list[_Section]] = {}
    for statement in Statement:
        candidates = [s for s in sections if s.statement is statement]
        ranked[statement] = sorted(candidates, key=lambda s: (-s.mapped, s.page))
    return ranked


def _fields(ranked: dict[Statement, list[_Section]]) -> list[Field]:
    """Each key's value per year from the best-ranked section holding it: a statement's
    main section before any other, then the rule's preferred statement first."""
    fields: list[Field] = []
    depth = max((len(v) for v in ranked.values()), default=0)
    for rule in LEXICON:
        chosen: dict[int, Field] = {}
        order = [
            (statement, ranked[statement][rank])
            for rank in range(depth)
            for statement in rule.statements
            if rank < len(ranked[statement])
        ]
        for statement, section in order:
            for row in section.rows:
                if row.key != rule.key:
                    continue
                for year, value, raw in zip(row.years, row.values, row.raws, strict=False):
                    chosen.setdefault(
                        year,
                        Field(
                            rule.key,
                            row.label,
                            year,
                            value,
                            row.page,
                            section.unit,
                            statement,
                            raw,
                            section.scale,
                        ),
                    )
        fields += [chosen[year] for year in sorted(chosen, reverse=True)]
    return fields


def extract_statements(pages: Sequence[str]) -> Statements:
    """Every recognised statement field of a report, from its page texts (page 1 first)."""
    whole = "\n".join(pages)
    locale = detect_locale(whole)
    document_unit = unit_of(whole)
    # amounts read as written (``674 880`` in an English report), the memo in its language
    sections = _sections(pages, amounts_locale(whole, locale), document_unit or ("", 1))
    ranked = _ranked(sections)
    unmapped = tuple(
        row
        for candidates in ranked.values()
        if candidates
        for row in candidates[0].rows
        if row.key is None
    )
    return Statements(fields=tuple(_fields(ranked)), locale=locale, unmapped=unmapped)
