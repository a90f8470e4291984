"""The PostgreSQL digest store: psycopg 3 over a ``psycopg_pool`` connection pool.

Same tables, keys, append-only triggers and records as the SQLite store, for stores that
many builders on many machines share. Concurrency rests on the database alone, never on
a lock in Python: a reusable result is unique under ``(namespace, key)`` (a result
computed by two builders at once is inserted with ``ON CONFLICT DO NOTHING``, and the
second reads the first back), one tree level is one transaction, a manifest state is
recorded in a SERIALIZABLE transaction, and a transaction the server aborts as a
serialization failure or a deadlock is run again whole. Migrations run under an advisory
lock, so many openers at once apply each version once.

A lost connection (server restart, ``pg_terminate_backend``) fails the operation in one
line: the transaction it was in is rolled back by the server, nothing is half-written,
and a rebuild reuses every level that was committed. Idle connections the server closed
fail at their transaction's first exchange (``BEGIN``; for a tree level, ``BEGIN`` and the
results' INSERT, sent together), before anything was committed, and are replaced (no
check per checkout: it would cost every transaction a round trip).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from psycopg import errors
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from preuve.core.errors import InputError
from preuve.core.store_spec import redacted_url
from preuve.io.store_rows import NodeRecord, RunInfo
from preuve.io.stores.base import TABLES, now
from preuve.io.stores.migrations import COMPONENT, pending, version_table_sql
from preuve.io.stores.postgres_level import UnstartedError, write_level
from preuve.io.stores.sql import SqlStore, _Tx

__all__ = ["PostgresStore"]

_T = TypeVar("_T")
_RETRIES = 12
_MIGRATION_LOCK = 0x70726575  # "preu": one advisory lock id for preuve's migrations
_CONNECT_TIMEOUT = 10


def _sql(text: str) -> str:
    return text.replace("?", "%s")  # the shared SQL has no literal "?" and no "%"


def _why(err: Exception) -> str:
    if isinstance(err, PoolTimeout):
        return "check that the PostgreSQL server is running and reachable at --store"
    if isinstance(err, errors.ReadOnlySqlTransaction):
        return "this store is opened read-only"
    if isinstance(err, errors.DiskFull):
        return "free disk space on the PostgreSQL server"
    if isinstance(err, errors.InsufficientPrivilege):
        return "grant this role CREATE and INSERT on the database, or use another role"
    if isinstance(err, errors.RaiseException | errors.RestrictViolation):
        return "the digest store is append-only"
    if isinstance(err, psycopg.OperationalError):
        text = str(err).lower()
        if "terminat" in text or "closed" in text or "lost" in text:
            return (
                "the connection to PostgreSQL was lost; run it again (committed levels are reused)"
            )
        return "check that the PostgreSQL server is running and reachable at --store"
    return "see the PostgreSQL server's log"


class _PgTx:
    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def _cursor(self) -> psycopg.Cursor[dict[str, Any]]:
        return self.conn.cursor(row_factory=dict_row)

    def execute(self, sql: str, args: Sequence[object] = ()) -> None:
        self.conn.execute(_sql(sql), tuple(args))

    def query(self, sql: str, args: Sequence[object] = ()) -> list[dict[str, Any]]:
        with self._cursor() as cursor:
            return cursor.execute(_sql(sql), tuple(args)).fetchall()

    def insert(self, table: str, values: dict[str, Any]) -> int:
        # Table and column names come from this package's own records, never from input.
        marks = ", ".join("%s" for _ in values)
        row = self.conn.execute(
            f"INSERT INTO {table} ({', '.join(values)}) VALUES ({marks}) RETURNING row_id",
            tuple(values.values()),
        ).fetchone()
        assert row is not None  # RETURNING after an INSERT without ON CONFLICT
        return int(row[0])

    def insert_node(self, values: dict[str, Any]) -> tuple[int, str, str, bool]:
        if not values["reusable"]:
            return self.insert("nodes", values), values["status"], values["digest"], True
        marks = ", ".join("%s" for _ in values)
        row = self.conn.execute(
            f"INSERT INTO nodes ({', '.join(values)}) VALUES ({marks})"
            " ON CONFLICT (namespace, key) WHERE reusable = 1 DO NOTHING RETURNING row_id",
            tuple(values.values()),
        ).fetchone()
        if row is not None:
            return int(row[0]), values["status"], values["digest"], True
        # Another builder stored this key first (committed: ON CONFLICT waited for it).
        found = self.query(
            "SELECT row_id, status, digest FROM nodes WHERE namespace = ? AND key = ?"
            " AND reusable = 1",
            (values["namespace"], values["key"]),
        )
        return int(found[0]["row_id"]), found[0]["status"], found[0]["digest"], False


class PostgresStore(SqlStore):
    """An open PostgreSQL digest store at ``url`` (a libpq URL or conninfo string).

    ``max_connections`` bounds the pool (threads sharing the store take one each while
    they read or write); ``read_only`` opens every transaction read-only.
    """

    kind = "postgresql"
    _order = "seq"

    @property
    def spec(self) -> str:
        return self._url

    def __init__(
        self,
        url: str,
        *,
        read_only: bool = False,
        max_connections: int = 8,
        application_name: str = "preuve",
    ) -> None:
        self.path: str = redacted_url(url)
        self._url = url
        self.read_only = read_only
        self._size = max(1, max_connections)
        with self._guard():
            options = self._options(url, read_only, application_name)
            # One direct connection first: a server that is down is one precise line
            # ("connection refused"), not a pool timeout; it also migrates the schema.
            with psycopg.connect(url, **options) as conn:
                version = self._version(conn) if read_only else self._migrate(conn)[0]
            self._check_version(version)
            self._pool = ConnectionPool(
                url,
                min_size=1,
                max_size=self._size,
                kwargs=options,
                open=False,
                name=f"preuve-{application_name}",
            )
            try:
                self._pool.open(wait=True, timeout=_CONNECT_TIMEOUT)
            except BaseException:
                self._pool.close()
                raise

    @staticmethod
    def _options(url: str, read_only: bool, application_name: str) -> dict[str, Any]:
        options: dict[str, Any] = {
            "autocommit": True,
            "application_name": application_name,
            "connect_timeout": _CONNECT_TIMEOUT,
        }
        if read_only:
            given = conninfo_to_dict(url).get("options") or ""  # keep the URL's own options
            options["options"] = f"{given} -c default_transaction_read_only=on".strip()
        return options

    @staticmethod
    def _version(conn: psycopg.Connection[Any]) -> int:
        exists = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
        if not exists or not exists[0]:
            return 0
        row = conn.execute(
            "SELECT max(version) FROM schema_version WHERE component = %s", (COMPONENT,)
        ).fetchone()
        return int(row[0] or 0) if row else 0

    def _migrate(self, conn: psycopg.Connection[Any]) -> tuple[int, list[int]]:
        applied: list[int] = []
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute(version_table_sql("postgres"))
            version = self._version(conn)
            self._check_version(version)
            for migration in pending(version, "postgres"):
                conn.execute(migration.sql)
                conn.execute(
                    "INSERT INTO schema_version VALUES (%s, %s, %s, %s)",
                    (COMPONENT, migration.version, migration.name, now()),
                )
                applied.append(migration.version)
                version = migration.version
        return version, applied

    def migrate(self) -> list[int]:
        """Apply the migrations this store lacks (in one transaction); the versions applied
        (none when it is current: migrating again is a no-op)."""
        if self.read_only:
            raise InputError(f"digest store {self.path} is opened read-only; cannot migrate")
        with self._guard(), self._pool.connection() as conn:
            return self._migrate(conn)[1]

    def schema_version(self) -> int:
        with self._guard(), self._pool.connection() as conn:
            return self._version(conn)

    def close(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except (psycopg.Error, PoolTimeout) as err:
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise InputError(f"digest store {self.path}: {first}", fix=_why(err)) from None

    def _transact(self, work: Callable[[_Tx], _T], *, serializable: bool = False) -> _T:
        def attempt(conn: psycopg.Connection[Any]) -> _T:
            begun = False
            try:
                with conn.transaction():
                    begun = True
                    if serializable:
                        conn.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
                    return work(_PgTx(conn))
            except psycopg.OperationalError as err:
                if not begun and conn.broken:  # at BEGIN: nothing of it reached the server
                    raise UnstartedError(err) from err
                raise

        return self._retried(attempt)

    def _write_level(self, run: RunInfo, records: Sequence[NodeRecord]) -> dict[str, int]:
        # BEGIN and COMMIT go out with the level's statements: two round trips in all.
        return self._retried(lambda conn: write_level(conn, run, records, begin=True))

    def _retried(self, attempt: Callable[[psycopg.Connection[Any]], _T]) -> _T:
        """``attempt`` (one transaction on a pooled connection), run again whole when the
        server aborted it, and on another connection when it raised :class:`UnstartedError`."""
        delay = 0.005
        rolled_back = 0
        closed = 0
        with self._guard():
            while True:
                try:
                    with self._pool.connection() as conn:
                        return attempt(conn)
                except (errors.SerializationFailure, errors.DeadlockDetected):
                    # The server rolled the whole transaction back: running it again is safe.
                    rolled_back += 1
                    if rolled_back == _RETRIES:
                        raise
                    time.sleep(delay * (1 + random.random()))
                    delay = min(delay * 2, 0.5)
                except UnstartedError as lost:
                    # A connection the server closed while it sat in the pool fails at the
                    # transaction's first exchange, before anything was committed: take
                    # another. Lost later, it fails the write (the server rolled it back).
                    closed += 1
                    if closed > self._size:
                        raise lost.error from None

    def _read(self, sql: str, args: Sequence[object] = ()) -> list[dict[str, Any]]:
        with self._guard():
            for closed in range(self._size + 1):
                conn: psycopg.Connection[Any] | None = None
                try:
                    with (
                        self._pool.connection() as conn,
                        conn.cursor(row_factory=dict_row) as cursor,
                    ):
                        return cursor.execute(_sql(sql), tuple(args)).fetchall()
                except psycopg.OperationalError:
                    # A read is idempotent: a connection the server closed is replaced.
                    if conn is None or not conn.broken or closed == self._size:
                        raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _size_bytes(self) -> int:
        rows = self._read(
            "SELECT COALESCE(sum(pg_total_relation_size(to_regclass(t))), 0) AS n"
            " FROM unnest(?::text[]) AS t",
            ([*TABLES, "schema_version"],),
        )
        return int(rows[0]["n"])

    def _after_load(self, tx: _Tx) -> None:
        for table in ("nodes", "generations", "manifests"):
            tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'row_id'),"
                f" (SELECT COALESCE(max(row_id), 0) + 1 FROM {table}), false)"
            )
