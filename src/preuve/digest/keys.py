"""Cache keys of the summary tree: SHA-256 over canonical JSON of every functional input.

Leaf key: the document's id and text hash (its content, not its version number), its
access state (active, eligible, access revision), the principal, the model identity
(backend, name, tokenizer, version), the transformation code version, the map prompt, the
generation parameters, the chunking, the fact grammar and the map input budget. The
version number is metadata: a byte-identical re-upload as a new version has the same key.
Nothing about reduces: editing the reduce prompt never touches a leaf.

Reduce key, preuve's early-cutoff scheme (:func:`reduce_key`): the *result digests* of its
children, in the order the parent reads them, plus its own prompt, the model identity, the
generation parameters, the code version, the reduce budget, the principal and the access
fingerprint of every source below it. A child recomputed to an identical result leaves
the key, and so the parent, unchanged (Salsa calls this backdating); a withdrawal or a
revocation below still changes it through the access fingerprint.

Reference scheme (:func:`reference_reduce_key`), kept for the benchmark: sorted child
*keys*, the prompt and the access fingerprint. Any change below re-runs every ancestor,
even when the child's output did not move.

Keys are pure functions of plain data; which node to recompute is decided by comparing
them with the keys stored for earlier builds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from preuve.core.documents import Document, Snapshot
from preuve.core.errors import InputError
from preuve.core.evidence import span_id
from preuve.digest.tree import NodeKind, Tree, TreeNode
from preuve.io.records import dump_record
from preuve.models.base import ModelIdentity

__all__ = [
    "CODE_VERSION",
    "KEY_SCHEME",
    "Budgets",
    "GenerationParams",
    "KeySettings",
    "access_fingerprint",
    "canonical_json",
    "cutoff_keys",
    "leaf_key",
    "leaf_keys",
    "reduce_key",
    "reference_keys",
    "reference_reduce_key",
    "result_digest",
]

KEY_SCHEME = "preuve.digest.keys/2"
# Bump when the map/reduce transformation (prompt assembly, parsing, validation) changes.
CODE_VERSION = "digest-transform/1"


@dataclass(frozen=True, slots=True)
class GenerationParams:
    """Decoding settings that change a model's output."""

    max_new_tokens: int = 384
    temperature: float = 0.0
    seed: int = 0


@dataclass(frozen=True, slots=True)
class Budgets:
    """Input budgets in tokens, counted with the chat template applied."""

    map_input: int = 2048
    reduce_input: int = 3072
    context: int = 32768


@dataclass(frozen=True, slots=True)
class KeySettings:
    """Every functional input of a build that is not a document."""

    model: ModelIdentity
    map_prompt: str
    reduce_prompt: str
    principal: str = "default"
    code_version: str = CODE_VERSION
    generation: GenerationParams = GenerationParams()
    chunking: str = "whole-document"
    budgets: Budgets = Budgets()
    grammar: str = ""


def canonical_json(value: object) -> str:
    """Sorted keys, no spaces, UTF-8 as is, no NaN or infinity: one text per value."""
    return json.dumps(
        value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    )


def _sha256(body: Mapping[str, object]) -> str:
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def _text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _model(identity: ModelIdentity) -> list[str]:
    return [identity.backend, identity.name, identity.tokenizer, identity.version]


def leaf_key(doc: Document, settings: KeySettings) -> str:
    """The key of the leaf summarizing ``doc`` (one version, in its access state)."""
    access = doc.access
    return _sha256(
        {
            "scheme": KEY_SCHEME,
            "kind": "leaf",
            "doc_id": doc.doc_id,
            "text_sha256": doc.text_sha256,
            "active": access.active,
            "eligible": access.eligible,
            "access_revision": access.access_revision,
            "principal": settings.principal,
            "model": _model(settings.model),
            "code_version": settings.code_version,
            "map_prompt": _text_hash(settings.map_prompt),
            "generation": dump_record(settings.generation),
            "chunking": settings.chunking,
            "grammar": settings.grammar,
            "input_budget": settings.budgets.map_input,
            "context": settings.budgets.context,
        }
    )


def access_fingerprint(snapshot: Snapshot, doc_ids: Iterable[str]) -> str:
    """SHA-256 of the access state (active, eligible, revision) of ``doc_ids``.

    Versions and text hashes are left out on purpose: they reach a parent through what its
    leaves produced (content-based evidence ids and the lines they cite), which is what
    lets a parent survive a child recomputed to the same result. An absent document is
    recorded as absent.
    """
    rows: list[list[object]] = []
    for doc_id in sorted(set(doc_ids)):
        doc = snapshot.get(doc_id)
        if doc is None:
            rows.append([doc_id, None])
        else:
            state = doc.access
            rows.append([doc_id, state.active, state.eligible, state.access_revision])
    return _text_hash(canonical_json(rows))


