"""Statement fields (concept, year) from the table reader, for the memo's ratios and checks.

The memo's ratios take one value per concept and year. A table keyed by period gives that
without mixing periods:

- a balance sheet column is a date: the first column printed for a year is that year's
  (``July 29, 2023`` before ``January 28, 2023``);
- income and cash-flow columns are durations: one duration is chosen for the whole report
  (twelve months when a table prints them, else the longest printed, so a 10-Q gives six
  months, never three months for one line and six for another), and a year with no
  column of that duration has no field.

Each field keeps its row's label, page, unit and the value as printed. Fields the table
reader cannot give (no statement table found) come from the lexicon reader
(:func:`merged_statements`), so a report either reader handles keeps its figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal

from preuve.core.defects import Defect
from preuve.core.dot_groups import dot_reading, read_with_dots
from preuve.core.numbers import detect_locale
from preuve.memo.identities import IDENTITY_VIOLATED, IdentityReport
from preuve.memo.lexicon import LabelRule, Statement
from preuve.memo.maturity import maturity_fields
from preuve.memo.note_sentences import sentence_fields
from preuve.memo.operands import FINANCIAL_DEBTS
from preuve.memo.periods import Period
from preuve.memo.sections import continued_pages
from preuve.memo.statements import Field, Statements
from preuve.memo.table_checks import Identity, checked_table
from preuve.memo.tables import StatementTable, read_tables
from preuve.memo.within_rows import within_one_year_rows

__all__ = [
    "chosen_duration",
    "debts_subtotal",
    "merged_statements",
    "table_identities",
    "table_statements",
    "unattributed_columns",
    "with_table_identities",
]


def chosen_duration(tables: Sequence[StatementTable]) -> int | None:
    """The one duration (months) the report's income and cash-flow fields use."""
    durations = {
        p.months for t in tables if t.statement is not Statement.BALANCE for p in t.periods
    }
    durations.discard(0)
    if not durations:
        return None
    return 12 if 12 in durations else max(durations)


def _columns(table: StatementTable, months: int | None) -> dict[Period, int]:
    """The period kept for each year of ``table``."""
    kept: dict[int, Period] = {}
    for period in table.periods:
        wanted = 0 if table.statement is Statement.BALANCE else months
        if period.months == wanted:
            kept.setdefault(period.year, period)
    return {period: year for year, period in kept.items()}


# Balance-sheet concepts that are liabilities (their sign follows the layout's, see below).
LIABILITIES = frozenset(
    {
        "current_liabilities",
        "total_liabilities",
        "long_term_debt",
        "current_debt",
        "bank_overdrafts",
        "gross_debt",
        "bank_borrowings",
        "bond_debt",
        "other_borrowings",
        "trade_payables",
        "other_liabilities",
        "lease_liabilities_noncurrent",
        "lease_liabilities_current",
    }
)
_LIABILITY_TOTALS = ("total_liabilities", "current_liabilities")


_STATEMENT_ORDER = {Statement.INCOME: 0, Statement.BALANCE: 1, Statement.CASHFLOW: 2}


