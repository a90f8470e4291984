"""Several endpoints, load-balanced, within a per-endpoint limit: threads, then Ray tasks.

Real HTTP servers on 127.0.0.1 answer as the rules engine would (rehearsed answers), so
the builds through them verify, and each server reports the most calls it had at once.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from benchmarks.rules_endpoints import rehearse, running_servers

from preuve.cluster.executor import LocalExecutor, make_executor
from preuve.core.errors import ConfigError
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.build import BuildReport
from preuve.io.documents import load_versions
from preuve.io.stores import SqliteStore
from preuve.models.pool import BalancedModel, EndpointLimits
from preuve.models.spec import load_model, parse_spec
from tests.cluster.builds import SETTINGS, build

DELAY = 0.05


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("endpoints"))


@pytest.fixture(scope="module")
def answers(corpus: CorpusInfo, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    snapshot = load_versions(corpus.dossier_dir("test-03"))
    with SqliteStore(tmp_path_factory.mktemp("rehearsal") / "r.sqlite") as store:
        return rehearse([snapshot], SETTINGS, store)


def _verdicts(report: BuildReport) -> list[tuple[str, str, object]]:
    return [(n.node_id, n.status.value, n.claims) for n in report.nodes]


def test_replicas_parse_and_a_bad_one_is_refused() -> None:
    spec = parse_spec("openai:qwen@http://a:1/v1,http://b:2/v1")
    assert (spec.base_url, spec.replicas) == ("http://a:1/v1", ("http://b:2/v1",))
    with pytest.raises(ConfigError, match="is not http"):
        parse_spec("openai:qwen@http://a:1/v1,ftp://b/v1")


def test_threads_spread_calls_over_endpoints_within_their_limit(
    corpus: CorpusInfo, answers: dict[str, str], tmp_path: Path
) -> None:
    folder = corpus.dossier_dir("test-03")
    reference = build(folder, tmp_path / "rules.sqlite", LocalExecutor(1))
    with running_servers(2, answers, DELAY) as servers:
        spec = "openai:rules@" + ",".join(s.url for s in servers)
        model = load_model(
            spec, rules=None, env=dict(os.environ), allow_network=True, slots=EndpointLimits(2)
        )
        report = build(folder, tmp_path / "http.sqlite", LocalExecutor(8), model=model)
    assert _verdicts(report) == _verdicts(reference)
    assert [s.calls for s in servers] != [16, 0] and sum(s.calls for s in servers) == 16
    assert max(s.peak for s in servers) == 2  # 8 threads, bound by 2 per endpoint
    inner = getattr(model, "inner", None)
    assert isinstance(inner, BalancedModel) and sum(inner.calls) == 16


def test_ray_tasks_share_one_limit_per_endpoint_cluster_wide(
    ray_cluster: Any, corpus: CorpusInfo, answers: dict[str, str], tmp_path: Path
) -> None:
    folder = corpus.dossier_dir("test-03")
    reference = build(folder, tmp_path / "rules.sqlite", LocalExecutor(1))
    executor = make_executor("ray", concurrency=4)  # 2 workers x 4 threads want 8 calls
    with running_servers(2, answers, DELAY) as servers:
        spec = "openai:rules@" + ",".join(s.url for s in servers)
        slots = executor.endpoint_slots(1)
        model = load_model(spec, rules=None, env=dict(os.environ), allow_network=True, slots=slots)
        report = build(folder, tmp_path / "ray.sqlite", executor, model=model)
    assert _verdicts(report) == _verdicts(reference)
    assert all(s.calls > 0 for s in servers) and sum(s.calls for s in servers) == 16
    assert [s.peak for s in servers] == [1, 1]
