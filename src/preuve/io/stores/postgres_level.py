"""One tree level into PostgreSQL in two round trips, whatever its width.

The level's transaction is written in one pipeline: ``BEGIN`` and the new results (one
INSERT a result, reusable ones with ``ON CONFLICT DO NOTHING``, each returning its row
id) go out together and are answered together; then the model calls, edges and run
records, which need those row ids, go out with ``COMMIT``. A key another builder stored
first is read back in one SELECT between the two. Same rows as
:meth:`preuve.io.stores.sql.SqlStore._record`, one statement per node there.

Each round trip wakes the writer and its server process: on few cores shared by many
writers those wake-ups are what grows, so BEGIN and COMMIT ride with the statements
instead of waiting for answers of their own (four round trips a level before). One row
per statement rather than one multi-row INSERT: psycopg parses a query of more than 50
parameters again at every execution (a multi-row INSERT of 4 results had 60, a fifth
of the writer's CPU), and caches and prepares the one-row statement once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import pq

from preuve.io.store_rows import NodeRecord, RunInfo
from preuve.io.stores.base import encoded, now
from preuve.io.stores.sql import COLUMNS

__all__ = ["UnstartedError", "write_level"]

_Stored = tuple[int, str, str]  # row id, status, digest
_NODES = [c for c in COLUMNS["nodes"] if c != "row_id"]
_CALLS = [c for c in COLUMNS["generations"] if c != "row_id"]
_RUN_NODES = COLUMNS["run_nodes"]


class UnstartedError(Exception):  # internal: the store retries, it never escapes
    """The connection failed at the level's first exchange (BEGIN and the results'
    INSERT): the server committed nothing of the level, so it may be written again on
    another connection (one the server closed while it sat idle in the pool fails here).
    ``error``: psycopg's."""

    def __init__(self, error: psycopg.OperationalError) -> None:
        super().__init__(str(error))
        self.error = error


def _insert(columns: Sequence[str], table: str, suffix: str = "") -> str:
    marks = ", ".join("%s" for _ in columns)
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}){suffix}"


_INSERT_REUSABLE = _insert(
    _NODES,
    "nodes",
    " ON CONFLICT (namespace, key) WHERE reusable = 1 DO NOTHING RETURNING row_id, node_id",
)
_INSERT_NODE = _insert(_NODES, "nodes", " RETURNING row_id, node_id")
_INSERT_CALL = _insert(_CALLS, "generations")
_INSERT_RUN_NODE = _insert(_RUN_NODES, "run_nodes")


def _send_results(
    cursor: psycopg.Cursor[Any], run: RunInfo, new: Sequence[NodeRecord], created: str
) -> None:
    """The INSERT of every new result, queued in the pipeline (reusable ones first)."""
    for reusable in (True, False):
        values: list[tuple[object, ...]] = []
        for record in new:
            node = record.new_node
            if node is None or node.reusable is not reusable:
                continue
            data = encoded(node, ("claims", "spans", "diagnostic", "token_ids"))
            data.update(reusable=int(reusable), run_id=run.run_id, created_at=created)
            values.append(tuple(data[c] for c in _NODES))
        if values:
            statement = _INSERT_REUSABLE if reusable else _INSERT_NODE
            cursor.executemany(statement, values, returning=True)


def _returned(cursor: psycopg.Cursor[Any]) -> dict[str, int]:
    """``node_id -> row id`` of the results inserted (a skipped one returns no row)."""
    found: dict[str, int] = {}
    while True:
        for row_id, node_id in cursor.fetchall():
            found[str(node_id)] = int(row_id)
        if not cursor.nextset():
            return found


def _stored_elsewhere(
    conn: psycopg.Connection[Any], lost: Sequence[NodeRecord]
) -> dict[str, _Stored]:
    """``node_id -> stored row`` of results other builders stored first under their keys
    (committed: ON CONFLICT waited for them)."""
    namespace = lost[0].new_node.namespace if lost[0].new_node is not None else ""
    found = conn.execute(
        "SELECT key, row_id, status, digest FROM nodes WHERE namespace = %s"
        " AND reusable = 1 AND key = ANY(%s)",
        (namespace, [r.key for r in lost]),
    ).fetchall()
    stored = {str(k): (int(row), str(status), str(digest)) for k, row, status, digest in found}
    return {record.node_id: stored[record.key] for record in lost}


