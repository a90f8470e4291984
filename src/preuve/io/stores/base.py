"""The ``Store`` protocol: what the digest workflow (workflow 3) and ``preuve store`` use.

Two implementations, one behaviour: :class:`~preuve.io.stores.sqlite.SqliteStore` (the
default, one embedded file) and :class:`~preuve.io.stores.postgres.PostgresStore`
(psycopg 3 and a connection pool). Both are append-only (triggers refuse UPDATE and
DELETE), keep results under the same content-addressed keys, and are safe for concurrent
writers: a reusable result is unique under ``(namespace, key)`` and a model call under
``(node_row, attempt)`` (unique indexes), and one tree level is one transaction, so two
builders on one dossier never store a result twice and never lose one.
:func:`preuve.io.open_store` opens either from a spec string.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, Self, runtime_checkable

from preuve.io.store_rows import (
    TABLES,
    GenerationRow,
    ManifestRow,
    NodeRecord,
    NodeRow,
    RunInfo,
    RunNode,
)

__all__ = [
    "DUMP_ORDER",
    "INCREMENTAL",
    "SCHEMA_VERSION",
    "TABLES",
    "Store",
    "StoreStats",
]

INCREMENTAL = "incremental"
SCHEMA_VERSION = 2
"""The schema this preuve writes: 1 = the tables, 2 = uniqueness and ``schema_version``."""
DUMP_ORDER = TABLES
"""Tables in an order that never references a row not yet written (export, import)."""


@dataclass(frozen=True, slots=True)
class StoreStats:
    """What ``preuve store stats`` shows: rows per table, schema version, size."""

    kind: str
    location: str
    schema_version: int
    rows: dict[str, int]
    size_bytes: int


@runtime_checkable
class Store(Protocol):
    """An open digest store: runs, results under their keys, model calls, DAG, manifests."""

    @property
    def path(self) -> Path | str:
        """Where the store is, for messages: a file path, or the URL without password."""
        ...

    @property
    def spec(self) -> str:
        """The spec that opens this store again in another process (a Ray worker): the
        password included, so never printed (:attr:`path` is for messages)."""
        ...

    @property
    def read_only(self) -> bool: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...

    # --- writing
    def begin_run(
        self,
        *,
        mode: str,
        dossier: str,
        principal: str,
        model: dict[str, str],
        settings: dict[str, Any],
        snapshot: list[dict[str, Any]],
    ) -> RunInfo: ...

    def record_nodes(self, run: RunInfo, records: Sequence[NodeRecord]) -> dict[str, int]: ...

    def finish_run(
        self,
        run: RunInfo,
        *,
        root_key: str,
        root_status: str,
        counters: dict[str, Any],
        seconds: float,
    ) -> None: ...

    def record_manifest(self, dossier: str, sha256: str, event: str, body: Any) -> None: ...

    # --- reading
    def manifests(self, dossier: str) -> list[ManifestRow]: ...

    def latest_manifest(self, dossier: str) -> ManifestRow | None: ...

    def lookup(self, namespace: str, key: str) -> NodeRow | None: ...

    def lookup_many(self, namespace: str, keys: Sequence[str]) -> dict[str, NodeRow]: ...

    def known_digests(self, namespace: str, keys: Sequence[str]) -> dict[str, str]: ...

    def node(self, row_id: int) -> NodeRow: ...

    def run(self, run_id: str) -> RunInfo: ...

    def runs(self, dossier: str | None = None) -> list[RunInfo]: ...

    def latest_run(
        self, dossier: str, principal: str, namespace: str = INCREMENTAL
    ) -> RunInfo | None: ...

    def run_nodes(self, run_id: str) -> list[RunNode]: ...

    def generations(self, node_row: int) -> list[GenerationRow]: ...

    def edges(self, parent_row: int) -> list[int]: ...

    def row_counts(self) -> dict[str, int]: ...

    # --- operations (``preuve store``)
    def schema_version(self) -> int: ...

    def stats(self) -> StoreStats: ...

    def dump_rows(self, table: str) -> Iterator[dict[str, Any]]:
        """Every stored row of ``table`` as stored (JSON columns as text), in a stable order."""
        ...

    def load_rows(self, rows: Iterator[tuple[str, dict[str, Any]]]) -> dict[str, int]:
        """Append dumped ``(table, row)`` pairs, ids kept, in one transaction, into an
        empty store. Returns rows written per table."""
        ...


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def encoded(record: NodeRow | GenerationRow, json_columns: tuple[str, ...]) -> dict[str, Any]:
    """The record's columns, JSON ones dumped (``None`` stays NULL), without ``row_id``."""
    # Shallow on purpose: dataclasses.asdict would deep-copy every message text.
    values = {f.name: getattr(record, f.name) for f in fields(record) if f.name != "row_id"}
    for name in json_columns:
        values[name] = None if values[name] is None else dump(values[name])
    return values
