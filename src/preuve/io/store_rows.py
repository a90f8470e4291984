"""The digest store's SQL schema and its plain records: what is written and read back.

Every record field is JSON-ready data (strings, ints, lists, dicts), so records cross the
store boundary without any type from the workflows; :mod:`preuve.io.store` reads and
writes them. Every table is STRICT, and triggers refuse every UPDATE and DELETE.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = [
    "SCHEMA_SQL",
    "TABLES",
    "CorruptRowError",
    "GenerationRow",
    "ManifestRow",
    "NodeRecord",
    "NodeRow",
    "RunInfo",
    "RunNode",
    "generation_from_row",
    "node_from_row",
    "run_from_row",
]


TABLES = ("runs", "run_ends", "nodes", "generations", "edges", "run_nodes", "manifests")

_TABLES_SQL = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, namespace TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('incremental', 'full')), dossier TEXT NOT NULL,
    principal TEXT NOT NULL, model TEXT NOT NULL, settings TEXT NOT NULL,
    snapshot TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS runs_by_dossier ON runs (dossier, namespace, created_at);
CREATE TABLE IF NOT EXISTS run_ends (
    run_id TEXT PRIMARY KEY REFERENCES runs (run_id), finished_at TEXT NOT NULL,
    root_key TEXT NOT NULL, root_status TEXT NOT NULL, counters TEXT NOT NULL,
    seconds REAL NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS nodes (
    row_id INTEGER PRIMARY KEY, namespace TEXT NOT NULL, key TEXT NOT NULL,
    node_id TEXT NOT NULL, kind TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('VALID', 'INVALID', 'PARTIAL', 'INELIGIBLE')),
    claims TEXT NOT NULL, spans TEXT NOT NULL, diagnostic TEXT NOT NULL, digest TEXT NOT NULL,
    token_ids TEXT, calls INTEGER NOT NULL, prompt_tokens INTEGER NOT NULL,
    generated_tokens INTEGER NOT NULL, reusable INTEGER NOT NULL CHECK (reusable IN (0, 1)),
    run_id TEXT NOT NULL REFERENCES runs (run_id), created_at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS nodes_by_key ON nodes (namespace, key, reusable, row_id);
CREATE TABLE IF NOT EXISTS generations (
    row_id INTEGER PRIMARY KEY, run_id TEXT NOT NULL REFERENCES runs (run_id),
    node_row INTEGER NOT NULL REFERENCES nodes (row_id), node_id TEXT NOT NULL,
    attempt INTEGER NOT NULL, task TEXT NOT NULL, request_hash TEXT NOT NULL,
    model TEXT NOT NULL, messages TEXT NOT NULL, raw_output TEXT, finish_reason TEXT,
    prompt_tokens INTEGER, generated_tokens INTEGER, token_ids TEXT, seconds REAL NOT NULL,
    defects TEXT NOT NULL, error TEXT NOT NULL, created_at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS generations_by_node ON generations (node_row, attempt);
CREATE TABLE IF NOT EXISTS edges (
    parent_row INTEGER NOT NULL REFERENCES nodes (row_id), position INTEGER NOT NULL,
    child_row INTEGER NOT NULL REFERENCES nodes (row_id), PRIMARY KEY (parent_row, position)
) STRICT;
CREATE TABLE IF NOT EXISTS run_nodes (
    run_id TEXT NOT NULL REFERENCES runs (run_id), node_id TEXT NOT NULL,
    kind TEXT NOT NULL, level INTEGER NOT NULL, parent_id TEXT, key TEXT NOT NULL,
    node_row INTEGER NOT NULL REFERENCES nodes (row_id),
    outcome TEXT NOT NULL CHECK (outcome IN ('hit', 'computed')), status TEXT NOT NULL,
    digest TEXT NOT NULL, PRIMARY KEY (run_id, node_id)
) STRICT;
CREATE TABLE IF NOT EXISTS manifests (
    row_id INTEGER PRIMARY KEY, dossier TEXT NOT NULL, sha256 TEXT NOT NULL,
    event TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS manifests_by_dossier ON manifests (dossier, row_id);
"""
_TRIGGERS = "".join(
    f"CREATE TRIGGER IF NOT EXISTS {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
    f"BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;\n"
    for table in TABLES
    for verb in ("UPDATE", "DELETE")
)
SCHEMA_SQL = _TABLES_SQL + _TRIGGERS


