"""The digest store's plain records: what is written and read back.

Every record field is JSON-ready data (strings, ints, lists, dicts), so records cross the
store boundary without any type from the workflows; the stores of :mod:`preuve.io.stores`
read and write them. The schema itself is in ``preuve/io/stores/migrations/``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = [
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
