"""A whole store checked against its own records, and a dump checked as it is imported.

:func:`check_store` re-verifies every result row against the digest recorded when it was
written and every run's record against the row it points at (key, status, digest), with
:func:`~preuve.digest.integrity.verified_row`; every edge and model call must point at a
stored result. :func:`checked_rows` does the same to the rows of a dump as they stream
into ``Store.load_rows``: a row that fails raises inside the import's one transaction,
so a tampered or damaged dump leaves the target store as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from preuve.core.errors import CorruptStoreError
from preuve.digest.integrity import verified_row
from preuve.io.store_rows import CorruptRowError, node_from_row
from preuve.io.stores import Store

__all__ = ["StoreCheck", "check_store", "checked_rows"]


@dataclass(frozen=True, slots=True)
class StoreCheck:
    """What was verified: result rows (digests), run records, edges, model calls."""

    nodes: int
    run_nodes: int
    edges: int
    generations: int


class _Checker:
    def __init__(self, where: str) -> None:
        self.where = where
        self.rows: dict[int, tuple[str, str, str]] = {}  # row id -> key, status, digest
        self.counts = {"nodes": 0, "run_nodes": 0, "edges": 0, "generations": 0}

    def _corrupt(self, what: str) -> CorruptStoreError:
        return CorruptStoreError(
            f"{self.where}: {what}",
            fix="the store was altered after it was written; export it again from its source",
        )

    def _known(self, row_id: object, what: str) -> tuple[str, str, str]:
        found = self.rows.get(row_id) if isinstance(row_id, int) else None
        if found is None:
            raise self._corrupt(f"{what} points at result row {row_id!r}, which is not stored")
        return found

    def check(self, table: str, raw: dict[str, Any]) -> None:
        if table == "nodes":
            try:
                row = node_from_row(raw)
            except (CorruptRowError, TypeError) as err:
                raise self._corrupt(f"result row {raw.get('row_id')!r}: {err}") from None
            verified_row(row, self.where)
            self.rows[row.row_id] = (row.key, row.status, row.digest)
        elif table == "run_nodes":
            key, status, digest = self._known(raw["node_row"], f"run {raw['run_id']}")
            if (key, status, digest) != (raw["key"], raw["status"], raw["digest"]):
                raise self._corrupt(
                    f"run {raw['run_id']}, node {raw['node_id']}: the record differs from"
                    f" result row {raw['node_row']} (key, status or digest)"
                )
        elif table == "edges":
            self._known(raw["parent_row"], "an edge")
            self._known(raw["child_row"], "an edge")
        elif table == "generations":
            self._known(raw["node_row"], "a model call")
        else:
            return
        self.counts[table] += 1

    def result(self) -> StoreCheck:
        return StoreCheck(**self.counts)


def checked_rows(
    rows: Iterable[tuple[str, dict[str, Any]]], where: str
) -> Iterator[tuple[str, dict[str, Any]]]:
    """``rows`` (in dump order) passed through, each checked before it is yielded."""
    checker = _Checker(where)
    for table, raw in rows:
        checker.check(table, raw)
        yield table, raw


def check_store(store: Store) -> StoreCheck:
    """Verify every stored result, run record, edge and model call of ``store``."""
    checker = _Checker(f"digest store {store.path}")
    for table in ("nodes", "run_nodes", "edges", "generations"):
        for raw in store.dump_rows(table):
            checker.check(table, raw)
    return checker.result()
