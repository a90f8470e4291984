"""Build a dossier's summary tree, incrementally (reusing what the store holds) or in full.

Keys are computed bottom-up, level by level: a leaf's from its document and settings, a
reduce's from the digests of what its children produced in *this* build plus the access
state of its sources (early cutoff, :func:`preuve.digest.keys.reduce_key`). An
incremental build reuses a stored result found under the same key in the ``incremental``
namespace, after re-validating every span it cites against the snapshot (a span that no
longer resolves to the same line makes the node INVALID, never silently served); the
other nodes are computed, the independent nodes of one level concurrently.

A full build reads nothing from the store: every node is computed again, and its results
go to a namespace of its own, so it never feeds an incremental build. That independence
is what makes the node-by-node comparison of :mod:`preuve.digest.mutations` a proof.

Counters (:mod:`preuve.digest.outcomes`): recomputed nodes (INELIGIBLE leaves included),
model calls by task, cache hits, and the prompt and generated tokens of new calls.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal, TypeVar

from preuve.core.documents import Snapshot
from preuve.core.errors import ConfigError
from preuve.digest.integrity import verified_row
from preuve.digest.keys import KeySettings, access_fingerprint, leaf_key, reduce_key
from preuve.digest.lines import LineResolver, LineSpan
from preuve.digest.outcomes import (
    BuildCounters,
    BuildReport,
    NodeOutcome,
    Outcome,
    computed_outcome,
    identity_record,
    outcome_from_row,
    snapshot_record,
)
from preuve.digest.schema import NodeStatus
from preuve.digest.summarize import DigestSettings, NodeResult, summarize_leaf, summarize_reduce
from preuve.digest.tree import NodeKind, Tree, TreeNode, build_tree
from preuve.io.store import INCREMENTAL, DigestStore
from preuve.io.store_rows import GenerationRow, NodeRecord, NodeRow, RunInfo
from preuve.models.base import Model, ModelIdentity, request_hash

__all__ = [
    "BuildCounters",
    "BuildMode",
    "BuildPlan",
    "BuildReport",
    "NodeOutcome",
    "Outcome",
    "build_digest",
    "identity_record",
    "outcome_from_row",
    "plan_digest",
    "revalidate",
    "snapshot_record",
]

BuildMode = Literal["incremental", "full"]
T = TypeVar("T")
R = TypeVar("R")


def _parallel(function: Callable[[T], R], items: Sequence[T], concurrency: int) -> list[R]:
    if concurrency <= 1 or len(items) <= 1:
        return [function(item) for item in items]
    with ThreadPoolExecutor(min(concurrency, len(items)), thread_name_prefix="digest") as pool:
        return list(pool.map(function, items))


def _node_key(
    node: TreeNode, snapshot: Snapshot, keys: KeySettings, digests: Mapping[str, str]
) -> str:
    if node.kind is NodeKind.LEAF:
        return leaf_key(snapshot.documents[node.doc_id or ""], keys)
    access = access_fingerprint(snapshot, node.sources)
    return reduce_key([digests[child] for child in node.children], access, keys)


def revalidate(
    row: NodeRow, resolver: LineResolver
) -> tuple[tuple[LineSpan, ...], tuple[str, ...]]:
    """The stored spans re-resolved against the resolver's snapshot, and what no longer holds.

    A stored span names its line by content; it is resolved again to exact offsets in the
    version at hand, which may be another version with the same line (a re-upload, or an
    edit elsewhere that shifted it).
    """
    spans: list[LineSpan] = []
    problems: list[str] = []
    for data in row.spans:
        evidence_id, quote = str(data.get("id")), data.get("quote")
        check = resolver.resolve_stored(data)
        if not check.ok or check.line is None:
            problems.append(f"{evidence_id}: {check.detail}")
        elif check.line.quote != quote:
            problems.append(f"{evidence_id}: the cited line changed")
        else:
            spans.append(check.line)
    return tuple(spans), tuple(problems)


def _generations(
    node_id: str, result: NodeResult, identity: ModelIdentity
) -> tuple[GenerationRow, ...]:
    rows = []
    for number, attempt in enumerate(result.attempts, start=1):
        done = attempt.completion
        rows.append(
            GenerationRow(
                node_id=node_id,
                attempt=number,
                task=attempt.request.task,
                request_hash=request_hash(attempt.request, identity),
                model=identity_record(identity),
                messages=[{"role": m.role, "content": m.content} for m in attempt.request.messages],
                raw_output=done.text if done else None,
                finish_reason=done.finish_reason if done else None,
                prompt_tokens=done.prompt_tokens if done else None,
                generated_tokens=done.generated_tokens if done else None,
                token_ids=list(done.token_ids) if done and done.token_ids is not None else None,
                seconds=done.seconds if done else 0.0,
                defects=[d.render() for d in attempt.defects],
                error=attempt.error,
            )
        )
    return tuple(rows)


def _new_row(namespace: str, key: str, node: TreeNode, result: NodeResult) -> NodeRow:
    return NodeRow(
        namespace=namespace,
        key=key,
        node_id=node.node_id,
        kind=node.kind.value,
        status=result.status.value,
        claims=[c.as_dict() for c in result.claims],
        spans=[s.as_dict() for s in result.spans],
        diagnostic=list(result.diagnostic),
        digest=result.digest,
        token_ids=None if result.token_ids is None else list(result.token_ids),
        calls=result.calls,
        prompt_tokens=result.prompt_tokens,
        generated_tokens=result.generated_tokens,
        reusable=result.reusable,
    )


def _reuse(
    planned: Sequence[tuple[TreeNode, str]],
    stored: Mapping[str, NodeRow],
    resolver: LineResolver,
    where: str,
) -> tuple[dict[str, NodeOutcome], dict[str, NodeResult]]:
    """Stored results whose spans still hold (reused), and those that do not (INVALID)."""
    reused: dict[str, NodeOutcome] = {}
    invalidated: dict[str, NodeResult] = {}
    for node, key in planned:
        row = stored.get(key)
        if row is None:
            continue
        verified_row(row, f"{where}, cached result for {node.node_id}", recorded_key=key)
        spans, problems = revalidate(row, resolver)
        if problems:
            note = "a stored result under this key cites evidence that no longer holds: "
            invalidated[node.node_id] = NodeResult(
                NodeStatus.INVALID, diagnostic=(note + "; ".join(problems),), reusable=False
            )
        else:
            reused[node.node_id] = outcome_from_row(node, row, spans)
    return reused, invalidated


@dataclass(frozen=True, slots=True)
class _Build:
    """What every level of one build shares."""

    snapshot: Snapshot
    model: Model
    store: DigestStore
    settings: DigestSettings
    keys: KeySettings
    tree: Tree
    run: RunInfo
    incremental: bool
    concurrency: int
    resolver: LineResolver

    def compute(self, node: TreeNode, done: Mapping[str, NodeOutcome]) -> NodeResult:
        if node.kind is NodeKind.LEAF:
            doc = self.snapshot.documents[node.doc_id or ""]
            return summarize_leaf(doc, self.snapshot, self.model, self.settings)
        children = [done[child] for child in node.children]
        return summarize_reduce(children, self.snapshot, self.model, self.settings)

    def record(
        self, node: TreeNode, key: str, result: NodeResult, done: Mapping[str, NodeOutcome]
    ) -> NodeRecord:
        return NodeRecord(
            node.node_id,
            node.kind.value,
            node.level,
            self.tree.parent(node.node_id),
            key,
            new_node=_new_row(self.run.namespace, key, node, result),
            generations=_generations(node.node_id, result, self.model.identity),
            child_rows=tuple(done[child].row_id for child in node.children),
        )

    def level(self, nodes: Sequence[TreeNode], done: dict[str, NodeOutcome]) -> None:
        """Key, reuse or compute, and record one level; its nodes are independent."""
        digests = {node_id: outcome.digest for node_id, outcome in done.items()}
        planned = [(node, _node_key(node, self.snapshot, self.keys, digests)) for node in nodes]
        stored = (
            self.store.lookup_many(INCREMENTAL, [key for _, key in planned])
            if self.incremental
            else {}
        )
        where = f"digest store {self.store.path}"
        reused, results = _reuse(planned, stored, self.resolver, where)
        todo = [(n, k) for n, k in planned if n.node_id not in reused and n.node_id not in results]
        computed = _parallel(lambda item: self.compute(item[0], done), todo, self.concurrency)
        results.update(zip((n.node_id for n, _ in todo), computed, strict=True))
        records = [
            NodeRecord(
                node.node_id,
                node.kind.value,
                node.level,
                self.tree.parent(node.node_id),
                key,
                hit=stored[key],
            )
            if node.node_id in reused
            else self.record(node, key, results[node.node_id], done)
            for node, key in planned
        ]
        rows = self.store.record_nodes(self.run, records)
        for node, key in planned:
            done[node.node_id] = reused.get(node.node_id) or computed_outcome(
                node, key, results[node.node_id], rows[node.node_id]
            )


def build_digest(
    snapshot: Snapshot,
    model: Model,
    store: DigestStore,
    settings: DigestSettings,
    *,
    principal: str = "default",
    mode: BuildMode = "incremental",
    concurrency: int = 4,
    dossier: str = "",
) -> BuildReport:
    """Build the summary tree of ``snapshot`` and record the run in ``store``."""
    if mode not in ("incremental", "full"):
        raise ConfigError(f"build mode must be 'incremental' or 'full', not {mode!r}")
    settings = settings.sized_for(model)  # budgets within the model's context window
    started = time.perf_counter()
    tree = build_tree((doc.doc_id for doc in snapshot), settings.fan_in)
    identity = model.identity
    run = store.begin_run(
        mode=mode,
        dossier=dossier,
        principal=principal,
        model=identity_record(identity),
        settings=settings.as_dict(),
        snapshot=snapshot_record(snapshot),
    )
    build = _Build(
        snapshot,
        model,
        store,
        settings,
        settings.key_settings(identity, principal),
        tree,
        run,
        mode == "incremental",
        concurrency,
        LineResolver(snapshot),
    )
    done: dict[str, NodeOutcome] = {}
    for level in tree.levels():
        build.level(level, done)
    nodes = tuple(done[node.node_id] for node in tree.nodes)
    counters = BuildCounters.of(nodes)
    seconds = time.perf_counter() - started
    store.finish_run(
        run,
        root_key=nodes[-1].key,
        root_status=nodes[-1].status.value,
        counters=counters.as_dict(),
        seconds=seconds,
    )
    return BuildReport(run, identity, nodes, counters, seconds)


@dataclass(frozen=True, slots=True)
class BuildPlan:
    """What an incremental build would do before any call: keys known so far, hits, stale.

    A reduce above a stale node cannot know its key yet (it depends on what the child will
    produce), so it is counted stale until then: early cutoff may still spare it.
    """

    tree: Tree
    keys: Mapping[str, str]
    hits: frozenset[str]
    stale: frozenset[str]


def plan_digest(
    snapshot: Snapshot,
    store: DigestStore,
    settings: DigestSettings,
    identity: ModelIdentity,
    *,
    principal: str = "default",
) -> BuildPlan:
    """Recompute expected keys bottom-up against the store; nothing is computed or written."""
    tree = build_tree((doc.doc_id for doc in snapshot), settings.fan_in)
    keys = settings.key_settings(identity, principal)
    known: dict[str, str] = {}
    digests: dict[str, str] = {}
    for level in tree.levels():
        ready = [node for node in level if all(child in digests for child in node.children)]
        level_keys = {node.node_id: _node_key(node, snapshot, keys, digests) for node in ready}
        known.update(level_keys)
        stored = store.known_digests(INCREMENTAL, list(level_keys.values()))
        digests.update(
            (node_id, stored[key]) for node_id, key in level_keys.items() if key in stored
        )
    hits = set(digests)
    stale = frozenset(node.node_id for node in tree.nodes) - hits
    return BuildPlan(tree, known, frozenset(hits), stale)
