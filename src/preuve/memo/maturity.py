"""A maturity note's debts due within one year: the current liabilities French GAAP omits.

A French GAAP balance sheet prints its debts by nature, with no current / non-current
split; its notes give the split in a maturity table (``État des échéances des dettes``:
``Montant brut | À un an au plus | À plus d'un an``). This module reads such a table:

- its heading names the debts' maturities (``MATURITY_HEADING``) and, for the table's date,
  a date (``au 31 décembre 2025``); no date, no field (the year is never guessed);
- its column header, the lines between the heading and the first row, names each column
  by what it holds (``COLUMN_WORDS``: the gross amount, due within one year, beyond);
  the order of those words in the header is the order of the values;
- its ``Total`` row, with exactly one value per named column and its gross amount the sum
  of the maturity columns (so plain-space thousands are never misread), gives the total due
  within one year: a ``current_liabilities`` field, at the table's date, with its page and raw
  text. Anything else (no total, another number of values, no within-one-year column)
  gives nothing: missed, never misread.

The words are declared here, French and English, for a user to read; the rows are cut by
the statements reader's tokenizer (plain-space thousands read soundly).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from preuve.core.numbers import Locale
from preuve.memo.lexicon import Statement
from preuve.memo.statements import Field, _cut_rows, _tokenize

__all__ = ["COLUMN_WORDS", "MATURITY_HEADING", "maturity_fields"]

MATURITY_HEADING = re.compile(
    r"(?i)\b(?:(?:état|etat|tableau) des échéances|échéances? des dettes"
    r"|échéancier des dettes|maturit(?:y|ies) of (?:liabilities|debts?)"
    r"|liabilities by maturity)\b"
)
# What each column holds, as its header's first words say it (stacked headers keep their
# first line in column order: "Montant  À un an  De un à  À plus" over "brut  au plus  cinq
# ans  de cinq ans": "de un à" opens a column of its own, whatever its end).
COLUMN_WORDS: dict[str, re.Pattern[str]] = {
    "gross": re.compile(r"(?i)\b(?:montant|total|gross|amount)\b"),
    "within_one_year": re.compile(
        r"(?i)(?:\bà un an\b|\bà moins d'un an\b|\bmoins d'un an\b|\bless than (?:one|1) year"
        r"|\bwithin (?:one|1) year|\b(?:one|1) year or less\b|≤ ?1 an)"
    ),
    "beyond": re.compile(
        r"(?i)(?:\bà plus\b|\bplus d'un an\b|\bde (?:un|1) à\b|\bmore than\b"
        r"|\bafter (?:one|1) year\b|\b(?:1|one)\s*(?:-|to)\s*\d+ years\b|> ?1 an)"
    ),
}
_DATE = re.compile(
    r"(?i)\b(?:au|at|as of)\s+(?:\d{1,2}(?:er)?\s+)?(?:janvier|février|mars|avril|mai|juin"
    r"|juillet|août|septembre|octobre|novembre|décembre|january|february|march|april|may"
    r"|june|july|august|september|october|november|december)\s+(?:\d{1,2},?\s+)?((?:19|20)\d\d)\b"
)
_TOTAL = re.compile(r"(?i)^total\b")
_HEADER_LINES = 3


def _columns(header: str) -> list[tuple[str, str]]:
    """The columns the header names, in printed order: (what it holds, its words)."""
    found: list[tuple[int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for name in ("within_one_year", "beyond", "gross"):
        for match in COLUMN_WORDS[name].finditer(header):
            if not any(a < match.end() and match.start() < b for a, b in taken):
                found.append((match.start(), name, match.group(0)))
                taken.append((match.start(), match.end()))
                if name != "beyond":
                    break  # one gross and one within-a-year column; several beyond it
    return [(name, words) for _, name, words in sorted(found)]


def _table_field(
    lines: list[str], page: int, year: int, locale: Locale, unit: tuple[str, int]
) -> Field | None:
    header: list[str] = []
    rows = False  # past the header: a line without figures is a label wrapped over lines
    for line in lines:
        if len(_columns(line)) >= 2 and not header:
            header.append(line)  # the column header (its figures, "1 à 5 ans", are words)
            continue
        tokens = _tokenize(line, locale)
        if not any(t.value is not None for t in tokens):
            if rows:
                continue
            if not header or len(header) >= _HEADER_LINES:
                return None
            header.append(line)  # a header stacked over lines: "brut  au plus  d'un an"
            continue
        if not header:
            return None
        rows = True
        columns = _columns(header[0])
        names = [name for name, _ in columns]
        if "within_one_year" not in names or "gross" not in names or len(columns) < 3:
            return None
        cuts = _cut_rows(tokens, len(columns), locale, len(columns))
        for cut in cuts:
            if _TOTAL.match(cut.label) and len(cut.values) == len(columns):
                within = names.index("within_one_year")
                cell = cut.values[within]
                values = [t.value if t.value is not None else Decimal(0) for t in cut.values]
                gross = values[names.index("gross")]
                if cell.value is None or abs(gross - (sum(values) - gross)) > len(values):
                    return None  # the gross amount is the sum of the maturities: read soundly
                label = f"{cut.label} — {columns[within][1]}"
                return Field(
                    "current_liabilities",
                    label,
                    year,
                    cell.value,
                    page,
                    unit[0],
                    Statement.BALANCE,
                    cell.raw,
                    unit[1],
                    0,
                )
    return None


def maturity_fields(
    pages: Sequence[str], locale: Locale, unit: tuple[str, int]
) -> tuple[Field, ...]:
    """The total due within one year of each dated maturity table in ``pages``."""
    fields: list[Field] = []
    for number, text in enumerate(pages, start=1):
        lines = text.split("\n")
        for index, line in enumerate(lines):
            if MATURITY_HEADING.search(line) is None or len(line.split()) > 14:
                continue
            date = _DATE.search(line)
            if date is None:
                continue
            year = int(date.group(1))
            found = _table_field(lines[index + 1 : index + 40], number, year, locale, unit)
            if found is not None:
                fields.append(found)
    return tuple(fields)
