"""A synthesizer request over the input budget is written in parts, merged and re-checked."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from preuve.core.defects import Defect
from preuve.core.errors import BudgetError
from preuve.corpora.synthesis_dossier import grid_data
from preuve.eval.grid import grade, grid_from_dict
from preuve.models import LoopStatus
from preuve.models.base import Completion, Request
from preuve.models.budget import BudgetedModel, counter_for
from preuve.models.loop import Attempt, LoopResult
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.evidence_dossier import EvidenceDossier, build_evidence_dossier
from preuve.synthesis.pipeline import SynthesisRun, synthesis_rules_model, synthesize
from preuve.synthesis.synthesizer import (
    SYNTHESIZER_TASK,
    SynthesisContext,
    synthesizer_request,
)
from preuve.synthesis.types import Synthesis, synthesis_from_dict
from preuve.synthesis.writing import Written, merge_parts, split_evidence, write_within_budget


@pytest.fixture(scope="module")
def whole_run(dossier: Dossier) -> SynthesisRun:
    return synthesize(dossier, synthesis_rules_model())


@pytest.fixture(scope="module")
def evidence(dossier: Dossier, whole_run: SynthesisRun) -> EvidenceDossier:
    assert whole_run.plan is not None
    return build_evidence_dossier(
        dossier.question, whole_run.plan, whole_run.findings, dossier.source_infos()
    )


def _tokens(evidence: EvidenceDossier) -> int:
    return counter_for(synthesis_rules_model()).count_prompt_tokens(
        synthesizer_request(evidence).messages
    )


def test_a_synthesis_over_budget_is_written_in_parts_and_grades_as_the_whole(
    dossier: Dossier, whole_run: SynthesisRun, evidence: EvidenceDossier
) -> None:
    budget = int(_tokens(evidence) * 0.5)  # the whole request cannot be sent
    run = synthesize(dossier, BudgetedModel(synthesis_rules_model(), max_input_tokens=budget))
    assert run.status is LoopStatus.VALID and run.synthesis is not None
    written = [c for c in run.calls if c.task == SYNTHESIZER_TASK]
    assert len(written) >= 2 and all(c.status == "VALID" for c in written)
    grid = grid_from_dict(grid_data())
    assert whole_run.synthesis is not None
    split, at_once = grade(grid, run.synthesis), grade(grid, whole_run.synthesis)
    assert split.total == at_once.total == 100
    # every contradiction code found is listed once, as in the whole synthesis
    assert len(run.synthesis.contradictions) == len(evidence.contradictions)


def test_each_contradiction_and_computed_value_goes_to_exactly_one_part(
    evidence: EvidenceDossier,
) -> None:
    halves = split_evidence(evidence)
    assert halves is not None
    first, second = halves
    for item in evidence.contradictions:
        assert (item in first.contradictions) != (item in second.contradictions)
    for value in evidence.computed:
        assert (value in first.computed) != (value in second.computed)
    tasks = [t.id for t in evidence.plan.subtasks]
    assert {t.id for t in first.plan.subtasks} | {t.id for t in second.plan.subtasks} == set(tasks)
    whole = {s for f in evidence.findings for s in f.statements}
    for half in halves:
        mine = [s for f in half.findings for s in f.statements]
        assert set(mine) <= whole and len(mine) < len(whole)
        assert _tokens(half) < _tokens(evidence)
    # the dossier's own limits are listed once
    assert bool(first.limits.uncovered) != bool(second.limits.uncovered) or not (
        evidence.limits.uncovered
    )


def test_a_part_holding_a_contradiction_borrows_the_statements_of_its_other_side(
    evidence: EvidenceDossier,
) -> None:
    halves = split_evidence(evidence)
    assert halves is not None
    for half in halves:
        said = [s for f in half.findings for s in f.statements]
        for item in half.contradictions:  # each value of it is stated in this half
            for value in item.values:
                assert any(set(value.sources) & set(s.doc_ids) for s in said), value


def test_one_subtask_still_over_budget_is_refused(evidence: EvidenceDossier) -> None:
    one = replace(evidence, plan=replace(evidence.plan, subtasks=evidence.plan.subtasks[:1]))
    assert split_evidence(one) is None
    model = BudgetedModel(synthesis_rules_model(), max_input_tokens=10)
    with pytest.raises(BudgetError, match="over its budget of 10"):
        write_within_budget(one, model, "rules")


def _result(status: LoopStatus, synthesis: Synthesis | None, *defects: Defect) -> Written:
    request = Request((), task=SYNTHESIZER_TASK)
    done = Completion("{}", "stop", 1, 1)
    attempt = Attempt(request, done, defects, kept=synthesis)
    loop = LoopResult(status, synthesis if status is LoopStatus.VALID else None, (attempt,))
    return Written.of(loop, "rules")


def _halves_written(evidence: EvidenceDossier) -> tuple[Synthesis, Synthesis]:
    halves = split_evidence(evidence)
    assert halves is not None
    out = []
    for half in halves:
        answer = synthesis_rules_model().complete(synthesizer_request(half)).text
        out.append(replace(synthesis_from_dict(json.loads(answer)), engine="rules"))
    return out[0], out[1]


def test_merge_parts(evidence: EvidenceDossier) -> None:
    whole = SynthesisContext.of(evidence)
    first, second = _halves_written(evidence)
    valid = [_result(LoopStatus.VALID, first), _result(LoopStatus.VALID, second)]
    merged = merge_parts(valid, whole, "rules")
    assert merged.status is LoopStatus.VALID and merged.defects == ()
    assert merged.synthesis is not None
    assert merged.synthesis.paragraphs == (*first.paragraphs, *second.paragraphs)
    assert len(merged.parts) == 2
    # both parts VALID on their own, but one left out the contradictions it held:
    # the merged synthesis is checked again and refused
    dropped = replace(second, contradictions=())
    refused = merge_parts([valid[0], _result(LoopStatus.VALID, dropped)], whole, "rules")
    assert refused.status is LoopStatus.REFUSED and refused.synthesis is not None
    assert {d.code for d in refused.defects} == {"missing_contradiction"}
    # a part refused refuses the whole, with that part's defects
    bad = Defect("unknown_citation", "doc-77 is not a document of the dossier")
    one_refused = merge_parts([valid[0], _result(LoopStatus.REFUSED, second, bad)], whole, "rules")
    assert one_refused.status is LoopStatus.REFUSED and one_refused.defects == (bad,)
    # a part without an answer: ERROR, nothing merged
    error = merge_parts([valid[0], _result(LoopStatus.ERROR, None)], whole, "rules")
    assert error.status is LoopStatus.ERROR and error.synthesis is None