class CorruptRowError(ValueError):
    """A stored JSON column that does not decode, or has the wrong shape."""


def _load(text: str | None, column: str = "") -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:  # JSONDecodeError is a ValueError
        raise CorruptRowError(f"column {column} is not valid JSON ({str(err)[:80]})") from None


@dataclass(frozen=True, slots=True)
class NodeRow:
    """One result under its key (``row_id``, ``run_id``, ``created_at`` set once stored)."""

    namespace: str
    key: str
    node_id: str
    kind: str
    status: str
    claims: list[dict[str, Any]]
    spans: list[dict[str, Any]]
    diagnostic: list[str]
    digest: str
    token_ids: list[int] | None
    calls: int
    prompt_tokens: int
    generated_tokens: int
    reusable: bool
    row_id: int = 0
    run_id: str = ""
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class GenerationRow:
    """One model call, kept whole (``row_id``, ``run_id``, ``node_row`` set once stored)."""

    node_id: str
    attempt: int
    task: str
    request_hash: str
    model: dict[str, str]
    messages: list[dict[str, str]]
    raw_output: str | None
    finish_reason: str | None
    prompt_tokens: int | None
    generated_tokens: int | None
    token_ids: list[int] | None
    seconds: float
    defects: list[str]
    error: str
    row_id: int = 0
    run_id: str = ""
    node_row: int = 0
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class ManifestRow:
    """One recorded state of a dossier's manifest, and the event that produced it."""

    row_id: int
    dossier: str
    sha256: str
    event: str
    body: dict[str, Any]
    created_at: str


@dataclass(frozen=True, slots=True)
class RunNode:
    """What one tree node was in one run: its key, its result row, hit or recomputed."""

    run_id: str
    node_id: str
    kind: str
    level: int
    parent_id: str | None
    key: str
    node_row: int
    outcome: str
    status: str
    digest: str


@dataclass(frozen=True, slots=True)
class NodeRecord:
    """One node of a run to write: a hit brings the stored row it reused, a recomputed
    node its new result, its generations and the rows of the children it read."""

    node_id: str
    kind: str
    level: int
    parent_id: str | None
    key: str
    hit: NodeRow | None = None
    new_node: NodeRow | None = None
    generations: tuple[GenerationRow, ...] = ()
    child_rows: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RunInfo:
    """A run as recorded; the end fields are empty while (or if) it never finished."""

    run_id: str
    created_at: str
    namespace: str
    mode: str
    dossier: str
    principal: str
    model: dict[str, str]
    settings: dict[str, Any]
    snapshot: list[dict[str, Any]]
    finished_at: str = ""
    root_key: str = ""
    root_status: str = ""
    counters: dict[str, Any] | None = None
    seconds: float = 0.0

    @property
    def finished(self) -> bool:
        return bool(self.finished_at)


def _decoded(row: dict[str, Any], json_columns: tuple[str, ...]) -> dict[str, Any]:
    return {**row, **{name: _load(row[name], name) for name in json_columns}}


def node_from_row(row: dict[str, Any]) -> NodeRow:
    data = _decoded(row, ("claims", "spans", "diagnostic", "token_ids"))
    for name in ("claims", "spans"):
        if not isinstance(data[name], list) or not all(isinstance(x, dict) for x in data[name]):
            raise CorruptRowError(f"column {name} is not a list of objects")
    if not isinstance(data["diagnostic"], list):
        raise CorruptRowError("column diagnostic is not a list")
    return NodeRow(**{**data, "reusable": bool(row["reusable"])})


def generation_from_row(row: dict[str, Any]) -> GenerationRow:
    return GenerationRow(**_decoded(row, ("model", "messages", "token_ids", "defects")))


def run_from_row(row: dict[str, Any]) -> RunInfo:
    """A run from ``runs`` joined with ``run_ends`` (whose columns are NULL if unfinished)."""
    data = _decoded(row, ("model", "settings", "snapshot", "counters"))
    for name in ("finished_at", "root_key", "root_status"):
        data[name] = data[name] or ""
    data["seconds"] = data["seconds"] or 0.0
    return RunInfo(**data)