def _reduce_common(settings: KeySettings, access: str) -> dict[str, object]:
    return {
        "scheme": KEY_SCHEME,
        "access": access,
        "principal": settings.principal,
        "model": _model(settings.model),
        "code_version": settings.code_version,
        "reduce_prompt": _text_hash(settings.reduce_prompt),
        "generation": dump_record(settings.generation),
        "grammar": settings.grammar,
        "input_budget": settings.budgets.reduce_input,
        "context": settings.budgets.context,
    }


def reduce_key(child_digests: Sequence[str], access: str, settings: KeySettings) -> str:
    """Early-cutoff key of a reduce: its children's result digests, in reading order."""
    body = _reduce_common(settings, access)
    body.update(kind="reduce", children=list(child_digests))
    return _sha256(body)


def reference_reduce_key(child_keys: Sequence[str], access: str, settings: KeySettings) -> str:
    """The reference scheme's key of a reduce: keys of its children, sorted."""
    body = _reduce_common(settings, access)
    body.update(kind="reference-reduce", children=sorted(child_keys))
    return _sha256(body)


def _claim_data(claim: object) -> object:
    if isinstance(claim, Mapping):
        return dict(claim)
    if dataclasses.is_dataclass(claim) and not isinstance(claim, type):
        return dataclasses.asdict(claim)
    raise TypeError(f"a claim must be a mapping or a dataclass, not {type(claim).__name__}")


def _evidence_ids(claims: Sequence[object]) -> list[str]:
    ids: set[str] = set()
    for claim in claims:
        evidence = claim.get("evidence", ()) if isinstance(claim, Mapping) else ()
        for item in evidence if isinstance(evidence, list | tuple) else ():
            if isinstance(item, str):
                ids.add(item)
            elif isinstance(item, Mapping):
                ids.add(_mapping_span_id(item))
    return sorted(ids)


def _mapping_span_id(item: Mapping[str, object]) -> str:
    # A span given whole (e.g. a Span dataclass after ``asdict``) is named by its id.
    if isinstance(item.get("id"), str):
        return str(item["id"])
    doc_id, version = item.get("doc_id"), item.get("version")
    start, end = item.get("start"), item.get("end")
    if (
        isinstance(doc_id, str)
        and isinstance(version, int)
        and isinstance(start, int)
        and isinstance(end, int)
    ):
        return span_id(doc_id, version, start, end)
    raise TypeError(f"evidence {item!r} has no id and no doc_id/version/start/end")


def result_digest(status: str, claims: Iterable[object]) -> str:
    """SHA-256 of what a node produced: its status, its claims (in order) and evidence ids.

    ``claims`` are mappings or dataclasses (converted with ``asdict``); all values must be
    JSON data. Two results with one digest are interchangeable for every parent.
    """
    if not isinstance(status, str):
        raise TypeError(f"status must be a string, not {type(status).__name__}")
    data = [_claim_data(claim) for claim in claims]
    return _sha256(
        {
            "scheme": KEY_SCHEME,
            "status": str(status),
            "claims": data,
            "evidence_ids": _evidence_ids(data),
        }
    )


def _document(snapshot: Snapshot, node: TreeNode) -> Document:
    doc_id = node.doc_id or ""
    doc = snapshot.get(doc_id)
    if doc is None:
        raise InputError(f"tree leaf {node.node_id} has no document {doc_id!r} in the snapshot")
    return doc


def leaf_keys(tree: Tree, snapshot: Snapshot, settings: KeySettings) -> dict[str, str]:
    """``node_id -> key`` for every leaf of ``tree``."""
    return {node.node_id: leaf_key(_document(snapshot, node), settings) for node in tree.leaves}


def cutoff_keys(
    tree: Tree,
    snapshot: Snapshot,
    settings: KeySettings,
    digest_of: Callable[[TreeNode, str], str],
) -> dict[str, str]:
    """``node_id -> key`` under early cutoff, children first.

    A parent's key needs what its children produced: ``digest_of(node, key)`` returns the
    result digest of ``node`` under ``key`` (from a cache hit or a fresh computation; the
    caller decides). It is called once per node, leaves first.
    """
    keys: dict[str, str] = {}
    digests: dict[str, str] = {}
    for node in tree.nodes:
        if node.kind is NodeKind.LEAF:
            key = leaf_key(_document(snapshot, node), settings)
        else:
            access = access_fingerprint(snapshot, node.sources)
            key = reduce_key([digests[c] for c in node.children], access, settings)
        keys[node.node_id] = key
        digests[node.node_id] = digest_of(node, key)
    return keys


def reference_keys(tree: Tree, snapshot: Snapshot, settings: KeySettings) -> dict[str, str]:
    """``node_id -> key`` under the reference scheme (keys of keys), all known up front."""
    keys: dict[str, str] = {}
    for node in tree.nodes:
        if node.kind is NodeKind.LEAF:
            keys[node.node_id] = leaf_key(_document(snapshot, node), settings)
        else:
            access = access_fingerprint(snapshot, node.sources)
            children = [keys[c] for c in node.children]
            keys[node.node_id] = reference_reduce_key(children, access, settings)
    return keys
