"""The journal: every model call, kept whole, in an append-only table.

:class:`CallJournal` is what workflows write to; :class:`Journal` keeps it in an SQLite
file (the default, ``journal.sqlite`` of a run folder), and
:class:`~preuve.models.journal_postgres.PostgresJournal` in the PostgreSQL database of a
``postgresql://`` store. :func:`open_journal` picks the backend from the store spec, so
the journal of model calls goes where the digest store goes.

Each call records its run id, task, messages, raw output, finish reason, token counts (and
ids where the backend has them), seconds, prompt hash (:func:`request_hash` with the model
identity), model identity, and a status: ``ok``, ``invalid`` (stopped on length or on an
endpoint error: the text is kept whole all the same) or ``error`` (the backend raised; its
one-line message is kept). Triggers refuse any UPDATE or DELETE.

API keys never reach the journal: a request and a completion carry none, and any known
secret value (see :func:`secret_values_of`) is scrubbed from every stored text.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Literal, Protocol, Self, cast

from preuve.core.errors import InputError
from preuve.core.store_spec import parse_store_spec
from preuve.models.base import (
    Completion,
    Message,
    Model,
    ModelIdentity,
    Request,
    request_hash,
    wrapped_models,
)
from preuve.models.budget import is_estimated
from preuve.models.secrets import REDACTED, Scrubber

__all__ = [
    "REDACTED",
    "CallJournal",
    "CallRecord",
    "CallStatus",
    "Journal",
    "JournalQueries",
    "JournaledModel",
    "open_journal",
    "scrub_secrets",
    "secret_values_of",
    "settings_of",
    "status_of",
]

CallStatus = Literal["ok", "invalid", "error"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    run_id TEXT NOT NULL,
    task TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    backend TEXT NOT NULL,
    model_name TEXT NOT NULL,
    tokenizer TEXT NOT NULL,
    model_version TEXT NOT NULL,
    messages TEXT NOT NULL,
    settings TEXT NOT NULL,
    raw_output TEXT,
    finish_reason TEXT,
    prompt_tokens INTEGER,
    generated_tokens INTEGER,
    tokens_estimated INTEGER NOT NULL,
    token_ids TEXT,
    seconds REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'invalid', 'error')),
    error TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS calls_by_run ON calls (run_id, id);
CREATE TRIGGER IF NOT EXISTS calls_no_update BEFORE UPDATE ON calls
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS calls_no_delete BEFORE DELETE ON calls
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""

COLUMNS = (
    "created_at, run_id, task, request_hash, backend, model_name, tokenizer, model_version,"
    " messages, settings, raw_output, finish_reason, prompt_tokens, generated_tokens,"
    " tokens_estimated, token_ids, seconds, status, error"
)


def scrub_secrets(text: str, secrets: Iterable[str]) -> str:
    """Replace every echo of a known secret value (exact, any case, base64, hex,
    percent-encoded) by ``[REDACTED]``: the one :class:`Scrubber` of every artefact."""
    return Scrubber(tuple(secrets)).scrub(text)


def secret_values_of(model: object) -> tuple[str, ...]:
    """Secret values (API keys) a model and the models it wraps declare, for scrubbing."""
    return tuple(
        secret
        for wrapped in wrapped_models(model)
        for secret in getattr(wrapped, "secret_values", ())
    )


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One journaled call. ``raw_output`` is None only when the backend raised."""

    run_id: str
    task: str
    request_hash: str
    identity: ModelIdentity
    messages: tuple[Message, ...]
    settings: dict[str, Any]
    raw_output: str | None
    finish_reason: str | None
    prompt_tokens: int | None
    generated_tokens: int | None
    tokens_estimated: bool
    token_ids: tuple[int, ...] | None
    seconds: float
    status: CallStatus
    error: str = ""
    created_at: str = ""
    id: int | None = None
    # The run files keep calls as they are (``run.json``): an unknown key is refused on read.
    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}


