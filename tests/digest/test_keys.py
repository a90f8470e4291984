"""Cache keys of the summary tree (preuve.digest.keys): what each input invalidates."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.documents import Document, Snapshot
from preuve.core.evidence import make_span
from preuve.corpora.digest_corpus import generate_digest_corpus
from preuve.digest import keys as keys_module
from preuve.digest.extractive import extract_document_facts
from preuve.digest.keys import (
    Budgets,
    GenerationParams,
    KeySettings,
    canonical_json,
    cutoff_keys,
    leaf_key,
    leaf_keys,
    reduce_key,
    reference_keys,
    reference_reduce_key,
    result_digest,
)
from preuve.digest.tree import NodeKind, Tree, TreeNode, build_tree
from preuve.io.documents import load_versions
from preuve.io.records import dump_record
from preuve.models.base import ModelIdentity

BASE = KeySettings(
    model=ModelIdentity("hf", "Qwen2.5-1.5B-Instruct", "qwen2.5", "rev-1"),
    map_prompt="Summarize the document in at most 4 claims.",
    reduce_prompt="Merge the children's claims into at most 4 claims.",
)
LEAVES = frozenset(f"leaf:doc-{i:02d}" for i in range(12))
PARENTS = frozenset({"reduce:0", "reduce:1", "reduce:2", "root"})
ALL = LEAVES | PARENTS


def doc(i: int, text: str | None = None, version: int = 1) -> Document:
    body = text if text is not None else f"Document {i}.\nProduct P-00-{i:02d} site: Kesby depot.\n"
    return Document(f"doc-{i:02d}", version, f"Doc {i}", "2026-01-01", "note", (body,))


SNAPSHOT = Snapshot.of(doc(i) for i in range(12))
TREE = build_tree(d.doc_id for d in SNAPSHOT)


def same_output(node: TreeNode, key: str) -> str:
    """Every node reproduces its previous result: the most early cutoff can save."""
    return f"result of {node.node_id}"


def output_follows_key(node: TreeNode, key: str) -> str:
    """Every recomputed node produces a new result: nothing to cut off."""
    return hashlib.sha256(key.encode()).hexdigest()


def changed(before: dict[str, str], after: dict[str, str]) -> frozenset[str]:
    assert before.keys() == after.keys()
    return frozenset(node for node in before if before[node] != after[node])


Change = Callable[[Snapshot, KeySettings], tuple[Snapshot, KeySettings]]


def on_doc(i: int, make: Callable[[Document], Document]) -> Change:
    def change(snapshot: Snapshot, settings: KeySettings) -> tuple[Snapshot, KeySettings]:
        return snapshot.with_document(make(snapshot.documents[f"doc-{i:02d}"])), settings

    return change


def on_settings(**fields: object) -> Change:
    def change(snapshot: Snapshot, settings: KeySettings) -> tuple[Snapshot, KeySettings]:
        return snapshot, replace(settings, **fields)  # type: ignore[arg-type]

    return change


def model(**fields: str) -> Change:
    return on_settings(model=replace(BASE.model, **fields))


def generation(**fields: object) -> Change:
    return on_settings(generation=replace(BASE.generation, **fields))  # type: ignore[arg-type]


def budgets(**fields: int) -> Change:
    return on_settings(budgets=replace(BASE.budgets, **fields))


def one(i: int) -> frozenset[str]:
    group = i // 4
    return frozenset({f"leaf:doc-{i:02d}", f"reduce:{group}", "root"})


@dataclass(frozen=True)
class Case:
    name: str
    change: Change
    with_cutoff: frozenset[str]  # keys that change when every node reproduces its result
    without_cutoff: frozenset[str]  # keys that change when every recomputed node differs


DOC_03 = frozenset({"leaf:doc-03"})
NEW_VERSION = on_doc(3, lambda d: doc(3, d.text + "More.\n", 2))
NEW_TEXT = on_doc(3, lambda d: doc(3, d.text + "x"))
VERSION_ONLY = on_doc(3, lambda d: doc(3, d.text, 2))
REVISION = on_doc(8, lambda d: d.with_access(replace(d.access, access_revision=1)))
REVOKE = on_doc(8, lambda d: d.with_access(d.access.revoked()))
WITHDRAW = on_doc(4, lambda d: d.with_access(d.access.withdrawn()))

CASES = [
    Case("nothing", on_settings(), frozenset(), frozenset()),
    Case("new-version-doc-03", NEW_VERSION, DOC_03, one(3)),
    Case("same-version-new-text", NEW_TEXT, DOC_03, one(3)),
    # Identity by content (issue 16): a byte-identical re-upload as a new version is the
    # same leaf, so no key moves.
    Case("version-only", VERSION_ONLY, frozenset(), frozenset()),
    Case("access-revision-doc-08", REVISION, one(8), one(8)),
    Case("revoke-doc-08", REVOKE, one(8), one(8)),
    Case("withdraw-doc-04", WITHDRAW, one(4), one(4)),
    Case("principal", on_settings(principal="auditor"), ALL, ALL),
    Case("model-backend", model(backend="openai"), ALL, ALL),
    Case("model-name", model(name="Qwen2.5-3B-Instruct"), ALL, ALL),
    Case("tokenizer", model(tokenizer="qwen2.5-patched"), ALL, ALL),
    Case("model-version", model(version="rev-2"), ALL, ALL),
    Case("code-version", on_settings(code_version="digest-transform/2"), ALL, ALL),
    Case("temperature", generation(temperature=0.7), ALL, ALL),
    Case("max-new-tokens", generation(max_new_tokens=256), ALL, ALL),
    Case("seed", generation(seed=1), ALL, ALL),
    Case("map-prompt", on_settings(map_prompt="Summarize briefly."), LEAVES, ALL),
    Case("chunking", on_settings(chunking="pages"), LEAVES, ALL),
    Case("map-budget", budgets(map_input=1024), LEAVES, ALL),
    Case("reduce-prompt", on_settings(reduce_prompt="Merge briefly."), PARENTS, PARENTS),
    Case("reduce-budget", budgets(reduce_input=2048), PARENTS, PARENTS),
    Case("context", budgets(context=8192), ALL, ALL),
]


def test_public_surface_is_pinned() -> None:
    assert keys_module.__all__ == [
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


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_input_changes_exactly_the_keys_it_should(case: Case) -> None:
    snapshot, settings = case.change(SNAPSHOT, BASE)
    tree = build_tree(d.doc_id for d in snapshot)
    for digest_of, expected in (
        (same_output, case.with_cutoff),
        (output_follows_key, case.without_cutoff),
    ):
        before = cutoff_keys(TREE, SNAPSHOT, BASE, digest_of)
        after = cutoff_keys(tree, snapshot, settings, digest_of)
        assert changed(before, after) == expected, digest_of.__name__
    # The reference scheme (keys of keys) cannot cut off: it behaves as if outputs moved.
    reference = changed(
        reference_keys(TREE, SNAPSHOT, BASE), reference_keys(tree, snapshot, settings)
    )
    assert reference == case.without_cutoff
    assert changed(leaf_keys(TREE, SNAPSHOT, BASE), leaf_keys(tree, snapshot, settings)) == (
        case.without_cutoff & LEAVES
    )


@given(reduce_prompt=st.text(max_size=200), budget=st.integers(1, 100_000))
def test_reduce_settings_never_touch_a_leaf(reduce_prompt: str, budget: int) -> None:
    settings = replace(BASE, reduce_prompt=reduce_prompt, budgets=Budgets(reduce_input=budget))
    assert leaf_keys(TREE, SNAPSHOT, settings) == leaf_keys(TREE, SNAPSHOT, BASE)


def test_reduce_key_reads_children_in_order_reference_key_sorts_them() -> None:
    access = "fingerprint"
    assert reduce_key(["a", "b"], access, BASE) != reduce_key(["b", "a"], access, BASE)
    assert reference_reduce_key(["a", "b"], access, BASE) == reference_reduce_key(
        ["b", "a"], access, BASE
    )
    assert reduce_key(["a", "b"], access, BASE) != reference_reduce_key(["a", "b"], access, BASE)
    assert reduce_key(["a"], access, BASE) != reduce_key(["a"], "other", BASE)


def test_keys_are_sha256_hex_and_stable() -> None:
    key = leaf_key(SNAPSHOT.documents["doc-00"], BASE)
    assert len(key) == 64 and int(key, 16) >= 0
    assert leaf_key(doc(0), replace(BASE)) == key
    assert leaf_key(doc(0), replace(BASE, generation=GenerationParams())) == key


def test_result_digest_covers_status_claims_order_and_evidence() -> None:
    claim = {"subject": "P-00-01", "field": "site", "value": "Kesby depot", "evidence": ["d@1:0:5"]}
    other = {**claim, "field": "status", "value": "packed"}
    base = result_digest("VALID", [claim, other])
    assert result_digest("VALID", [dict(claim), dict(other)]) == base
    variants = [
        result_digest("PARTIAL", [claim, other]),
        result_digest("VALID", [other, claim]),
        result_digest("VALID", [claim]),
        result_digest("VALID", [{**claim, "value": "Kesby dock"}, other]),
        result_digest("VALID", [{**claim, "evidence": ["d@1:0:6"]}, other]),
        result_digest("VALID", []),
        result_digest("INVALID", []),
    ]
    assert len({base, *variants}) == len(variants) + 1


@dataclass(frozen=True)
class SpanClaim:
    subject: str
    field: str
    value: str
    evidence: tuple[object, ...]


def test_result_digest_accepts_dataclass_claims_with_spans() -> None:
    span = make_span(doc(1), 0, 8)
    moved = make_span(doc(1), 0, 9)
    first = result_digest("VALID", [SpanClaim("P-00-01", "site", "Kesby depot", (span,))])
    again = result_digest("VALID", [SpanClaim("P-00-01", "site", "Kesby depot", (span,))])
    other = result_digest("VALID", [SpanClaim("P-00-01", "site", "Kesby depot", (moved,))])
    assert first == again != other


@pytest.mark.parametrize(
    ("status", "claims", "error"),
    [
        ("VALID", [{"value": float("nan")}], ValueError),
        ("VALID", ["not a claim"], TypeError),
        (1, [], TypeError),
    ],
    ids=["nan", "string-claim", "status-not-string"],
)
def test_result_digest_refuses_what_has_no_canonical_form(
    status: object, claims: list[object], error: type[Exception]
) -> None:
    with pytest.raises(error):
        result_digest(status, claims)  # type: ignore[arg-type]


def test_canonical_json_is_one_text_per_value() -> None:
    assert canonical_json({"b": 1, "a": "é"}) == '{"a":"é","b":1}'
    with pytest.raises(ValueError):
        canonical_json(float("inf"))


def fake_summarizer(
    snapshot: Snapshot, results: dict[str, list[dict[str, object]]]
) -> Callable[[TreeNode, str], str]:
    """Leaves keep their fact lines; a reduce keeps the first claim of each child."""

    def digest_of(node: TreeNode, key: str) -> str:
        if node.kind is NodeKind.LEAF:
            document = snapshot.documents[node.doc_id or ""]
            status = "VALID" if document.access.usable else "INELIGIBLE"
            facts = extract_document_facts(document) if document.access.usable else ()
            claims: list[dict[str, object]] = [
                {**dump_record(f.fact), "evidence": [f.span.id]} for f in facts
            ]
        else:
            status = "VALID"
            claims = [results[c][0] for c in node.children if results[c]][:4]
        results[node.node_id] = claims
        return result_digest(status, claims)

    return digest_of


def keys_for(snapshot: Snapshot, settings: KeySettings, tree: Tree) -> dict[str, str]:
    return cutoff_keys(tree, snapshot, settings, fake_summarizer(snapshot, {}))


def test_exercise_scenario_at_the_key_level(tmp_path: Path) -> None:
    folder = generate_digest_corpus(tmp_path).dossier_dir("test-00")
    initial = load_versions(folder)
    tree = build_tree(d.doc_id for d in initial)
    before = keys_for(initial, BASE, tree)
    # Re-ingesting the identical text changes nothing.
    assert keys_for(load_versions(folder), BASE, tree) == before
    # Document 11 gets its version 2 (a new delivery date): one leaf and two ancestors.
    moved = initial.with_document(load_versions(folder, {"doc-11": 2}).documents["doc-11"])
    after = keys_for(moved, BASE, tree)
    # Evidence ids rest on content, so the fake reduce (each child's first claim) gives
    # the same output when that claim is not the moved date: the root is cut off. The
    # rules engine's reduce reads the date, so there the root is recomputed
    # (tests/eval: {"map": 1, "reduce": 2}).
    assert changed(before, after) == {"leaf:doc-11", "reduce:2"}
    # Then only the reduce prompt changes: the three reduces and the root, no leaf.
    prompt = keys_for(moved, replace(BASE, reduce_prompt="Merge, keep field diversity."), tree)
    assert changed(after, prompt) == PARENTS
