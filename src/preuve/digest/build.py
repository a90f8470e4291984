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

import contextlib
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from preuve.cluster.executor import Executor, LocalExecutor
from preuve.core.documents import Snapshot
from preuve.core.errors import ConfigError, InputError
from preuve.digest.integrity import verified_row
from preuve.digest.keys import KeySettings, access_fingerprint, leaf_key, reduce_key
from preuve.digest.lines import LineResolver, LineSpan, LineSpanEntry
from preuve.digest.outcomes import (
    BuildCounters,
    BuildReport,
    NodeOutcome,
    Outcome,
    computed_outcome,
    outcome_from_row,
    snapshot_record,
)
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.schema import NodeStatus
from preuve.digest.summarize import (
    DigestSettings,
    NodeResult,
    SettingsEntry,
    summarize_leaf,
    summarize_reduce,
)
from preuve.digest.tree import NodeKind, Tree, TreeNode, build_tree
from preuve.io.records import dump_record, dump_records
from preuve.io.store_rows import GenerationRow, NodeRecord, NodeRow, RunInfo
from preuve.io.stores import INCREMENTAL, Store, open_store
from preuve.models.base import Message, Model, ModelIdentity, request_hash
from preuve.models.runtime import Runtime, as_runtime

__all__ = [
    "BuildCounters",
    "BuildMode",
    "BuildPlan",
    "BuildReport",
    "NodeOutcome",
    "Outcome",
    "build_digest",
    "outcome_from_row",
    "plan_digest",
    "revalidate",
    "snapshot_record",
]

BuildMode = Literal["incremental", "full"]


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
                model=dump_record(identity),
                messages=dump_records(attempt.request.messages, Message),
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
        claims=[dump_record(c) for c in result.claims],
        spans=[dump_record(LineSpanEntry.of_line(s)) for s in result.spans],
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


class _StoreRef:
    """The build's store as a task reaches it: the same object in this process; in another
    (a Ray worker, which gets the spec pickled), the store its spec names, opened for the
    length of one task and closed after it. No store outlives its task in a worker, so two
    builds that reach one worker (another store, or the same file made anew) share
    nothing: there is no cache of connections kept by the process."""

    def __init__(self, store: Store | None, spec: str = "") -> None:
        self._store = store
        self._spec = spec

    @contextlib.contextmanager
    def opened(self) -> Iterator[Store]:
        """The store, for one task (the build's own object, or one opened for the task)."""
        if self._store is not None:
            yield self._store
            return
        with open_store(self._spec) as store:
            yield store

    def __reduce__(self) -> tuple[object, tuple[None, str]]:
        return (_StoreRef, (None, self._store.spec if self._store is not None else self._spec))


@dataclass(frozen=True, slots=True)
class _NodeJob:
    """One node to compute: its key and its children's outcomes (plain, picklable data)."""

    node: TreeNode
    key: str
    children: tuple[NodeOutcome, ...]


@dataclass(frozen=True, slots=True)
class _NodeTask:
    """Computes one node and records it in the run, where the executor runs it.

    Idempotent, so that a task retried after its worker died gives the same result: a
    node the run already recorded (the lost attempt got that far) is read back, never
    computed or written twice (``run_nodes`` is unique per run and node, so a second
    write could not commit either). Only a remote executor runs a task again
    (``retried``): threads never do, so a local build does not look (a query per node).
    """

    snapshot: Snapshot
    model: Model
    store: _StoreRef
    settings: DigestSettings
    tree: Tree
    run: RunInfo
    retried: bool = True

    def __call__(self, job: _NodeJob) -> NodeOutcome:
        with self.store.opened() as store:
            return self._run(store, job)

    def _run(self, store: Store, job: _NodeJob) -> NodeOutcome:
        recorded = self._recorded(store, job) if self.retried else None
        if recorded is not None:
            return recorded
        result = self.compute(job)
        record = _record(self.tree, self.run, self.model.identity, job, result)
        try:
            rows = store.record_nodes(self.run, [record])
        except InputError:
            recorded = self._recorded(store, job)
            if recorded is None:
                raise
            return recorded
        return computed_outcome(job.node, job.key, result, rows[job.node.node_id])

    def compute(self, job: _NodeJob) -> NodeResult:
        node = job.node
        if node.kind is NodeKind.LEAF:
            doc = self.snapshot.documents[node.doc_id or ""]
            return summarize_leaf(doc, self.snapshot, self.model, self.settings)
        return summarize_reduce(list(job.children), self.snapshot, self.model, self.settings)

    def _recorded(self, store: Store, job: _NodeJob) -> NodeOutcome | None:
        node_id = job.node.node_id
        found = [n for n in store.run_nodes(self.run.run_id) if n.node_id == node_id]
        if not found:
            return None
        row = store.node(found[0].node_row)
        where = f"digest store {store.path}, {node_id} recorded by an earlier attempt"
        verified_row(row, where, recorded_key=job.key)
        spans, problems = revalidate(row, LineResolver(self.snapshot))
        if problems:
            raise InputError(f"{where}: " + "; ".join(problems))
        return replace(
            outcome_from_row(job.node, row, spans),
            outcome=Outcome.COMPUTED,
            calls=row.calls,
            prompt_tokens=row.prompt_tokens,
            generated_tokens=row.generated_tokens,
        )


