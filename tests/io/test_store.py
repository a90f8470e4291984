"""The digest store: append-only, every run readable, safe for two builds, one-line errors."""

from __future__ import annotations

import sqlite3
import threading
from itertools import pairwise
from pathlib import Path

import pytest

from preuve.core.errors import InputError
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.build import BuildMode, BuildReport, build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import DigestSettings
from preuve.io import store_rows, stores
from preuve.io.documents import load_versions
from preuve.io.records import dump_record
from preuve.io.store_rows import NodeRecord, NodeRow
from preuve.io.stores import INCREMENTAL, TABLES, SqliteStore

SETTINGS = DigestSettings()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest-store"))


def build(
    corpus: CorpusInfo,
    store: SqliteStore,
    versions: dict[str, int] | None = None,
    mode: BuildMode = "incremental",
) -> BuildReport:
    snapshot = load_versions(corpus.dossier_dir("test-01"), versions)
    return build_digest(snapshot, rules_summarizer(), store, SETTINGS, mode=mode, dossier="test-01")


def test_public_surface_is_pinned() -> None:
    # the digest store's package (io/store.py, a re-export kept for old imports, is gone)
    assert stores.__all__ == [
        "INCREMENTAL",
        "SCHEMA_VERSION",
        "TABLES",
        "SqliteStore",
        "Store",
        "StoreStats",
        "open_store",
    ]
    assert {"GenerationRow", "ManifestRow", "NodeRecord", "NodeRow", "RunInfo", "RunNode"} <= set(
        store_rows.__all__
    )


def test_rows_only_grow_and_every_earlier_run_stays_readable(
    corpus: CorpusInfo, tmp_path: Path
) -> None:
    store = SqliteStore(tmp_path / "s.sqlite")
    counts = [store.row_counts()]
    first = build(corpus, store)
    counts.append(store.row_counts())
    later = [
        build(corpus, store, {"doc-00": 2}),
        build(corpus, store, {"doc-00": 2, "doc-05": 2}),
        build(corpus, store, mode="full"),
    ]
    counts.append(store.row_counts())
    for before, after in pairwise(counts):
        assert all(after[table] >= before[table] for table in TABLES)
    assert counts[-1]["runs"] == 4 and counts[-1]["run_ends"] == 4
    # The first run is still whole: its records, its results, its generations.
    info = store.run(first.run_id)
    assert info.finished and info.root_key == first.root.key
    assert [d["version"] for d in info.snapshot][:1] == [1]
    records = store.run_nodes(first.run_id)
    assert [r.key for r in sorted(records, key=lambda r: (r.level, r.node_id))] == [
        n.key for n in sorted(first.nodes, key=lambda n: (n.level, n.node_id))
    ]
    root = store.node(next(r.node_row for r in records if r.node_id == "root"))
    assert root.claims == [dump_record(c) for c in first.root.claims]
    assert len(store.generations(root.row_id)) == 1
    assert [r.run_id for r in store.runs("test-01")] == [first.run_id, *(r.run_id for r in later)]


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize(
    "statement",
    ["UPDATE {table} SET rowid = rowid", "DELETE FROM {table}"],
    ids=["update", "delete"],
)
def test_triggers_refuse_every_update_and_delete(
    corpus: CorpusInfo, tmp_path: Path, table: str, statement: str
) -> None:
    path = tmp_path / "s.sqlite"
    store = SqliteStore(path)
    build(corpus, store)
    store.record_manifest("test-00", "0" * 64, "withdraw doc-04", {"documents": {}})
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute(statement.format(table=table))
    conn.close()


