"""Incremental builds proved by counting (STYLE 6): exactly what re-ran, and nothing more."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from preuve.cluster.executor import LocalExecutor
from preuve.core.documents import Document, Snapshot
from preuve.core.errors import ConfigError, CorruptStoreError
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest import build as build_module
from preuve.digest.build import BuildMode, BuildReport, Outcome, build_digest, plan_digest
from preuve.digest.keys import leaf_key
from preuve.digest.lines import LineSpanEntry, document_lines
from preuve.digest.mutations import compare_builds
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.schema import Claim, NodeStatus, task_label
from preuve.digest.summarize import DigestSettings, claims_digest
from preuve.io.documents import load_versions
from preuve.io.records import dump_record
from preuve.io.store_rows import NodeRecord, NodeRow, RunNode
from preuve.io.stores import SqliteStore
from preuve.models.base import Completion, Model, ModelIdentity, Request

SETTINGS = DigestSettings()
LEAVES = {f"leaf:doc-{i:02d}" for i in range(12)}
PARENTS = {"reduce:0", "reduce:1", "reduce:2", "root"}


class CountingModel:
    """Wraps a model and counts its calls by task ("map", "reduce"); records requests."""

    def __init__(self, inner: Model) -> None:
        self.inner = inner
        self.counts: Counter[str] = Counter()
        self.requests: list[Request] = []
        self._lock = threading.Lock()

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        with self._lock:
            self.counts[task_label(request.task)] += 1
            self.requests.append(request)
        return self.inner.complete(request)

    def take(self) -> dict[str, int]:
        """The counts since the last call, then reset."""
        with self._lock:
            counts = dict(self.counts)
            self.counts.clear()
            return counts


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest-build"))


@pytest.fixture
def folder(corpus: CorpusInfo) -> Path:
    return corpus.dossier_dir("test-00")


@pytest.fixture
def store(tmp_path: Path) -> SqliteStore:
    return SqliteStore(tmp_path / "store.sqlite")


@pytest.fixture
def model() -> CountingModel:
    return CountingModel(rules_summarizer())


def build(
    snapshot: Snapshot,
    model: Model,
    store: SqliteStore,
    settings: DigestSettings = SETTINGS,
    *,
    mode: BuildMode = "incremental",
    concurrency: int = 4,
) -> BuildReport:
    return build_digest(
        snapshot, model, store, settings, mode=mode, concurrency=concurrency, dossier="test-00"
    )


def recomputed(report: BuildReport) -> set[str]:
    return {node.node_id for node in report.nodes if node.outcome is Outcome.COMPUTED}


def assert_same_as_full(
    report: BuildReport, snapshot: Snapshot, store: SqliteStore, settings: DigestSettings = SETTINGS
) -> None:
    full = build(snapshot, rules_summarizer(), store, settings, mode="full")
    comparison = compare_builds(report, full)
    assert comparison.identical, comparison.differences
    assert comparison.nodes == len(report.nodes)


def with_version(snapshot: Snapshot, folder: Path, doc_id: str, version: int) -> Snapshot:
    return snapshot.with_document(load_versions(folder, {doc_id: version}).documents[doc_id])


def test_public_surface_is_pinned() -> None:
    assert build_module.__all__ == [
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


def test_first_build_computes_all_16_nodes_then_a_rebuild_is_all_hits(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    snapshot = load_versions(folder)
    first = build(snapshot, model, store)
    assert model.take() == {"map": 12, "reduce": 4}
    assert (first.counters.recomputed, first.counters.cache_hits) == (16, 0)
    assert first.root.status is NodeStatus.VALID and len(first.root.claims) == 4
    again = build(snapshot, model, store)
    assert model.take() == {}
    assert (again.counters.recomputed, again.counters.cache_hits, again.counters.model_calls) == (
        0,
        16,
        0,
    )
    assert again.counters.generated_tokens == 0
    assert [n.claims for n in again.nodes] == [n.claims for n in first.nodes]


def test_exercise_scenario_document_11_then_reduce_prompt(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    snapshot = load_versions(folder)
    build(snapshot, model, store)
    model.take()
    moved = with_version(snapshot, folder, "doc-11", 2)
    first = build(moved, model, store)
    assert model.take() == {"map": 1, "reduce": 2}
    assert first.counters.calls_by_task == {"map": 1, "reduce": 2}
    assert recomputed(first) == {"leaf:doc-11", "reduce:2", "root"}
    assert first.counters.cache_hits == 13
    assert_same_as_full(first, moved, store)
    prompt = replace(SETTINGS, reduce_prompt=SETTINGS.reduce_prompt + "\nKeep field diversity.")
    second = build(moved, model, store, prompt)
    assert model.take() == {"reduce": 4}
    assert recomputed(second) == PARENTS
    assert {n.node_id for n in second.nodes if n.outcome is Outcome.HIT} == LEAVES
    assert_same_as_full(second, moved, store, prompt)


def test_map_prompt_edit_with_unchanged_outputs_costs_only_the_leaves(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    snapshot = load_versions(folder)
    build(snapshot, model, store)
    model.take()
    edited = replace(SETTINGS, map_prompt=SETTINGS.map_prompt + "\nCite ids only.")
    report = build(snapshot, model, store, edited)
    # Early cutoff: every leaf re-ran and produced the same result, so no reduce re-ran.
    assert model.take() == {"map": 12}
    assert recomputed(report) == LEAVES
    assert_same_as_full(report, snapshot, store, edited)


def test_identical_reupload_costs_no_call(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    build(load_versions(folder), model, store)
    model.take()
    report = build(load_versions(folder), model, store)
    assert model.take() == {}
    assert report.counters.cache_hits == 16


def test_edit_of_an_uncited_line_stops_at_the_leaf(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    snapshot = load_versions(folder)
    build(snapshot, model, store)
    model.take()
    doc = snapshot.documents["doc-05"]
    edited = Document(
        doc.doc_id, doc.version, doc.title, doc.date, doc.source_type, (doc.text + "Archived.\n",)
    )
    after = snapshot.with_document(edited)
    report = build(after, model, store)
    assert model.take() == {"map": 1}
    assert recomputed(report) == {"leaf:doc-05"}
    # The reused parent cites doc-05 through spans re-resolved against the new text.
    parent = report.node("reduce:1")
    assert parent.outcome is Outcome.HIT
    cited = [span for span in parent.spans if span.doc_id == "doc-05"]
    assert cited and all(span.text_sha256 == edited.text_sha256 for span in cited)
    assert_same_as_full(report, after, store)


def test_withdrawal_gives_an_ineligible_leaf_and_sends_none_of_its_text(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    snapshot = load_versions(folder)
    build(snapshot, model, store)
    model.take()
    model.requests.clear()
    doc = snapshot.documents["doc-04"]
    after = snapshot.with_access("doc-04", doc.access.withdrawn())
    report = build(after, model, store)
    leaf = report.node("leaf:doc-04")
    assert leaf.status is NodeStatus.INELIGIBLE and leaf.claims == () and leaf.calls == 0
    assert leaf.outcome is Outcome.COMPUTED
    assert model.take() == {"reduce": 2}
    assert recomputed(report) == {"leaf:doc-04", "reduce:1", "root"}
    assert report.counters.recomputed == 3 and report.counters.model_calls == 2
    lines = [line for line in doc.text.splitlines() if len(line) > 20]
    sent = "\n".join(m.content for r in model.requests for m in r.messages)
    assert lines and not [line for line in lines if line in sent]
    assert all("doc-04" not in str(r.payload) for r in model.requests)
    assert report.root.status is NodeStatus.VALID
    assert all(span.doc_id != "doc-04" for span in report.root.spans)
    assert_same_as_full(report, after, store)


class BrokenLeaf:
    """The rules summarizer, except that the leaf of one document gets a bad answer."""

    def __init__(self, doc_id: str, answer: Completion) -> None:
        self.inner = rules_summarizer()
        self.doc_id = doc_id
        self.answer = answer

    @property
    def identity(self) -> ModelIdentity:
        return ModelIdentity("function", "broken-leaf")

    def complete(self, request: Request) -> Completion:
        if request.subject == self.doc_id:
            return self.answer
        return self.inner.complete(request)


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        (Completion("I think the delivery is late.", "stop", 10, 7), "[not_json]"),
        (Completion('{"claims": [{"subject": "P', "length", 10, 384), "[truncated]"),
    ],
    ids=["garbage", "truncated"],
)
def test_an_invalid_leaf_makes_its_ancestors_partial(
    folder: Path, store: SqliteStore, answer: Completion, code: str
) -> None:
    report = build(load_versions(folder), BrokenLeaf("doc-03", answer), store)
    leaf = report.node("leaf:doc-03")
    assert leaf.status is NodeStatus.INVALID and leaf.claims == ()
    assert code in leaf.diagnostic[0]
    assert report.node("reduce:0").status is NodeStatus.PARTIAL
    assert report.root.status is NodeStatus.PARTIAL
    assert {report.node(f"reduce:{i}").status for i in (1, 2)} == {NodeStatus.VALID}
    stored = store.generations(leaf.row_id)
    assert [g.raw_output for g in stored] == [answer.text]  # kept whole


def test_full_build_reads_nothing_and_never_feeds_incremental(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    snapshot = load_versions(folder)
    build(snapshot, model, store)
    full = build(snapshot, model, store, mode="full")
    assert full.counters.model_calls == 16 and full.counters.cache_hits == 0
    assert full.run.namespace == f"full:{full.run_id}"
    model.take()
    edited = replace(SETTINGS, map_prompt="Summarize.")
    build(snapshot, model, store, edited, mode="full")
    assert model.take() == {"map": 12, "reduce": 4}
    build(snapshot, model, store, edited)
    # The full build's results under the new prompt were not reused.
    assert model.take() == {"map": 12}


def test_poisoned_cache_entry_is_revalidated_not_served(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    snapshot = load_versions(folder)
    doc = snapshot.documents["doc-02"]
    key = leaf_key(doc, SETTINGS.key_settings(model.identity, "default"))
    run = store.begin_run(
        mode="incremental", dossier="x", principal="default", model={}, settings={}, snapshot=[]
    )
    first = document_lines(doc)[0]
    bad_span = {**dump_record(LineSpanEntry.of_line(first)), "quote": "Wrong"}
    claims = [{"subject": "P-1", "field": "site", "value": "X", "evidence": [first.id]}]
    # The row is self-consistent (its digest matches its content) but its span is not the
    # document's line: re-validation, not the digest, is what refuses it.
    digest = claims_digest("VALID", [Claim.from_mapping(claims[0])], {first.id: "Wrong"})
    row = NodeRow(
        "incremental",
        key,
        "leaf:doc-02",
        "leaf",
        "VALID",
        claims,
        [bad_span],
        [],
        digest,
        None,
        1,
        1,
        1,
        True,
    )
    store.record_nodes(run, [NodeRecord("leaf:doc-02", "leaf", 0, "reduce:0", key, new_node=row)])
    report = build(snapshot, model, store)
    leaf = report.node("leaf:doc-02")
    assert leaf.status is NodeStatus.INVALID and leaf.outcome is Outcome.COMPUTED
    assert "no longer holds" in leaf.diagnostic[0]
    assert report.node("reduce:0").status is NodeStatus.PARTIAL


def test_concurrency_does_not_change_any_result(folder: Path, tmp_path: Path) -> None:
    snapshot = load_versions(folder)
    serial = build(snapshot, rules_summarizer(), SqliteStore(tmp_path / "a.sqlite"), concurrency=1)
    parallel = build(
        snapshot, rules_summarizer(), SqliteStore(tmp_path / "b.sqlite"), concurrency=8
    )
    assert compare_builds(serial, parallel).identical


class _RetryingExecutor(LocalExecutor):
    """Threads in this process that say, as Ray's tasks do, that a task may run again."""

    @property
    def remote(self) -> bool:
        return True