def status_of(completion: Completion) -> CallStatus:
    """``ok`` for a generation that stopped by itself, ``invalid`` otherwise."""
    return "ok" if completion.finish_reason == "stop" else "invalid"


def settings_of(request: Request) -> dict[str, Any]:
    """The request's generation settings, as plain data."""
    return {
        "max_new_tokens": request.max_new_tokens,
        "temperature": request.temperature,
        "seed": request.seed,
        "response_schema": request.response_schema,
    }


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def call_row(call: CallRecord, clean: Callable[[str], str]) -> tuple[object, ...]:
    """The stored columns of ``call`` (in ``COLUMNS`` order), every text scrubbed."""
    messages = [{"role": m.role, "content": clean(m.content)} for m in call.messages]
    return (
        call.created_at or datetime.now(UTC).isoformat(timespec="milliseconds"),
        call.run_id,
        call.task,
        call.request_hash,
        call.identity.backend,
        call.identity.name,
        call.identity.tokenizer,
        clean(call.identity.version),
        _dumps(messages),
        clean(_dumps(call.settings)),
        None if call.raw_output is None else clean(call.raw_output),
        call.finish_reason,
        call.prompt_tokens,
        call.generated_tokens,
        int(call.tokens_estimated),
        None if call.token_ids is None else _dumps(list(call.token_ids)),
        call.seconds,
        call.status,
        clean(call.error),
    )


class CallJournal(Protocol):
    """An append-only journal of model calls, safe to share between threads."""

    def record(self, call: CallRecord, *, secrets: Sequence[str] = ()) -> int:
        """Append one call (secret values scrubbed) and return its id."""
        ...

    def calls(self, run_id: str | None = None) -> list[CallRecord]: ...

    def run_ids(self) -> list[str]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


def open_journal(store: str | None, default: Path, *, secrets: Sequence[str] = ()) -> CallJournal:
    """The journal beside the store ``store`` names: its PostgreSQL database for a
    ``postgresql://`` spec, else the SQLite file ``default`` (a run folder's journal)."""
    if store is not None and parse_store_spec(store).kind == "postgresql":
        try:
            from preuve.models.journal_postgres import PostgresJournal
        except ImportError as err:
            raise InputError(
                f"a PostgreSQL journal needs psycopg ({err})",
                fix="pip install 'preuve[postgres]'",
            ) from None
        return PostgresJournal(store, secrets=secrets)
    return Journal(default, secrets=secrets)


class JournalQueries:
    """The queries both journal backends run, written once: a backend says how it inserts
    a row and returns its id (``_insert``), how it selects (``_select``), and its
    parameter mark (``MARK``: ``?`` for SQLite, ``%s`` for psycopg)."""

    MARK: ClassVar[str]
    _secrets: tuple[str, ...]

    def _insert(self, query: str, row: Sequence[Any]) -> int:
        raise NotImplementedError

    def _select(self, query: str, params: Sequence[Any]) -> Sequence[Sequence[Any]]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def record(self, call: CallRecord, *, secrets: Sequence[str] = ()) -> int:
        """Append one call (secret values scrubbed) and return its id."""
        row = call_row(call, Scrubber((*self._secrets, *secrets)).scrub)
        marks = ", ".join(self.MARK for _ in row)
        return self._insert(f"INSERT INTO calls ({COLUMNS}) VALUES ({marks})", row)

    def calls(self, run_id: str | None = None) -> list[CallRecord]:
        """Every recorded call, oldest first; only those of ``run_id`` when given."""
        query = f"SELECT id, {COLUMNS} FROM calls"
        params: tuple[str, ...] = ()
        if run_id is not None:
            query += f" WHERE run_id = {self.MARK}"
            params = (run_id,)
        return [record_from_row(row) for row in self._select(query + " ORDER BY id", params)]

    def run_ids(self) -> list[str]:
        """Run ids in the order their first call was recorded."""
        rows = self._select("SELECT run_id FROM calls GROUP BY run_id ORDER BY MIN(id)", ())
        return [str(row[0]) for row in rows]


