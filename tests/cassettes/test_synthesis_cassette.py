"""Real SmolLM2 answers for workflow 2, recorded once (``python -m tests.cassettes.record
synthesis``), replayed through every check of the bundled dossier: deterministic, and real
failure modes.

Replayed twice: SmolLM2 for every role, and SmolLM2 for the sub-agents and the synthesizer
on the rules planner's plan (its own plan may be refused, which ends the run). What is
asserted holds whatever the model wrote: every call was replayed (a prompt changed
since the recording fails with the command that re-records the cassette), a refused call
names its defects, a statement cites only documents its sub-agent read, and a verified run
carries no defect. Skipped while the cassette is not recorded (the synthesis prompts were
being changed when the others were recorded).
"""

from __future__ import annotations

import pytest

from preuve.models.loop import LoopStatus
from preuve.models.replay import ReplayModel
from preuve.synthesis.pipeline import SynthesisRun
from preuve.synthesis.planner import PLANNER_TASK
from preuve.synthesis.subagent import SUBAGENT_TASK
from preuve.synthesis.synthesizer import SYNTHESIZER_TASK
from preuve.synthesis.types import FindingStatus
from tests.cassettes.record import SYNTHESIS_CASSETTE, rerecord_hint, run_synthesis


@pytest.fixture(scope="module", params=[False, True], ids=["llm-plan", "rules-plan"])
def recorded(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> SynthesisRun:
    if not SYNTHESIS_CASSETTE.is_file():
        pytest.skip(f"{SYNTHESIS_CASSETTE.name} not recorded: run `{rerecord_hint('synthesis')}`")
    model = ReplayModel(SYNTHESIS_CASSETTE)
    root = tmp_path_factory.mktemp("synthesis-cassette")
    return run_synthesis(model, root, rules_plan=bool(request.param))


def test_the_rules_plan_run_asks_every_role(tmp_path_factory: pytest.TempPathFactory) -> None:
    if not SYNTHESIS_CASSETTE.is_file():
        pytest.skip(f"{SYNTHESIS_CASSETTE.name} not recorded: run `{rerecord_hint('synthesis')}`")
    root = tmp_path_factory.mktemp("synthesis-roles")
    run = run_synthesis(ReplayModel(SYNTHESIS_CASSETTE), root, rules_plan=True)
    assert {c.task for c in run.calls} == {PLANNER_TASK, SUBAGENT_TASK, SYNTHESIZER_TASK}


def test_every_request_was_recorded(recorded: SynthesisRun) -> None:
    missed = [
        call.task
        for call in recorded.calls
        if any("no recorded answer" in attempt.error for attempt in call.attempts)
    ]
    assert not missed, f"{missed} not in the cassette: run `{rerecord_hint('synthesis')}`"


def test_recorded_smollm2_synthesis_replays_through_every_check(recorded: SynthesisRun) -> None:
    assert recorded.calls
    for call in recorded.calls:
        assert call.status in {LoopStatus.VALID.value, LoopStatus.REFUSED.value}
        if call.status == LoopStatus.REFUSED.value:
            assert call.attempts and all(a.defects or a.error for a in call.attempts)
    for finding in recorded.findings:
        if finding.status is FindingStatus.NOT_INVESTIGATED:
            assert finding.statements == () and finding.error
        for statement in finding.statements:
            assert {s.doc_id for s in statement.sources} <= set(finding.docs_read)
    if recorded.status is LoopStatus.VALID:
        assert recorded.defects == () and recorded.synthesis is not None
    else:
        assert recorded.defects or recorded.synthesis is None