def test_lookup_returns_the_first_reusable_result_only(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite")
    run = store.begin_run(
        mode="incremental", dossier="d", principal="p", model={}, settings={}, snapshot=[]
    )

    def row(digest: str, reusable: bool) -> NodeRow:
        return NodeRow(
            INCREMENTAL,
            "k",
            "leaf:a",
            "leaf",
            "INVALID",
            [],
            [],
            ["x"],
            digest,
            None,
            1,
            1,
            1,
            reusable,
        )

    store.record_nodes(
        run, [NodeRecord("leaf:a", "leaf", 0, None, "k", new_node=row("a" * 64, False))]
    )
    assert store.lookup_many(INCREMENTAL, ["k"]) == {}
    store.record_nodes(
        run, [NodeRecord("leaf:b", "leaf", 0, None, "k", new_node=row("b" * 64, True))]
    )
    store.record_nodes(
        run, [NodeRecord("leaf:c", "leaf", 0, None, "k", new_node=row("c" * 64, True))]
    )
    assert store.lookup_many(INCREMENTAL, ["k", "missing"])["k"].digest == "b" * 64
    assert store.known_digests(INCREMENTAL, ["k"]) == {"k": "b" * 64}
    assert store.known_digests("full:other", ["k"]) == {}


def test_an_unfinished_run_is_never_the_latest(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite")
    store.begin_run(
        mode="incremental", dossier="d", principal="p", model={}, settings={}, snapshot=[]
    )
    assert store.latest_run("d", "p") is None
    assert [r.finished for r in store.runs()] == [False]


def test_two_builds_at_once_both_finish(corpus: CorpusInfo, tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    SqliteStore(path).close()
    reports: list[BuildReport] = []
    errors: list[BaseException] = []

    def worker(versions: dict[str, int]) -> None:
        try:
            with SqliteStore(path) as store:
                reports.append(build(corpus, store, versions))
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(v,)) for v in ({}, {"doc-03": 2})]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(reports) == 2
    with SqliteStore(path, read_only=True) as store:
        assert {r.run_id for r in store.runs()} == {r.run_id for r in reports}
        assert all(len(store.run_nodes(r.run_id)) == 16 for r in reports)


def test_read_only_store_fails_in_one_line(corpus: CorpusInfo, tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    SqliteStore(path).close()
    with SqliteStore(path, read_only=True) as store, pytest.raises(InputError) as caught:
        build(corpus, store)
    message = str(caught.value)
    assert "read-only" in message and "\n" not in message
    assert caught.value.exit_code == 2


def test_full_disk_fails_in_one_line(corpus: CorpusInfo, tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "s.sqlite", max_bytes=160_000) as store:
        with pytest.raises(InputError) as caught:
            for version in (1, 2):
                build(corpus, store, {f"doc-{i:02d}": version for i in range(12)}, mode="full")
                build(corpus, store, {f"doc-{i:02d}": version for i in range(12)}, mode="full")
        message = str(caught.value)
        assert "full" in message and "\n" not in message
        # What was committed before the failure is still readable.
        assert store.row_counts()["runs"] >= 1


def test_missing_folder_and_not_a_store_fail_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unable to open"):
        SqliteStore(tmp_path / "no" / "such" / "s.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite at all, just text " * 100)
    with pytest.raises(InputError, match=r"not a digest store|not a database"):
        SqliteStore(junk)
    with pytest.raises(InputError, match="no run"):
        SqliteStore(tmp_path / "s.sqlite").run("nope")


@pytest.mark.parametrize("read_only", [False, True], ids=["writable", "read-only"])
def test_a_store_written_by_a_newer_preuve_is_refused(tmp_path: Path, read_only: bool) -> None:
    path = tmp_path / "s.sqlite"
    SqliteStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO schema_version VALUES ('digest', 999, 'from the future', '2099-01-01')"
    )
    conn.commit()
    conn.close()
    with pytest.raises(InputError, match="schema version 999, newer than this preuve's"):
        SqliteStore(path, read_only=read_only)


def _reduce(node_id: str, key: str, child_rows: tuple[int, ...]) -> NodeRecord:
    node = NodeRow(
        INCREMENTAL, key, node_id, "reduce", "VALID", [], [], [], "d" * 64, None, 1, 1, 1, True
    )
    return NodeRecord(node_id, "reduce", 1, None, key, new_node=node, child_rows=child_rows)


def test_a_rolled_back_write_reports_its_own_cause(tmp_path: Path) -> None:
    # SQLite ends some failed transactions itself (full disk, I/O error, RAISE(ROLLBACK)):
    # the error must name that cause, not "cannot rollback - no transaction is active".
    path = tmp_path / "s.sqlite"
    store = SqliteStore(path)
    run = store.begin_run(
        mode="incremental", dossier="d", principal="p", model={}, settings={}, snapshot=[]
    )
    other = sqlite3.connect(path)
    other.execute(
        "CREATE TRIGGER simulated BEFORE INSERT ON edges"
        " BEGIN SELECT RAISE(ROLLBACK, 'simulated failure'); END"
    )
    other.close()
    with pytest.raises(InputError, match="simulated failure"):
        store.record_nodes(run, [_reduce("reduce:a", "ka", (1,))])
    assert store.row_counts()["nodes"] == 0
    store.close()


def test_a_failed_commit_leaves_no_transaction_open(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite")
    run = store.begin_run(
        mode="incremental", dossier="d", principal="p", model={}, settings={}, snapshot=[]
    )
    # A deferred foreign key fails at COMMIT, which leaves SQLite's transaction open.
    store._conn.execute("PRAGMA defer_foreign_keys = ON")
    with pytest.raises(InputError, match="FOREIGN KEY"):
        store.record_nodes(run, [_reduce("reduce:a", "ka", (99_999,))])
    store.record_nodes(run, [_reduce("reduce:b", "kb", ())])
    assert store.row_counts()["nodes"] == 1
    store.close()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd (Linux)")
def test_a_file_that_is_not_a_store_is_not_left_open(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite at all, just text " * 100)

    def open_handles() -> int:
        return sum(1 for fd in Path("/proc/self/fd").iterdir() if fd.resolve() == junk.resolve())

    with pytest.raises(InputError) as caught:
        SqliteStore(junk)
    # ``caught`` keeps the failed constructor's frame alive: only an explicit close frees it.
    assert caught.value.exit_code == 2
    assert open_handles() == 0
