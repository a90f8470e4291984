"""The SQLite digest store: one embedded file, the default (no server, no dependency).

Two builds may write at once (WAL, ``busy_timeout``, one ``BEGIN IMMEDIATE`` transaction
per tree level): writers are serialized by SQLite, so looking for a stored result under a
key and inserting one happen in one transaction, and the unique indexes of schema
version 2 refuse a second reusable result under one key all the same. Any storage
failure (read-only store, full disk, quota) is one line, and so is a stored JSON column
that does not decode (``CORRUPT``).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

from preuve.core.errors import InputError
from preuve.io.stores.base import now
from preuve.io.stores.migrations import (
    COMPONENT,
    pending,
    sqlite_statements,
    version_table_sql,
)
from preuve.io.stores.sql import SqlStore, _Tx

__all__ = ["SqliteStore"]

_T = TypeVar("_T")


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


def _rows(cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


class _SqliteTx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, args: Sequence[object] = ()) -> None:
        self.conn.execute(sql, tuple(args))

    def query(self, sql: str, args: Sequence[object] = ()) -> list[dict[str, Any]]:
        return _rows(self.conn.execute(sql, tuple(args)))

    def insert(self, table: str, values: dict[str, Any]) -> int:
        # Table and column names come from this package's own records, never from input.
        marks = ", ".join("?" for _ in values)
        cursor = self.conn.execute(
            f"INSERT INTO {table} ({', '.join(values)}) VALUES ({marks})", tuple(values.values())
        )
        return int(cursor.lastrowid or 0)

    def insert_node(self, values: dict[str, Any]) -> tuple[int, str, str, bool]:
        if values["reusable"]:
            # Writers are serialized (BEGIN IMMEDIATE): nobody can insert between the two.
            found = self.query(
                "SELECT row_id, status, digest FROM nodes WHERE namespace = ? AND key = ?"
                " AND reusable = 1 ORDER BY row_id LIMIT 1",
                (values["namespace"], values["key"]),
            )
            if found:
                return int(found[0]["row_id"]), found[0]["status"], found[0]["digest"], False
        return self.insert("nodes", values), values["status"], values["digest"], True


class SqliteStore(SqlStore):
    """An open SQLite digest store. ``read_only`` opens it for reading only (serve, history).

    ``max_bytes`` caps the file's size (a quota); writing past it fails like a full disk.
    """

    kind = "sqlite"

    @property
    def spec(self) -> str:
        return f"sqlite:{self.path}"

    def __init__(
        self, path: Path | str, *, read_only: bool = False, max_bytes: int | None = None
    ) -> None:
        path = Path(path)
        self.path: Path = path
        self.read_only = read_only
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
            # Two builders opening one new store at once: switching to WAL can get
            # SQLITE_BUSY without the busy handler (SQLite's deadlock avoidance); it is
            # idempotent, so it is simply retried.
            _retry_when_busy(lambda: self._conn.execute("PRAGMA journal_mode = WAL"))
            self.migrate()
        else:
            self._check_version(self.schema_version())
        if max_bytes is not None:
            page = int(self._conn.execute("PRAGMA page_size").fetchone()[0])
            self._conn.execute(f"PRAGMA max_page_count = {max(1, max_bytes // page)}")

    def migrate(self) -> list[int]:
        """Apply the migrations this store lacks, each in one transaction; the versions
        applied (none when it is current: migrating again is a no-op)."""
        if self.read_only:
            raise InputError(f"digest store {self.path} is opened read-only; cannot migrate")
        applied: list[int] = []

        def step() -> None:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in sqlite_statements(version_table_sql("sqlite")):
                    self._conn.execute(statement)
                version = self._applied_version()
                self._check_version(version)
                for migration in pending(version, "sqlite"):
                    for statement in sqlite_statements(migration.sql):
                        self._apply(statement)
                    self._conn.execute(
                        "INSERT INTO schema_version VALUES (?, ?, ?, ?)",
                        (COMPONENT, migration.version, migration.name, now()),
                    )
                    applied.append(migration.version)
                self._conn.execute("COMMIT")
            except BaseException:
                applied.clear()
                if self._conn.in_transaction:
                    with suppress(sqlite3.Error):
                        self._conn.execute("ROLLBACK")
                raise

        with self._lock, self._guard():
            _retry_when_busy(step)
        return applied

    def _apply(self, statement: str) -> None:
        try:
            self._conn.execute(statement)
        except sqlite3.IntegrityError:
            # A store written before version 2 by two racing builds may hold a key twice;
            # it is never rewritten, so that index is left out: writers stay serialized
            # (BEGIN IMMEDIATE) and look a key up before inserting, so no new duplicate.
            if not statement.startswith("CREATE UNIQUE INDEX"):
                raise

    def _applied_version(self) -> int:
        row = self._conn.execute(
            "SELECT max(version) FROM schema_version WHERE component = ?", (COMPONENT,)
        ).fetchone()
        return int(row[0] or 0)

    def schema_version(self) -> int:
        """The store's schema version; a store written before versions existed is 1."""
        with self._lock, self._guard():
            names = {
                row[0]
                for row in self._conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if "schema_version" in names:
                return self._applied_version()
            return 1 if "runs" in names else 0

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as err:
            raise InputError(f"digest store {self.path}: {err}", fix=_why(err)) from None

    def _transact(self, work: Callable[[_Tx], _T], *, serializable: bool = False) -> _T:
        # Every SQLite write transaction is serializable: BEGIN IMMEDIATE takes the lock.
        with self._lock, self._guard():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                result = work(_SqliteTx(self._conn))
                self._conn.execute("COMMIT")
                return result
            except BaseException:
                # SQLite may have rolled back already (full disk, I/O error), and a failed
                # COMMIT leaves the transaction open: end it, without hiding the real cause.
                if self._conn.in_transaction:
                    with suppress(sqlite3.Error):
                        self._conn.execute("ROLLBACK")
                raise

    def _read(self, sql: str, args: Sequence[object] = ()) -> list[dict[str, Any]]:
        with self._lock, self._guard():
            return _rows(self._conn.execute(sql, tuple(args)))

    def _size_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal"):
            with suppress(OSError):
                total += Path(f"{self.path}{suffix}").stat().st_size
        return total

    def _after_load(self, tx: _Tx) -> None:
        return None  # INTEGER PRIMARY KEY continues after the largest id by itself
