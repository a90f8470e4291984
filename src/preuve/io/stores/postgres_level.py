"""One tree level into PostgreSQL in a handful of round trips, whatever its width.

The new results go in one multi-row INSERT (reusable ones with ``ON CONFLICT DO
NOTHING``: a key another builder stored first is skipped, and read back in one SELECT),
then the model calls, edges and run records in one pipeline (one round trip for all
three). Same rows as :meth:`preuve.io.stores.sql.SqlStore._record`, one
statement per node there; the round trips saved are what a server across a network costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from preuve.io.store_rows import NodeRecord, RunInfo
from preuve.io.stores.base import encoded, now
from preuve.io.stores.sql import COLUMNS

__all__ = ["write_level"]

_Stored = tuple[int, str, str]  # row id, status, digest
_NODES = [c for c in COLUMNS["nodes"] if c != "row_id"]
_CALLS = [c for c in COLUMNS["generations"] if c != "row_id"]


def _marks(count: int, width: int) -> str:
    row = "(" + ", ".join("%s" for _ in range(width)) + ")"
    return ", ".join(row for _ in range(count))


def _insert_results(
    conn: psycopg.Connection[Any], run: RunInfo, new: Sequence[NodeRecord], created: str
) -> tuple[dict[str, _Stored], set[str]]:
    """``node_id -> stored row`` of every new result, and the node ids inserted here."""
    rows: dict[str, _Stored] = {}
    inserted: set[str] = set()
    for reusable in (True, False):
        batch = [r for r in new if r.new_node is not None and r.new_node.reusable is reusable]
        if not batch:
            continue
        values: list[object] = []
        for record in batch:
            assert record.new_node is not None
            data = encoded(record.new_node, ("claims", "spans", "diagnostic", "token_ids"))
            data.update(reusable=int(reusable), run_id=run.run_id, created_at=created)
            values.extend(data[c] for c in _NODES)
        conflict = " ON CONFLICT (namespace, key) WHERE reusable = 1 DO NOTHING"
        returned = conn.execute(
            f"INSERT INTO nodes ({', '.join(_NODES)}) VALUES {_marks(len(batch), len(_NODES))}"
            f"{conflict if reusable else ''} RETURNING row_id, node_id",
            values,
        ).fetchall()
        by_node = {str(node_id): int(row_id) for row_id, node_id in returned}
        for record in batch:
            assert record.new_node is not None
            if record.node_id in by_node:
                node = record.new_node
                rows[record.node_id] = (by_node[record.node_id], node.status, node.digest)
                inserted.add(record.node_id)
    lost = [r for r in new if r.node_id not in rows and r.new_node is not None]
    if lost:
        # Other builders stored these keys first (committed: ON CONFLICT waited for them).
        namespace = lost[0].new_node.namespace if lost[0].new_node is not None else ""
        found = conn.execute(
            "SELECT key, row_id, status, digest FROM nodes WHERE namespace = %s"
            " AND reusable = 1 AND key = ANY(%s)",
            (namespace, [r.key for r in lost]),
        ).fetchall()
        stored = {str(k): (int(row), str(status), str(digest)) for k, row, status, digest in found}
        for record in lost:
            rows[record.node_id] = stored[record.key]
    return rows, inserted


def _insert_children(
    cursor: psycopg.Cursor[Any],
    run: RunInfo,
    new: Sequence[NodeRecord],
    rows: dict[str, _Stored],
    inserted: set[str],
    *,
    created: str,
) -> None:
    """The model calls and edges of the results inserted here (not of those skipped)."""
    calls: list[tuple[object, ...]] = []
    edges: list[tuple[int, int, int]] = []
    for record in new:
        if record.node_id not in inserted:
            continue
        row = rows[record.node_id][0]
        for gen in record.generations:
            data = encoded(gen, ("model", "messages", "token_ids", "defects"))
            data.update(run_id=run.run_id, node_row=row, created_at=created)
            calls.append(tuple(data[c] for c in _CALLS))
        edges.extend((row, position, child) for position, child in enumerate(record.child_rows))
    if calls:
        cursor.executemany(
            f"INSERT INTO generations ({', '.join(_CALLS)}) VALUES {_marks(1, len(_CALLS))}",
            calls,
        )
    if edges:
        cursor.executemany("INSERT INTO edges VALUES (%s, %s, %s)", edges)


def _stored_row(record: NodeRecord, rows: dict[str, _Stored]) -> tuple[_Stored, str]:
    if record.new_node is not None:
        return rows[record.node_id], "computed"
    if record.hit is None:
        raise ValueError(f"node {record.node_id}: neither a hit nor a new result")
    return (record.hit.row_id, record.hit.status, record.hit.digest), "hit"


def write_level(
    conn: psycopg.Connection[Any], run: RunInfo, records: Sequence[NodeRecord]
) -> dict[str, int]:
    """Write ``records`` (one level, key order) in the open transaction of ``conn``."""
    created = now()
    new = [r for r in records if r.new_node is not None]
    rows, inserted = _insert_results(conn, run, new, created)
    written: dict[str, int] = {}
    run_rows = []
    for record in records:
        (row, status, digest), outcome = _stored_row(record, rows)
        written[record.node_id] = row
        run_rows.append(
            (run.run_id, record.node_id, record.kind, record.level, record.parent_id,
             record.key, row, outcome, status, digest)
        )  # fmt: skip
    # One pipeline: the calls, edges and run records go out together and the server
    # answers them at one Sync (an error still raises here, before the level commits).
    with conn.pipeline(), conn.cursor() as cursor:
        _insert_children(cursor, run, new, rows, inserted, created=created)
        cursor.executemany(
            f"INSERT INTO run_nodes ({', '.join(COLUMNS['run_nodes'])})"
            f" VALUES {_marks(1, len(COLUMNS['run_nodes']))}",
            run_rows,
        )
    return written
