"""A Ray worker killed mid-call: Ray retries its task, and the build is the same."""

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
from preuve.digest.mutations import compare_builds
from preuve.digest.rules_summarizer import rules_summarizer
from tests.cluster.builds import build, run_integrity
from tests.cluster.faults import StallOnce, wait_for_pid

TREE_NODES = 16


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("ray-faults"))


def test_a_killed_worker_is_retried_and_the_build_is_identical(
    ray_cluster: Any, corpus: CorpusInfo, tmp_path: Path
) -> None:
    folder = corpus.dossier_dir("test-02")
    reference = build(folder, tmp_path / "local.sqlite", LocalExecutor(4))
    store = tmp_path / "ray.sqlite"
    model = StallOnce(rules_summarizer(), tmp_path / "stalled.pid")
    built: list[BuildReport] = []
    # Two items per task: the killed task's other node may be recorded before the kill,
    # and its retry must read it back rather than write it twice.
    runner = threading.Thread(
        target=lambda: built.append(build(folder, store, RayExecutor(threads=2), model=model))
    )
    runner.start()
    pid = wait_for_pid(tmp_path / "stalled.pid")
    assert pid != os.getpid()  # a Ray worker, not this test process
    os.kill(pid, signal.SIGKILL)
    runner.join(timeout=120)
    assert built, "the build did not finish after its worker was killed"
    interrupted = built[0]
    assert compare_builds(reference, interrupted).identical
    assert interrupted.counters.recomputed == TREE_NODES
    assert run_integrity(store, [interrupted.run.run_id]) == {
        "recorded": TREE_NODES,
        "rows": TREE_NODES,
        "referenced": TREE_NODES,
        "generations": TREE_NODES,
    }
    # A rerun reuses every node: nothing was lost, nothing is computed again.
    rerun = build(folder, store, RayExecutor(threads=2))
    assert compare_builds(reference, rerun).identical
    assert {n.outcome for n in rerun.nodes} == {Outcome.HIT}
    assert run_integrity(store, [interrupted.run.run_id, rerun.run.run_id])["rows"] == TREE_NODES
