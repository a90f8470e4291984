"""Serving refuses STALE before reading claims, refuses an INVALID root, keeps history."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from preuve.core.documents import Snapshot
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest import serve as serve_module
from preuve.digest.build import build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.schema import NodeStatus
from preuve.digest.serve import ServeStatus, serve_digest
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import load_versions
from preuve.io.store_rows import NodeRow
from preuve.io.stores import SqliteStore
from preuve.models.scripted import FunctionModel

SETTINGS = DigestSettings()
MODEL = rules_summarizer()


class SpyStore(SqliteStore):
    """Records every result row read (the claims live there)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.rows_read: list[int] = []

    def node(self, row_id: int) -> NodeRow:
        self.rows_read.append(row_id)
        return super().node(row_id)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest-serve"))


@pytest.fixture
def folder(corpus: CorpusInfo) -> Path:
    return corpus.dossier_dir("test-02")


def serve(
    snapshot: Snapshot, store: SqliteStore, settings: DigestSettings = SETTINGS, **options: Any
) -> serve_module.ServeResult:
    options.setdefault("dossier", "test-02")
    options.setdefault("identity", MODEL.identity)
    return serve_digest(snapshot, store, settings, **options)


def test_public_surface_is_pinned() -> None:
    assert serve_module.__all__ == ["ServeResult", "ServeStatus", "serve_digest"]


def test_a_current_build_is_served_with_its_claims(folder: Path, tmp_path: Path) -> None:
    store = SpyStore(tmp_path / "s.sqlite")
    snapshot = load_versions(folder)
    report = build_digest(snapshot, MODEL, store, SETTINGS, dossier="test-02")
    served = serve(snapshot, store)
    assert served.status is ServeStatus.SERVED and served.served
    assert served.claims == report.root.claims and served.run_id == report.run_id
    assert served.root_status is NodeStatus.VALID
    assert len(served.node_statuses) == 16
    assert [s.id for s in served.spans] == [e for c in served.claims for e in c.evidence]


Change = Callable[[Snapshot, Path], tuple[Snapshot, DigestSettings, str]]


def _moved(snapshot: Snapshot, folder: Path) -> tuple[Snapshot, DigestSettings, str]:
    doc = load_versions(folder, {"doc-11": 2}).documents["doc-11"]
    return snapshot.with_document(doc), SETTINGS, "default"


def _withdrawn(snapshot: Snapshot, folder: Path) -> tuple[Snapshot, DigestSettings, str]:
    doc = snapshot.documents["doc-04"]
    return snapshot.with_access("doc-04", doc.access.withdrawn()), SETTINGS, "default"


def _revoked(snapshot: Snapshot, folder: Path) -> tuple[Snapshot, DigestSettings, str]:
    doc = snapshot.documents["doc-08"]
    return snapshot.with_access("doc-08", doc.access.revoked()), SETTINGS, "default"


def _removed(snapshot: Snapshot, folder: Path) -> tuple[Snapshot, DigestSettings, str]:
    return snapshot.without("doc-07"), SETTINGS, "default"


def _reduce_prompt(snapshot: Snapshot, folder: Path) -> tuple[Snapshot, DigestSettings, str]:
    return snapshot, replace(SETTINGS, reduce_prompt="Merge."), "default"


def _map_prompt(snapshot: Snapshot, folder: Path) -> tuple[Snapshot, DigestSettings, str]:
    return snapshot, replace(SETTINGS, map_prompt="Summarize."), "default"


CHANGES: dict[str, Change] = {
    "new-version": _moved,
    "withdrawal": _withdrawn,
    "revocation": _revoked,
    "document-removed": _removed,
    "reduce-prompt": _reduce_prompt,
    "map-prompt": _map_prompt,
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_any_change_is_refused_as_stale_before_claims_are_read(
    folder: Path, tmp_path: Path, change: Change
) -> None:
    store = SpyStore(tmp_path / "s.sqlite")
    snapshot = load_versions(folder)
    build_digest(snapshot, MODEL, store, SETTINGS, dossier="test-02")
    after, settings, principal = change(snapshot, folder)
    store.rows_read.clear()
    refused = serve(after, store, settings, principal=principal)
    assert refused.status is ServeStatus.STALE and not refused.served
    assert refused.claims == () and store.rows_read == []
    # Rebuilt for that snapshot, it is served again; the old run stays as history.
    build_digest(after, MODEL, store, settings, principal=principal, dossier="test-02")
    assert serve(after, store, settings, principal=principal).served
    assert len(store.runs("test-02")) == 2


def test_another_principal_gets_nothing_built_for_someone_else(
    folder: Path, tmp_path: Path
) -> None:
    store = SqliteStore(tmp_path / "s.sqlite")
    snapshot = load_versions(folder)
    run = build_digest(snapshot, MODEL, store, SETTINGS, principal="alice", dossier="test-02")
    assert serve(snapshot, store, principal="bob").status is ServeStatus.MISSING
    named = serve(snapshot, store, principal="bob", run_id=run.run_id)
    assert named.status is ServeStatus.STALE and named.claims == ()


def test_an_old_run_named_explicitly_is_refused_as_stale(folder: Path, tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite")
    snapshot = load_versions(folder)
    old = build_digest(snapshot, MODEL, store, SETTINGS, dossier="test-02")
    after, _, _ = _moved(snapshot, folder)
    build_digest(after, MODEL, store, SETTINGS, dossier="test-02")
    assert serve(after, store).served
    assert serve(after, store, run_id=old.run_id).status is ServeStatus.STALE
    assert serve(snapshot, store, run_id=old.run_id).served  # still readable as history


def test_an_invalid_root_is_refused(folder: Path, tmp_path: Path) -> None:
    store = SpyStore(tmp_path / "s.sqlite")
    snapshot = load_versions(folder)
    broken = FunctionModel(lambda request: "not json", name="broken")
    report = build_digest(snapshot, broken, store, SETTINGS, dossier="test-02")
    assert report.root.status is NodeStatus.INVALID
    refused = serve(snapshot, store, identity=broken.identity)
    assert refused.status is ServeStatus.INVALID and refused.claims == ()
    assert refused.root_status is NodeStatus.INVALID
    assert store.rows_read == []


def test_nothing_built_is_missing(folder: Path, tmp_path: Path) -> None:
    result = serve(load_versions(folder), SqliteStore(tmp_path / "s.sqlite"))
    assert result.status is ServeStatus.MISSING and result.claims == ()
