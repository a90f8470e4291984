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

Events are pure functions of a manifest (:func:`apply_event`), and so is everything here:
this module reads no file. The file is read and written by :func:`preuve.loaders.
read_manifest` and :func:`preuve.loaders.write_manifest` (:func:`manifest_from_data` and
:func:`manifest_data` are its JSON); the snapshot a manifest describes is
:func:`preuve.loaders.load_state`, the documents at :func:`chosen_versions` read by
:func:`preuve.io.documents.load_versions` (which knows the folder layout and leaves
``manifest.json`` and ``grammar.json`` to their readers), then :func:`with_access_of`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from preuve.core.documents import AccessState, Snapshot
from preuve.core.errors import InputError
from preuve.io.records import OMITTED_IF_NONE, STRICT, dump_record, load_data

__all__ = [
    "EVENTS",
    "MANIFEST_FILE",
    "DocumentEntry",
    "DocumentState",
    "Manifest",
    "ManifestFile",
    "apply_event",
    "chosen_versions",
    "manifest_data",
    "manifest_from_data",
    "with_access_of",
]

MANIFEST_FILE = "manifest.json"
_FORMAT: Literal["preuve.digest.manifest/1"] = "preuve.digest.manifest/1"
EVENTS = ("withdraw", "revoke", "restore", "set-version")
VersionRule = Literal["first", "latest"]
_HAND_EDITED = "preuve digest withdraw|revoke|restore|set-version write it: undo the hand edit"


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


@dataclass(frozen=True, slots=True)
class Manifest:
    """A dossier's state: version rule, principal, per-document state, events so far."""

    versions: VersionRule = "latest"
    principal: str = "default"
    documents: Mapping[str, DocumentState] = field(default_factory=dict)
    events: tuple[Mapping[str, Any], ...] = ()

    def state(self, doc_id: str) -> DocumentState:
        return self.documents.get(doc_id, DocumentState())

    @property
    def sha256(self) -> str:
        text = json.dumps(manifest_data(self), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True, kw_only=True)
class DocumentEntry:
    """A document's entry in ``manifest.json`` (``version`` written only when pinned)."""

    withdrawn: bool = False
    revoked: bool = False
    access_revision: Annotated[int, Field(ge=0)] = 0
    version: Annotated[int | None, Field(ge=1), OMITTED_IF_NONE] = None
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ManifestFile:
    """``manifest.json`` as written and read: documents by id (sorted), events in order."""

    format: Literal["preuve.digest.manifest/1"]
    versions: VersionRule = "latest"
    principal: Annotated[str, Field(min_length=1)] = "default"
    documents: dict[str, DocumentEntry] = field(default_factory=dict)
    events: tuple[dict[str, Any], ...] = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


def manifest_data(manifest: Manifest) -> Any:
    """``manifest`` as the JSON data of ``manifest.json``."""
    documents = {
        doc: DocumentEntry(
            withdrawn=state.withdrawn,
            revoked=state.revoked,
            access_revision=state.access_revision,
            version=state.version,
        )
        for doc, state in sorted(manifest.documents.items())
    }
    return dump_record(
        ManifestFile(
            format=_FORMAT,
            versions=manifest.versions,
            principal=manifest.principal,
            documents=documents,
            events=tuple(dict(event) for event in manifest.events),
        )
    )


def manifest_from_data(data: object, where: str = MANIFEST_FILE) -> Manifest:
    """A :class:`Manifest` from parsed JSON; ``InputError`` naming the first problem."""
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        raise InputError(f'{where}: not a dossier manifest (expected "format": {_FORMAT!r})')
    read = load_data(ManifestFile, data, where, _HAND_EDITED)
    return Manifest(
        versions=read.versions,
        principal=read.principal,
        documents={
            doc: DocumentState(entry.version, entry.withdrawn, entry.revoked, entry.access_revision)
            for doc, entry in read.documents.items()
        },
        events=read.events,
    )


def chosen_versions(
    manifest: Manifest | None,
    available: Mapping[str, tuple[int, ...]],
    versions: Mapping[str, int] | None,
    where: str,
) -> dict[str, int]:
    """The version each document of the snapshot takes when the manifest pins one, with
    ``versions`` overriding some for this snapshot only (the others take the manifest's
    rule); a manifest naming a document that ``available`` lacks is refused (``where``: the
    manifest file)."""
    chosen: dict[str, int] = {}
    if manifest is not None:
        for doc_id, state in manifest.documents.items():
            if doc_id not in available:
                raise InputError(f"{where}: names {doc_id!r}, which has no document folder")
            if state.version is not None:
                chosen[doc_id] = state.version
    chosen.update(versions or {})
    return chosen


def with_access_of(snapshot: Snapshot, manifest: Manifest | None) -> Snapshot:
    """``snapshot`` with the manifest's access states (withdrawn, revoked, revision), kept
    whatever version is shown."""
    if manifest is not None:
        for doc_id, state in manifest.documents.items():
            snapshot = snapshot.with_access(doc_id, state.access)
    return snapshot


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
