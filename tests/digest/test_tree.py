"""Shape of the summary tree (preuve.digest.tree)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.errors import ConfigError, InputError
from preuve.digest import tree as tree_module
from preuve.digest.tree import NodeKind, Tree, build_tree, leaf_id

DOCS = [f"doc-{i:02d}" for i in range(12)]


def test_public_surface_is_pinned() -> None:
    assert tree_module.__all__ == [
        "DEFAULT_FAN_IN",
        "ROOT_ID",
        "NodeKind",
        "Tree",
        "TreeNode",
        "build_tree",
        "leaf_id",
    ]


def test_default_tree_is_12_leaves_3_reduces_of_4_and_a_root() -> None:
    tree = build_tree(reversed(DOCS))  # input order does not matter
    assert len(tree) == 16
    assert [n.node_id for n in tree] == [
        *(f"leaf:doc-{i:02d}" for i in range(12)),
        "reduce:0",
        "reduce:1",
        "reduce:2",
        "root",
    ]
    assert tree.node("reduce:2").children == tuple(f"leaf:doc-{i:02d}" for i in range(8, 12))
    assert tree.root.children == ("reduce:0", "reduce:1", "reduce:2")
    assert tree.root.kind is NodeKind.ROOT and tree.root.level == 2 == tree.depth
    assert tree.root.sources == tuple(DOCS)
    assert tree.node("reduce:1").sources == tuple(DOCS[4:8])
    assert tree.ancestors(leaf_id("doc-11")) == ("reduce:2", "root")
    assert tree.parent("root") is None
    assert tree.node("leaf:doc-03").doc_id == "doc-03"
    assert tree.node("reduce:0").doc_id is None
    assert [len(level) for level in tree.levels()] == [12, 3, 1]


SHAPES = [
    # (documents, fan-in, nodes, levels above leaves, nodes per level)
    (1, 3, 2, 1, [1, 1]),
    (3, 3, 4, 1, [3, 1]),
    (5, 3, 8, 2, [5, 2, 1]),
    (13, 3, 21, 3, [13, 5, 2, 1]),
    (100, 3, 153, 5, [100, 34, 12, 4, 2, 1]),
    (12, 4, 16, 2, [12, 3, 1]),
    (16, 4, 21, 2, [16, 4, 1]),
    (17, 4, 25, 3, [17, 5, 2, 1]),
    (10, 2, 21, 4, [10, 5, 3, 2, 1]),
]


@pytest.mark.parametrize(
    ("count", "fan_in", "nodes", "depth", "per_level"),
    SHAPES,
    ids=[f"{c}-docs-fan-in-{f}" for c, f, *_ in SHAPES],
)
def test_tree_shapes(count: int, fan_in: int, nodes: int, depth: int, per_level: list[int]) -> None:
    tree = build_tree([f"d{i:03d}" for i in range(count)], fan_in)
    assert len(tree) == nodes
    assert tree.depth == depth
    assert [len(level) for level in tree.levels()] == per_level
    assert tree.root.node_id == "root"


def check_invariants(tree: Tree, doc_ids: list[str]) -> None:
    seen: set[str] = set()
    for node in tree:
        # Children come before their parent, and each node has at most fan_in children.
        assert all(child in seen for child in node.children)
        assert len(node.children) <= tree.fan_in
        seen.add(node.node_id)
        if node.kind is NodeKind.LEAF:
            assert node.children == () and node.level == 0
        else:
            assert node.children
            child_sources = [s for c in node.children for s in tree.node(c).sources]
            assert node.sources == tuple(child_sources)  # children read in stable order
            assert all(tree.node(c).level == node.level - 1 for c in node.children)
    parents = [tree.parent(n.node_id) for n in tree]
    assert parents.count(None) == 1
    assert tree.root.sources == tuple(sorted(doc_ids))
    assert [n.doc_id for n in tree.leaves] == sorted(doc_ids)


@given(
    doc_ids=st.sets(st.from_regex(r"[a-z0-9-]{1,8}", fullmatch=True), min_size=1, max_size=200),
    fan_in=st.integers(2, 9),
)
def test_any_count_and_fan_in_gives_one_rooted_tree(doc_ids: set[str], fan_in: int) -> None:
    ids = list(doc_ids)
    check_invariants(build_tree(ids, fan_in), ids)


def test_reduce_ids_stay_ordered_past_ten() -> None:
    tree = build_tree([f"d{i:03d}" for i in range(100)], 3)
    reduces = [n.node_id for n in tree if n.kind is NodeKind.REDUCE]
    assert reduces == [f"reduce:{i}" for i in range(len(reduces))]
    assert tree.root.children == ("reduce:50", "reduce:51")


@pytest.mark.parametrize(
    ("doc_ids", "fan_in", "error", "message"),
    [
        ([], 4, InputError, "at least one document"),
        (["a", "b", "a"], 4, InputError, "a appears twice"),
        (["a"], 1, ConfigError, "fan-in"),
        (["a"], 0, ConfigError, "fan-in"),
        (["a"], True, ConfigError, "fan-in"),
    ],
    ids=["no-documents", "duplicate-id", "fan-in-1", "fan-in-0", "fan-in-bool"],
)
def test_bad_inputs_are_refused(
    doc_ids: list[str], fan_in: int, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        build_tree(doc_ids, fan_in)


def test_unknown_node_is_a_key_error() -> None:
    tree = build_tree(DOCS)
    with pytest.raises(KeyError):
        tree.parent("leaf:doc-99")
    with pytest.raises(KeyError):
        tree.node("reduce:3")
