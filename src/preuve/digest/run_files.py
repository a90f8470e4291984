"""What workflow 3 writes, as types: its ``--json`` answers and ``serve.json``.

Each answer is a record dumped by :mod:`preuve.io.records` (``build``, ``serve``,
``history``, ``compare``, ``mutate``); nothing builds their dicts by hand. ``serve.json``
holds one ``preuve digest serve --json`` answer, or (as the demo writes it) a list of them,
each with the ``label`` of the moment it was served. Read back through
:meth:`preuve.io.runfolder.RunFolder.read_records` (a list) or
:meth:`~preuve.io.runfolder.RunFolder.read` (one answer).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import Field

from preuve.digest.build import BuildReport
from preuve.digest.mutations import Comparison
from preuve.digest.outcomes import BuildCounters
from preuve.digest.schema import Claim
from preuve.digest.serve import ServeResult
from preuve.io.records import STRICT, dump_record, record_of
from preuve.io.runfolder import RunFolder
from preuve.io.store_rows import RunInfo

__all__ = [
    "SERVE_FILE",
    "BuildAnswer",
    "ClaimEntry",
    "ComparisonEntry",
    "RunEntry",
    "ServeAnswerEntry",
    "build_answer",
    "read_serve_answers",
    "serve_answer",
]

SERVE_FILE = "serve.json"


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimEntry:
    """A served claim and the evidence ids it cites."""

    subject: str
    field: str
    value: str
    evidence: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, claim: Claim) -> ClaimEntry:
        return record_of(cls, claim)


def _is_blank(value: str) -> bool:
    return not value


@dataclass(frozen=True, slots=True, kw_only=True)
class ServeAnswerEntry:
    """One serve answer: SERVED, STALE or REFUSED, why, and what was served."""

    # the moment the demo served it; not written by ``digest serve --json``
    label: Annotated[str, Field(exclude_if=_is_blank)] = ""
    status: str
    reason: str
    run_id: str
    root_status: str | None = None
    claims: tuple[ClaimEntry, ...] = ()
    # evidence id → span id (doc@version:start:end); node id → status
    evidence: dict[str, str] = dataclasses.field(default_factory=dict)
    nodes: dict[str, str] = dataclasses.field(default_factory=dict)
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


def serve_answer(result: ServeResult, label: str = "") -> Any:
    """``digest serve --json``'s answer (with ``label``: one entry of the demo's file)."""
    return dump_record(
        ServeAnswerEntry(
            label=label,
            status=result.status.value,
            reason=result.reason,
            run_id=result.run_id,
            root_status=None if result.root_status is None else result.root_status.value,
            claims=tuple(ClaimEntry.of(c) for c in result.claims),
            evidence={span.id: span.location for span in result.spans},
            nodes={node: status.value for node, status in result.node_statuses.items()},
        )
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class RootEntry:
    status: str
    claims: tuple[ClaimEntry, ...]
    evidence: dict[str, str]  # evidence id → span id
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeEntry:
    node: str
    status: str
    outcome: str
    calls: int
    claims: int  # how many
    diagnostic: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildAnswer:
    """``digest build --json``: the run, its counters, the root's claims, every node."""

    run_id: str
    mode: str
    model: str
    counters: BuildCounters
    root: RootEntry
    nodes: tuple[NodeEntry, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


def build_answer(report: BuildReport) -> Any:
    root = report.root
    return dump_record(
        BuildAnswer(
            run_id=report.run_id,
            mode=report.run.mode,
            model=report.identity.label(),
            counters=report.counters,
            root=RootEntry(
                status=root.status.value,
                claims=tuple(ClaimEntry.of(c) for c in root.claims),
                evidence={span.id: span.location for span in root.spans},
            ),
            nodes=tuple(
                NodeEntry(
                    node=n.node_id,
                    status=n.status.value,
                    outcome=n.outcome.value,
                    calls=n.calls,
                    claims=len(n.claims),
                    diagnostic=tuple(n.diagnostic),
                )
                for n in report.nodes
            ),
        )
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class RunEntry:
    """A recorded run as ``digest history --json`` lists it."""

    run_id: str
    created_at: str
    mode: str
    dossier: str
    principal: str
    root_status: str
    root_key: str
    counters: Mapping[str, Any] | None
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, run: RunInfo) -> RunEntry:
        return record_of(cls, run)


@dataclass(frozen=True, slots=True, kw_only=True)
class DifferenceEntry:
    node: str
    aspect: str
    incremental: str
    full: str
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ComparisonEntry:
    """Two runs compared node by node (``digest compare --json``, ``mutate``'s rows)."""

    nodes: int
    identical: bool
    differences: tuple[DifferenceEntry, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, comparison: Comparison) -> ComparisonEntry:
        differences = tuple(
            record_of(DifferenceEntry, d, node=d.node_id) for d in comparison.differences
        )
        return record_of(cls, comparison, differences=differences)


def read_serve_answers(folder: RunFolder) -> tuple[ServeAnswerEntry, ...]:
    """Every answer of ``serve.json`` (a list, or one answer)."""
    if isinstance(folder.read_json(SERVE_FILE), list):
        return folder.read_records(SERVE_FILE, ServeAnswerEntry)
    return (folder.read(SERVE_FILE, ServeAnswerEntry),)
