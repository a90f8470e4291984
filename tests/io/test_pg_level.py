"""One tree level into PostgreSQL in few round trips, against a real server."""

from __future__ import annotations

import hashlib
from pathlib import Path

import psycopg
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


def test_a_level_is_written_in_two_round_trips_whatever_its_width(
    pg_url: str, tmp_path: Path
) -> None:
    # The results' INSERT (its row ids are needed), then their model calls, edges and run
    # records together: each round trip costs the client and the server a wake-up, which
    # is what bounds many writers on few cores.
    with open_store(pg_url) as store:
        run = store.begin_run(
            mode="incremental", dossier="d", principal="p", model={}, settings={}, snapshot=[]
        )
        leaves = store.record_nodes(run, [_record(n) for n in range(4)])
    level = [_record(10 + n, tuple(leaves.values())) for n in range(3)]
    trace = tmp_path / "trace.txt"
    with psycopg.connect(pg_url, autocommit=True) as conn, trace.open("w") as out:
        with conn.transaction():
            conn.pgconn.trace(out.fileno())
            conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
            written = write_level(conn, run, level)
            conn.pgconn.untrace()
        stored = conn.execute(
            "SELECT count(*) FROM run_nodes WHERE run_id = %s", (run.run_id,)
        ).fetchone()
        edges = conn.execute("SELECT count(*) FROM edges").fetchone()
        calls = conn.execute("SELECT count(*) FROM generations").fetchone()
    sent = [line.split("\t") for line in trace.read_text().splitlines()]
    waits = [f for f in sent if f[0] == "F" and f[2] in ("Sync", "Query")]
    assert len(waits) == 2
    assert sorted(written) == [r.node_id for r in level]
    assert (stored, edges, calls) == ((7,), (12,), (7,))
