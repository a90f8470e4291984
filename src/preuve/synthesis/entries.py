"""Plans, findings and syntheses as run-file entries: their JSON shape, declared once.

Each entry lists exactly the keys of its JSON object, in the order they are written, and
forbids any other key; ``*_entry`` converts a domain value into its entry and ``*_of`` back,
both with :func:`~preuve.io.records.record_of` (each field by name; only what differs is
written here).
:func:`preuve.io.records.dump_record` and :func:`~preuve.io.records.load_data` (pydantic, the
one mechanism of the run files) turn entries into JSON and back. ``trajectory.json``
(:mod:`preuve.synthesis.trajectory`) and ``synthesis.json`` are written from them; nothing
builds or parses these dicts by hand.

A model's answers (plan, findings, synthesis) are NOT read here: they are parsed and
checked by their roles (:func:`preuve.synthesis.planner.plan_from_dict`,
:func:`preuve.synthesis.types.synthesis_from_dict`), which list every defect for the
re-ask; a run file is the program's own output, read back or refused in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from preuve.core.defects import Defect
from preuve.io.records import STRICT, SpanEntry, record_of
from preuve.synthesis.types import (
    ComputedValue,
    Contradiction,
    Finding,
    FindingStatus,
    Paragraph,
    Plan,
    RefusedStatement,
    SourcedValue,
    Statement,
    StatementSource,
    SubTask,
    Synthesis,
)

__all__ = [
    "ContradictionEntry",
    "FindingEntry",
    "NumberEntry",
    "PlanEntry",
    "SynthesisEntry",
    "contradiction_entry",
    "contradiction_of",
    "finding_entry",
    "finding_of",
    "number_entry",
    "number_of",
    "plan_entry",
    "plan_of",
    "synthesis_entry",
    "synthesis_of",
]

# pydantic reads this class attribute (no import needed): an unknown key is an error.


@dataclass(frozen=True, slots=True, kw_only=True)
class SubTaskEntry:
    id: str
    question: str
    scope: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanEntry:
    question: str
    subtasks: tuple[SubTaskEntry, ...]
    coverage: tuple[tuple[str, str], ...] = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceEntry:
    """A source without a span (no ``span`` key at all)."""

    doc_id: str
    value: str | None = None
    quote: str | None = None
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class SpannedSourceEntry:
    """A source resting on a verified quote: its span follows."""

    doc_id: str
    value: str | None
    quote: str | None
    span: SpanEntry
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class StatementEntry:
    subject: str
    attribute: str
    value: str
    text: str
    context: str = ""
    sources: tuple[SourceEntry | SpannedSourceEntry, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class RefusedEntry:
    statement: StatementEntry
    defects: tuple[Defect, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class FindingEntry:
    subtask_id: str
    status: FindingStatus
    error: str
    docs_read: tuple[str, ...]
    read_but_not_used: tuple[str, ...]
    merged: tuple[StatementEntry, ...] = ()  # derived
    statements: tuple[StatementEntry, ...]
    statements_refused: int = 0  # derived
    refused: tuple[RefusedEntry, ...] = ()
    gaps: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ValueEntry:
    value: str
    sources: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ContradictionEntry:
    subject: str
    attribute: str
    retained: ValueEntry | None
    rejected: tuple[ValueEntry, ...]
    rule: int | None
    reason: str
    context: str = ""
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class NumberEntry:
    label: str
    value: Decimal
    unit: str
    formula: str
    sources: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ParagraphEntry:
    text: str
    sources: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class SynthesisEntry:
    """A synthesis as ``synthesis.json`` and the trajectory keep it."""

    engine: str = ""
    paragraphs: tuple[ParagraphEntry, ...]
    contradictions: tuple[ContradictionEntry, ...]
    numbers: tuple[NumberEntry, ...] = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


def plan_entry(plan: Plan) -> PlanEntry:
    subtasks = tuple(record_of(SubTaskEntry, t) for t in plan.subtasks)
    return record_of(PlanEntry, plan, subtasks=subtasks)


def _source_entry(source: StatementSource) -> SourceEntry | SpannedSourceEntry:
    if source.span is None:
        return record_of(SourceEntry, source)
    return record_of(SpannedSourceEntry, source, span=SpanEntry.of(source.span))


def _statement_entry(statement: Statement) -> StatementEntry:
    sources = tuple(_source_entry(s) for s in statement.sources)
    return record_of(StatementEntry, statement, sources=sources)


def finding_entry(finding: Finding) -> FindingEntry:
    return record_of(
        FindingEntry,
        finding,
        merged=tuple(_statement_entry(s) for s in finding.merged_statements()),
        statements=tuple(_statement_entry(s) for s in finding.statements),
        statements_refused=len(finding.refused),
        refused=tuple(
            record_of(RefusedEntry, r, statement=_statement_entry(r.statement))
            for r in finding.refused
        ),
    )


def contradiction_entry(c: Contradiction) -> ContradictionEntry:
    return record_of(
        ContradictionEntry,
        c,
        retained=record_of(ValueEntry, c.retained) if c.retained is not None else None,
        rejected=tuple(record_of(ValueEntry, v) for v in c.rejected),
    )


def number_entry(n: ComputedValue) -> NumberEntry:
    return record_of(NumberEntry, n)


def synthesis_entry(synthesis: Synthesis) -> SynthesisEntry:
    return record_of(
        SynthesisEntry,
        synthesis,
        paragraphs=tuple(record_of(ParagraphEntry, p) for p in synthesis.paragraphs),
        contradictions=tuple(contradiction_entry(c) for c in synthesis.contradictions),
        numbers=tuple(number_entry(n) for n in synthesis.numbers),
    )


def plan_of(entry: PlanEntry) -> Plan:
    return record_of(Plan, entry, subtasks=tuple(record_of(SubTask, t) for t in entry.subtasks))


def _source_of(entry: SourceEntry | SpannedSourceEntry) -> StatementSource:
    span = entry.span.span() if isinstance(entry, SpannedSourceEntry) else None
    return record_of(StatementSource, entry, span=span)


def _statement_of(entry: StatementEntry) -> Statement:
    return record_of(Statement, entry, sources=tuple(_source_of(s) for s in entry.sources))


def finding_of(entry: FindingEntry) -> Finding:
    """The finding an entry records (its derived keys are recomputed, not read)."""
    return record_of(
        Finding,
        entry,
        statements=tuple(_statement_of(s) for s in entry.statements),
        refused=tuple(
            record_of(RefusedStatement, r, statement=_statement_of(r.statement))
            for r in entry.refused
        ),
    )


def contradiction_of(entry: ContradictionEntry) -> Contradiction:
    return record_of(
        Contradiction,
        entry,
        retained=record_of(SourcedValue, entry.retained) if entry.retained is not None else None,
        rejected=tuple(record_of(SourcedValue, v) for v in entry.rejected),
    )


def number_of(entry: NumberEntry) -> ComputedValue:
    return record_of(ComputedValue, entry)


def synthesis_of(entry: SynthesisEntry) -> Synthesis:
    return record_of(
        Synthesis,
        entry,
        paragraphs=tuple(record_of(Paragraph, p) for p in entry.paragraphs),
        contradictions=tuple(contradiction_of(c) for c in entry.contradictions),
        numbers=tuple(number_of(n) for n in entry.numbers),
    )
