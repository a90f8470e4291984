"""A maturity note's debts due within one year: the current liabilities French GAAP omits.

A French GAAP balance sheet prints its debts by nature, with no current / non-current
split; its notes give the split in a maturity table (``État des échéances des dettes``:
``Montant brut | À un an au plus | À plus d'un an``). This module reads such a table:

- its heading names the debts' maturities (``MATURITY_HEADING``) and, for the table's date,
  a date (``au 31 décembre 2025``) or the closing (``à la clôture``: the latest balance
  sheet's date); no date, no field (the year is never guessed);
- its column header, the lines between the heading and the first row, names each column
  by what it holds (``COLUMN_WORDS``: the gross amount, due within one year, beyond);
  the order of those words in the header is the order of the values;
- its ``Total`` row, with exactly one value per named column and its gross amount the sum
  of the maturity columns (so plain-space thousands are never misread), gives the total due
  within one year, at the table's date, with its page and raw text: a
  ``current_liabilities`` field when its gross amount is the balance sheet's debts
  subtotal, a ``financial_debts_within_one_year`` field when it is the financial debts among
  them (a schedule of the borrowings alone: the current liabilities are then the debts less
  the financial debts plus that part, :func:`preuve.memo.operands.current_liabilities`).
  Anything else (no total, another number of values, no within-one-year column, a gross
  amount that is neither) gives nothing: missed, never misread.

The date is the heading's (``au 31 décembre 2025``), else a numeric one in the column header
(``31/12/2025, en milliers d'euros  Total  < 1 an  1 à 5 ans  > 5 ans``).

The words are declared here, French and English, for a user to read; the rows are cut by
the statements reader's tokenizer (plain-space thousands read soundly).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from preuve.core.numbers import Locale
from preuve.memo.lexicon import Statement
from preuve.memo.statements import Field, _cut_rows, _tokenize

__all__ = [
    "COLUMN_WORDS",
    "MATURITY_HEADING",
    "MaturityTotal",
    "maturity_fields",
    "maturity_totals",
]

MATURITY_HEADING = re.compile(
    r"(?i)\b(?:(?:état|etat|tableau) des échéances|échéances? des dettes"
    r"|échéanciers?(?: des dettes)?|maturit(?:y|ies) of (?:liabilities|debts?)"
    r"|liabilities by maturity|maturity (?:analysis|schedule))\b"
)
# What each column holds, as its header's first words say it (stacked headers keep their
# first line in column order: "Montant  À un an  De un à  À plus" over "brut  au plus  cinq
# ans  de cinq ans": "de un à" opens a column of its own, whatever its end).
COLUMN_WORDS: dict[str, re.Pattern[str]] = {
    "gross": re.compile(r"(?i)\b(?:montant|total|gross|amount)\b"),
    "within_one_year": re.compile(
        r"(?i)(?:\bà (?:un|1) an\b|\bà moins d'un an\b|\bmoins d'un an\b|\bless than (?:one|1) year"
        r"|\bwithin (?:one|1) year|\b(?:one|1) year or less\b|[≤<] ?(?:1|un) an\b"
        r"|[≤<] ?(?:1|one) year\b)"
    ),
    "beyond": re.compile(
        r"(?i)(?:\bà plus\b|\bplus d'un an\b|\bde (?:un|1) à\b|\bmore than\b"
        r"|\bafter (?:one|1) year\b|\b(?:1|one)\s*(?:-|to)\s*\d+ years\b|[>≥] ?\d+ ans?\b"
        r"|[>≥] ?\d+ years?\b|\b(?:de )?\d+ à \d+ ans\b)"
    ),
}
_DATE = re.compile(
    r"(?i)\b(?:au|at|as of)\s+(?:\d{1,2}(?:er)?\s+)?(?:janvier|février|mars|avril|mai|juin"
    r"|juillet|août|septembre|octobre|novembre|décembre|january|february|march|april|may"
    r"|june|july|august|september|october|november|december)\s+(?:\d{1,2},?\s+)?((?:19|20)\d\d)\b"
)
_NUMERIC_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/((?:19|20)\d\d)\b")
# A heading dated by the closing itself ("à la clôture", "at the balance sheet date"): the
# date of the latest balance sheet, which the accounts are closed at.
_CLOSING = re.compile(
    r"(?i)\b(?:à|a) la (?:date de )?clôture(?: de l'exercice)?\b"
    r"|\bat (?:the )?(?:year[- ]end|balance sheet date|reporting date"
    r"|end of the (?:financial )?year)\b"
)
_TOTAL = re.compile(r"(?i)^total\b")
_ASIDE = re.compile(r"\([^()]*\)")
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


@dataclass(frozen=True, slots=True)
class MaturityTotal:
    """A dated maturity table's ``Total`` row: its gross amount and the part due within one
    year (as printed: ``raw``), with the row's label and the column's words."""

    year: int
    label: str
    gross: Decimal
    within: Decimal
    raw: str
    page: int


def _table_total(lines: list[str], page: int, year: int, locale: Locale) -> MaturityTotal | None:
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
                return MaturityTotal(year, label, gross, cell.value, cell.raw, page)
    return None


def _year(lines: list[str], index: int, closing: int | None = None) -> int | None:
    """The table's date: in its heading (``au 31 décembre 2025``), else ``closing`` (the
    latest balance sheet's year) when its heading dates it by the closing (``à la
    clôture``), else a numeric date in its column header (``31/12/2025, en milliers d'euros
    Total  < 1 an ...``)."""
    heading = _DATE.search(lines[index]) or _NUMERIC_DATE.search(lines[index])
    if heading is not None:
        return int(heading.group(1))
    if closing is not None and _CLOSING.search(lines[index]):
        return closing
    for line in lines[index + 1 : index + 1 + _HEADER_LINES]:
        if len(_columns(line)) >= 2:
            found = _DATE.search(line) or _NUMERIC_DATE.search(line)
            return int(found.group(1)) if found is not None else None
    return None


def maturity_totals(
    pages: Sequence[str], locale: Locale, closing: int | None = None
) -> tuple[MaturityTotal, ...]:
    """The ``Total`` row of each dated maturity table in ``pages`` (``closing``: the year
    of the latest balance sheet, for a table dated "à la clôture")."""
    found: list[MaturityTotal] = []
    for number, text in enumerate(pages, start=1):
        lines = text.split("\n")
        for index, line in enumerate(lines):
            # A heading, not a sentence naming maturities (its unit aside not counted).
            if MATURITY_HEADING.search(line) is None or len(_ASIDE.sub(" ", line).split()) > 14:
                continue
            year = _year(lines, index, closing)
            if year is None:
                continue
            total = _table_total(lines[index + 1 : index + 40], number, year, locale)
            if total is not None:
                found.append(total)
    return tuple(found)


def _close(a: Decimal, b: Decimal) -> bool:
    return abs(a - b) <= 1


def maturity_fields(
    pages: Sequence[str],
    locale: Locale,
    unit: tuple[str, int],
    debts: Mapping[int, Decimal] | None = None,
    financial: Mapping[int, Decimal] | None = None,
) -> tuple[Field, ...]:
    """The total due within one year of each dated maturity table in ``pages``: the debts'
    (``current_liabilities``) when its gross amount is the balance sheet's debts (``debts``,
    per year), the financial debts' (``financial_debts_within_one_year``) when it is the
    balance sheet's financial debts (``financial``); any other table gives nothing. Without
    ``debts``, every table's total is taken as the debts'."""
    fields: list[Field] = []
    closing = max(debts) if debts else None
    for total in maturity_totals(pages, locale, closing):
        if debts is None or (total.year in debts and _close(total.gross, debts[total.year])):
            key = "current_liabilities"
        elif financial is not None and _close(total.gross, financial.get(total.year, Decimal(-1))):
            key = "financial_debts_within_one_year"
        else:
            continue
        fields.append(
            Field(
                key,
                total.label,
                total.year,
                total.within,
                total.page,
                unit[0],
                Statement.BALANCE,
                total.raw,
                unit[1],
                0,
            )
        )
    return tuple(fields)
