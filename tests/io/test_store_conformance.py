"""One behaviour, two backends: every case runs on a real SQLite file and a real
PostgreSQL server (append-only, first reusable result, runs, manifests, migrations)."""

from __future__ import annotations

import sqlite3
from itertools import pairwise

import psycopg
import pytest

from preuve.core.errors import InputError
from preuve.core.store_spec import parse_store_spec
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.build import BuildMode, BuildReport, build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import DigestSettings
from preuve.io import Store, open_store
from preuve.io.documents import load_versions
from preuve.io.records import dump_record
from preuve.io.store_rows import NodeRecord, NodeRow
from preuve.io.stores import INCREMENTAL, SCHEMA_VERSION, TABLES

SETTINGS = DigestSettings()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("store-conformance"))


def build(
    corpus: CorpusInfo,
    store: Store,
    versions: dict[str, int] | None = None,
    mode: BuildMode = "incremental",
) -> BuildReport:
    snapshot = load_versions(corpus.dossier_dir("test-01"), versions)
    return build_digest(snapshot, rules_summarizer(), store, SETTINGS, mode=mode, dossier="test-01")


def raw_execute(spec: str, sql: str) -> None:
    """Run ``sql`` on the store's database directly, outside preuve."""
    parsed = parse_store_spec(spec)
    if parsed.kind == "sqlite":
        conn = sqlite3.connect(parsed.target)
        try:
            conn.execute(sql)
            conn.commit()
        finally:
            conn.close()
    else:
        with psycopg.connect(parsed.target, autocommit=True) as pg:
            pg.execute(sql)


def leaf(digest: str, reusable: bool) -> NodeRow:
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


def test_both_satisfy_the_protocol(store_spec: str) -> None:
    with open_store(store_spec) as store:
        assert isinstance(store, Store)
        assert store.schema_version() == SCHEMA_VERSION
        assert store.read_only is False


def test_rows_only_grow_and_every_earlier_run_stays_readable(
    corpus: CorpusInfo, store_spec: str
) -> None:
    with open_store(store_spec) as store:
        counts = [store.row_counts()]
        first = build(corpus, store)
        counts.append(store.row_counts())
        later = [build(corpus, store, {"doc-00": 2}), build(corpus, store, mode="full")]
        counts.append(store.row_counts())
        for before, after in pairwise(counts):
            assert all(after[table] >= before[table] for table in TABLES)
        assert counts[-1]["runs"] == 3 and counts[-1]["run_ends"] == 3
        assert counts[1] == {
            "runs": 1,
            "run_ends": 1,
            "nodes": 16,
            "generations": 16,
            "edges": 15,
            "run_nodes": 16,
            "manifests": 0,
        }
        info = store.run(first.run_id)
        assert info.finished and info.root_key == first.root.key
        records = store.run_nodes(first.run_id)
        assert [r.key for r in records] == [
            n.key for n in sorted(first.nodes, key=lambda n: (n.level, n.node_id))
        ]
        root = store.node(next(r.node_row for r in records if r.node_id == "root"))
        assert root.claims == [dump_record(c) for c in first.root.claims]
        assert len(store.generations(root.row_id)) == 1
        assert len(store.edges(root.row_id)) == 3
        assert [r.run_id for r in store.runs("test-01")] == [
            first.run_id,
            *(r.run_id for r in later),
        ]
        latest = store.latest_run("test-01", "default")
        assert latest is not None and latest.run_id == later[0].run_id


@pytest.mark.parametrize("table", [*TABLES, "schema_version"])
@pytest.mark.parametrize(
    "statement",
    ["UPDATE {table} SET {column} = {column}", "DELETE FROM {table}"],
    ids=["update", "delete"],
)
def test_every_update_and_delete_is_refused(
    corpus: CorpusInfo, store_spec: str, table: str, statement: str
) -> None:
    with open_store(store_spec) as store:
        build(corpus, store)
        store.record_manifest("test-01", "0" * 64, "withdraw doc-04", {"documents": {}})
    column = {"edges": "position", "run_nodes": "level", "schema_version": "version"}.get(
        table, "created_at" if table != "run_ends" else "seconds"
    )
    refused = (sqlite3.IntegrityError, psycopg.errors.RestrictViolation)
    with pytest.raises(refused, match="append-only"):
        raw_execute(store_spec, statement.format(table=table, column=column))