def table_statements(
    pages: Sequence[str],
    user_rules: tuple[LabelRule, ...] = (),
    tables: Sequence[StatementTable] | None = None,
) -> tuple[Field, ...]:
    """One field per concept and year from the primary tables of ``pages``."""
    tables = read_tables(pages) if tables is None else tables
    months = chosen_duration(tables)
    fields: list[Field] = []
    primary = {
        mapped.concept
        for table in tables
        if not table.supplement
        for mapped in checked_table(table, user_rules)[0]
        if mapped.concept is not None
    }
    # A concept two statements print is the income statement's, then the balance sheet's,
    # before the cash-flow statement's, which restates them (its "dotations aux
    # amortissements et provisions" add back provisions the income statement prints apart).
    for table in sorted(
        tables, key=lambda t: _STATEMENT_ORDER.get(t.statement, len(_STATEMENT_ORDER))
    ):
        columns = _columns(table, months)
        rows = checked_table(table, user_rules)[0]
        # A net-assets layout prints its liabilities in parentheses: in the periods where
        # a liabilities total is negative, liability lines are read as their magnitudes.
        negative = {
            c.period
            for m in rows
            if table.statement is Statement.BALANCE and m.concept in _LIABILITY_TOTALS
            for c in m.row.cells
            if c.value < 0
        }
        for mapped in rows:
            if mapped.concept is None or (table.supplement and mapped.concept in primary):
                continue  # a note table gives only what the statements do not print
            for cell in mapped.row.cells:
                year = columns.get(cell.period)
                if year is None:
                    continue
                flip = cell.period in negative and mapped.concept in LIABILITIES
                fields.append(
                    Field(
                        mapped.concept,
                        mapped.row.label,
                        year,
                        -cell.value if flip else cell.value,
                        cell.page,
                        table.unit,
                        table.statement,
                        cell.raw,
                        table.scale,
                        cell.period.months,
                    )
                )
    return tuple(fields)


def merged_statements(
    pages: Sequence[str],
    lexicon: Statements,
    user_rules: tuple[LabelRule, ...] = (),
    tables: Sequence[StatementTable] | None = None,
) -> Statements:
    """The table reader's fields, completed by the lexicon reader's for the (concept, year)
    pairs the tables do not give (``tables``: the report's, when already read)."""
    tables = read_tables(pages) if tables is None else tables
    fields = list(table_statements(pages, user_rules, tables))
    have = {(f.key, f.year) for f in fields}
    # A statement the tables found is read on its own pages only: a lexicon field of that
    # statement from another page (key figures in millions, a note) is left out.
    # A page headed by the statement's title "(continued)" is one of its pages.
    pages_of = {t.statement: set(t.pages) for t in tables}
    pages_of = {s: p | continued_pages(pages, s, p) for s, p in pages_of.items()}
    # A row the tables read keeps the tables' concept (a "Borrowings" row under "Current
    # liabilities" is current debt): the lexicon's reading of the same row is left out.
    read = {(r.page, r.label.casefold()) for t in tables for r in t.rows}
    # A table printing another entity's columns beside the group's (the parent company's,
    # or columns no cue attributes) is read by the tables alone: the lexicon keys a value
    # by its year and cannot tell whose column it is in.
    entity_pages = {p for t in tables if t.company_rows or t.unattributed_rows for p in t.pages}
    # A lexicon amount whose dot the amount alone does not tell (58.000) is read as the
    # tables read theirs, or left out (see preuve.core.dot_groups).
    dots = dot_reading(c.raw for t in tables for r in t.rows for c in r.cells)
    fields += [
        replace(f, value=value)
        for f in lexicon.fields
        if (f.key, f.year) not in have
        and (f.statement not in pages_of or f.page in pages_of[f.statement])
        and (f.page, f.label.casefold()) not in read
        and f.page not in entity_pages
        and (value := read_with_dots(f.raw, f.value, dots)) is not None
    ]
    locale = detect_locale("\n".join(pages)) if not lexicon.fields else lexicon.locale
    # French GAAP prints no current liabilities: its maturity note's debts due within a year.
    balance = next((t for t in tables if t.statement is Statement.BALANCE), None)
    if balance is not None:
        have = {(f.key, f.year) for f in fields}
        debts = debts_subtotal(balance, user_rules)
        totals = {year: value for year, (value, _, _) in debts.items()}
        financial = {year: value for year, (_, value, _) in debts.items()}
        noted = [
            f
            for f in maturity_fields(
                pages, locale, (balance.unit, balance.scale), totals, financial
            )
            if (f.key, f.year) not in have
        ]
        # Else a debt note's "of which due within one year" row under the borrowings.
        current = {f.year for f in noted} | {y for k, y in have if k == "current_liabilities"}
        noted += [
            f
            for f in within_one_year_rows(pages, locale, (balance.unit, balance.scale), financial)
            if f.year not in current
        ]
        # The debts subtotal is an input of the current liabilities only a note completes.
        fields += noted + [
            debts[f.year][2]
            for f in noted
            if f.key == "financial_debts_within_one_year" and f.year in debts
        ]
        # What the notes state in a sentence, at a date the balance sheet prints.
        dates = [(p.year, p.month, p.day) for p in balance.periods if p.months == 0 and p.month]
        have = {(f.key, f.year) for f in fields}
        stated = sentence_fields(pages, dates, user_rules=user_rules)
        fields += [f for f in stated if (f.key, f.year) not in have]
    months = chosen_duration(tables) or 12
    return Statements(
        fields=tuple(fields),
        locale=locale,
        unmapped=lexicon.unmapped,
        flow_months=months,
        doubtful=unattributed_columns(tables),
    )


