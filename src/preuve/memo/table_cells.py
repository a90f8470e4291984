"""Column layouts of a statement table's rows, around the periods' columns.

The heading block says which other columns a table prints: a notes column (between label
and values, or after the periods'), a gross and a depreciation column before the net ones,
a change column after them, share columns between them (``2025 % CA 2024 % CA``). These
helpers read those layouts from the heading block and take a row's tokens apart
accordingly; on a PDF page, figures no column gap separates are one amount (``1 286 744``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from preuve.core.numbers import Locale
from preuve.memo.statements import _groups, _Token, _tokenize
from preuve.memo.table_columns import value_pattern

__all__ = [
    "codes_as_text",
    "extra_columns",
    "has_codes_column",
    "has_notes_column",
    "joined",
    "notes_on_the_right",
    "percent_heading",
    "ratio_column",
    "run_spans",
    "without_codes",
    "without_percent_cells",
    "without_ratio_cell",
]


_GROSS = re.compile(r"(?i)(?:^|\s)(?:brut|brute|gross)(?:\s|$)")
_NET = re.compile(r"(?i)(?:^|\s)nets?(?:\s|$)")
_DEPRECIATION = re.compile(r"(?i)\b(?:amort|dépréc|deprec|accumulated|provisions?\b)")
_CHANGE = re.compile(
    r"(?i)(?:\d|\s)(?:var\.?|variation|évol\.?|évolution|change|%|% change|chg\.?)\s*$"
)
_NOT_MEANINGFUL = re.compile(r"n\.\s?s\.?|n\.\s?m\.?|ns|nm|n/s|n/m")
_PERCENT = re.compile(r"\(?[-−–+]?\d+(?:[.,]\d+)?\s?%\)?")


# A sentence in the heading block ("Montants nets d'amortissements. Le détail brut /
# amortissements figure en note 3."): prose about the table, not a column heading.
_SENTENCE_END = re.compile(r"[a-zà-ÿ\d)]\.(?:\s+[A-ZÀ-Ý]|\s*$)")
_PROSE_WORDS = 8


def _headings(block: list[str]) -> list[str]:
    """The last lines of a heading block that can name columns: a line of prose (a
    sentence of several words) names none."""
    return [
        line
        for line in block[-3:]
        if not (
            _SENTENCE_END.search(line.strip())
            and sum(any(c.isalpha() for c in w) for w in line.split()) >= _PROSE_WORDS
        )
    ]


# A notes column's heading: "Notes", "Note", or "Annexe" (the notes to the accounts in
# French, Swiss GAAP RPC and OHADA statements).
_NOTES_HEADING = re.compile(r"(?i)(?:^|\s)(?:notes?|annexes?|ann\.)(?:\s|$)")


def has_notes_column(block: list[str]) -> bool:
    return any(_NOTES_HEADING.search(line) for line in _headings(block))


# A codes column's heading (a chart of accounts' codes between label and values, as the
# Belgian and Luxembourg filing schemes print them: ``70``, ``21/28``, ``9901``, ``60/66A``).
_CODES_HEADING = re.compile(r"(?i)(?:^|\s)(?:codes?|rubriques?)(?:\s|$)")
_CODE = re.compile(r"\d{1,4}[A-Z]?(?:/\d{1,4}[A-Z]?)?")
# A note reference of such a scheme: ``6.10``, ``6.4/6.5.1``.
_SCHEME_NOTE = re.compile(r"\d{1,2}(?:\.\d{1,2})*(?:/\d{1,2}(?:\.\d{1,2})*)*")


def has_codes_column(block: list[str]) -> bool:
    return any(_CODES_HEADING.search(line) for line in _headings(block))


def codes_as_text(tokens: list[_Token], width: int) -> list[_Token]:
    """A row's tokens with the code before its ``width`` values read as a word of the
    label (``9901 2.953.265 2.385.335``): a code is a number, never an amount."""
    if len(tokens) <= width or any(t.value is None for t in tokens[-width:]):
        return tokens
    code = tokens[-width - 1]
    if code.value is None or not _CODE.fullmatch(code.raw):
        return tokens
    return [*tokens[: -width - 1], _Token(code.raw, spaced=code.spaced), *tokens[-width:]]


def without_codes(words: list[str]) -> list[str]:
    """A label's words without the code and note reference ending it (``Chiffre
    d'affaires 6.10 70``)."""
    if words and _CODE.fullmatch(words[-1]):
        words = words[:-1]
    if len(words) > 1 and _SCHEME_NOTE.fullmatch(words[-1]):
        words = words[:-1]
    return words