def test_truncate_is_refused_on_postgresql(corpus: CorpusInfo, pg_url: str) -> None:
    with open_store(pg_url) as store:
        build(corpus, store)
    with pytest.raises(psycopg.errors.RestrictViolation, match="append-only"):
        raw_execute(pg_url, "TRUNCATE nodes CASCADE")


def test_lookup_returns_the_first_reusable_result_only(store_spec: str) -> None:
    with open_store(store_spec) as store:
        run = store.begin_run(
            mode="incremental", dossier="d", principal="p", model={}, settings={}, snapshot=[]
        )
        records = [
            NodeRecord("leaf:a", "leaf", 0, None, "k", new_node=leaf("a" * 64, False)),
        ]
        store.record_nodes(run, records)
        assert store.lookup_many(INCREMENTAL, ["k"]) == {}
        first = store.record_nodes(
            run, [NodeRecord("leaf:b", "leaf", 0, None, "k", new_node=leaf("b" * 64, True))]
        )
        # A second reusable result under the same key is not stored: the run points at the
        # first one (what two builders computing one key at once end up with).
        second = store.record_nodes(
            run, [NodeRecord("leaf:c", "leaf", 0, None, "k", new_node=leaf("c" * 64, True))]
        )
        assert second["leaf:c"] == first["leaf:b"]
        assert store.lookup_many(INCREMENTAL, ["k", "missing"])["k"].digest == "b" * 64
        found = store.lookup(INCREMENTAL, "k")
        assert found is not None and found.digest == "b" * 64
        assert store.known_digests(INCREMENTAL, ["k"]) == {"k": "b" * 64}
        assert store.known_digests("full:other", ["k"]) == {}
        assert store.row_counts()["nodes"] == 2
        records_of_run = {r.node_id: r for r in store.run_nodes(run.run_id)}
        assert records_of_run["leaf:c"].digest == "b" * 64  # the row it points at


def test_an_unfinished_run_is_never_the_latest(store_spec: str) -> None:
    with open_store(store_spec) as store:
        store.begin_run(
            mode="incremental", dossier="d", principal="p", model={}, settings={}, snapshot=[]
        )
        assert store.latest_run("d", "p") is None
        assert [r.finished for r in store.runs()] == [False]


def test_a_manifest_state_is_recorded_once(store_spec: str) -> None:
    with open_store(store_spec) as store:
        for _ in range(3):
            store.record_manifest("d", "a" * 64, "withdraw doc-01", {"documents": {"x": 1}})
        store.record_manifest("d", "b" * 64, "restore doc-01", {"documents": {}})
        store.record_manifest("d", "a" * 64, "withdraw doc-01", {"documents": {"x": 1}})
        assert [m.sha256[0] for m in store.manifests("d")] == ["a", "b", "a"]
        latest = store.latest_manifest("d")
        assert latest is not None and latest.body == {"documents": {"x": 1}}


def test_migrating_again_is_a_no_op(store_spec: str) -> None:
    with open_store(store_spec) as store:
        migrate = getattr(store, "migrate")  # noqa: B009 (both backends have it)
        assert migrate() == []
        assert migrate() == []
        assert store.schema_version() == SCHEMA_VERSION
    with open_store(store_spec) as again:
        assert again.schema_version() == SCHEMA_VERSION


def test_read_only_refuses_writes_in_one_line(corpus: CorpusInfo, store_spec: str) -> None:
    open_store(store_spec).close()
    with open_store(store_spec, read_only=True) as store, pytest.raises(InputError) as caught:
        build(corpus, store)
    message = str(caught.value)
    assert "read-only" in message and "\n" not in message
    assert caught.value.exit_code == 2


def test_unknown_ids_are_one_line(store_spec: str) -> None:
    with open_store(store_spec) as store:
        with pytest.raises(InputError, match="no run 'nope'"):
            store.run("nope")
        with pytest.raises(InputError, match="no result row 99"):
            store.node(99)
