"""Workflow 3 on a real local Ray cluster: the same nodes as the local executor, node by node."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from preuve.cluster.executor import LocalExecutor, make_executor
from preuve.core.errors import ConfigError
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.fleet import DossierJob, build_dossiers
from preuve.digest.mutations import compare_builds, stored_nodes
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.serve import serve_digest
from preuve.io.documents import load_versions
from preuve.io.stores import SqliteStore
from preuve.models.base import Completion, ModelIdentity, Request
from tests.cluster.builds import SETTINGS, build, run_integrity

TREE_NODES = 16  # 12 leaves, 3 reduces, the root


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("ray-corpus"))


def test_a_dossier_built_on_ray_equals_the_local_build(
    ray_cluster: Any, corpus: CorpusInfo, tmp_path: Path
) -> None:
    folder = corpus.dossier_dir("test-00")
    local = build(folder, tmp_path / "local.sqlite", LocalExecutor(4))
    remote = build(folder, tmp_path / "ray.sqlite", make_executor("ray", concurrency=2))
    assert compare_builds(local, remote).identical
    with (
        SqliteStore(tmp_path / "local.sqlite", read_only=True) as a,
        SqliteStore(tmp_path / "ray.sqlite", read_only=True) as b,
    ):
        left, right = stored_nodes(a, local.run.run_id), stored_nodes(b, remote.run.run_id)
        stored = compare_builds(left, right)
    assert stored.identical and stored.nodes == TREE_NODES
    assert run_integrity(tmp_path / "ray.sqlite", [remote.run.run_id]) == {
        "recorded": TREE_NODES,
        "rows": TREE_NODES,
        "referenced": TREE_NODES,
        "generations": TREE_NODES,
    }


def test_serve_refuses_stale_identically(
    ray_cluster: Any, corpus: CorpusInfo, tmp_path: Path
) -> None:
    folder = corpus.dossier_dir("test-01")
    build(folder, tmp_path / "local.sqlite", LocalExecutor(4))
    build(folder, tmp_path / "ray.sqlite", make_executor("ray", concurrency=2))
    newer = load_versions(folder, {"doc-00": 2})
    identity = rules_summarizer().identity
    served = []
    for name in ("local.sqlite", "ray.sqlite"):
        with SqliteStore(tmp_path / name, read_only=True) as store:
            for snapshot in (load_versions(folder), newer):
                result = serve_digest(
                    snapshot, store, SETTINGS, identity=identity, dossier=folder.name
                )
                # the same words, but for the run's own id
                reason = result.reason.replace(result.run_id, "RUN")
                served.append((result.status.value, reason, result.claims))
    local, remote = served[:2], served[2:]
    assert [status for status, _, _ in local] == ["SERVED", "STALE"]
    assert local[0][2] and remote == local


def test_many_dossiers_at_once_on_ray_equal_their_local_builds(
    ray_cluster: Any, corpus: CorpusInfo, tmp_path: Path
) -> None:
    jobs = [
        DossierJob(name, load_versions(corpus.dossier_dir(name)), SETTINGS)
        for name in corpus.dossiers[:4]
    ]
    reports = {}
    for name, executor in (("local", LocalExecutor(2)), ("ray", make_executor("ray"))):
        with SqliteStore(tmp_path / f"{name}.sqlite") as store:
            reports[name] = build_dossiers(jobs, rules_summarizer(), store, executor)
    assert [r.run.dossier for r in reports["ray"]] == [job.label for job in jobs]
    for local, remote in zip(reports["local"], reports["ray"], strict=True):
        assert compare_builds(local, remote).identical
    runs = [r.run.run_id for r in reports["ray"]]
    counts = run_integrity(tmp_path / "ray.sqlite", runs)
    assert counts["rows"] == counts["referenced"] == counts["generations"]


class _Unshippable:
    """A model holding a lock: it cannot be pickled to a worker."""

    def __init__(self) -> None:
        self.inner = rules_summarizer()
        self.lock = threading.Lock()

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        return self.inner.complete(request)


def test_a_model_that_cannot_be_shipped_is_one_config_error(
    ray_cluster: Any, corpus: CorpusInfo, tmp_path: Path
) -> None:
    folder = corpus.dossier_dir("test-07")
    with pytest.raises(ConfigError, match="cannot be shipped to Ray workers"):
        build(folder, tmp_path / "s.sqlite", make_executor("ray"), model=_Unshippable())