def notes_on_the_right(block: list[str]) -> bool:
    """Whether the heading block prints the notes column after the periods' ones
    (``2025 2024 Notes``, ``Exercice Exercice Notes``): a line ends with the word after
    other column headings."""
    for line in _headings(block):
        words = line.split()
        if len(words) >= 3 and re.fullmatch(r"(?i)notes?", words[-1]):
            return True
    return False


def extra_columns(block: list[str]) -> int:
    """Value columns printed before the periods' ones: a gross and a depreciation column
    (``Brut | Amort. et dépréc. | Net 2025 | Net 2024``, ``Gross | Accumulated
    depreciation | Net``); the periods' values are the net ones, the last of each row."""
    text = " ".join(_headings(block))
    if not (_GROSS.search(text) and _NET.search(text)):
        return 0
    return 2 if _DEPRECIATION.search(text) else 1


def ratio_column(line: str) -> bool:
    """Whether a column line ends with a change column (``2025 2024 Var.``, ``% change``)."""
    return _CHANGE.search(line) is not None


def without_ratio_cell(tokens: list[_Token]) -> list[_Token]:
    """A row's tokens without the trailing change cell (``-7,9 %``, ``12%``, ``n.s.``)."""
    if tokens and _NOT_MEANINGFUL.fullmatch(tokens[-1].raw.casefold()):
        return tokens[:-1]
    if len(tokens) >= 2 and tokens[-1].raw == "%" and tokens[-2].value is not None:
        return tokens[:-2]
    if tokens and tokens[-1].value is None and _PERCENT.fullmatch(tokens[-1].raw):
        return tokens[:-1]
    return tokens


def percent_heading(line: str) -> bool:
    """Whether a column line interleaves share columns with the periods' (``2025 % CA
    2024 % CA``, ``2025 % of sales 2024 %``): a ``%`` heading before the last year."""
    years = list(re.finditer(r"(?:19|20)\d\d", line))
    return len(years) >= 2 and "%" in line[: years[-1].start()]


def without_percent_cells(tokens: list[_Token]) -> list[_Token]:
    """A row's tokens without its share cells (``5,8 %``, ``12%``) wherever they are."""
    kept: list[_Token] = []
    for token in tokens:
        if token.raw == "%" and kept and kept[-1].value is not None:
            kept.pop()
        elif not (token.value is None and _PERCENT.fullmatch(token.raw)):
            kept.append(token)
    return kept


def run_spans(line: str, offset: int, raws: Sequence[str]) -> list[tuple[int, int]] | None:
    """The page span of each value ending ``line`` (found from the line's end)."""
    spans: list[tuple[int, int]] = []
    end = len(line)
    for raw in reversed(raws):
        found = list(value_pattern(raw).finditer(line, 0, end))
        if not found:
            return None
        spans.insert(0, (offset + found[-1].start(), offset + found[-1].end()))
        end = found[-1].start()
    return spans


def joined(tokens: list[_Token], locale: Locale) -> list[_Token]:
    """Tokens with each run of figures that no column gap separates read as one amount
    (``1 286 744``), when it reads as one."""
    out: list[_Token] = []
    index = 0
    while index < len(tokens):
        end = index + 1
        if tokens[index].value is not None:
            while end < len(tokens) and tokens[end].value is not None and not tokens[end].spaced:
                end += 1
        group = _groups(tuple(tokens[index:end]), locale) if end - index > 1 else None
        if group is None:
            out.append(tokens[index])
            index += 1
            continue
        out.append(dataclasses.replace(group[0], spaced=tokens[index].spaced))
        index = end
    return out


def tab_captions(block: list[str], periods: int) -> int:
    """Value columns a tab-separated heading names (``Domestic | Abroad | Total | Total``
    above the periods' dates), when they are more than the periods and the last
    ``periods`` repeat one caption (a period's column each): the other columns come
    before the periods'. 0 when no such line."""
    for line in reversed(_headings(block)):
        captions = [c.strip() for c in line.split("\t") if c.strip()]
        if "\t" not in line or len(captions) <= periods or periods < 2:
            continue
        if len({c.casefold() for c in captions[-periods:]}) == 1 and not any(
            ch.isdigit() for ch in line
        ):
            return len(captions)
    return 0


def tab_cells(line: str, locale: Locale) -> tuple[str, list[_Token]] | None:
    """The label and value cells of a tab-separated row (``label | 540 210 | – | ...``):
    each cell after the label one amount (its thousands grouped by spaces) or a dash,
    else None."""
    cells = [c.strip() for c in line.split("\t")]
    if len(cells) < 3 or not cells[0] or any(not c for c in cells[1:]):
        return None
    values: list[_Token] = []
    for cell in cells[1:]:
        tokens = _tokenize(cell, locale)
        read = _groups(tuple(tokens), locale) if tokens else None
        if read is None or len(read) != 1 or read[0].value is None:
            return None
        values.append(read[0])
    return cells[0], values