def unattributed_columns(tables: Sequence[StatementTable]) -> tuple[str, ...]:
    """Why a table's values are left out: columns no cue attributes to the group or the
    parent company (see :mod:`preuve.memo.entities`)."""
    return tuple(
        f"{t.statement.value} p. {', '.join(map(str, t.pages))}: {len(t.unattributed_rows)}"
        " rows in value columns not attributed to the group or the company (the same"
        " period printed twice, no entity labels that tell the columns apart)"
        for t in tables
        if t.unattributed_rows
    )


def debts_subtotal(
    balance: StatementTable, user_rules: tuple[LabelRule, ...] = ()
) -> dict[int, tuple[Decimal, Decimal, Field]]:
    """Per balance-sheet year: the subtotal of the debts (the first subtotal the structure
    finds that adds up the trade payables with other rows), the financial debts among its
    rows, and the subtotal as a ``debts_total`` field. Empty when no such subtotal holds."""
    rows, identities = checked_table(balance, user_rules)
    for identity in identities:
        parts = [rows[i] for i in identity.parts]
        if identity.holds is not True or not any(m.concept == "trade_payables" for m in parts):
            continue
        total = rows[identity.row].row
        found: dict[int, tuple[Decimal, Decimal, Field]] = {}
        for cell in total.cells:
            if cell.period.months != 0:
                continue
            debts = [m.row.value(cell.period) for m in parts if m.concept in FINANCIAL_DEBTS]
            amount = sum((d for d in debts if d is not None), Decimal(0))
            field = Field(
                "debts_total",
                total.label or "(total des dettes)",
                cell.period.year,
                cell.value,
                cell.page,
                balance.unit,
                Statement.BALANCE,
                cell.raw,
                balance.scale,
                0,
            )
            found.setdefault(cell.period.year, (cell.value, amount, field))
        return found
    return {}


def table_identities(
    pages: Sequence[str],
    user_rules: tuple[LabelRule, ...] = (),
    tables: Sequence[StatementTable] | None = None,
) -> tuple[Identity, ...]:
    """The subtotals read from the structure of the report's primary tables, checked
    against their rows. (The SPEC identities are checked on the fields by
    :func:`preuve.memo.identities.check_identities`, so they are not counted twice.)"""
    found: list[Identity] = []
    for table in read_tables(pages) if tables is None else tables:
        found += checked_table(table, user_rules)[1]
    return tuple(found)


def with_table_identities(report: IdentityReport, identities: Sequence[Identity]) -> IdentityReport:
    """The lexicon identities' report plus the tables' (each holding or violated identity
    counts once per period; an unresolved subtotal is not counted)."""
    checked = sum(len(i.left) for i in identities if i.holds is not None)
    violated = tuple(
        Defect(
            IDENTITY_VIOLATED,
            f"{identity.name} does not hold (page {', '.join(map(str, identity.pages))}):"
            + "; ".join(
                f" {p.key} {identity.left[p]} vs {identity.right.get(p)}" for p in identity.left
            ),
            path="statements.table",
        )
        for identity in identities
        if identity.holds is False
    )
    return replace(report, structural=checked, structural_violations=violated)
