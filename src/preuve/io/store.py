"""The digest store: SQLite, append-only — runs, nodes, generations, DAG edges, run records.

Tables (STRICT; triggers refuse every UPDATE and DELETE, so nothing is ever overwritten,
renamed or removed to look current):

- ``runs``: one row when a build starts (mode, namespace, dossier, principal, model,
  settings, and the snapshot it read: versions, text hashes, access states);
  ``run_ends``: one row when it finishes (root key and status, counters). A run without
  an end is a build that did not finish.
- ``nodes``: one row per computed result, under its cache key and namespace: status,
  claims, cited spans, diagnostic, result digest, generated token ids, usage.
- ``generations``: every model call, its messages and raw output kept whole.
- ``edges``: which child results a computed reduce read (the DAG of results).
- ``run_nodes``: for every run, which key and which result each tree node had, and
  whether it was a cache hit or recomputed.
- ``manifests``: every recorded state of a dossier's manifest (active versions,
  withdrawals, revocations, principal), with the event that produced it.

"Current" is never a flag in the store: it is what a run recorded, checked against the
snapshot a caller asks about (see :mod:`preuve.digest.serve`). Every past run stays
readable. Incremental builds share the ``incremental`` namespace; a full build writes in
its own namespace ``full:<run id>``, which no build ever reads from.

Two builds may write at once (WAL, ``busy_timeout``, one ``BEGIN IMMEDIATE`` transaction
per tree level). Any storage failure (read-only store, full disk, quota) is one line, and
so is a stored JSON column that does not decode (``CORRUPT``).

This module and :mod:`preuve.io.store_rows` speak plain data (JSON-ready dicts, ints,
strings) and import only the standard library and ``preuve.core``: workflows get a store
object and never touch SQL themselves (an import-linter contract checks it).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from preuve.core.errors import CorruptStoreError, InputError
from preuve.io.store_rows import (
    SCHEMA_SQL,
    TABLES,
    CorruptRowError,
    GenerationRow,
    ManifestRow,
    NodeRecord,
    NodeRow,
    RunInfo,
    RunNode,
    generation_from_row,
    node_from_row,
    run_from_row,
)

_T = TypeVar("_T")

__all__ = [
    "INCREMENTAL",
    "TABLES",
    "DigestStore",
    "GenerationRow",
    "ManifestRow",
    "NodeRecord",
    "NodeRow",
    "RunInfo",
    "RunNode",
]

INCREMENTAL = "incremental"
# SQLite's default limit on bound parameters is 32766; stay far below it.
_BATCH = 500


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _encoded(record: NodeRow | GenerationRow, json_columns: tuple[str, ...]) -> dict[str, Any]:
    """The record's columns, JSON ones dumped (``None`` stays NULL), without ``row_id``."""
    # Shallow on purpose: dataclasses.asdict would deep-copy every message text.
    encoded = {f.name: getattr(record, f.name) for f in fields(record) if f.name != "row_id"}
    for name in json_columns:
        encoded[name] = None if encoded[name] is None else _dump(encoded[name])
    return encoded


def _insert(conn: sqlite3.Connection, table: str, values: dict[str, Any]) -> int:
    # Table and column names come from this module's own dataclasses, never from input.
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cursor = conn.execute(
        f"INSERT INTO {table} ({columns}) VALUES ({marks})", tuple(values.values())
    )
    return int(cursor.lastrowid or 0)


def _why(err: sqlite3.Error) -> str | None:
    text = str(err).lower()
    if "readonly" in text or "read-only" in text:
        return "give a writable --store path (this store is read-only)"
    if "full" in text or "disk i/o" in text:  # EFBIG (a file size limit) is an I/O error
        return "free disk space or choose another --store path"
    if "unable to open" in text:
        return "check that the folder of --store exists and is writable"
    if "locked" in text or "busy" in text:
        return "another build holds the store; retry when it has finished"
    if "not a database" in text or "malformed" in text:
        return "this file is not a digest store; choose another --store path"
    return None


