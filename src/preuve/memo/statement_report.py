"""A report's statements as one checked object: tables, concepts, identities.

What ``preuve statements`` prints: each primary statement with its period columns, every
row (mapped to a concept or not), the page and span of each value, and the identities
(subtotals from the structure, SPEC identities) with the count checked and violated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from preuve.memo.concepts import MappedRow
from preuve.memo.lexicon import LabelRule, Statement
from preuve.memo.table_checks import Identity, check_accounting, checked_table
from preuve.memo.tables import StatementTable, TableRow, read_tables

__all__ = ["StatementReport", "read_statement_report", "tables_json"]


@dataclass(frozen=True, slots=True)
class StatementReport:
    tables: tuple[tuple[StatementTable, tuple[MappedRow, ...]], ...]
    identities: tuple[Identity, ...]

    @property
    def checked(self) -> int:
        return sum(i.holds is not None for i in self.identities)

    @property
    def violated(self) -> tuple[Identity, ...]:
        return tuple(i for i in self.identities if i.holds is False)

    @property
    def unresolved(self) -> int:
        return sum(i.holds is None for i in self.identities)

    @property
    def unmapped(self) -> int:
        return sum(m.concept is None for _, rows in self.tables for m in rows)

    def to_json(self) -> dict[str, Any]:
        return {
            "statements": [_table_json(table, rows) for table, rows in self.tables],
            "identities": {
                "checked": self.checked,
                "violated": len(self.violated),
                "unresolved": self.unresolved,
                "items": [_identity_json(i) for i in self.identities],
            },
            "unmapped_rows": self.unmapped,
        }


def _table_json(table: StatementTable, rows: Sequence[MappedRow]) -> dict[str, Any]:
    return {
        "statement": table.statement.value,
        "heading": table.heading,
        "pages": table.pages,
        "unit": table.unit,
        "periods": [p.key for p in table.periods],
        "rows": [
            {
                "label": m.row.label,
                "concept": m.concept,
                "total": m.row.total,
                "page": m.row.page,
                "values": {
                    c.period.key: {
                        "value": str(c.value),
                        "raw": c.raw,
                        "page": c.page,
                        "span": [c.start, c.end],
                    }
                    for c in m.row.cells
                },
            }
            for m in rows
        ],
        # The parent company's columns, kept apart (never a field); and the values of
        # columns no cue attributes to an entity, flagged and not used.
        "company_rows": _apart_json(table.company_rows),
        "unattributed_rows": _apart_json(table.unattributed_rows),
    }


def _apart_json(rows: Sequence[TableRow]) -> list[dict[str, Any]]:
    """Rows kept out of the statement's fields: each value in printed order, with its
    period, page and span (an unattributed row prints a period twice)."""
    return [
        {
            "label": row.label,
            "page": row.page,
            "values": [
                {
                    "period": c.period.key,
                    "value": str(c.value),
                    "raw": c.raw,
                    "page": c.page,
                    "span": [c.start, c.end],
                }
                for c in row.cells
            ],
        }
        for row in rows
    ]


def _identity_json(identity: Identity) -> dict[str, Any]:
    return {
        "name": identity.name,
        "pages": list(identity.pages),
        "holds": identity.holds,
        "left": {p.key: str(v) for p, v in identity.left.items()},
        "right": {p.key: str(v) for p, v in identity.right.items()},
    }


def read_statement_report(
    pages: Sequence[str],
    user_rules: tuple[LabelRule, ...] = (),
    positions: Callable[[int], Sequence[float]] | None = None,
) -> StatementReport:
    """Tables, concepts and identities of a report's page texts (``positions``: the
    characters' x on page N, to place blank cells)."""
    tables = read_tables(pages, positions)
    mapped: list[tuple[StatementTable, tuple[MappedRow, ...]]] = []
    identities: list[Identity] = []
    for table in tables:
        rows, found = checked_table(table, user_rules)
        mapped.append((table, tuple(rows)))
        identities += found
    by_kind = {t.statement: rows for t, rows in mapped if not t.supplement}
    identities += check_accounting(
        by_kind.get(Statement.BALANCE, ()), by_kind.get(Statement.CASHFLOW, ())
    )
    return StatementReport(tuple(mapped), tuple(identities))


def tables_json(
    tables: Sequence[StatementTable], user_rules: tuple[LabelRule, ...] = ()
) -> list[dict[str, Any]]:
    """The tables as JSON (each value with its page and span), with their concepts."""
    return [_table_json(table, checked_table(table, user_rules)[0]) for table in tables]
