"""Real SmolLM2 answers for workflow 3, recorded once (``python -m tests.cassettes.record
digest``), replayed through every check: deterministic, and real failure modes.

What is asserted holds whatever the model wrote: every node's evidence resolves to the
current line it names, exactly; an INVALID node has a diagnostic and no claims; an
incremental build after the event equals an independent full build node by node. A request
the cassette does not hold (a prompt changed since the recording) fails with the command
that re-records it, never passes as a refusal.
"""

from __future__ import annotations

import pytest

from preuve.core.documents import Snapshot
from preuve.digest.build import BuildReport
from preuve.digest.lines import LineResolver
from preuve.digest.mutations import compare_builds
from preuve.digest.schema import NodeStatus
from preuve.models.replay import ReplayModel
from tests.cassettes.record import DIGEST_CASSETTE, DigestRun, rerecord_hint, run_digest


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> DigestRun:
    if not DIGEST_CASSETTE.is_file():
        pytest.fail(f"{DIGEST_CASSETTE.name} is missing: run `{rerecord_hint('digest')}`")
    return run_digest(ReplayModel(DIGEST_CASSETTE), tmp_path_factory.mktemp("digest-cassette"))


def _builds(run: DigestRun) -> list[tuple[str, BuildReport, Snapshot]]:
    return [
        ("initial", run.initial, run.before),
        ("incremental", run.incremental, run.after),
        ("full", run.full, run.after),
    ]


def test_every_request_was_recorded(recorded: DigestRun) -> None:
    for name, build, _ in _builds(recorded):
        missed = [n.node_id for n in build.nodes if any("model_error" in d for d in n.diagnostic)]
        assert not missed, (
            f"{name} build: {missed} not in the cassette (a prompt changed?): "
            f"run `{rerecord_hint('digest')}`"
        )


def test_recorded_smollm2_digest_replays_through_every_check(recorded: DigestRun) -> None:
    for _, build, snapshot in _builds(recorded):
        resolver = LineResolver(snapshot)
        for node in build.nodes:
            assert node.status is not NodeStatus.INELIGIBLE  # no event here withdraws
            if node.status is NodeStatus.INVALID:
                assert node.claims == () and node.spans == () and node.diagnostic
                continue
            cited = {e for claim in node.claims for e in claim.evidence}
            assert cited == {span.id for span in node.spans}
            for span in node.spans:
                current = resolver.resolve(span.id)
                assert current.ok and current.line is not None
                doc = snapshot.get(span.doc_id)
                assert doc is not None
                assert doc.text[span.start : span.end] == span.quote == current.line.quote
    comparison = compare_builds(recorded.incremental, recorded.full)
    assert comparison.identical, comparison.differences
    assert recorded.incremental.counters.model_calls < recorded.full.counters.model_calls


def test_what_smollm2_did_here(recorded: DigestRun) -> None:
    # Pinned as recorded (constrained by the evidence-id enum through llama.cpp): every id
    # it cited was a listed one; doc-00's first answer ran out of tokens; it filled fields
    # with values the cited lines do not state ("2,345.67" as a delivery, "2,100 units" as
    # one): refused by the value check, so no leaf is usable and no root is asked for
    # (until that check, both were VALID and the root merged them).
    statuses = [[n.status.value for n in b.nodes] for _, b, _ in _builds(recorded)]
    assert statuses == [["INVALID", "INVALID", "INVALID"]] * 3
    [doc_00] = [n for n in recorded.initial.nodes if n.node_id == "leaf:doc-00"]
    assert doc_00.diagnostic[0].startswith("[truncated]")
    unstated = [
        n.diagnostic[0] for _, b, _ in _builds(recorded) for n in b.nodes if n.kind == "leaf"
    ]
    assert sum("[value_not_stated]" in d for d in unstated) == 5
    roots = [n for _, b, _ in _builds(recorded) for n in b.nodes if n.node_id == "root"]
    assert {n.diagnostic for n in roots} == {("no child summary is usable",)}
    assert [b.counters.model_calls for _, b, _ in _builds(recorded)] == [2, 1, 2]