class Journal(JournalQueries):
    """An append-only SQLite journal of model calls; safe to share between threads."""

    MARK = "?"

    def __init__(
        self, path: Path | str, *, secrets: Sequence[str] = (), readonly: bool = False
    ) -> None:
        """Open (or create) a journal; ``readonly=True`` opens an existing one for reading
        only: no schema script, no mode change, nothing written to the file."""
        self.path = Path(path)
        self._secrets = tuple(secrets)
        self._lock = threading.Lock()
        if readonly:
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            with self._storage():
                self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._storage():
            # One connection shared by the pool's threads, serialized by the lock.
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.executescript(_SCHEMA)
            except BaseException:
                self._db.close()  # not a journal, or unwritable: keep no handle on the file
                raise

    @contextmanager
    def _storage(self) -> Iterator[None]:
        """A storage failure (read-only folder, full disk, not a database) is one line."""
        try:
            yield
        except sqlite3.Error as err:
            raise InputError(
                f"journal {self.path}: {err}",
                fix="write the run to a folder that exists, is writable and has free space",
            ) from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _insert(self, query: str, row: Sequence[Any]) -> int:
        with self._lock, self._storage():
            cursor = self._db.execute(query, tuple(row))
        return int(cast(int, cursor.lastrowid))

    def _select(self, query: str, params: Sequence[Any]) -> Sequence[Sequence[Any]]:
        with self._lock, self._storage():
            rows: Sequence[Sequence[Any]] = self._db.execute(query, tuple(params)).fetchall()
        return rows


def record_from_row(row: Sequence[Any]) -> CallRecord:
    """A stored row (``id`` then ``COLUMNS``) as a :class:`CallRecord`."""
    (id_, created, run_id, task, hash_, backend, name, tokenizer, version) = row[:9]
    (messages, settings, raw, finish, prompt, generated, estimated, ids) = row[9:17]
    (seconds, status, error) = row[17:]
    return CallRecord(
        id=int(id_),
        created_at=str(created),
        run_id=str(run_id),
        task=str(task),
        request_hash=str(hash_),
        identity=ModelIdentity(str(backend), str(name), str(tokenizer), str(version)),
        messages=tuple(Message(m["role"], m["content"]) for m in json.loads(messages)),
        settings=dict(json.loads(settings)),
        raw_output=raw,
        finish_reason=finish,
        prompt_tokens=prompt,
        generated_tokens=generated,
        tokens_estimated=bool(estimated),
        token_ids=None if ids is None else tuple(json.loads(ids)),
        seconds=float(seconds),
        status=cast(CallStatus, status),
        error=str(error),
    )


class JournaledModel:
    """Wraps a model: every call is journaled, failures and invalid generations included."""

    def __init__(self, inner: Model, journal: CallJournal, run_id: str) -> None:
        self.inner = inner
        self.journal = journal
        self.run_id = run_id
        self._secrets = secret_values_of(inner)

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        started = time.perf_counter()
        try:
            completion = self.inner.complete(request)
        except Exception as err:
            seconds = time.perf_counter() - started
            self._record(request, None, seconds, error=f"{type(err).__name__}: {err}")
            raise
        self._record(request, completion, completion.seconds)
        return completion

    def _record(
        self, request: Request, completion: Completion | None, seconds: float, *, error: str = ""
    ) -> None:
        identity = self.inner.identity
        call = CallRecord(
            run_id=self.run_id,
            task=request.task,
            request_hash=request_hash(request, identity),
            identity=identity,
            messages=request.messages,
            settings=settings_of(request),
            raw_output=None if completion is None else completion.text,
            finish_reason=None if completion is None else completion.finish_reason,
            prompt_tokens=None if completion is None else completion.prompt_tokens,
            generated_tokens=None if completion is None else completion.generated_tokens,
            tokens_estimated=completion is not None and is_estimated(completion),
            token_ids=None if completion is None else completion.token_ids,
            seconds=seconds,
            status="error" if completion is None else status_of(completion),
            error=error,
        )
        self.journal.record(call, secrets=self._secrets)
