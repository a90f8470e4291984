"""``trajectory.json`` as types: the one description of workflow 2's run file.

:class:`TrajectoryFile` lists exactly the keys of the file, in the order they are written,
and forbids any other key (its plan, findings, contradictions, computations and synthesis
are the entries of :mod:`preuve.synthesis.entries`). :func:`trajectory_data` converts a
:class:`SynthesisRun` into it and dumps it with :func:`preuve.io.records.dump_record`, the
one mechanism of the run files; :func:`run_from_data` reads JSON data back through
:func:`preuve.io.records.load_data`, strictly, and converts it into the run, or raises one
InputError naming the file and the first wrong place.

Keys derived from the rest (``reads``, ``failures``, ``uncovered``, ``read_but_not_used``,
``statements_refused``, ``limits``, a finding's ``merged`` and ``statements_refused``) are
written for a reader of the file and type-checked on read (they may be absent), but the
run recomputes them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from preuve.core.defects import Defect
from preuve.core.errors import InputError
from preuve.io.records import STRICT, RecordError, dump_record, load_data
from preuve.models.loop import LoopStatus
from preuve.synthesis.entries import (
    ContradictionEntry,
    FindingEntry,
    NumberEntry,
    PlanEntry,
    SynthesisEntry,
    contradiction_entry,
    contradiction_of,
    finding_entry,
    finding_of,
    number_entry,
    number_of,
    plan_entry,
    plan_of,
    synthesis_entry,
    synthesis_of,
)
from preuve.synthesis.pipeline import (
    RUN_FORMAT,
    DocumentRecord,
    RoleCall,
    SynthesisRun,
)
from preuve.synthesis.ranks import SourceType

__all__ = ["TrajectoryFile", "run_from_data", "trajectory_data"]


@dataclass(frozen=True, slots=True, kw_only=True)
class DocumentEntry:
    id: str
    title: str
    date: dt.date | None
    source_type: str
    rank: int | None
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class FailureEntry:
    subtask_id: str
    error: str
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class TrajectoryFile:
    """``trajectory.json``."""

    format: str
    engine: str
    status: LoopStatus
    question: str
    documents: tuple[DocumentEntry, ...]
    products: tuple[str, ...]
    plan: PlanEntry | None
    reads: dict[str, tuple[str, ...]] = field(default_factory=dict)  # derived
    findings: tuple[FindingEntry, ...]
    failures: tuple[FailureEntry, ...] = ()  # derived
    uncovered: tuple[str, ...] = ()  # derived
    read_but_not_used: tuple[str, ...] = ()  # derived
    statements_refused: int = 0  # derived
    contradictions: tuple[ContradictionEntry, ...]
    computed: tuple[NumberEntry, ...]
    evidence: str
    synthesis: SynthesisEntry | None
    defects: tuple[Defect, ...]
    limits: tuple[str, ...] = ()  # derived
    calls: tuple[RoleCall, ...]  # as the run keeps them
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


def _document_entry(d: DocumentRecord) -> DocumentEntry:
    return DocumentEntry(
        id=d.id,
        title=d.title,
        date=d.date,
        source_type=d.source_type.value,
        rank=d.source_info.rank,
    )


def trajectory_file(run: SynthesisRun) -> TrajectoryFile:
    limits = run.limits
    return TrajectoryFile(
        format=RUN_FORMAT,
        engine=run.engine,
        status=run.status,
        question=run.question,
        documents=tuple(_document_entry(d) for d in run.documents),
        products=run.products,
        plan=plan_entry(run.plan) if run.plan is not None else None,
        reads={f.subtask_id: f.docs_read for f in run.findings},
        findings=tuple(finding_entry(f) for f in run.findings),
        failures=tuple(FailureEntry(subtask_id=t, error=e) for t, e in limits.not_investigated),
        uncovered=tuple(limits.uncovered),
        read_but_not_used=tuple(limits.read_but_not_used),
        statements_refused=run.statements_refused,
        contradictions=tuple(contradiction_entry(c) for c in run.contradictions),
        computed=tuple(number_entry(n) for n in run.computed),
        evidence=run.evidence,
        synthesis=synthesis_entry(run.synthesis) if run.synthesis is not None else None,
        defects=run.defects,
        limits=tuple(run.limit_lines),
        calls=run.calls,
    )


def trajectory_data(run: SynthesisRun) -> dict[str, Any]:
    """The trajectory as JSON-ready data (what ``trajectory.json`` holds)."""
    data: dict[str, Any] = dump_record(trajectory_file(run))
    return data


def _document_of(entry: DocumentEntry) -> DocumentRecord:
    return DocumentRecord(
        entry.id, entry.title, entry.date, SourceType.named(entry.source_type), entry.rank
    )


def _run_of(entry: TrajectoryFile) -> SynthesisRun:
    return SynthesisRun(
        question=entry.question,
        engine=entry.engine,
        status=entry.status,
        documents=tuple(_document_of(d) for d in entry.documents),
        products=entry.products,
        plan=plan_of(entry.plan) if entry.plan is not None else None,
        findings=tuple(finding_of(f) for f in entry.findings),
        contradictions=tuple(contradiction_of(c) for c in entry.contradictions),
        computed=tuple(number_of(n) for n in entry.computed),
        evidence=entry.evidence,
        synthesis=synthesis_of(entry.synthesis) if entry.synthesis is not None else None,
        defects=entry.defects,
        calls=entry.calls,
    )


def run_from_data(data: Mapping[str, Any], where: str = "trajectory") -> SynthesisRun:
    """Rebuild a run from :func:`trajectory_data` output; malformed data raises one
    InputError naming ``where`` and the first wrong place."""
    if data.get("format") != RUN_FORMAT:
        raise InputError(f"{where}: not a synthesis run (format {RUN_FORMAT} expected)")
    try:
        return _run_of(load_data(TrajectoryFile, data, where))
    except RecordError as err:
        place = err.message.removeprefix(f"{where}: ")
        raise InputError(f"{where}: malformed synthesis run ({place})") from None
    except ValueError as err:  # a span whose id does not match it
        raise InputError(f"{where}: malformed synthesis run ({err})") from None
