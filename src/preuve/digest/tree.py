"""The summary tree of a dossier: leaves (one per document), reduces, one root.

The shape depends only on the sorted document ids and the fan-in, never on content, so a
change to one document touches one leaf and its ancestors. Leaves are grouped in document
order, ``fan_in`` per parent, level after level, until one node is left: the root. With
the default fan-in of 4, 12 documents give 12 leaves → 3 reduces → root (16 nodes), and
document 11 sits under the third reduce.

Node ids: ``leaf:<doc_id>``, ``reduce:<n>`` (numbered level by level from the leaves up,
left to right) and ``root``. A parent takes its children in this stable order, which is
what its prompt lists them in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import pairwise
from types import MappingProxyType

from preuve.core.errors import ConfigError, InputError

__all__ = [
    "DEFAULT_FAN_IN",
    "ROOT_ID",
    "NodeKind",
    "Tree",
    "TreeNode",
    "build_tree",
    "leaf_id",
]

DEFAULT_FAN_IN = 4
ROOT_ID = "root"


class NodeKind(StrEnum):
    LEAF = "leaf"
    REDUCE = "reduce"
    ROOT = "root"


def leaf_id(doc_id: str) -> str:
    """The node id of the leaf that summarizes ``doc_id``."""
    return f"leaf:{doc_id}"


@dataclass(frozen=True, slots=True)
class TreeNode:
    """One node: its id, kind, level (0 for leaves), children and descendant sources.

    ``sources`` are the document ids under the node, sorted; a leaf has its own only.
    """

    node_id: str
    kind: NodeKind
    level: int
    children: tuple[str, ...]
    sources: tuple[str, ...]

    @property
    def doc_id(self) -> str | None:
        """The document a leaf summarizes; ``None`` for a reduce or the root."""
        return self.sources[0] if self.kind is NodeKind.LEAF else None


@dataclass(frozen=True, slots=True)
class Tree:
    """All nodes, children before parents (leaves first, root last)."""

    nodes: tuple[TreeNode, ...]
    fan_in: int
    _by_id: Mapping[str, TreeNode] = field(init=False, repr=False, compare=False)
    _parent: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id = {node.node_id: node for node in self.nodes}
        if len(by_id) != len(self.nodes):
            raise ValueError("tree: two nodes share one id")
        parent = {child: node.node_id for node in self.nodes for child in node.children}
        object.__setattr__(self, "_by_id", MappingProxyType(by_id))
        object.__setattr__(self, "_parent", MappingProxyType(parent))

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[TreeNode]:
        return iter(self.nodes)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._by_id

    def node(self, node_id: str) -> TreeNode:
        """The node ``node_id`` (``KeyError`` if the tree has none)."""
        return self._by_id[node_id]

    @property
    def root(self) -> TreeNode:
        return self.nodes[-1]

    @property
    def leaves(self) -> tuple[TreeNode, ...]:
        return tuple(node for node in self.nodes if node.kind is NodeKind.LEAF)

    @property
    def depth(self) -> int:
        """Number of levels above the leaves (1 when the root sits on the leaves)."""
        return self.root.level

    def parent(self, node_id: str) -> str | None:
        """The parent of ``node_id``; ``None`` for the root."""
        if node_id not in self._by_id:
            raise KeyError(node_id)
        return self._parent.get(node_id)

    def ancestors(self, node_id: str) -> tuple[str, ...]:
        """Parent, grandparent, ... up to the root (empty for the root)."""
        chain: list[str] = []
        current = self.parent(node_id)
        while current is not None:
            chain.append(current)
            current = self._parent.get(current)
        return tuple(chain)

    def levels(self) -> tuple[tuple[TreeNode, ...], ...]:
        """Nodes grouped by level, leaves first; nodes of one level are independent."""
        grouped: dict[int, list[TreeNode]] = {}
        for node in self.nodes:
            grouped.setdefault(node.level, []).append(node)
        return tuple(tuple(grouped[level]) for level in sorted(grouped))


def build_tree(doc_ids: Iterable[str], fan_in: int = DEFAULT_FAN_IN) -> Tree:
    """The tree over ``doc_ids`` (sorted; duplicates are an error) with ``fan_in``.

    A single document still gets a root above its leaf, so every tree is served the same
    way. ``fan_in`` must be at least 2, or the levels would never meet in one root.
    """
    if isinstance(fan_in, bool) or not isinstance(fan_in, int) or fan_in < 2:
        raise ConfigError(f"fan-in must be an integer >= 2, not {fan_in!r}")
    ids = sorted(doc_ids)
    if not ids:
        raise InputError("a dossier needs at least one document to build a summary tree")
    if len(set(ids)) != len(ids):
        duplicate = next(doc for doc, nxt in pairwise(ids) if doc == nxt)
        raise InputError(f"document id {duplicate} appears twice in the dossier")
    nodes = [TreeNode(leaf_id(doc), NodeKind.LEAF, 0, (), (doc,)) for doc in ids]
    level_nodes = list(nodes)
    level = 0
    next_reduce = 0
    while True:
        level += 1
        groups = [level_nodes[i : i + fan_in] for i in range(0, len(level_nodes), fan_in)]
        is_root = len(groups) == 1
        parents: list[TreeNode] = []
        for group in groups:
            if is_root:
                node_id, kind = ROOT_ID, NodeKind.ROOT
            else:
                node_id, kind = f"reduce:{next_reduce}", NodeKind.REDUCE
                next_reduce += 1
            sources = tuple(sorted(doc for child in group for doc in child.sources))
            parents.append(TreeNode(node_id, kind, level, tuple(c.node_id for c in group), sources))
        nodes.extend(parents)
        if is_root:
            return Tree(tuple(nodes), fan_in)
        level_nodes = parents
