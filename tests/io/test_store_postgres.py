"""PostgreSQL under load and faults, against a real server: concurrent builders (threads
and processes) never store a result twice nor lose one; a connection killed mid-build
fails in one line and a rebuild gives the uninterrupted result; SQLite and PostgreSQL
give node-by-node identical builds and refuse STALE identically."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg
import pytest

from preuve.core.documents import Snapshot
from preuve.core.errors import InputError
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.build import BuildReport, Outcome, build_digest
from preuve.digest.mutations import compare_builds, stored_nodes
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.serve import ServeStatus, serve_digest
from preuve.digest.store_check import check_store
from preuve.digest.summarize import DigestSettings
from preuve.io import Store, open_store
from preuve.io.documents import load_versions
from preuve.io.stores import INCREMENTAL, SCHEMA_VERSION
from preuve.models.base import Completion, Model, ModelIdentity, Request
from tests.io.pg_workers import build_in_process, build_once

SETTINGS = DigestSettings()
MODEL = rules_summarizer()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("store-postgres"))


def build(snapshot: Snapshot, store: Store, model: Model = MODEL, **options: Any) -> BuildReport:
    options.setdefault("dossier", "shared")
    return build_digest(snapshot, model, store, SETTINGS, **options)


def reference(corpus: CorpusInfo, tmp_path: Path) -> BuildReport:
    """The same dossier built alone, uninterrupted, on SQLite."""
    with open_store(tmp_path / "reference.sqlite") as store:
        return build(load_versions(corpus.dossier_dir("test-00")), store)


def assert_nothing_duplicated_or_lost(store: Store, run_ids: list[str], nodes: int) -> None:
    stored = list(store.dump_rows("nodes"))
    reusable = Counter((r["namespace"], r["key"]) for r in stored if r["reusable"])
    assert [k for k, n in reusable.items() if n > 1] == []  # 0 duplicate results
    calls = Counter((g["node_row"], g["attempt"]) for g in store.dump_rows("generations"))
    assert [k for k, n in calls.items() if n > 1] == []  # 0 duplicate model calls
    by_row = {r["row_id"]: r for r in stored}
    for run_id in run_ids:
        assert store.run(run_id).finished
        records = store.run_nodes(run_id)
        assert len(records) == nodes  # 0 lost records
        for record in records:
            row = by_row[record.node_row]
            assert (row["key"], row["digest"]) == (record.key, record.digest)
            assert len(store.generations(record.node_row)) == row["calls"]  # 0 lost calls
            if record.kind != "leaf":
                assert store.edges(record.node_row) != []
    check_store(store)


def test_concurrent_builders_in_threads_store_each_result_once(
    corpus: CorpusInfo, pg_url: str, tmp_path: Path
) -> None:
    dossier = str(corpus.dossier_dir("test-00"))
    builders = 4
    barrier = threading.Barrier(builders)
    run_ids: list[str] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            run_ids.append(build_once(pg_url, dossier, barrier))
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=worker) for _ in range(builders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    assert errors == [] and len(run_ids) == builders
    with open_store(pg_url, read_only=True) as store:
        assert_nothing_duplicated_or_lost(store, run_ids, 16)
        # Every builder computed all 12 leaves before any was stored (the gate): 12 rows
        # were stored, the other builders' records point at them.
        leaves = [r for run in run_ids for r in store.run_nodes(run) if r.kind == "leaf"]
        assert len({r.node_row for r in leaves}) == 12
        assert Counter(r.outcome for r in leaves) == {"computed": 12 * builders}
        assert store.row_counts()["nodes"] < 16 * builders
        expected = reference(corpus, tmp_path)
        for run_id in run_ids:
            assert compare_builds(stored_nodes(store, run_id), expected.nodes).identical


def test_concurrent_builders_in_processes_store_each_result_once(
    corpus: CorpusInfo, pg_url: str, tmp_path: Path
) -> None:
    context = multiprocessing.get_context("spawn")
    builders = 3
    barrier = context.Barrier(builders)
    results = context.Queue()
    dossier = str(corpus.dossier_dir("test-00"))
    processes = [
        context.Process(target=build_in_process, args=(pg_url, dossier, barrier, results))
        for _ in range(builders)
    ]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=240) for _ in processes]
    for process in processes:
        process.join(timeout=60)
    assert [kind for kind, _ in outcomes] == ["ok"] * builders, outcomes
    run_ids = [run_id for _, run_id in outcomes]
    with open_store(pg_url, read_only=True) as store:
        assert_nothing_duplicated_or_lost(store, run_ids, 16)
        leaves = {r.node_row for run in run_ids for r in store.run_nodes(run) if r.kind == "leaf"}
        assert len(leaves) == 12
        expected = reference(corpus, tmp_path)
        for run_id in run_ids:
            assert compare_builds(stored_nodes(store, run_id), expected.nodes).identical


class HoldAtFirstReduce:
    """The rules engine; at the first reduce call (level 0 is stored) it signals, then
    waits until the test has locked the table the next level will write to."""

    def __init__(self) -> None:
        self.inner = rules_summarizer()
        self.reached = threading.Event()
        self.go_on = threading.Event()

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        if "reduce" in request.task and not self.reached.is_set():
            self.reached.set()
            assert self.go_on.wait(timeout=60)
        return self.inner.complete(request)


def _blocked_backend(admin: psycopg.Connection[Any], database: str) -> int:
    """The pid of the builder's backend once it waits on the test's lock."""
    for _ in range(600):
        row = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'"
            " AND application_name = 'preuve'",
            (database,),
        ).fetchone()
        if row is not None:
            return int(row[0])
        time.sleep(0.05)
    raise AssertionError("the builder never waited on the lock")


def test_a_connection_killed_mid_build_fails_in_one_line_and_a_rebuild_is_identical(
    corpus: CorpusInfo, pg_url: str, tmp_path: Path
) -> None:
    snapshot = load_versions(corpus.dossier_dir("test-00"))
    database = pg_url.rsplit("/", 1)[1]
    model = HoldAtFirstReduce()
    failure: list[BaseException] = []
    with open_store(pg_url) as store:

        def builder() -> None:
            try:
                build(snapshot, store, model, concurrency=1)
            except BaseException as err:  # checked below
                failure.append(err)

        thread = threading.Thread(target=builder)
        thread.start()
        assert model.reached.wait(timeout=60)
        with psycopg.connect(pg_url) as locker, psycopg.connect(pg_url, autocommit=True) as admin:
            # The next level's transaction will wait on this lock: kill it right there.
            locker.execute("LOCK TABLE run_nodes IN ACCESS EXCLUSIVE MODE")
            model.go_on.set()
            pid = _blocked_backend(admin, database)
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            locker.rollback()
        thread.join(timeout=60)
        assert len(failure) == 1 and isinstance(failure[0], InputError)
        message = str(failure[0])
        assert "\n" not in message and failure[0].exit_code == 2
        assert "connection to PostgreSQL was lost" in message
        (interrupted,) = store.runs()
        assert not interrupted.finished
        assert len(store.run_nodes(interrupted.run_id)) == 12  # level 0 was committed
        # Rerun on the same store object: the pool replaced the dead connection.
        counting = CountingModel()
        rerun = build(snapshot, store, counting)
        assert counting.calls == 4  # the 12 stored leaves are reused, the 4 reduces computed
        assert sum(n.outcome is Outcome.HIT for n in rerun.nodes) == 12
        assert compare_builds(rerun, reference(corpus, tmp_path)).identical
        assert compare_builds(stored_nodes(store, rerun.run_id), rerun.nodes).identical
        served = serve_digest(snapshot, store, SETTINGS, identity=MODEL.identity, dossier="shared")
        assert served.status is ServeStatus.SERVED and served.run_id == rerun.run_id
        assert_nothing_duplicated_or_lost(store, [rerun.run_id], 16)


class CountingModel:
    def __init__(self) -> None:
        self.inner = rules_summarizer()
        self.calls = 0

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        self.calls += 1
        return self.inner.complete(request)


def test_idle_connections_killed_by_the_server_are_replaced(
    corpus: CorpusInfo, pg_url: str
) -> None:
    snapshot = load_versions(corpus.dossier_dir("test-00"))
    database = pg_url.rsplit("/", 1)[1]
    with open_store(pg_url) as store:
        first = build(snapshot, store)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = %s AND application_name = 'preuve'",
                (database,),
            ).fetchone()
        assert killed is not None and killed[0] >= 1
        again = build(snapshot, store)
        assert all(n.outcome is Outcome.HIT for n in again.nodes)
        assert compare_builds(first, again).identical


def test_sqlite_and_postgresql_builds_are_node_by_node_identical_and_refuse_stale_alike(
    corpus: CorpusInfo, pg_url: str, tmp_path: Path
) -> None:
    folder = corpus.dossier_dir("test-00")
    first, changed = load_versions(folder), load_versions(folder, {"doc-03": 2})
    results = {}
    for name, spec in (("sqlite", f"sqlite:{tmp_path / 's.sqlite'}"), ("postgresql", pg_url)):
        with open_store(spec) as store:
            report = build(first, store)
            served = serve_digest(first, store, SETTINGS, identity=MODEL.identity, dossier="shared")
            stale = serve_digest(
                changed, store, SETTINGS, identity=MODEL.identity, dossier="shared"
            )
            rebuilt = build(changed, store)
            results[name] = (
                report,
                stored_nodes(store, report.run_id),
                served,
                stale,
                rebuilt,
                stored_nodes(store, rebuilt.run_id),
            )
    sq, pg = results["sqlite"], results["postgresql"]
    assert compare_builds(sq[1], pg[1]).identical and len(sq[1]) == 16
    assert compare_builds(sq[5], pg[5]).identical
    assert [n.outcome for n in sq[4].nodes] == [n.outcome for n in pg[4].nodes]
    assert sq[2].status is pg[2].status is ServeStatus.SERVED
    assert sq[2].claims == pg[2].claims
    assert sq[3].status is pg[3].status is ServeStatus.STALE
    assert sq[3].reason.replace(sq[0].run_id, "RUN") == pg[3].reason.replace(pg[0].run_id, "RUN")
    assert "doc-03" in sq[3].reason


def _make_old(path: Path) -> None:
    """Turn a store into one written before schema versions (today's file layout)."""
    conn = sqlite3.connect(path)
    conn.executescript(
        "DROP TABLE schema_version; DROP INDEX nodes_one_reusable_per_key;"
        " DROP INDEX generations_one_per_attempt;"
    )
    conn.close()


def test_an_old_sqlite_store_is_migrated_in_place(corpus: CorpusInfo, tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    snapshot = load_versions(corpus.dossier_dir("test-00"))
    with open_store(path) as store:
        before = build(snapshot, store)
    _make_old(path)
    with open_store(path, read_only=True) as old:
        assert old.schema_version() == 1
        assert len(old.run_nodes(before.run_id)) == 16  # readable as it is
    with open_store(f"sqlite:{path}") as store:
        assert store.schema_version() == SCHEMA_VERSION
        again = build(snapshot, store)
        assert all(n.outcome is Outcome.HIT for n in again.nodes)
        assert store.row_counts()["runs"] == 2
        check_store(store)
    conn = sqlite3.connect(path)
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    versions = [r[0] for r in conn.execute("SELECT version FROM schema_version")]
    conn.close()
    # Version 1 (CREATE ... IF NOT EXISTS) found the tables there; version 2 added the rest.
    assert "nodes_one_reusable_per_key" in indexes and versions == [1, 2]


def test_an_old_store_holding_a_key_twice_is_migrated_not_broken(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    open_store(path).close()
    _make_old(path)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO runs VALUES ('r', 't', 'incremental', 'incremental', 'd', 'p',"
                 " '{}', '{}', '[]')")  # fmt: skip
    for _ in range(2):  # what two racing builds could leave before version 2
        conn.execute(
            "INSERT INTO nodes (namespace, key, node_id, kind, status, claims, spans,"
            " diagnostic, digest, token_ids, calls, prompt_tokens, generated_tokens, reusable,"
            " run_id, created_at) VALUES ('incremental', 'k', 'leaf:a', 'leaf', 'VALID', '[]',"
            " '[]', '[]', 'd', NULL, 0, 0, 0, 1, 'r', 't')"
        )
    conn.commit()
    conn.close()
    with open_store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        found = store.lookup(INCREMENTAL, "k")
        assert found is not None and found.row_id == 1
        assert store.row_counts()["nodes"] == 2


def test_concurrent_writers_record_one_manifest_state_once(pg_url: str) -> None:
    barrier = threading.Barrier(4)

    def writer() -> None:
        with open_store(pg_url) as store:
            barrier.wait(timeout=60)
            for event in ("withdraw doc-01", "withdraw doc-01"):
                store.record_manifest("d", "a" * 64, event, {"documents": {"doc-01": 1}})

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    with open_store(pg_url, read_only=True) as store:
        assert [m.sha256 for m in store.manifests("d")] == ["a" * 64]
