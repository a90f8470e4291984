"""Scoring extracted statement rows against held-out gold (the only reader of that gold).

Two gold formats are read:

- FinanceBench filings (``tests/heldout/financebench/*.gold.json``): statements with
  typed periods (``year``, ``three_months``, ``six_months``, ``as_of``) and rows whose
  values are keyed by period;
- annual reports (``tests/heldout/memo/reports/*.gold.json``): rows keyed by year (a
  balance-sheet year is a date, any other a twelve-month period).

A gold value is *right* when an extracted row on the gold page, matched by its label (or,
for a total printed without a label, by its values), holds the same value for a period
of the same length ending in the same year (and on the same day when both print it); a
gold value ``null`` (a row the group does not print for that period) is no value. It is
*wrong* when the matched row holds another value for that period, and *missed* otherwise.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from preuve.memo.covenant import covenant_ratio
from preuve.memo.doubtful import without_doubtful
from preuve.memo.identities import check_identities
from preuve.memo.ratios import compute_ratios, detect_company
from preuve.memo.statements import extract_statements
from preuve.memo.table_fields import merged_statements, table_identities, with_table_identities
from preuve.memo.tables import read_tables

__all__ = [
    "RATIO_IDS",
    "ExtractedRow",
    "GoldRow",
    "PeriodMark",
    "Score",
    "lexicon_rows",
    "load_gold_rows",
    "ratio_deviations",
    "score_rows",
    "table_rows",
]

_MONTHS = {"year": 12, "three_months": 3, "six_months": 6, "nine_months": 9, "as_of": 0}

_FOOTNOTES = re.compile(r"(?:\s*\((?:\d|[a-z])\))+\s*$")

PeriodMark = tuple[int | None, int, str]  # months (None: unknown), end year, end date or ""


@dataclass(frozen=True, slots=True)
class GoldRow:
    """A gold statement row; ``other`` holds the row's columns that are not a period's
    value (``other_columns``: the gross and depreciation columns of a French balance
    sheet), kept for reference and not scored."""

    label: str
    page: int
    values: dict[PeriodMark, Decimal]
    other: dict[str, Decimal] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ExtractedRow:
    label: str
    page: int
    values: dict[PeriodMark, Decimal]


@dataclass(frozen=True, slots=True)
class Score:
    values: int
    right: int
    wrong: int
    rows: int
    rows_right: int

    @property
    def missed(self) -> int:
        return self.values - self.right - self.wrong


def _key(text: str) -> str:
    """A label compared without case, punctuation or footnote markers (``Emprunts (1)``)."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    text = _FOOTNOTES.sub("", text)
    return re.sub(r"[^\w]+", "", text)


def load_gold_rows(path: Path) -> list[GoldRow]:
    """The gold rows of one held-out file, in either format."""
    data = json.loads(path.read_text(encoding="utf-8"))
    rows: list[GoldRow] = []
    if isinstance(data.get("statements"), list):
        for statement in data["statements"]:
            marks: dict[str, PeriodMark] = {}
            for period in statement["periods"]:
                end = str(period["end"])
                marks[str(period["key"])] = (_MONTHS[str(period["type"])], int(end[:4]), end)
            for row in statement["rows"]:
                values = {
                    marks[k]: Decimal(str(v)) for k, v in row["values"].items() if v is not None
                }
                if values:
                    rows.append(GoldRow(str(row["label"]), int(row["page"]), values))
        return rows
    # Amounts given as JSON floats (286.4) are read at the report's printed precision
    # (``decimals``), so that a float's binary form never decides a comparison.
    places = data.get("decimals")
    for kind, statement_rows in data["statements"].items():
        months = 0 if kind == "balance" else 12
        for row in statement_rows:
            # A period the row has no value for (``null``: a row only the parent company
            # prints, beside the group's columns) is no gold value.
            values = {
                (months, int(year), ""): _amount(v, places)
                for year, v in row["values"].items()
                if v is not None
            }
            other = {
                str(k): _amount(v, places)
                for k, v in row.get("other_columns", {}).items()
                if v is not None
            }
            if values:
                rows.append(GoldRow(str(row["label"]), int(row["page"]), values, other))
    return rows


def _amount(value: object, places: object) -> Decimal:
    """A gold amount as a Decimal (an int, a float or a string in the JSON). The report's
    precision only removes a float's binary noise (``0.30000000000000004``): an amount
    printed with more decimals than the statements' (earnings per share, ``0.52`` in a
    report in whole thousands) keeps them."""
    amount = Decimal(str(value))
    if isinstance(places, int) and not isinstance(value, int):
        rounded = amount.quantize(Decimal(1).scaleb(-places))
        if abs(rounded - amount) < Decimal("1e-9"):
            amount = rounded
    return amount


def _same_period(gold: PeriodMark, found: PeriodMark) -> bool:
    months_ok = found[0] is None or found[0] == gold[0]
    date_ok = not gold[2] or len(found[2]) < 10 or found[2] == gold[2]
    return months_ok and gold[1] == found[1] and date_ok


