"""The 60 test events of SPEC workflow 3, and the node-by-node comparison that proves a build.

Per test dossier, three events in order, each on top of the previous one: version 2 of
``doc-00`` (its delivery date moved), withdrawal of ``doc-04``, access revocation of
``doc-08``; 20 test dossiers make 60 events. After each event an incremental build and an
independent full build (which reads nothing from the store) are compared node by node:
keys, statuses, claims and generated token ids. Every difference is published as found;
nothing is forced equal.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from preuve.core.documents import Snapshot
from preuve.core.errors import InputError
from preuve.digest.build import BuildMode, BuildReport, build_digest
from preuve.digest.dossier import load_document, load_dossier
from preuve.digest.schema import Claim, NodeStatus
from preuve.digest.summarize import DigestSettings
from preuve.io.store import DigestStore
from preuve.models.base import Model

__all__ = [
    "SPEC_MUTATIONS",
    "Comparable",
    "Comparison",
    "Mutation",
    "MutationKind",
    "MutationStep",
    "NodeDifference",
    "StoredNode",
    "apply_mutation",
    "compare_builds",
    "run_mutations",
    "spec_events",
    "stored_nodes",
]


class MutationKind(StrEnum):
    NEW_VERSION = "new_version"
    WITHDRAWAL = "withdrawal"
    REVOCATION = "revocation"


@dataclass(frozen=True, slots=True)
class Mutation:
    """One change to a dossier: a new version of a document, a withdrawal or a revocation."""

    kind: MutationKind
    doc_id: str
    version: int | None = None

    def label(self) -> str:
        if self.kind is MutationKind.NEW_VERSION:
            return f"{self.doc_id} → version {self.version}"
        return f"{self.kind.value} of {self.doc_id}"


SPEC_MUTATIONS: tuple[Mutation, ...] = (
    Mutation(MutationKind.NEW_VERSION, "doc-00", 2),
    Mutation(MutationKind.WITHDRAWAL, "doc-04"),
    Mutation(MutationKind.REVOCATION, "doc-08"),
)


def spec_events(dossiers: Sequence[str]) -> tuple[tuple[str, Mutation], ...]:
    """``(dossier, mutation)`` for every test dossier: 60 events for the 20 of the corpus."""
    return tuple((name, mutation) for name in dossiers for mutation in SPEC_MUTATIONS)


def apply_mutation(snapshot: Snapshot, mutation: Mutation, folder: Path) -> Snapshot:
    """``snapshot`` after ``mutation`` (a new version is read from the dossier ``folder``)."""
    doc = snapshot.get(mutation.doc_id)
    if doc is None:
        raise InputError(f"{folder}: no document {mutation.doc_id!r} to mutate")
    if mutation.kind is MutationKind.NEW_VERSION:
        if mutation.version is None:
            raise InputError(f"a new version of {mutation.doc_id} needs a version number")
        new = load_document(folder, mutation.doc_id, mutation.version)
        # A new version keeps the document's access state.
        return snapshot.with_document(new.with_access(doc.access))
    if mutation.kind is MutationKind.WITHDRAWAL:
        return snapshot.with_access(mutation.doc_id, doc.access.withdrawn())
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


def stored_nodes(store: DigestStore, run_id: str) -> list[StoredNode]:
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

    def as_dict(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes,
            "identical": self.identical,
            "differences": [
                {
                    "node": d.node_id,
                    "aspect": d.aspect,
                    "incremental": d.incremental,
                    "full": d.full,
                }
                for d in self.differences
            ],
        }


def _show(value: object) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], Claim):
        value = [claim.as_dict() for claim in value]
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
    full: BuildReport
    comparison: Comparison


def run_mutations(
    folder: Path,
    model: Model,
    store: DigestStore,
    settings: DigestSettings,
    *,
    dossier: str,
    mutations: Sequence[Mutation] = SPEC_MUTATIONS,
    principal: str = "default",
    concurrency: int = 4,
    snapshot: Snapshot | None = None,
) -> tuple[BuildReport, tuple[MutationStep, ...]]:
    """An incremental build of the initial snapshot, then each event with both builds."""
    current = snapshot if snapshot is not None else load_dossier(folder)

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
        current = apply_mutation(current, mutation, folder)
        incremental, full = build("incremental"), build("full")
        comparison = compare_builds(incremental, full)
        steps.append(MutationStep(dossier, mutation, current, incremental, full, comparison))
    return initial, tuple(steps)
