"""One tree level into PostgreSQL in few round trips, against a real server."""

from __future__ import annotations

import hashlib
from pathlib import Path

import psycopg
import pytest
from psycopg import pq

from preuve.io import open_store
from preuve.io.store_rows import GenerationRow, NodeRecord, NodeRow
from preuve.io.stores import INCREMENTAL
from preuve.io.stores.postgres_level import write_level


def _record(number: int, children: tuple[int, ...] = ()) -> NodeRecord:
    key = hashlib.sha256(f"level-{number}".encode()).hexdigest()
    kind = "reduce" if children else "leaf"
    node_id = f"{kind}:{number}"
    row = NodeRow(
        INCREMENTAL, key, node_id, kind, "VALID", [], [], [], "0" * 64, None, 1, 10, 5, True
    )
    call = GenerationRow(
        node_id, 1, "digest.map", "0" * 64, {"backend": "t"}, [{"role": "user", "content": "x"}],
        '{"claims": []}', "stop", 10, 5, None, 0.1, [], "",
    )  # fmt: skip
    return NodeRecord(
        node_id, kind, 1 if children else 0, None, key,
        new_node=row, generations=(call,), child_rows=children,
    )  # fmt: skip


def _asks(trace: Path) -> list[str]:
    """The client's requests for answers, in order (a Sync the pipeline ends with is
    followed by a Flush: one exchange)."""
    sent = [line.split("\t") for line in trace.read_text().splitlines()]
    return [f[2] for f in sent if f[0] == "F" and f[2] in ("Sync", "Flush", "Query")]


def test_a_level_is_written_in_two_round_trips_whatever_its_width(
    pg_url: str, tmp_path: Path
) -> None:
    # BEGIN with the results' INSERT (their row ids are needed), then their model calls,
    # edges and run records with COMMIT: each round trip costs the client and the server a
    # wake-up, which is what bounds many writers on few cores.
    with open_store(pg_url) as store:
        run = store.begin_run(
            mode="incremental", dossier="d", principal="p", model={}, settings={}, snapshot=[]
        )
        leaves = store.record_nodes(run, [_record(n) for n in range(4)])
    level = [_record(10 + n, tuple(leaves.values())) for n in range(3)]
    inside = [_record(20 + n, tuple(leaves.values())) for n in range(5)]
    traces = tmp_path / "own.txt", tmp_path / "inside.txt"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        with traces[0].open("w") as out:  # the store's way: its own transaction
            conn.pgconn.trace(out.fileno())
            conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
            written = write_level(conn, run, level, begin=True)
            conn.pgconn.untrace()
        with conn.transaction(), traces[1].open("w") as out:  # in the caller's transaction
            conn.pgconn.trace(out.fileno())
            conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
            write_level(conn, run, inside)
            conn.pgconn.untrace()
        stored = conn.execute(
            "SELECT count(*) FROM run_nodes WHERE run_id = %s", (run.run_id,)
        ).fetchone()
        edges = conn.execute("SELECT count(*) FROM edges").fetchone()
        calls = conn.execute("SELECT count(*) FROM generations").fetchone()
    assert _asks(traces[0]) == _asks(traces[1]) == ["Flush", "Sync", "Flush"]
    assert sorted(written) == [r.node_id for r in level]
    assert (stored, edges, calls) == ((12,), (32,), (12,))


def test_a_level_that_fails_is_rolled_back_and_the_connection_stays_usable(
    pg_url: str,
) -> None:
    with open_store(pg_url) as store:
        run = store.begin_run(
            mode="incremental", dossier="d", principal="p", model={}, settings={}, snapshot=[]
        )
    with psycopg.connect(pg_url, autocommit=True) as conn:
        broken = [_record(1), _record(2, (999_999,))]  # an edge to no result
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            write_level(conn, run, broken, begin=True)
        assert conn.info.transaction_status is pq.TransactionStatus.IDLE
        assert conn.execute("SELECT count(*) FROM nodes").fetchone() == (0,)
        write_level(conn, run, [_record(3)], begin=True)
        assert conn.execute("SELECT count(*) FROM nodes").fetchone() == (1,)
