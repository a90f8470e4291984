"""Ray and PostgreSQL together: the same dossier built locally on SQLite and on Ray workers
writing to a real PostgreSQL server gives the same nodes, serves the same, and survives a
killed worker."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from preuve.cluster.executor import LocalExecutor
from preuve.cluster.ray_executor import RayExecutor
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.build import BuildReport, Outcome
from preuve.digest.mutations import compare_builds, stored_nodes
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.serve import serve_digest
from preuve.io import open_store
from preuve.io.documents import load_versions
from tests.cluster.builds import SETTINGS, build, run_integrity
from tests.cluster.faults import StallOnce, wait_for_pid

TREE_NODES = 16
WHOLE = {"recorded": TREE_NODES, "rows": TREE_NODES, "referenced": TREE_NODES}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("ray-postgres"))


def _served(spec: Path | str, folder: Path) -> list[tuple[str, str, tuple[object, ...]]]:
    identity = rules_summarizer().identity
    out: list[tuple[str, str, tuple[object, ...]]] = []
    with open_store(spec, read_only=True) as store:
        for snapshot in (load_versions(folder), load_versions(folder, {"doc-00": 2})):
            result = serve_digest(snapshot, store, SETTINGS, identity=identity, dossier=folder.name)
            out.append(
                (
                    result.status.value,
                    result.reason.replace(result.run_id, "RUN"),
                    tuple(result.claims),
                )
            )
    return out


def test_ray_on_postgresql_equals_local_on_sqlite(
    ray_cluster: Any, pg_url: str, corpus: CorpusInfo, tmp_path: Path
) -> None:
    folder = corpus.dossier_dir("test-05")
    local = build(folder, tmp_path / "local.sqlite", LocalExecutor(4))
    remote = build(folder, pg_url, RayExecutor(threads=2))
    assert compare_builds(local, remote).identical
    with (
        open_store(tmp_path / "local.sqlite", read_only=True) as a,
        open_store(pg_url, read_only=True) as b,
    ):
        stored = compare_builds(
            stored_nodes(a, local.run.run_id), stored_nodes(b, remote.run.run_id)
        )
    assert stored.identical and stored.nodes == TREE_NODES
    counts = run_integrity(pg_url, [remote.run.run_id])
    assert {k: counts[k] for k in WHOLE} == WHOLE
    served = _served(pg_url, folder)
    assert [status for status, _, _ in served] == ["SERVED", "STALE"]
    assert served == _served(tmp_path / "local.sqlite", folder)


def test_a_killed_worker_writing_to_postgresql_loses_nothing(
    ray_cluster: Any, pg_url: str, corpus: CorpusInfo, tmp_path: Path
) -> None:
    folder = corpus.dossier_dir("test-06")
    reference = build(folder, tmp_path / "local.sqlite", LocalExecutor(4))
    model = StallOnce(rules_summarizer(), tmp_path / "stalled.pid")
    built: list[BuildReport] = []
    runner = threading.Thread(
        target=lambda: built.append(build(folder, pg_url, RayExecutor(threads=2), model=model))
    )
    runner.start()
    pid = wait_for_pid(tmp_path / "stalled.pid")
    assert pid != os.getpid()
    os.kill(pid, signal.SIGKILL)
    runner.join(timeout=120)
    assert built, "the build did not finish after its worker was killed"
    assert compare_builds(reference, built[0]).identical
    counts = run_integrity(pg_url, [built[0].run.run_id])
    assert {k: counts[k] for k in WHOLE} == WHOLE
    rerun = build(folder, pg_url, RayExecutor(threads=2))
    assert compare_builds(reference, rerun).identical
    assert {n.outcome for n in rerun.nodes} == {Outcome.HIT}
    assert run_integrity(pg_url, [built[0].run.run_id, rerun.run.run_id])["rows"] == TREE_NODES