def _lookup(row: ExtractedRow, period: PeriodMark) -> Decimal | None:
    return next((v for p, v in row.values.items() if _same_period(period, p)), None)


def _candidates(gold: GoldRow, found: Sequence[ExtractedRow]) -> list[int]:
    on_page = [i for i, row in enumerate(found) if row.page == gold.page]
    if gold.label:
        key = _key(gold.label)
        return [i for i in on_page if _key(found[i].label) == key] or [
            i for i in on_page if key and _key(found[i].label).endswith(key)
        ]
    return [i for i in on_page if all(_lookup(found[i], p) == v for p, v in gold.values.items())]


def score_rows(gold: Sequence[GoldRow], found: Sequence[ExtractedRow]) -> Score:
    """Right, wrong and missed values of ``gold`` among ``found`` (each row used once)."""
    used: set[int] = set()
    right = wrong = rows_right = 0
    for row in gold:
        free = [i for i in _candidates(row, found) if i not in used]
        if not free:
            continue
        best = max(
            free, key=lambda i: sum(_lookup(found[i], p) == v for p, v in row.values.items())
        )
        used.add(best)
        hits = 0
        for period, value in row.values.items():
            got = _lookup(found[best], period)
            if got == value:
                hits += 1
            elif got is not None:
                wrong += 1
        right += hits
        rows_right += hits == len(row.values)
    total = sum(len(r.values) for r in gold)
    return Score(total, right, wrong, len(gold), rows_right)


def lexicon_rows(pages: Sequence[str]) -> list[ExtractedRow]:
    """The lexicon reader's fields and unmapped rows, keyed by year only (it knows no
    period length)."""
    statements = extract_statements(pages)
    grouped: dict[tuple[str, int], dict[PeriodMark, Decimal]] = defaultdict(dict)
    for f in statements.fields:
        grouped[(f.label, f.page)][(None, f.year, "")] = f.value
    for row in statements.unmapped:
        for year, value in zip(row.years, row.values, strict=False):
            grouped[(row.label, row.page)][(None, year, "")] = value
    return [ExtractedRow(label, page, values) for (label, page), values in grouped.items()]


def table_rows(
    pages: Sequence[str], positions: Callable[[int], Sequence[float]] | None = None
) -> list[ExtractedRow]:
    """The table reader's rows, keyed by their periods (``positions``: the characters'
    x-positions of page N, to place blank cells)."""
    rows: list[ExtractedRow] = []
    for table in read_tables(pages, positions):
        for row in table.rows:
            values: dict[PeriodMark, Decimal] = {}
            for cell in row.cells:
                date = cell.period.end if cell.period.month else ""
                values[(cell.period.months, cell.period.year, date)] = cell.value
            rows.append(ExtractedRow(row.label, row.page, values))
    return rows


# Held-out gold ratio names and the suffix of the R- fact that computes each.
RATIO_IDS = {
    "leverage_net_debt_ebitda": "levier",
    "leverage_with_leases": "levier-loyers",
    "gearing": "gearing",
    "interest_cover": "couverture",
    "net_margin": "marge",
    "current_ratio": "liquidite",
    "free_cash_flow": "fcf",
}


# Gold ``inputs`` texts give the computation first, then other readings writers differ on
# ("Variantes : ...", "Alternative with ...: 2.3857", "Including leases: 1.4769 / 1.3824"):
# a later sentence with a variant word or a colon lists them.
_SENTENCES = re.compile(r"(?<=[.\d)])\.?\s+(?=[A-ZÀ-Ý])")
_VARIANT_WORD = re.compile(r"(?i)\b(?:variantes?|variants?|alternatives?)\b\s*:?")
_ASIDE = re.compile(r"\([^()]*\)")
_NUMBER = re.compile(r"[-\u2212]?(?:\d{1,3}(?:[\u00a0\u202f ]\d{3})+|\d+)(?:[.,]\d+)*")


