"""A build's store as a remote task reaches it: opened for the task, closed after it, never
kept by the process. Two builds in one process (here a pickling executor standing for a Ray
worker) with different stores, or the same store file made anew, share no connection."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pytest

from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.build import build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import load_versions
from preuve.io.stores import open_store
from preuve.models.pool import EndpointLimits, EndpointSlots

# Ray's own pickler (the executor's): what survives it survives the trip to a worker.
cloudpickle = pytest.importorskip("ray.cloudpickle")
T = TypeVar("T")
R = TypeVar("R")


def ship(value: T) -> T:
    shipped: T = cloudpickle.loads(cloudpickle.dumps(value))
    return shipped


class PicklingExecutor:
    """A remote executor in this process: every task and item goes through Ray's pickler,
    as it does to a Ray worker, and runs in this thread."""

    name = "pickling"
    remote = True

    def map(self, function: Callable[[T], R], items: Sequence[T]) -> list[R]:
        return [ship(function)(ship(item)) for item in items]

    def endpoint_slots(self, per_endpoint: int) -> EndpointSlots:
        return EndpointLimits(per_endpoint)

    def close(self) -> None:
        return None


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("store-ref"))


def _nodes_recorded(path: Path) -> int:
    with open_store(f"sqlite:{path}") as store:
        (run,) = store.runs()
        return len(store.run_nodes(run.run_id))


def test_two_builds_in_one_process_reach_their_own_stores(
    corpus: CorpusInfo, tmp_path: Path
) -> None:
    snapshot = load_versions(corpus.dossier_dir("test-00"), default="first")
    executor = PicklingExecutor()
    paths = [tmp_path / "a.sqlite", tmp_path / "b.sqlite"]
    reports = []
    for path, settings in zip(paths, [DigestSettings(), DigestSettings(fan_in=3)], strict=True):
        with open_store(f"sqlite:{path}") as store:
            reports.append(
                build_digest(snapshot, rules_summarizer(), store, settings, executor=executor)
            )
    nodes = [len(report.nodes) for report in reports]
    assert nodes[0] > 1 and nodes[1] > nodes[0]  # a smaller fan-in, more reduce nodes
    # each store holds its own run and every node of it, none of the other's
    assert [_nodes_recorded(path) for path in paths] == nodes
    # the first store's file made anew: a build reaches the new file, not a kept connection
    paths[0].unlink()
    with open_store(f"sqlite:{paths[0]}") as store:
        again = build_digest(
            snapshot, rules_summarizer(), store, DigestSettings(), executor=executor
        )
    assert again.counters.recomputed == nodes[0]  # nothing reused from the deleted file
    assert _nodes_recorded(paths[0]) == nodes[0]
