"""Concepts of table rows, from the declared mapping (``data/concepts.json`` plus a user's).

Every row keeps its label; a row whose label a rule knows also gets that rule's concept.
When several rows of one table map to one concept (``Net sales`` and ``Total revenues``;
``Property, plant and equipment, gross`` and ``..., net``), the *total beats the component*:
a total row (a ``Total ...`` label) wins, then a label that names no share of it (the
consolidated net income over its ``part du groupe``: ``components`` in the mapping), then the
shorter label (a qualified label is a
component: ``Résultat opérationnel`` over ``Résultat opérationnel courant``, ``Net income``
over ``Net income attributable to ...``), then the row printed first. The others stay in the table
as rows of their own, unmapped for that concept, so no figure counts twice. A row printed
under a balance-sheet section title (``Non-current liabilities`` / ``Borrowings``) is looked
up with the section's qualifier first (``non current borrowings``), so the two
``Borrowings`` rows of an IFRS balance sheet are long-term and current debt, not one of
them taken as the gross debt.
"""

from __future__ import annotations

from dataclasses import dataclass

from preuve.memo.lexicon import (
    COMPONENT_LABELS,
    LEXICON,
    LabelRule,
    Statement,
    lookup_label,
    normalize_label,
)
from preuve.memo.sections import balance_section, closes_section, qualified_labels
from preuve.memo.tables import StatementTable, TableRow

__all__ = ["MappedRow", "map_concepts"]


@dataclass(frozen=True, slots=True)
class MappedRow:
    """A table row with its concept (None when no rule knows its label or a total of the
    same concept won)."""

    row: TableRow
    concept: str | None
    rule_concept: str | None  # what the label alone maps to, before total-beats-component


def _rank(index: int, row: TableRow) -> tuple[bool, bool, int, int]:
    label = normalize_label(row.label)
    whole = not any(p.search(label) for p in COMPONENT_LABELS)
    return (row.total, whole, -len(label), -index)


def map_concepts(table: StatementTable, user_rules: tuple[LabelRule, ...] = ()) -> list[MappedRow]:
    """The rows of ``table`` with their concepts (user rules tried before the bundled ones)."""
    rules = (*user_rules, *LEXICON)
    raw: list[str | None] = []
    titled = ""  # the section a row with figures opens ("Dettes à un an au plus")
    for row in table.rows:
        rule = None
        if row.section or closes_section(row.label):
            titled = ""
        section = row.section or titled
        if table.statement is Statement.BALANCE:
            titled = balance_section(row.label) or titled
        for label in qualified_labels(row.label, section):
            rule = lookup_label(label, table.statement, rules) if label else None
            if rule is not None:
                break
        raw.append(None if rule is None else rule.key)
    winners: dict[str, int] = {}
    for index, (row, concept) in enumerate(zip(table.rows, raw, strict=True)):
        if concept is None:
            continue
        best = winners.get(concept)
        if best is None or _rank(index, row) > _rank(best, table.rows[best]):
            winners[concept] = index
    return [
        MappedRow(
            row,
            concept if concept is not None and winners.get(concept) == index else None,
            concept,
        )
        for index, (row, concept) in enumerate(zip(table.rows, raw, strict=True))
    ]