def test_only_a_retrying_executor_reads_a_node_back_before_computing_it(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A retried task must find what its lost attempt recorded (a query per node); threads
    # are never retried, so a local build does not ask, and builds the same tree.
    snapshot = load_versions(folder)
    local_store = SqliteStore(tmp_path / "a.sqlite")
    reads: Counter[str] = Counter()
    run_nodes = type(local_store).run_nodes

    def counted(self: SqliteStore, run_id: str) -> list[RunNode]:
        reads[run_id] += 1
        return run_nodes(self, run_id)

    monkeypatch.setattr(type(local_store), "run_nodes", counted)
    local = build(snapshot, rules_summarizer(), local_store)
    retrying = build_digest(
        snapshot,
        rules_summarizer(),
        SqliteStore(tmp_path / "b.sqlite"),
        SETTINGS,
        dossier="test-00",
        executor=_RetryingExecutor(4),
    )
    assert reads == {retrying.run.run_id: 16}
    assert compare_builds(local, retrying).identical


def test_plan_marks_the_changed_leaf_and_its_ancestors_stale(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    snapshot = load_versions(folder)
    build(snapshot, model, store)
    plan = plan_digest(with_version(snapshot, folder, "doc-11", 2), store, SETTINGS, model.identity)
    assert plan.stale == {"leaf:doc-11", "reduce:2", "root"}
    assert plan.hits == LEAVES - {"leaf:doc-11"} | {"reduce:0", "reduce:1"}
    assert set(plan.keys) == plan.hits | {"leaf:doc-11"}


def test_any_number_of_documents_and_fan_in(store: SqliteStore, model: CountingModel) -> None:
    docs = [
        Document(f"d{i}", 1, "t", "", "note", (f"Product P-00-0{i} site: Kesby depot.\n",))
        for i in range(5)
    ]
    report = build(Snapshot.of(docs), model, store, replace(SETTINGS, fan_in=2))
    assert [n.node_id for n in report.nodes][-1] == "root"
    assert model.take() == {"map": 5, "reduce": 5}
    assert report.root.status is NodeStatus.VALID


def test_unknown_mode_is_a_config_error(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    with pytest.raises(ConfigError, match="build mode"):
        build(load_versions(folder), model, store, mode="partial")  # type: ignore[arg-type]


def test_a_cached_result_that_does_not_match_its_digest_is_corrupt(
    folder: Path, store: SqliteStore, model: CountingModel
) -> None:
    snapshot = load_versions(folder)
    doc = snapshot.documents["doc-02"]
    key = leaf_key(doc, SETTINGS.key_settings(model.identity, "default"))
    run = store.begin_run(
        mode="incremental", dossier="x", principal="default", model={}, settings={}, snapshot=[]
    )
    line = document_lines(doc)[0]
    claims = [{"subject": "P-1", "field": "site", "value": "X", "evidence": [line.id]}]
    stored = [dump_record(LineSpanEntry.of_line(line))]
    row = NodeRow(
        "incremental", key, "leaf:doc-02", "leaf", "VALID", claims, stored, [],
        "0" * 64, None, 1, 1, 1, True,
    )  # fmt: skip
    store.record_nodes(run, [NodeRecord("leaf:doc-02", "leaf", 0, "reduce:0", key, new_node=row)])
    with pytest.raises(CorruptStoreError, match=r"^CORRUPT: .*digest recorded at build time"):
        build(snapshot, model, store)
