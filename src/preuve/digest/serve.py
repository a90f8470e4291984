"""Serve a dossier's summary only if it is current for the snapshot the reader asks about.

:func:`serve_digest` takes a recorded run (the latest finished incremental run of the
dossier for this principal, or the one named) and recomputes, from the requested
snapshot, the key every node of that run should have: a leaf's from its document, a
reduce's from the digests its children's results were recorded with (trusted only once
the child's own key is confirmed) and the access state of its sources. The first node
whose recorded key differs makes the run STALE, and it is refused *before* any claim is
read. A root that is INVALID is refused. Otherwise every node's stored result is checked
against the digests recorded at build time (:mod:`preuve.digest.integrity`), and the
root's evidence is re-resolved against the current text: each content-based id to its
exact ``start:end`` in the exact version requested. A stored result that does not match
its digests, or evidence that no longer resolves to the line it recorded although the
keys say the text is unchanged, is ``CORRUPT`` (:class:`~preuve.core.errors.CorruptStoreError`,
one line, exit 2): never served.

Nothing is ever rewritten to look current: a stale run stays in the store as history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from preuve.core.documents import Snapshot
from preuve.core.errors import CorruptStoreError
from preuve.digest.integrity import verified_row
from preuve.digest.keys import access_fingerprint, leaf_key, reduce_key
from preuve.digest.lines import LineResolver, LineSpan
from preuve.digest.schema import Claim, NodeStatus
from preuve.digest.summarize import DigestSettings
from preuve.digest.tree import ROOT_ID, NodeKind, build_tree
from preuve.io.store_rows import RunInfo, RunNode
from preuve.io.stores import INCREMENTAL, Store
from preuve.models.base import ModelIdentity

__all__ = ["ServeResult", "ServeStatus", "serve_digest"]


class ServeStatus(StrEnum):
    SERVED = "SERVED"
    # The run was built from other documents, versions, access states or settings.
    STALE = "STALE"
    # The run is current but its root is INVALID.
    INVALID = "INVALID"
    # Nothing was ever built for this dossier and principal.
    MISSING = "MISSING"


@dataclass(frozen=True, slots=True)
class ServeResult:
    """What serving gave: claims only when ``status`` is SERVED."""

    status: ServeStatus
    reason: str
    run_id: str = ""
    root_key: str = ""
    root_status: NodeStatus | None = None
    claims: tuple[Claim, ...] = ()
    spans: tuple[LineSpan, ...] = ()
    node_statuses: Mapping[str, NodeStatus] = field(default_factory=dict)

    @property
    def served(self) -> bool:
        return self.status is ServeStatus.SERVED


def _what_changed(doc_id: str, snapshot: Snapshot, recorded: Sequence[Mapping[str, Any]]) -> str:
    """Why a leaf's key moved, from what the run recorded of its document."""
    doc = snapshot.documents[doc_id]
    before = next((row for row in recorded if row.get("doc_id") == doc_id), None)
    if before is None:
        return f"document {doc_id} changed"
    if before.get("text_sha256") != doc.text_sha256:
        return f"the text of document {doc_id} changed"
    access = (before.get("active"), before.get("eligible"), before.get("access_revision"))
    if access != (doc.access.active, doc.access.eligible, doc.access.access_revision):
        return f"access to document {doc_id} changed (withdrawn, revoked or restored)"
    return f"the settings of document {doc_id}'s summary changed"


def _expected_keys(
    records: Mapping[str, RunNode],
    snapshot: Snapshot,
    settings: DigestSettings,
    identity: ModelIdentity,
    principal: str,
    *,
    recorded: Sequence[Mapping[str, Any]] = (),
) -> str | None:
    """``None`` when every recorded key is the one the snapshot gives, else the reason."""
    tree = build_tree((doc.doc_id for doc in snapshot), settings.fan_in)
    keys = settings.key_settings(identity, principal)
    if set(records) != {node.node_id for node in tree.nodes}:
        return "the dossier's documents differ from the ones the run summarized"
    for node in tree.nodes:
        if node.kind is NodeKind.LEAF:
            expected = leaf_key(snapshot.documents[node.doc_id or ""], keys)
        else:
            digests = [records[child].digest for child in node.children]
            expected = reduce_key(digests, access_fingerprint(snapshot, node.sources), keys)
        if records[node.node_id].key != expected:
            what = _what_changed(node.doc_id, snapshot, recorded) if node.doc_id else None
            return f"{node.node_id} is stale: {what or 'its inputs changed'} since run"
    return None


def _run_for(store: Store, dossier: str, principal: str, run_id: str | None) -> RunInfo | None:
    if run_id is not None:
        return store.run(run_id)
    return store.latest_run(dossier, principal, INCREMENTAL)


def serve_digest(
    snapshot: Snapshot,
    store: Store,
    settings: DigestSettings,
    principal: str = "default",
    *,
    identity: ModelIdentity,
    dossier: str = "",
    run_id: str | None = None,
) -> ServeResult:
    """The root claims of a run if, and only if, that run is current for ``snapshot``."""
    run = _run_for(store, dossier, principal, run_id)
    if run is None:
        return ServeResult(
            ServeStatus.MISSING, f"no finished build of {dossier!r} for {principal!r}"
        )
    if not run.finished:
        return ServeResult(ServeStatus.STALE, "the run never finished", run.run_id)
    if run.principal != principal:
        return ServeResult(
            ServeStatus.STALE, f"the run was built for principal {run.principal!r}", run.run_id
        )
    records = {record.node_id: record for record in store.run_nodes(run.run_id)}
    stale = _expected_keys(records, snapshot, settings, identity, principal, recorded=run.snapshot)
    if stale is not None:
        return ServeResult(ServeStatus.STALE, f"{stale} {run.run_id}", run.run_id, run.root_key)
    statuses = {node_id: NodeStatus(record.status) for node_id, record in records.items()}
    root = records[ROOT_ID]
    root_status = NodeStatus(root.status)
    if root_status is NodeStatus.INVALID:
        return ServeResult(
            ServeStatus.INVALID,
            "the root summary is INVALID: it has no usable claims",
            run.run_id,
            root.key,
            root_status,
            node_statuses=statuses,
        )
    verified = {
        node_id: verified_row(
            store.node(record.node_row),
            f"digest store {store.path}, run {run.run_id}",
            recorded_digest=record.digest,
            recorded_key=record.key,
            recorded_status=record.status,
        )
        for node_id, record in records.items()
    }
    root_row = verified[ROOT_ID]
    resolver = LineResolver(snapshot)
    spans: list[LineSpan] = []
    for evidence_id, quote in root_row.quotes.items():
        check = resolver.resolve(evidence_id)
        if not check.ok or check.line is None or check.line.quote != quote:
            # The keys confirmed the text is the one the run read: the store disagrees.
            detail = check.detail if not check.ok else "the recorded line differs from the text"
            raise CorruptStoreError(
                f"digest store {store.path}, run {run.run_id}: root evidence {evidence_id}: "
                f"{detail}",
                fix="the store was altered after it was written; rebuild into a new --store",
            )
        spans.append(check.line)
    return ServeResult(
        ServeStatus.SERVED,
        f"current for this snapshot (run {run.run_id})",
        run.run_id,
        root.key,
        root_status,
        root_row.claims,
        tuple(spans),
        statuses,
    )
