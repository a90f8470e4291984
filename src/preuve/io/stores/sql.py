"""What both backends share: every read and write of the digest store, written once.

A backend supplies a connection-level seam — :meth:`SqlStore._read` (one query, rows as
dicts) and :meth:`SqlStore._transact` (run a function inside one transaction, retried
where the backend asks for it) — and :meth:`_Tx.insert_node`, the one statement whose
concurrency differs (SQLite serializes writers; PostgreSQL inserts with ``ON CONFLICT DO
NOTHING`` and reads the first result back). SQL is written with ``?`` placeholders.
"""

from __future__ import annotations

import json
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar

from preuve.core.errors import CorruptStoreError, InputError
from preuve.io.store_rows import (
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
from preuve.io.stores.base import (
    INCREMENTAL,
    SCHEMA_VERSION,
    TABLES,
    StoreStats,
    dump,
    encoded,
    now,
)

__all__ = ["COLUMNS", "SqlStore"]

_T = TypeVar("_T")
# SQLite's default limit on bound parameters is 32766; stay far below it.
_BATCH = 500

COLUMNS: dict[str, tuple[str, ...]] = {
    "runs": (
        "run_id", "created_at", "namespace", "mode", "dossier", "principal", "model",
        "settings", "snapshot",
    ),
    "run_ends": ("run_id", "finished_at", "root_key", "root_status", "counters", "seconds"),
    "nodes": (
        "row_id", "namespace", "key", "node_id", "kind", "status", "claims", "spans",
        "diagnostic", "digest", "token_ids", "calls", "prompt_tokens", "generated_tokens",
        "reusable", "run_id", "created_at",
    ),
    "generations": (
        "row_id", "run_id", "node_row", "node_id", "attempt", "task", "request_hash", "model",
        "messages", "raw_output", "finish_reason", "prompt_tokens", "generated_tokens",
        "token_ids", "seconds", "defects", "error", "created_at",
    ),
    "edges": ("parent_row", "position", "child_row"),
    "run_nodes": (
        "run_id", "node_id", "kind", "level", "parent_id", "key", "node_row", "outcome",
        "status", "digest",
    ),
    "manifests": ("row_id", "dossier", "sha256", "event", "body", "created_at"),
}  # fmt: skip
"""Every stored column, by table, in schema order (``seq`` of PostgreSQL aside)."""


class _Tx(Protocol):
    """One open transaction of a backend."""

    def execute(self, sql: str, args: Sequence[object] = ()) -> None: ...

    def query(self, sql: str, args: Sequence[object] = ()) -> list[dict[str, Any]]: ...

    def insert(self, table: str, values: dict[str, Any]) -> int:
        """Insert one row and return its ``row_id``."""
        ...

    def insert_node(self, values: dict[str, Any]) -> tuple[int, str, str, bool]:
        """Insert a result unless a reusable one is stored under its key already:
        ``(row id, status, digest)`` of the row stored, and whether this call inserted it."""
        ...


class SqlStore(ABC):
    """The digest store over a backend seam; see :class:`preuve.io.stores.base.Store`."""

    kind = ""
    _order = "rowid"  # the column giving runs and run_ends their insertion order
    path: Path | str  # set by the backend: the file, or the URL without its password
    read_only: bool

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _read(self, sql: str, args: Sequence[object] = ()) -> list[dict[str, Any]]: ...

    @abstractmethod
    def _transact(self, work: Callable[[_Tx], _T], *, serializable: bool = False) -> _T: ...

    @abstractmethod
    def schema_version(self) -> int: ...

    @abstractmethod
    def _size_bytes(self) -> int: ...

    def _check_version(self, version: int) -> None:
        """A store written by a newer preuve is refused (its schema is unknown here)."""
        if version > SCHEMA_VERSION:
            raise InputError(
                f"digest store {self.path} has schema version {version}, newer than this"
                f" preuve's {SCHEMA_VERSION}",
                fix="upgrade preuve to read it",
            )

    @abstractmethod
    def _after_load(self, tx: _Tx) -> None:
        """Bring generated ids past the loaded ones (PostgreSQL's identity sequences)."""

    def _decode(self, make: Callable[[dict[str, Any]], _T], row: dict[str, Any]) -> _T:
        """A stored row as a record; a column that does not decode is one CORRUPT line."""
        try:
            return make(row)
        except CorruptRowError as err:
            raise CorruptStoreError(
                f"digest store {self.path}: {err}",
                fix="the store was altered outside preuve; build into a new --store",
            ) from None

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
        created = now()
        values = (
            run_id, created, namespace, mode, dossier, principal, dump(model),
            dump(settings), dump(snapshot),
        )  # fmt: skip
        marks = ", ".join("?" for _ in values)
        columns = ", ".join(COLUMNS["runs"])
        self._transact(
            lambda tx: tx.execute(f"INSERT INTO runs ({columns}) VALUES ({marks})", values)
        )
        return RunInfo(
            run_id, created, namespace, mode, dossier, principal, model, settings, snapshot
        )

    def record_nodes(self, run: RunInfo, records: Sequence[NodeRecord]) -> dict[str, int]:
        """Write one level of a run in one transaction; ``node_id -> result row``.

        A recomputed result whose key already holds a reusable result (another builder
        stored it first) is not stored twice: the run points at the stored one.
        """
        # Keys in one order in every builder: two transactions never wait on each other
        # in a cycle over the unique index.
        ordered = sorted(records, key=lambda r: (r.key, r.node_id))

        return self._write_level(run, ordered)

    def _write_level(self, run: RunInfo, records: Sequence[NodeRecord]) -> dict[str, int]:
        """Write ``records`` (key order) in one transaction; a backend may batch the
        statements and its transaction's round trips."""
        return self._transact(
            lambda tx: {record.node_id: self._record(tx, run, record) for record in records}
        )

    def _record(self, tx: _Tx, run: RunInfo, record: NodeRecord) -> int:
        created = now()
        node = record.new_node
        if node is None:
            if record.hit is None:
                raise ValueError(f"node {record.node_id}: neither a hit nor a new result")
            row, outcome = record.hit.row_id, "hit"
            status, digest = record.hit.status, record.hit.digest
        else:
            values = encoded(node, ("claims", "spans", "diagnostic", "token_ids"))
            values.update(reusable=int(node.reusable), run_id=run.run_id, created_at=created)
            row, status, digest, inserted = tx.insert_node(values)
            outcome = "computed"
            if inserted:
                for gen in record.generations:
                    values = encoded(gen, ("model", "messages", "token_ids", "defects"))
                    values.update(run_id=run.run_id, node_row=row, created_at=created)
                    tx.insert("generations", values)
                for position, child in enumerate(record.child_rows):
                    tx.execute("INSERT INTO edges VALUES (?, ?, ?)", (row, position, child))
        tx.execute(
            f"INSERT INTO run_nodes ({', '.join(COLUMNS['run_nodes'])})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
        values = (run.run_id, now(), root_key, root_status, dump(counters), seconds)
        columns = ", ".join(COLUMNS["run_ends"])
        self._transact(
            lambda tx: tx.execute(
                f"INSERT INTO run_ends ({columns}) VALUES (?, ?, ?, ?, ?, ?)", values
            )
        )

    def record_manifest(self, dossier: str, sha256: str, event: str, body: Any) -> None:
        """Append one state of a dossier's manifest (unless it is already the latest)."""

        def write(tx: _Tx) -> None:
            latest = tx.query(
                "SELECT sha256 FROM manifests WHERE dossier = ? ORDER BY row_id DESC LIMIT 1",
                (dossier,),
            )
            if latest and latest[0]["sha256"] == sha256:
                return
            tx.execute(
                "INSERT INTO manifests (dossier, sha256, event, body, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (dossier, sha256, event, dump(body), now()),
            )

        # Serializable: two writers recording one state at once store it once.
        self._transact(write, serializable=True)

    # --- reading -----------------------------------------------------------------------

    def manifests(self, dossier: str) -> list[ManifestRow]:
        """Every recorded state of ``dossier``'s manifest, oldest first."""
        rows = self._read(
            f"SELECT {', '.join(COLUMNS['manifests'])} FROM manifests WHERE dossier = ?"
            " ORDER BY row_id",
            (dossier,),
        )
        return [ManifestRow(**{**row, "body": json.loads(row["body"])}) for row in rows]

    def latest_manifest(self, dossier: str) -> ManifestRow | None:
        found = self.manifests(dossier)
        return found[-1] if found else None

    def lookup(self, namespace: str, key: str) -> NodeRow | None:
        """The first reusable result stored under ``key`` in ``namespace``, if any."""
        found = self._read(
            f"SELECT {_NODE_COLUMNS} FROM nodes WHERE namespace = ? AND key = ?"
            " AND reusable = 1 ORDER BY row_id LIMIT 1",
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
        rows = self._first_rows(_NODE_COLUMNS, namespace, keys)
        return {row["key"]: self._decode(node_from_row, row) for row in rows}

    def known_digests(self, namespace: str, keys: Sequence[str]) -> dict[str, str]:
        """``key -> result digest`` of the reusable results among ``keys`` (for planning)."""
        rows = self._first_rows("key, digest", namespace, keys)
        return {row["key"]: row["digest"] for row in rows}

    def node(self, row_id: int) -> NodeRow:
        found = self._read(f"SELECT {_NODE_COLUMNS} FROM nodes WHERE row_id = ?", (row_id,))
        if not found:
            raise InputError(f"digest store {self.path}: no result row {row_id}")
        return self._decode(node_from_row, found[0])

    def _run_select(self) -> str:
        return (
            f"SELECT {', '.join('r.' + c for c in COLUMNS['runs'])}, e.finished_at,"
            " e.root_key, e.root_status, e.counters, e.seconds"
            " FROM runs AS r LEFT JOIN run_ends AS e ON e.run_id = r.run_id"
        )

    def run(self, run_id: str) -> RunInfo:
        found = self._read(self._run_select() + " WHERE r.run_id = ?", (run_id,))
        if not found:
            raise InputError(
                f"digest store {self.path}: no run {run_id!r}", fix="list runs with history"
            )
        return self._decode(run_from_row, found[0])

    def runs(self, dossier: str | None = None) -> list[RunInfo]:
        """Every run (of ``dossier`` when given), oldest first."""
        where, args = (" WHERE r.dossier = ?", (dossier,)) if dossier is not None else ("", ())
        rows = self._read(self._run_select() + where + f" ORDER BY r.{self._order}", args)
        return [self._decode(run_from_row, row) for row in rows]

    def latest_run(
        self, dossier: str, principal: str, namespace: str = INCREMENTAL
    ) -> RunInfo | None:
        """The most recent finished run of ``dossier`` for ``principal`` in ``namespace``."""
        rows = self._read(
            self._run_select() + " WHERE r.dossier = ? AND r.principal = ? AND r.namespace = ?"
            f" AND e.run_id IS NOT NULL ORDER BY e.{self._order} DESC LIMIT 1",
            (dossier, principal, namespace),
        )
        return self._decode(run_from_row, rows[0]) if rows else None

    def run_nodes(self, run_id: str) -> list[RunNode]:
        """The records of one run, leaves first (by level, then node id)."""
        rows = self._read(
            f"SELECT {', '.join(COLUMNS['run_nodes'])} FROM run_nodes WHERE run_id = ?"
            " ORDER BY level, node_id",
            (run_id,),
        )
        return [RunNode(**row) for row in rows]

    def generations(self, node_row: int) -> list[GenerationRow]:
        rows = self._read(
            f"SELECT {', '.join(COLUMNS['generations'])} FROM generations WHERE node_row = ?"
            " ORDER BY attempt, row_id",
            (node_row,),
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

    # --- operations --------------------------------------------------------------------

    def stats(self) -> StoreStats:
        return StoreStats(
            self.kind, str(self.path), self.schema_version(), self.row_counts(), self._size_bytes()
        )

    def dump_rows(self, table: str) -> Iterator[dict[str, Any]]:
        """Every row of ``table`` as stored (JSON columns as text), in a stable order."""
        order = {
            "runs": self._order,
            "run_ends": self._order,
            "edges": "parent_row, position",
            "run_nodes": "run_id, node_id",
        }.get(table, "row_id")
        columns = ", ".join(COLUMNS[table])
        offset = 0
        while True:
            rows = self._read(
                f"SELECT {columns} FROM {table} ORDER BY {order} LIMIT {_BATCH} OFFSET {offset}"
            )
            yield from rows
            offset += len(rows)
            if len(rows) < _BATCH:
                return

    def load_rows(self, rows: Iterator[tuple[str, dict[str, Any]]]) -> dict[str, int]:
        """Append dumped rows (ids kept) in one transaction, into an empty store."""

        def write(tx: _Tx) -> dict[str, int]:
            held = sum(int(tx.query(f"SELECT count(*) AS n FROM {t}")[0]["n"]) for t in TABLES)
            if held:
                raise InputError(
                    f"digest store {self.path} is not empty ({held} rows)",
                    fix="import into a new, empty store",
                )
            counts = dict.fromkeys(TABLES, 0)
            for table, row in rows:
                columns = COLUMNS.get(table)
                if columns is None or set(row) != set(columns):
                    raise InputError(f"import: a {table!r} row has unexpected columns")
                marks = ", ".join("?" for _ in columns)
                tx.execute(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                    tuple(row[c] for c in columns),
                )
                counts[table] += 1
            self._after_load(tx)
            return counts

        return self._transact(write)


_NODE_COLUMNS = ", ".join(COLUMNS["nodes"])
