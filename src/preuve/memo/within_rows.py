"""A debt note's "of which due within one year" row: the current part of the borrowings.

A French GAAP balance sheet prints its borrowings in one line, with no current part. A
net-debt note may give that part as a row under the borrowings' total, rather than as a
maturity table's column (:mod:`preuve.memo.maturity`)::

    Emprunts et dettes financières                     37 550     32 400
      dont échéances à moins d'un an (hors concours)    7 900      7 200

This module reads such a row soundly:

- the row opens with a part word (``dont``, ``of which``) and names a within-one-year
  maturity (the maturity reader's ``within_one_year`` words);
- its years are the note's column line above it (``2025 2024``); each value is the year's;
- the row it is part of (the nearest row above with as many values that is no part row)
  holds the balance sheet's financial debts for every year (``financial``): else nothing
  is read (missed, never misread);
- when the row excludes the bank overdrafts (``hors concours``, ``excluding overdrafts``),
  the overdrafts row of the same note (always due within a year) is read too.

It gives ``financial_debts_within_one_year`` fields, and ``overdrafts_within_one_year``
ones when the overdrafts are apart, with page and raw text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal

from preuve.core.numbers import Locale
from preuve.memo.lexicon import Statement
from preuve.memo.maturity import COLUMN_WORDS
from preuve.memo.periods import years_of_line
from preuve.memo.statements import Field, _cut_rows, _tokenize

__all__ = ["within_one_year_rows"]

_PART = re.compile(r"(?i)^(?:dont|of which|including)\b")
_WITHOUT_OVERDRAFTS = re.compile(
    r"(?i)\b(?:hors|excluding|excl\.?|sans) (?:les )?(?:concours|découverts?|(?:bank )?overdrafts?)"
)
_OVERDRAFTS = re.compile(
    r"(?i)^(?:dont )?(?:concours bancaires(?: courants)?|découverts? bancaires?"
    r"|bank overdrafts?|overdrafts?)\b"
)
_LOOKBACK = 12  # lines above the part row where its total and the column line may be


def _row(line: str, columns: int, locale: Locale) -> tuple[str, list[tuple[Decimal, str]]] | None:
    """(label, values with their raw text) of a line with exactly ``columns`` values."""
    cuts = _cut_rows(_tokenize(line, locale), columns, locale, columns)
    if len(cuts) != 1 or len(cuts[0].values) != columns:
        return None
    values = [(t.value, t.raw) for t in cuts[0].values if t.value is not None]
    return (cuts[0].label.strip(), values) if len(values) == columns else None


def _fields(
    key: str,
    row: tuple[str, list[tuple[Decimal, str]]],
    years: list[int],
    page: int,
    unit: tuple[str, int],
) -> list[Field]:
    """One field per year of a row's values."""
    label, values = row
    return [
        Field(key, label, year, value, page, unit[0], Statement.BALANCE, raw, unit[1], 0)
        for year, (value, raw) in zip(years, values, strict=True)
    ]


def _page_rows(
    lines: list[str],
    page: int,
    locale: Locale,
    unit: tuple[str, int],
    financial: Mapping[int, Decimal],
) -> list[Field]:
    for index, line in enumerate(lines):
        label = line.strip()
        if not _PART.match(label) or not COLUMN_WORDS["within_one_year"].search(label):
            continue
        above = lines[max(0, index - _LOOKBACK) : index]
        heads = [years_of_line(a) for a in above]
        years = next(([y for y, _, _ in h] for h in reversed(heads) if h and len(h) >= 2), None)
        if years is None or len(set(years)) != len(years):
            continue
        part = _row(line, len(years), locale)
        if part is None:
            continue
        rows = [r for a in above if (r := _row(a, len(years), locale)) is not None]
        totals = [r for r in rows if not _PART.match(r[0])]
        if not totals or any(
            year not in financial or abs(value - financial[year]) > 1
            for year, (value, _) in zip(years, totals[-1][1], strict=True)
        ):
            continue  # not the part of the balance sheet's financial debts
        fields = _fields("financial_debts_within_one_year", part, years, page, unit)
        if _WITHOUT_OVERDRAFTS.search(part[0]):
            overdrafts = [r for r in rows if _OVERDRAFTS.match(r[0])]
            if len(overdrafts) != 1:
                continue  # overdrafts apart but not printed once: the part is incomplete
            fields += _fields("overdrafts_within_one_year", overdrafts[0], years, page, unit)
        return fields
    return []


def within_one_year_rows(
    pages: Sequence[str],
    locale: Locale,
    unit: tuple[str, int],
    financial: Mapping[int, Decimal],
) -> tuple[Field, ...]:
    """The financial debts due within one year that a note's part row gives (see the
    module's docstring), for the years of ``financial`` (the balance sheet's financial
    debts per year); the first such row of the report."""
    for number, text in enumerate(pages, start=1):
        if "dont" not in text and "of which" not in text and "including" not in text:
            continue
        found = _page_rows(text.split("\n"), number, locale, unit, financial)
        if found:
            return tuple(found)
    return ()
