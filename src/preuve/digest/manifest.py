"""A dossier's state as a file beside its documents: the manifest.

``<dossier>/manifest.json`` (format ``preuve.digest.manifest/1``) says which version of
each document is active, which documents are withdrawn or revoked, each document's access
revision, and the principal reading the summary; it keeps the list of events that made it
so::

    {"format": "preuve.digest.manifest/1", "versions": "latest", "principal": "default",
     "documents": {"doc-04": {"withdrawn": true, "revoked": false, "access_revision": 1},
                   "doc-00": {"version": 2, "withdrawn": false, "revoked": false,
                              "access_revision": 0}},
     "events": [{"event": "withdraw", "doc_id": "doc-04", "at": "2026-..."},
                {"event": "set-version", "doc_id": "doc-00", "version": 2, "at": "..."}]}

``versions`` is the rule for documents without a pinned ``version``: ``first`` (a future
version is shown only once activated, as in the bundled corpus) or ``latest`` (a user's
folder). ``preuve digest withdraw|revoke|restore|set-version`` change the file (written
atomically) and record the new state in the store; ``build``, ``serve`` and ``audit``
read it. Command-line flags remain one-off overrides and say so; none of them can undo a
withdrawal or a revocation: only ``restore`` does, and it is recorded.

Events are pure functions of a manifest (:func:`apply_event`); I/O is in
:func:`read_manifest` and :func:`write_manifest`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from preuve.core.documents import AccessState
from preuve.core.errors import InputError
from preuve.digest.jsonfile import read_json_file
from preuve.io.files import write_json_atomic

__all__ = [
    "EVENTS",
    "MANIFEST_FILE",
    "DocumentState",
    "Manifest",
    "apply_event",
    "manifest_from_data",
    "read_manifest",
    "write_manifest",
]

MANIFEST_FILE = "manifest.json"
_FORMAT = "preuve.digest.manifest/1"
EVENTS = ("withdraw", "revoke", "restore", "set-version")
VersionRule = Literal["first", "latest"]


@dataclass(frozen=True, slots=True)
class DocumentState:
    """One document's entry: its pinned version (``None``: the rule) and access state."""

    version: int | None = None
    withdrawn: bool = False
    revoked: bool = False
    access_revision: int = 0

    @property
    def access(self) -> AccessState:
        return AccessState(
            active=not self.withdrawn,
            eligible=not self.revoked,
            access_revision=self.access_revision,
        )

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "withdrawn": self.withdrawn,
            "revoked": self.revoked,
            "access_revision": self.access_revision,
        }
        if self.version is not None:
            data["version"] = self.version
        return data