def _record(
    tree: Tree, run: RunInfo, identity: ModelIdentity, job: _NodeJob, result: NodeResult
) -> NodeRecord:
    node = job.node
    return NodeRecord(
        node.node_id,
        node.kind.value,
        node.level,
        tree.parent(node.node_id),
        job.key,
        new_node=_new_row(run.namespace, job.key, node, result),
        generations=_generations(node.node_id, result, identity),
        child_rows=tuple(child.row_id for child in job.children),
    )


@dataclass(frozen=True, slots=True)
class _Build:
    """What every level of one build shares."""

    snapshot: Snapshot
    store: Store
    keys: KeySettings
    tree: Tree
    run: RunInfo
    incremental: bool
    executor: Executor
    resolver: LineResolver
    task: _NodeTask

    def level(self, nodes: Sequence[TreeNode], done: dict[str, NodeOutcome]) -> None:
        """Key, reuse or compute, and record one level; its nodes are independent.

        The nodes to compute go to the executor, each recorded by its own task; the
        reused and invalidated ones are recorded here, in one transaction.
        """
        digests = {node_id: outcome.digest for node_id, outcome in done.items()}
        planned = [(node, _node_key(node, self.snapshot, self.keys, digests)) for node in nodes]
        stored = (
            self.store.lookup_many(INCREMENTAL, [key for _, key in planned])
            if self.incremental
            else {}
        )
        where = f"digest store {self.store.path}"
        reused, invalid = _reuse(planned, stored, self.resolver, where)
        jobs = [
            _NodeJob(node, key, tuple(done[child] for child in node.children))
            for node, key in planned
            if node.node_id not in reused and node.node_id not in invalid
        ]
        computed = {o.node_id: o for o in self.executor.map(self.task, jobs)}
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
            else _record(
                self.tree,
                self.run,
                self.task.model.identity,
                _NodeJob(node, key, tuple(done[child] for child in node.children)),
                invalid[node.node_id],
            )
            for node, key in planned
            if node.node_id not in computed
        ]
        rows = self.store.record_nodes(self.run, records) if records else {}
        for node, key in planned:
            node_id = node.node_id
            done[node_id] = (
                reused.get(node_id)
                or computed.get(node_id)
                or computed_outcome(node, key, invalid[node_id], rows[node_id])
            )


def build_digest(
    snapshot: Snapshot,
    runtime: Runtime | Model,
    store: Store,
    settings: DigestSettings,
    *,
    principal: str = "default",
    mode: BuildMode = "incremental",
    concurrency: int | None = None,
    dossier: str = "",
    executor: Executor | None = None,
) -> BuildReport:
    """Build the summary tree of ``snapshot`` and record the run in ``store``. Every call
    goes through the runtime (budget, endpoint limit, recorder, progress). The nodes of a
    level are computed by ``executor`` (default: ``concurrency`` threads, the runtime's by
    default); a remote executor gets the model and the snapshot pickled, and reopens the
    store."""
    if mode not in ("incremental", "full"):
        raise ConfigError(f"build mode must be 'incremental' or 'full', not {mode!r}")
    given = as_runtime(runtime)
    remote = executor is not None and executor.remote
    # journaled when the runtime journals (on a remote executor the nodes' calls are kept in
    # the store only: a journal does not travel to a worker)
    model = given.model(rules_summarizer, journaled=not remote)
    concurrency = given.concurrency if concurrency is None else concurrency
    settings = settings.sized_for(model)  # budgets within the model's context window
    started = time.perf_counter()
    tree = build_tree((doc.doc_id for doc in snapshot), settings.fan_in)
    identity = model.identity
    run = store.begin_run(
        mode=mode,
        dossier=dossier,
        principal=principal,
        model=dump_record(identity),
        settings=dump_record(SettingsEntry.of(settings)),
        snapshot=snapshot_record(snapshot),
    )
    build = _Build(
        snapshot,
        store,
        settings.key_settings(identity, principal),
        tree,
        run,
        mode == "incremental",
        executor or LocalExecutor(concurrency),
        LineResolver(snapshot),
        _NodeTask(snapshot, model, _StoreRef(store), settings, tree, run, retried=remote),
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
        counters=dump_record(counters),
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
    store: Store,
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