def _send_children(
    cursor: psycopg.Cursor[Any],
    run: RunInfo,
    new: Sequence[NodeRecord],
    inserted: dict[str, int],
    created: str,
) -> None:
    """The model calls and edges of the results inserted here (not of those skipped)."""
    calls: list[tuple[object, ...]] = []
    edges: list[tuple[int, int, int]] = []
    for record in new:
        row = inserted.get(record.node_id)
        if row is None:
            continue
        for gen in record.generations:
            data = encoded(gen, ("model", "messages", "token_ids", "defects"))
            data.update(run_id=run.run_id, node_row=row, created_at=created)
            calls.append(tuple(data[c] for c in _CALLS))
        edges.extend((row, position, child) for position, child in enumerate(record.child_rows))
    if calls:
        cursor.executemany(_INSERT_CALL, calls)
    if edges:
        cursor.executemany("INSERT INTO edges VALUES (%s, %s, %s)", edges)


def _stored_row(record: NodeRecord, rows: dict[str, _Stored]) -> tuple[_Stored, str]:
    if record.new_node is not None:
        return rows[record.node_id], "computed"
    if record.hit is None:
        raise ValueError(f"node {record.node_id}: neither a hit nor a new result")
    return (record.hit.row_id, record.hit.status, record.hit.digest), "hit"


def _write(
    conn: psycopg.Connection[Any],
    pipeline: psycopg.Pipeline,
    run: RunInfo,
    records: Sequence[NodeRecord],
    *,
    begin: bool,
) -> dict[str, int]:
    created = now()
    new = [r for r in records if r.new_node is not None]
    with conn.cursor() as cursor:
        try:
            if begin:
                conn.execute("BEGIN")
            _send_results(cursor, run, new, created)
            # The first exchange: the results' row ids (or BEGIN's answer alone).
            inserted = _returned(cursor) if new else {}
            if begin and not new:
                pipeline.sync()
        except psycopg.OperationalError as err:
            if begin and conn.broken:
                raise UnstartedError(err) from err
            raise
        rows: dict[str, _Stored] = {}
        for record in new:
            if record.node_id in inserted and record.new_node is not None:
                node = record.new_node
                rows[record.node_id] = (inserted[record.node_id], node.status, node.digest)
        lost = [r for r in new if r.node_id not in rows]
        if lost:
            rows.update(_stored_elsewhere(conn, lost))
        written: dict[str, int] = {}
        run_rows = []
        for record in records:
            (row, status, digest), outcome = _stored_row(record, rows)
            written[record.node_id] = row
            run_rows.append(
                (run.run_id, record.node_id, record.kind, record.level, record.parent_id,
                 record.key, row, outcome, status, digest)
            )  # fmt: skip
        # The second exchange: calls, edges, run records (and COMMIT) answered at one Sync
        # (an error still raises here, before the level commits).
        _send_children(cursor, run, new, inserted, created)
        cursor.executemany(_INSERT_RUN_NODE, run_rows)
        if begin:
            conn.execute("COMMIT")
    return written


def write_level(
    conn: psycopg.Connection[Any],
    run: RunInfo,
    records: Sequence[NodeRecord],
    *,
    begin: bool = False,
) -> dict[str, int]:
    """Write ``records`` (one level, key order): in the open transaction of ``conn``, or
    (``begin``, on an autocommit connection) in one opened and committed here, BEGIN and
    COMMIT sent with the statements. Raises :class:`UnstartedError` when the connection fails
    at the first exchange of a transaction opened here; any failure rolls it back."""
    try:
        with conn.pipeline() as pipeline:
            return _write(conn, pipeline, run, records, begin=begin)
    except BaseException:
        idle = pq.TransactionStatus.IDLE
        if begin and not conn.broken and conn.info.transaction_status != idle:
            conn.execute("ROLLBACK")
        raise