_BUSY_RETRY_SECONDS = 30.0


def _retry_when_busy(statement: Callable[[], object]) -> None:
    """Run an idempotent statement, retrying while another connection holds the lock."""
    deadline = time.monotonic() + _BUSY_RETRY_SECONDS
    delay = 0.01
    while True:
        try:
            statement()
            return
        except sqlite3.OperationalError as err:
            if ("locked" not in str(err) and "busy" not in str(err)) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


class DigestStore:
    """An open digest store. ``read_only`` opens it for reading only (serve, history).

    ``max_bytes`` caps the file's size (a quota); writing past it fails like a full disk.
    """

    def __init__(
        self, path: Path, *, read_only: bool = False, max_bytes: int | None = None
    ) -> None:
        self.path = path
        self._lock = threading.Lock()
        if read_only and not path.is_file():
            raise InputError(
                f"digest store {path} does not exist",
                fix="build a summary first: preuve digest build DOSSIER --store PATH",
            )
        with self._guard():
            if read_only:
                uri = f"{path.resolve().as_uri()}?mode=ro"
                self._conn = sqlite3.connect(uri, uri=True, timeout=30, check_same_thread=False)
            else:
                self._conn = sqlite3.connect(path, timeout=30, check_same_thread=False)
            try:
                self._configure(read_only=read_only, max_bytes=max_bytes)
            except BaseException:
                self._conn.close()  # not a store, or unwritable: keep no handle on the file
                raise

    def _configure(self, *, read_only: bool, max_bytes: int | None) -> None:
        self._conn.isolation_level = None  # explicit transactions only
        self._conn.execute("PRAGMA busy_timeout = 30000")
        self._conn.execute("PRAGMA foreign_keys = ON")
        if not read_only:
            # Two builders opening one new store at once: switching to WAL and creating the
            # schema can get SQLITE_BUSY without the busy handler (SQLite's deadlock
            # avoidance). Both statements are idempotent, so they are simply retried.
            _retry_when_busy(lambda: self._conn.execute("PRAGMA journal_mode = WAL"))
            _retry_when_busy(lambda: self._conn.executescript(SCHEMA_SQL))
        if max_bytes is not None:
            page = int(self._conn.execute("PRAGMA page_size").fetchone()[0])
            self._conn.execute(f"PRAGMA max_page_count = {max(1, max_bytes // page)}")

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> DigestStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as err:
            raise InputError(f"digest store {self.path}: {err}", fix=_why(err)) from None

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._guard():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                # SQLite may have rolled back already (full disk, I/O error), and a failed
                # COMMIT leaves the transaction open: end it, without hiding the real cause.
                if self._conn.in_transaction:
                    with suppress(sqlite3.Error):
                        self._conn.execute("ROLLBACK")
                raise

    def _decode(self, make: Callable[[dict[str, Any]], _T], row: dict[str, Any]) -> _T:
        """A stored row as a record; a column that does not decode is one CORRUPT line."""
        try:
            return make(row)
        except CorruptRowError as err:
            raise CorruptStoreError(
                f"digest store {self.path}: {err}",
                fix="the store was altered outside preuve; build into a new --store",
            ) from None

    def _read(self, sql: str, args: Sequence[object] = ()) -> list[dict[str, Any]]:
        with self._lock, self._guard():
            cursor = self._conn.execute(sql, tuple(args))
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    # --- writing -----------------------------------------------------------------------

    def begin_run(
        self,
        *,
        mode: str,
        dossier: str,
        principal: str,
        model: dict[str, str],
        settings: dict[str, Any],
        snapshot: list[dict[str, Any]],
    ) -> RunInfo:
        """Record the start of a build; a full build gets a namespace of its own."""
        run_id = uuid.uuid4().hex
        namespace = INCREMENTAL if mode == "incremental" else f"full:{run_id}"
        created = _now()
        with self._write() as conn:
            conn.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    created,
                    namespace,
                    mode,
                    dossier,
                    principal,
                    _dump(model),
                    _dump(settings),
                    _dump(snapshot),
                ),
            )
        return RunInfo(
            run_id, created, namespace, mode, dossier, principal, model, settings, snapshot
        )

    def record_nodes(self, run: RunInfo, records: Sequence[NodeRecord]) -> dict[str, int]:
        """Write one level of a run in one transaction; ``node_id -> result row``."""
        rows: dict[str, int] = {}
        with self._write() as conn:
            for record in records:
                rows[record.node_id] = self._record(conn, run, record)
        return rows

    def _record(self, conn: sqlite3.Connection, run: RunInfo, record: NodeRecord) -> int:
        created = _now()
        node = record.new_node
        if node is None:
            if record.hit is None:
                raise ValueError(f"node {record.node_id}: neither a hit nor a new result")
            row, outcome = record.hit.row_id, "hit"
            status, digest = record.hit.status, record.hit.digest
        else:
            values = _encoded(node, ("claims", "spans", "diagnostic", "token_ids"))
            values.update(reusable=int(node.reusable), run_id=run.run_id, created_at=created)
            row = _insert(conn, "nodes", values)
            outcome, status, digest = "computed", node.status, node.digest
            for gen in record.generations:
                values = _encoded(gen, ("model", "messages", "token_ids", "defects"))
                values.update(run_id=run.run_id, node_row=row, created_at=created)
                _insert(conn, "generations", values)
            for position, child in enumerate(record.child_rows):
                conn.execute("INSERT INTO edges VALUES (?, ?, ?)", (row, position, child))
        conn.execute(
            "INSERT INTO run_nodes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run.run_id,
                record.node_id,
                record.kind,
                record.level,
                record.parent_id,
                record.key,
                row,
                outcome,
                status,
                digest,
            ),
        )
        return row

    def finish_run(
        self,
        run: RunInfo,
        *,
        root_key: str,
        root_status: str,
        counters: dict[str, Any],
        seconds: float,
    ) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO run_ends VALUES (?, ?, ?, ?, ?, ?)",
                (run.run_id, _now(), root_key, root_status, _dump(counters), seconds),
            )

    def record_manifest(self, dossier: str, sha256: str, event: str, body: Any) -> None:
        """Append one state of a dossier's manifest (unless it is already the latest)."""
        latest = self.latest_manifest(dossier)
        if latest is not None and latest.sha256 == sha256:
            return
        with self._write() as conn:
            conn.execute(
                "INSERT INTO manifests (dossier, sha256, event, body, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (dossier, sha256, event, _dump(body), _now()),
            )

    # --- reading -----------------------------------------------------------------------

    def manifests(self, dossier: str) -> list[ManifestRow]:
        """Every recorded state of ``dossier``'s manifest, oldest first."""
        rows = self._read("SELECT * FROM manifests WHERE dossier = ? ORDER BY row_id", (dossier,))
        return [ManifestRow(**{**row, "body": json.loads(row["body"])}) for row in rows]

    def latest_manifest(self, dossier: str) -> ManifestRow | None:
        found = self.manifests(dossier)
        return found[-1] if found else None

    def lookup(self, namespace: str, key: str) -> NodeRow | None:
        """The first reusable result stored under ``key`` in ``namespace``, if any."""
        found = self._read(
            "SELECT * FROM nodes WHERE namespace = ? AND key = ? AND reusable = 1"
            " ORDER BY row_id LIMIT 1",
            (namespace, key),
        )
        return self._decode(node_from_row, found[0]) if found else None

    def _first_rows(
        self, columns: str, namespace: str, keys: Sequence[str]
    ) -> list[dict[str, Any]]:
        """The first reusable row under each of ``keys`` (one query per batch of keys)."""
        found: dict[str, dict[str, Any]] = {}
        unique = sorted(set(keys))
        for start in range(0, len(unique), _BATCH):
            batch = unique[start : start + _BATCH]
            marks = ", ".join("?" for _ in batch)
            rows = self._read(
                f"SELECT {columns} FROM nodes WHERE namespace = ? AND reusable = 1"
                f" AND key IN ({marks}) ORDER BY row_id",
                (namespace, *batch),
            )
            for row in rows:
                found.setdefault(row["key"], row)
        return list(found.values())

    def lookup_many(self, namespace: str, keys: Sequence[str]) -> dict[str, NodeRow]:
        """``key -> first reusable result`` for the keys of ``keys`` found in ``namespace``."""
        rows = self._first_rows("*", namespace, keys)
        return {row["key"]: self._decode(node_from_row, row) for row in rows}

    def known_digests(self, namespace: str, keys: Sequence[str]) -> dict[str, str]:
        """``key -> result digest`` of the reusable results among ``keys`` (for planning)."""
        rows = self._first_rows("key, digest", namespace, keys)
        return {row["key"]: row["digest"] for row in rows}

    def node(self, row_id: int) -> NodeRow:
        found = self._read("SELECT * FROM nodes WHERE row_id = ?", (row_id,))
        if not found:
            raise InputError(f"digest store {self.path}: no result row {row_id}")
        return self._decode(node_from_row, found[0])

    def run(self, run_id: str) -> RunInfo:
        found = self._read(_RUN_SELECT + " WHERE r.run_id = ?", (run_id,))
        if not found:
            raise InputError(
                f"digest store {self.path}: no run {run_id!r}", fix="list runs with history"
            )
        return self._decode(run_from_row, found[0])

    def runs(self, dossier: str | None = None) -> list[RunInfo]:
        """Every run (of ``dossier`` when given), oldest first."""
        where, args = (" WHERE r.dossier = ?", (dossier,)) if dossier is not None else ("", ())
        rows = self._read(_RUN_SELECT + where + " ORDER BY r.rowid", args)
        return [self._decode(run_from_row, row) for row in rows]

    def latest_run(
        self, dossier: str, principal: str, namespace: str = INCREMENTAL
    ) -> RunInfo | None:
        """The most recent finished run of ``dossier`` for ``principal`` in ``namespace``."""
        rows = self._read(
            _RUN_SELECT + " WHERE r.dossier = ? AND r.principal = ? AND r.namespace = ?"
            " AND e.run_id IS NOT NULL ORDER BY e.rowid DESC LIMIT 1",
            (dossier, principal, namespace),
        )
        return self._decode(run_from_row, rows[0]) if rows else None

    def run_nodes(self, run_id: str) -> list[RunNode]:
        """The records of one run, leaves first (by level, then node id)."""
        rows = self._read(
            "SELECT * FROM run_nodes WHERE run_id = ? ORDER BY level, node_id", (run_id,)
        )
        return [RunNode(**row) for row in rows]

    def generations(self, node_row: int) -> list[GenerationRow]:
        rows = self._read(
            "SELECT * FROM generations WHERE node_row = ? ORDER BY attempt, row_id", (node_row,)
        )
        return [self._decode(generation_from_row, row) for row in rows]

    def edges(self, parent_row: int) -> list[int]:
        rows = self._read(
            "SELECT child_row FROM edges WHERE parent_row = ? ORDER BY position", (parent_row,)
        )
        return [int(row["child_row"]) for row in rows]

    def row_counts(self) -> dict[str, int]:
        """Rows per table (they only ever grow)."""
        return {
            table: int(self._read(f"SELECT count(*) AS n FROM {table}")[0]["n"]) for table in TABLES
        }


_RUN_SELECT = (
    "SELECT r.*, e.finished_at, e.root_key, e.root_status, e.counters, e.seconds"
    " FROM runs AS r LEFT JOIN run_ends AS e ON e.run_id = r.run_id"
)
