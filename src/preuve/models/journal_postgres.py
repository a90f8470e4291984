"""The journal of model calls in PostgreSQL: the database of a ``postgresql://`` store.

Same columns, same scrubbing of secret values (:func:`~preuve.models.journal.call_row`)
and the same append-only guarantee (triggers refuse UPDATE, DELETE and TRUNCATE) as the
SQLite :class:`~preuve.models.journal.Journal`. Its table ``calls`` is version 1 of the
component ``journal`` in the ``schema_version`` table the digest store also uses, created
under an advisory lock, so many processes may open it at once. Concurrent writers append
through a connection pool; ids come from an identity column, never from Python.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from preuve.core.errors import InputError
from preuve.core.store_spec import redacted_url
from preuve.models.journal import JournalQueries

__all__ = ["PostgresJournal"]

_COMPONENT = "journal"
_LOCK = 0x6A6F7572  # "jour": the advisory lock id of the journal's migration
_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (component TEXT NOT NULL,
    version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL,
    PRIMARY KEY (component, version));
CREATE TABLE IF NOT EXISTS calls (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at TEXT NOT NULL, run_id TEXT NOT NULL, task TEXT NOT NULL,
    request_hash TEXT NOT NULL, backend TEXT NOT NULL, model_name TEXT NOT NULL,
    tokenizer TEXT NOT NULL, model_version TEXT NOT NULL, messages TEXT NOT NULL,
    settings TEXT NOT NULL, raw_output TEXT, finish_reason TEXT, prompt_tokens BIGINT,
    generated_tokens BIGINT, tokens_estimated INTEGER NOT NULL, token_ids TEXT,
    seconds DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'invalid', 'error')),
    error TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS calls_by_run ON calls (run_id, id);
CREATE OR REPLACE FUNCTION preuve_journal_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'the journal is append-only' USING ERRCODE = 'restrict_violation';
END $$;
CREATE OR REPLACE TRIGGER calls_append_only BEFORE UPDATE OR DELETE ON calls
    FOR EACH ROW EXECUTE FUNCTION preuve_journal_append_only();
CREATE OR REPLACE TRIGGER calls_no_truncate BEFORE TRUNCATE ON calls
    FOR EACH STATEMENT EXECUTE FUNCTION preuve_journal_append_only();
"""


class PostgresJournal(JournalQueries):
    """An append-only journal of model calls in a PostgreSQL database at ``url``."""

    MARK = "%s"

    def __init__(self, url: str, *, secrets: Sequence[str] = (), max_connections: int = 4) -> None:
        self.path = redacted_url(url)
        self._secrets = tuple(secrets)
        options: dict[str, Any] = {
            "autocommit": True,
            "application_name": "preuve-journal",
            "connect_timeout": 10,
        }
        with self._storage():
            with psycopg.connect(url, **options) as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
                conn.execute(_SCHEMA)
                conn.execute(
                    "INSERT INTO schema_version VALUES (%s, 1, 'calls', %s) ON CONFLICT DO NOTHING",
                    (_COMPONENT, datetime.now(UTC).isoformat(timespec="microseconds")),
                )
            self._pool = ConnectionPool(
                url,
                min_size=1,
                max_size=max(1, max_connections),
                kwargs=options,
                check=ConnectionPool.check_connection,
                open=False,
                name="preuve-journal",
            )
            try:
                self._pool.open(wait=True, timeout=10)
            except BaseException:
                self._pool.close()
                raise

    @contextmanager
    def _storage(self) -> Iterator[None]:
        """A storage failure (server down, connection lost, no privilege) is one line."""
        try:
            yield
        except (psycopg.Error, PoolTimeout) as err:
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise InputError(
                f"journal {self.path}: {first}",
                fix="check that the PostgreSQL server of --store is running and writable",
            ) from None

    def close(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.close()

    def _insert(self, query: str, row: Sequence[Any]) -> int:
        with self._storage(), self._pool.connection() as conn:
            found = conn.execute(query + " RETURNING id", tuple(row)).fetchone()
        assert found is not None  # RETURNING after a plain INSERT
        return int(found[0])

    def _select(self, query: str, params: Sequence[Any]) -> Sequence[Sequence[Any]]:
        with self._storage(), self._pool.connection() as conn:
            rows: Sequence[Sequence[Any]] = conn.execute(query, tuple(params)).fetchall()
        return rows