@dataclass(frozen=True, slots=True)
class Manifest:
    """A dossier's state: version rule, principal, per-document state, events so far."""

    versions: VersionRule = "latest"
    principal: str = "default"
    documents: Mapping[str, DocumentState] = field(default_factory=dict)
    events: tuple[Mapping[str, Any], ...] = ()

    def state(self, doc_id: str) -> DocumentState:
        return self.documents.get(doc_id, DocumentState())

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": _FORMAT,
            "versions": self.versions,
            "principal": self.principal,
            "documents": {doc: self.documents[doc].as_dict() for doc in sorted(self.documents)},
            "events": [dict(event) for event in self.events],
        }

    @property
    def sha256(self) -> str:
        text = json.dumps(self.as_dict(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _document_state(where: str, doc_id: str, data: object) -> DocumentState:
    if not isinstance(data, dict):
        raise InputError(f"{where}: documents[{doc_id!r}] must be an object")
    unknown = sorted(set(data) - {"version", "withdrawn", "revoked", "access_revision"})
    if unknown:
        raise InputError(f"{where}: documents[{doc_id!r}]: unknown key {unknown[0]!r}")
    version = data.get("version")
    if version is not None and (not _is_int(version) or version < 1):
        raise InputError(f"{where}: documents[{doc_id!r}].version must be an integer >= 1")
    flags = {name: data.get(name, False) for name in ("withdrawn", "revoked")}
    if not all(isinstance(flag, bool) for flag in flags.values()):
        raise InputError(f"{where}: documents[{doc_id!r}]: withdrawn and revoked are booleans")
    revision = data.get("access_revision", 0)
    if not _is_int(revision) or revision < 0:
        raise InputError(f"{where}: documents[{doc_id!r}].access_revision must be >= 0")
    return DocumentState(version, flags["withdrawn"], flags["revoked"], revision)


def manifest_from_data(data: object, where: str = MANIFEST_FILE) -> Manifest:
    """A :class:`Manifest` from parsed JSON; ``InputError`` naming the first problem."""
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        raise InputError(f'{where}: not a dossier manifest (expected "format": {_FORMAT!r})')
    unknown = sorted(set(data) - {"format", "versions", "principal", "documents", "events"})
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r}")
    rule = data.get("versions", "latest")
    if rule not in ("first", "latest"):
        raise InputError(f"{where}: 'versions' must be 'first' or 'latest', not {rule!r}")
    principal = data.get("principal", "default")
    if not isinstance(principal, str) or not principal:
        raise InputError(f"{where}: 'principal' must be a non-empty string")
    documents = data.get("documents", {})
    events = data.get("events", [])
    if not isinstance(documents, dict) or not isinstance(events, list):
        raise InputError(f"{where}: 'documents' must be an object and 'events' a list")
    if not all(isinstance(event, dict) for event in events):
        raise InputError(f"{where}: every event must be an object")
    return Manifest(
        versions=rule,
        principal=principal,
        documents={doc: _document_state(where, doc, state) for doc, state in documents.items()},
        events=tuple(events),
    )


def read_manifest(folder: Path) -> Manifest | None:
    """The manifest of the dossier ``folder``, or ``None`` when it has none."""
    path = folder / MANIFEST_FILE
    if not path.is_file():
        return None
    return manifest_from_data(read_json_file(path, "manifest"), str(path))


def write_manifest(folder: Path, manifest: Manifest) -> Path:
    """Write ``manifest`` beside the documents, whole or not at all."""
    path = folder / MANIFEST_FILE
    write_json_atomic(path, manifest.as_dict())
    return path


def apply_event(
    manifest: Manifest,
    event: str,
    doc_id: str,
    available: Mapping[str, tuple[int, ...]],
    *,
    version: int | Literal["first", "latest"] | None = None,
    at: str | None = None,
) -> Manifest:
    """``manifest`` after ``event`` on ``doc_id`` (whose versions are in ``available``).

    A withdrawal, a revocation and a restore bump the access revision; restoring a
    document neither withdrawn nor revoked, or withdrawing one already withdrawn, is an
    error (nothing to record). ``set-version`` pins a version, or unpins with ``first`` /
    ``latest`` only when that is the manifest's own rule.
    """
    if event not in EVENTS:
        raise InputError(f"unknown manifest event {event!r}", fix=f"use one of {EVENTS}")
    if doc_id not in available:
        raise InputError(f"no document {doc_id!r} in this dossier")
    state = manifest.state(doc_id)
    record: dict[str, Any] = {"event": event, "doc_id": doc_id}
    if event == "withdraw":
        if state.withdrawn:
            raise InputError(f"{doc_id} is already withdrawn")
        new = replace(state, withdrawn=True, access_revision=state.access_revision + 1)
    elif event == "revoke":
        if state.revoked:
            raise InputError(f"{doc_id} is already revoked")
        new = replace(state, revoked=True, access_revision=state.access_revision + 1)
    elif event == "restore":
        if not (state.withdrawn or state.revoked):
            raise InputError(f"{doc_id} is neither withdrawn nor revoked: nothing to restore")
        new = replace(
            state, withdrawn=False, revoked=False, access_revision=state.access_revision + 1
        )
    else:
        new = replace(state, version=_pinned(doc_id, version, available[doc_id]))
        record["version"] = version
    record["at"] = at or datetime.now(UTC).isoformat(timespec="seconds")
    documents = {**manifest.documents, doc_id: new}
    return replace(manifest, documents=documents, events=(*manifest.events, record))


def _pinned(doc_id: str, version: object, present: tuple[int, ...]) -> int:
    if version == "first":
        return present[0]
    if version == "latest":
        return present[-1]
    if not _is_int(version) or version not in present:
        raise InputError(
            f"{doc_id} has no version {version!r}",
            fix=f"available versions: {', '.join(map(str, present))}",
        )
    assert isinstance(version, int)
    return version
