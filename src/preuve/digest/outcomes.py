"""What a build reports: each node's outcome, the counters, the run.

:class:`NodeOutcome` is one node as a build left it (its key, its result, hit or
recomputed, its calls and new tokens); :class:`BuildCounters` adds them up the way SPEC
counts: recomputed nodes (INELIGIBLE leaves included), model calls by task, cache hits,
new prompt and generated tokens.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from preuve.core.documents import Snapshot
from preuve.digest.lines import LineSpan
from preuve.digest.schema import Claim, NodeStatus
from preuve.digest.summarize import NodeResult
from preuve.digest.tree import NodeKind, TreeNode
from preuve.io.store_rows import NodeRow, RunInfo
from preuve.models.base import ModelIdentity

__all__ = [
    "BuildCounters",
    "BuildReport",
    "NodeOutcome",
    "Outcome",
    "computed_outcome",
    "outcome_from_row",
    "snapshot_record",
]


class Outcome(StrEnum):
    HIT = "hit"
    COMPUTED = "computed"


@dataclass(frozen=True, slots=True)
class NodeOutcome:
    """One node as a build left it: key, result, and whether it was reused or recomputed."""

    node_id: str
    kind: NodeKind
    level: int
    key: str
    status: NodeStatus
    claims: tuple[Claim, ...]
    spans: tuple[LineSpan, ...]
    diagnostic: tuple[str, ...]
    token_ids: tuple[int, ...] | None
    digest: str
    outcome: Outcome
    row_id: int
    calls: int = 0
    prompt_tokens: int = 0
    generated_tokens: int = 0

    @property
    def task(self) -> str:
        return "map" if self.kind is NodeKind.LEAF else "reduce"


@dataclass(frozen=True, slots=True)
class BuildCounters:
    recomputed: int
    model_calls: int
    cache_hits: int
    prompt_tokens: int
    generated_tokens: int
    calls_by_task: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, nodes: Sequence[NodeOutcome]) -> BuildCounters:
        by_task: Counter[str] = Counter()
        for node in nodes:
            if node.calls:
                by_task[node.task] += node.calls
        return cls(
            recomputed=sum(n.outcome is Outcome.COMPUTED for n in nodes),
            model_calls=sum(n.calls for n in nodes),
            cache_hits=sum(n.outcome is Outcome.HIT for n in nodes),
            prompt_tokens=sum(n.prompt_tokens for n in nodes),
            generated_tokens=sum(n.generated_tokens for n in nodes),
            calls_by_task=dict(sorted(by_task.items())),
        )


@dataclass(frozen=True, slots=True)
class BuildReport:
    run: RunInfo
    identity: ModelIdentity
    nodes: tuple[NodeOutcome, ...]
    counters: BuildCounters
    seconds: float

    @property
    def run_id(self) -> str:
        return self.run.run_id

    @property
    def root(self) -> NodeOutcome:
        return self.nodes[-1]

    def node(self, node_id: str) -> NodeOutcome:
        for node in self.nodes:
            if node.node_id == node_id:
                return node
        raise KeyError(node_id)


def snapshot_record(snapshot: Snapshot) -> list[dict[str, Any]]:
    """What a run records of the snapshot it read (no text: versions, hashes, access)."""
    return [
        {
            "doc_id": doc.doc_id,
            "version": doc.version,
            "text_sha256": doc.text_sha256,
            "title": doc.title,
            "date": doc.date,
            "source_type": doc.source_type,
            "active": doc.access.active,
            "eligible": doc.access.eligible,
            "access_revision": doc.access.access_revision,
        }
        for doc in snapshot
    ]


def outcome_from_row(node: TreeNode, row: NodeRow, spans: tuple[LineSpan, ...]) -> NodeOutcome:
    """A stored result reused in this build (``spans`` re-resolved against the snapshot)."""
    return NodeOutcome(
        node_id=node.node_id,
        kind=node.kind,
        level=node.level,
        key=row.key,
        status=NodeStatus(row.status),
        claims=tuple(Claim.from_mapping(c) for c in row.claims),
        spans=spans,
        diagnostic=tuple(row.diagnostic),
        token_ids=None if row.token_ids is None else tuple(row.token_ids),
        digest=row.digest,
        outcome=Outcome.HIT,
        row_id=row.row_id,
    )


def computed_outcome(node: TreeNode, key: str, result: NodeResult, row_id: int) -> NodeOutcome:
    return NodeOutcome(
        node_id=node.node_id,
        kind=node.kind,
        level=node.level,
        key=key,
        status=result.status,
        claims=result.claims,
        spans=result.spans,
        diagnostic=result.diagnostic,
        token_ids=result.token_ids,
        digest=result.digest,
        outcome=Outcome.COMPUTED,
        row_id=row_id,
        calls=result.calls,
        prompt_tokens=result.prompt_tokens,
        generated_tokens=result.generated_tokens,
    )