def _number(raw: str) -> Decimal:
    """A gold text's number: spaces and a comma before exactly three digits group
    thousands (``1 477 531``, ``2,388``); another comma is a decimal one (``0,6818``)."""
    text = re.sub(r"[\u00a0\u202f ]", "", raw).replace("\u2212", "-")
    if re.fullmatch(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
        text = text.replace(",", "")
    return Decimal(text.replace(",", "."))


def _by_year(clause: str, years: Sequence[str]) -> dict[str, list[Decimal]]:
    """The values a variant clause gives each year: after the year when it names them
    (``2025 1.4228, 2024 0.5259``), else in the order of the gold's years when there are as
    many (``0.4372 / 1.3113``), else one value for the latest year."""
    clause = _ASIDE.sub(" ", clause)
    parts = re.split(r"(?<![\d\u00a0\u202f])\b((?:19|20)\d\d)\b(?=\s*[:\s][-\u2212\d])", clause)
    found: dict[str, list[Decimal]] = {}
    if len(parts) > 1:
        for year, text in zip(parts[1::2], parts[2::2], strict=True):
            if year in years:
                found.setdefault(year, []).extend(_number(n) for n in _NUMBER.findall(text))
        return found
    numbers = [_number(n) for n in _NUMBER.findall(clause)]
    if len(numbers) == len(years):
        return {year: [value] for year, value in zip(years, numbers, strict=True)}
    if len(numbers) == 1 and years:
        return {years[0]: numbers}
    return {}


def listed_variants(entry: object, year: str | None = None) -> tuple[Decimal, ...]:
    """The values a gold ratio's ``inputs`` text lists as variants of its definition (for a
    ratio whose definition writers differ on): in each sentence after the first that has a
    variant word (``Variante(s)``, ``Variant(s)``, ``Alternative``) or a colon, the figures
    after it, per year (``year``: that year's only; None: every year's)."""
    text = entry.get("inputs", "") if isinstance(entry, dict) else ""
    if not isinstance(entry, dict) or not isinstance(text, str):
        return ()
    years = [str(k) for k in entry if str(k).isdigit()]
    values: list[Decimal] = []
    first, *later = _SENTENCES.split(text)
    # The computation's own sentence may end on a reading of its own ("... ; part du groupe :
    # 0.4372 / 1.3113"): its clauses after the first, asides left out, that have a colon.
    while _ASIDE.search(first):
        first = _ASIDE.sub(" ", first)
    own = [c for c in first.split(";")[1:] if ":" in c]
    for sentence in [*own, *later]:
        marker = _VARIANT_WORD.search(sentence)
        if marker is None and ":" not in sentence:
            continue
        for clause in sentence.split(";"):
            start = marker.end() if marker is not None and marker.start() < len(clause) else 0
            head, colon, tail = clause[start:].rpartition(":")
            found = _by_year(tail if colon else head + tail, years)
            for key, numbers in found.items():
                if year is None or key == year:
                    values.extend(numbers)
            marker = None  # the word opens the sentence's first clause only
    return tuple(values)


_ADJUSTED_EBITDA = re.compile(r"(?i)\badjusted ebitda\b|\bebitda ajusté\b")


def _on_adjusted_ebitda(entry: object) -> bool:
    """Whether a gold ratio's definition (the first sentence of its ``inputs`` text, before
    any variant it lists) divides by an adjusted EBITDA."""
    text = entry.get("inputs", "") if isinstance(entry, dict) else ""
    if not isinstance(text, str):
        return False
    first = _SENTENCES.split(text)[0]
    marker = _VARIANT_WORD.search(first)
    return _ADJUSTED_EBITDA.search(first[: marker.start()] if marker else first) is not None


def ratio_deviations(
    gold_path: Path,
    pages: Sequence[str],
    *,
    variants: bool = False,
    positions: Callable[[int], Sequence[float]] | None = None,
) -> dict[str, float | None]:
    """Relative deviation of each gold ratio value (``name year``) from the memo's R- fact
    computed on ``pages`` (``positions``: the characters' x-positions of page N, as the
    memo pipeline reads them from a PDF); None when the fact was not computed for that
    year. With ``variants``, the smallest deviation from the gold value or a variant it
    lists."""

    document = json.loads(gold_path.read_text(encoding="utf-8"))
    gold = dict(document["ratios"])
    company = detect_company(pages)
    tables = read_tables(pages, positions)
    statements = merged_statements(pages, extract_statements(pages), (), tables)
    # As the memo pipeline: a value a violated identity puts in doubt is no ratio input.
    found = table_identities(pages, (), tables)
    identities = with_table_identities(check_identities(statements), found)
    statements = without_doubtful(statements, identities)
    computed = {
        r.id.rsplit(f"R-{company.slug}-", 1)[-1]: r for r in compute_ratios(statements, company)
    }
    stated = document.get("covenant", {})
    latest = statements.years[0] if statements.years else None
    covenant = covenant_ratio(pages, company, latest)
    if "reported" in stated and latest is not None:
        gold["covenant"] = {str(latest): stated["reported"]}
        if covenant is not None:
            computed["covenant"] = covenant
    deviations: dict[str, float | None] = {}
    for name, plain in {**RATIO_IDS, "covenant": "covenant"}.items():
        # A gold leverage defined on the adjusted EBITDA is compared with the memo's
        # leverage on the adjusted EBITDA, when the report prints both EBITDAs.
        adjusted = f"{plain}-ajuste"
        suffix = adjusted if _on_adjusted_ebitda(gold.get(name)) and adjusted in computed else plain
        for year, expected in gold.get(name, {}).items():
            if not year.isdigit():
                continue
            ratio = computed.get(suffix)
            got = None if ratio is None else ratio.value(int(year))
            targets = [Decimal(str(expected))]
            targets += list(listed_variants(gold.get(name), year)) if variants else []
            deviations[f"{name} {year}"] = (
                None
                if got is None
                else min(float(abs(got - t) / abs(t)) for t in targets if t != 0)
            )
    return deviations
