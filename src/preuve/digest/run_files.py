"""``serve.json`` of a workflow 3 run folder, as a type, and its typed read-back.

The file holds one ``preuve digest serve --json`` answer, or (as the demo writes it) a list
of them, each with the ``label`` of the moment it was served. Read back through
:meth:`preuve.io.runfolder.RunFolder.read_records` (a list) or
:meth:`~preuve.io.runfolder.RunFolder.read` (one answer).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from preuve.io.records import STRICT
from preuve.io.runfolder import RunFolder

__all__ = ["SERVE_FILE", "ClaimEntry", "ServeAnswerEntry", "read_serve_answers"]

SERVE_FILE = "serve.json"


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimEntry:
    """A served claim and the evidence ids it cites."""

    subject: str
    field: str
    value: str
    evidence: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ServeAnswerEntry:
    """One serve answer: SERVED, STALE or REFUSED, why, and what was served."""

    label: str = ""
    status: str
    reason: str
    run_id: str
    root_status: str | None = None
    claims: tuple[ClaimEntry, ...] = ()
    # evidence id → span id (doc@version:start:end); node id → status
    evidence: dict[str, str] = dataclasses.field(default_factory=dict)
    nodes: dict[str, str] = dataclasses.field(default_factory=dict)
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


def read_serve_answers(folder: RunFolder) -> tuple[ServeAnswerEntry, ...]:
    """Every answer of ``serve.json`` (a list, or one answer)."""
    if isinstance(folder.read_json(SERVE_FILE), list):
        return folder.read_records(SERVE_FILE, ServeAnswerEntry)
    return (folder.read(SERVE_FILE, ServeAnswerEntry),)
