"""Named events on a dossier, and the node-by-node comparison that proves a build.

An event is one change on any document: a new version read from the folder
(``new-version:doc-03=2``), a withdrawal (``withdraw:doc-05``), a revocation
(``revoke:doc-07``), a restore (``restore:doc-05``), an identical re-upload as a new
version (``reupload:doc-02``: the same bytes under the next version number;
``reupload:doc-02=3`` reads version 3 from the folder and checks it is byte-identical) or
a distractor-only edit (``distractor-edit:doc-06``: the first line that states no fact and
governs none is lengthened, which shifts the offsets of every later line, and the result
is uploaded as the next version; ``distractor-edit:doc-06=2`` reads that version).
:func:`parse_event` reads that notation; :func:`events_from_data` a JSON list of
``{"event", "doc_id", "version"}`` objects (read from a file by
:func:`preuve.loaders.events_from_file`). This module opens no file: the versions an event
reads come from a :class:`VersionSource` (:class:`preuve.io.documents.VersionedFolder`).

SPEC's events (:data:`SPEC_MUTATIONS`), per test dossier in order, each on top of the
previous one: version 2 of ``doc-00`` (its delivery date moved), withdrawal of ``doc-04``,
access revocation of ``doc-08``; 20 test dossiers make 60 events. After each event an
incremental build and an independent full build (which reads nothing from the store) are
compared node by node: keys, statuses, claims and generated token ids. Every difference is
published as found; nothing is forced equal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

from preuve.core.documents import PAGE_SEPARATOR, AccessState, Document, Snapshot
from preuve.core.errors import InputError
from preuve.digest.affirm import DEFAULT_CUES
from preuve.digest.build import BuildMode, BuildReport, build_digest
from preuve.digest.extractive import document_contexts
from preuve.digest.grammar import DEFAULT_GRAMMAR, FactGrammar
from preuve.digest.lines import LineSpan
from preuve.digest.schema import Claim, NodeStatus
from preuve.digest.summarize import DigestSettings
from preuve.io.records import dump_record
from preuve.io.stores import Store
from preuve.models.base import Model

__all__ = [
    "EVENT_NAMES",
    "SPEC_MUTATIONS",
    "Comparable",
    "Comparison",
    "Mutation",
    "MutationKind",
    "MutationStep",
    "NodeDifference",
    "StoredNode",
    "VersionSource",
    "apply_mutation",
    "compare_builds",
    "distractor_line",
    "events_from_data",
    "parse_event",
    "run_mutations",
    "spec_events",
    "stored_nodes",
]


class MutationKind(StrEnum):
    NEW_VERSION = "new_version"
    WITHDRAWAL = "withdrawal"
    REVOCATION = "revocation"
    RESTORE = "restore"
    REUPLOAD = "reupload"
    DISTRACTOR_EDIT = "distractor_edit"


# The names events go by on the command line and in event files.
EVENT_NAMES: Mapping[str, MutationKind] = {
    "new-version": MutationKind.NEW_VERSION,
    "withdraw": MutationKind.WITHDRAWAL,
    "revoke": MutationKind.REVOCATION,
    "restore": MutationKind.RESTORE,
    "reupload": MutationKind.REUPLOAD,
    "distractor-edit": MutationKind.DISTRACTOR_EDIT,
}
_FIX_EVENT = (
    "write new-version:DOC=N, withdraw:DOC, revoke:DOC, restore:DOC, reupload:DOC or "
    "distractor-edit:DOC"
)


@dataclass(frozen=True, slots=True)
class Mutation:
    """One change to a dossier: a new version of a document, a withdrawal or a revocation."""

    kind: MutationKind
    doc_id: str
    version: int | None = None

    def label(self) -> str:
        if self.kind is MutationKind.NEW_VERSION:
            return f"{self.doc_id} → version {self.version}"
        if self.kind is MutationKind.REUPLOAD:
            return f"identical re-upload of {self.doc_id}"
        if self.kind is MutationKind.DISTRACTOR_EDIT:
            return f"distractor-only edit of {self.doc_id}"
        return f"{self.kind.value} of {self.doc_id}"


def parse_event(text: str) -> Mutation:
    """``new-version:doc-03=2``, ``withdraw:doc-05``, ... as a :class:`Mutation`."""
    name, sep, target = text.strip().partition(":")
    kind = EVENT_NAMES.get(name)
    if not sep or kind is None or not target:
        raise InputError(f"event {text!r} is not NAME:DOC", fix=_FIX_EVENT)
    doc_id, eq, number = target.rpartition("=")
    versioned = (MutationKind.NEW_VERSION, MutationKind.REUPLOAD, MutationKind.DISTRACTOR_EDIT)
    if eq and kind in versioned:
        if not doc_id or not number.isdigit() or int(number) < 1:
            raise InputError(f"event {text!r}: bad version", fix="e.g. new-version:doc-03=2")
        return Mutation(kind, doc_id, int(number))
    if kind is MutationKind.NEW_VERSION:
        raise InputError(f"event {text!r} needs a version", fix="e.g. new-version:doc-03=2")
    return Mutation(kind, target)


def events_from_data(data: object, path: str) -> tuple[Mutation, ...]:
    """Events from a JSON list of ``{"event": NAME, "doc_id": DOC, "version": N}`` (parsed
    data; ``path`` names its file in errors)."""
    items = data.get("events") if isinstance(data, dict) else data
    if not isinstance(items, list) or not items:
        raise InputError(f"{path}: expected a non-empty JSON list of events", fix=_FIX_EVENT)
    events: list[Mutation] = []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("doc_id"), str):
            raise InputError(f"{path}: event {number} must be an object with a doc_id")
        name = str(item.get("event", ""))
        version = item.get("version")
        spec = f"{name}:{item['doc_id']}" + (f"={version}" if version is not None else "")
        try:
            events.append(parse_event(spec))
        except InputError as err:
            raise InputError(f"{path}: event {number}: {err.message}", fix=err.fix) from None
    return tuple(events)


SPEC_MUTATIONS: tuple[Mutation, ...] = (
    Mutation(MutationKind.NEW_VERSION, "doc-00", 2),
    Mutation(MutationKind.WITHDRAWAL, "doc-04"),
    Mutation(MutationKind.REVOCATION, "doc-08"),
)


def spec_events(dossiers: Sequence[str]) -> tuple[tuple[str, Mutation], ...]:
    """``(dossier, mutation)`` for every test dossier: 60 events for the 20 of the corpus."""
    return tuple((name, mutation) for name in dossiers for mutation in SPEC_MUTATIONS)


class VersionSource(Protocol):
    """Where a mutation reads versions (a versioned folder: :class:`preuve.io.documents.
    VersionedFolder`): ``where`` names it in messages."""

    @property
    def where(self) -> str: ...

    def snapshot(self) -> Snapshot: ...

    def present(self, doc_id: str) -> tuple[int, ...]: ...

    def load(self, doc_id: str, version: int) -> Document: ...


def _next_version(folder: VersionSource, doc: Document) -> int:
    return max((doc.version, *folder.present(doc.doc_id))) + 1


def distractor_line(doc: Document, grammar: FactGrammar = DEFAULT_GRAMMAR) -> LineSpan | None:
    """The first line that states no fact, governs no other line and has lines after it."""
    rows = document_contexts(doc, grammar)
    for index, (span, context) in enumerate(rows[:-1]):
        text = span.quote
        plain = context.fact is None and context.context is None
        if plain and not text.endswith((":", "：")) and DEFAULT_CUES.context_of(text) is None:
            neighbours = [c for _, c in rows[max(0, index - 1) : index + 2]]
            if all(c.context is None for c in neighbours) and text[:1].isalnum():
                return span
    return None


def _edited(doc: Document, version: int, grammar: FactGrammar) -> Document:
    line = distractor_line(doc, grammar)
    if line is None:
        raise InputError(f"{doc.doc_id}: no line that states no fact to edit")
    text = doc.text
    edited = text[: line.end] + " (revised wording)" + text[line.end :]
    return replace(doc, version=version, pages=tuple(edited.split(PAGE_SEPARATOR)))


def apply_mutation(
    snapshot: Snapshot,
    mutation: Mutation,
    folder: VersionSource,
    grammar: FactGrammar = DEFAULT_GRAMMAR,
) -> Snapshot:
    """``snapshot`` after ``mutation`` (a new version is read from the dossier ``folder``)."""
    doc = snapshot.get(mutation.doc_id)
    if doc is None:
        raise InputError(f"{folder.where}: no document {mutation.doc_id!r} to mutate")
    kind = mutation.kind
    if kind is MutationKind.NEW_VERSION:
        if mutation.version is None:
            raise InputError(f"a new version of {mutation.doc_id} needs a version number")
        new = folder.load(mutation.doc_id, mutation.version)
        # A new version keeps the document's access state.
        return snapshot.with_document(new.with_access(doc.access))
    if kind is MutationKind.REUPLOAD:
        if mutation.version is None:
            return snapshot.with_document(replace(doc, version=_next_version(folder, doc)))
        upload = folder.load(doc.doc_id, mutation.version)
        if upload.text != doc.text:
            raise InputError(
                f"{folder.where}/{doc.doc_id}: version {mutation.version} is not byte-identical to "
                f"version {doc.version}",
                fix="call it new-version, not reupload",
            )
        return snapshot.with_document(upload.with_access(doc.access))
    if kind is MutationKind.DISTRACTOR_EDIT:
        if mutation.version is None:
            return snapshot.with_document(_edited(doc, _next_version(folder, doc), grammar))
        edit = folder.load(doc.doc_id, mutation.version)
        return snapshot.with_document(edit.with_access(doc.access))
    if kind is MutationKind.WITHDRAWAL:
        return snapshot.with_access(mutation.doc_id, doc.access.withdrawn())
    if kind is MutationKind.RESTORE:
        state = doc.access
        restored = AccessState(True, True, state.access_revision + 1)
        return snapshot.with_access(mutation.doc_id, restored)
    return snapshot.with_access(mutation.doc_id, doc.access.revoked())


class Comparable(Protocol):
    """What the comparison reads of a node (a build's outcome or a stored run's node)."""

    @property
    def node_id(self) -> str: ...

    @property
    def key(self) -> str: ...

    @property
    def status(self) -> NodeStatus: ...

    @property
    def claims(self) -> tuple[Claim, ...]: ...

    @property
    def token_ids(self) -> tuple[int, ...] | None: ...


@dataclass(frozen=True, slots=True)
class StoredNode:
    node_id: str
    key: str
    status: NodeStatus
    claims: tuple[Claim, ...]
    token_ids: tuple[int, ...] | None


def stored_nodes(store: Store, run_id: str) -> list[StoredNode]:
    """The nodes of a recorded run, for comparing two runs read back from the store."""
    store.run(run_id)  # an unknown run id is an InputError, never an empty (equal) run
    nodes = []
    for record in store.run_nodes(run_id):
        row = store.node(record.node_row)
        nodes.append(
            StoredNode(
                record.node_id,
                record.key,
                NodeStatus(row.status),
                tuple(Claim.from_mapping(c) for c in row.claims),
                None if row.token_ids is None else tuple(row.token_ids),
            )
        )
    return nodes


@dataclass(frozen=True, slots=True)
class NodeDifference:
    node_id: str
    aspect: str
    incremental: str
    full: str


@dataclass(frozen=True, slots=True)
class Comparison:
    nodes: int
    differences: tuple[NodeDifference, ...]

    @property
    def identical(self) -> bool:
        return not self.differences


def _show(value: object) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], Claim):
        value = [dump_record(claim) for claim in value]
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 300 else text[:297] + "..."


def _nodes(build: BuildReport | Sequence[Comparable]) -> Sequence[Comparable]:
    return build.nodes if isinstance(build, BuildReport) else build


def compare_builds(
    incremental: BuildReport | Sequence[Comparable], full: BuildReport | Sequence[Comparable]
) -> Comparison:
    """Compare two builds node by node: keys, statuses, claims, generated token ids."""
    left = {node.node_id: node for node in _nodes(incremental)}
    right = {node.node_id: node for node in _nodes(full)}
    differences: list[NodeDifference] = []
    for node_id in sorted(left.keys() | right.keys()):
        a, b = left.get(node_id), right.get(node_id)
        if a is None or b is None:
            differences.append(
                NodeDifference(node_id, "presence", str(a is not None), str(b is not None))
            )
            continue
        aspects: list[tuple[str, object, object]] = [
            ("key", a.key, b.key),
            ("status", a.status.value, b.status.value),
            ("claims", a.claims, b.claims),
            ("token_ids", a.token_ids, b.token_ids),
        ]
        differences.extend(
            NodeDifference(node_id, name, _show(x), _show(y)) for name, x, y in aspects if x != y
        )
    return Comparison(len(left.keys() | right.keys()), tuple(differences))


@dataclass(frozen=True, slots=True)
class MutationStep:
    """One event: the snapshot after it, both builds and their comparison."""

    dossier: str
    mutation: Mutation
    snapshot: Snapshot
    incremental: BuildReport
    full: BuildReport | None  # None when the full rebuild was not asked for
    comparison: Comparison | None

    @property
    def compared(self) -> Comparison:
        """The comparison of both builds (a step built with ``full=False`` has none)."""
        if self.comparison is None:
            raise ValueError(f"{self.dossier}: {self.mutation.label()} had no full rebuild")
        return self.comparison

    @property
    def full_build(self) -> BuildReport:
        """The full rebuild (a step built with ``full=False`` has none)."""
        if self.full is None:
            raise ValueError(f"{self.dossier}: {self.mutation.label()} had no full rebuild")
        return self.full


def run_mutations(
    folder: VersionSource,
    model: Model,
    store: Store,
    settings: DigestSettings,
    *,
    dossier: str,
    mutations: Sequence[Mutation] = SPEC_MUTATIONS,
    principal: str = "default",
    concurrency: int = 4,
    snapshot: Snapshot | None = None,
    full: bool = True,
) -> tuple[BuildReport, tuple[MutationStep, ...]]:
    """An incremental build of the initial snapshot, then each event with both builds (the
    incremental one alone when not ``full``: a model whose answers vary from call to call,
    as a real server's do, makes the node-by-node comparison measure the server, and the
    full rebuild costs every node's call again)."""
    current = snapshot if snapshot is not None else folder.snapshot()

    def build(mode: BuildMode) -> BuildReport:
        return build_digest(
            current,
            model,
            store,
            settings,
            principal=principal,
            mode=mode,
            concurrency=concurrency,
            dossier=dossier,
        )

    initial = build("incremental")
    steps: list[MutationStep] = []
    for mutation in mutations:
        current = apply_mutation(current, mutation, folder, settings.grammar)
        incremental = build("incremental")
        rebuilt = build("full") if full else None
        comparison = compare_builds(incremental, rebuilt) if rebuilt is not None else None
        steps.append(MutationStep(dossier, mutation, current, incremental, rebuilt, comparison))
    return initial, tuple(steps)
