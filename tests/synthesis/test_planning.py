"""A dossier too large for one planner request is planned in parts, then merged."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from preuve.core.defects import Defect
from preuve.core.errors import BudgetError
from preuve.models import LoopStatus, ScriptedModel
from preuve.models.base import Completion, Request
from preuve.models.budget import BudgetedModel, counter_for
from preuve.models.loop import Attempt, LoopResult, Usage
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.synthesis.planner import planner_request
from preuve.synthesis.planning import merge_plans, plan_within_budget
from preuve.synthesis.types import Plan, SubTask


def _tokens(dossier: Dossier, products: tuple[str, ...]) -> int:
    request = planner_request(dossier, products)
    return counter_for(synthesis_rules_model()).count_prompt_tokens(request.messages)


def test_a_plan_over_budget_is_made_in_parts_and_covers_the_same_documents(
    dossier: Dossier, products: tuple[str, ...]
) -> None:
    whole = _tokens(dossier, products)
    budget = int(whole * 0.7)  # the whole request does not fit, each half does
    model = BudgetedModel(synthesis_rules_model(), max_input_tokens=budget)
    with pytest.raises(BudgetError):  # one request: refused before the call
        model.complete(planner_request(dossier, products))
    split = plan_within_budget(dossier, model, products)
    at_once = plan_within_budget(dossier, synthesis_rules_model(), products)
    assert split.status is at_once.status is LoopStatus.VALID
    assert split.value is not None and at_once.value is not None
    assert len(split.attempts) == 2 and len(at_once.attempts) == 1
    assert all(
        counter_for(model).count_prompt_tokens(a.request.messages) <= budget for a in split.attempts
    )
    assert split.value.covered <= frozenset(dossier.ids)
    # every document a sub-task of the whole plan reads, a sub-task of the merged plan reads
    assert at_once.value.covered <= split.value.covered
    ids = [task.id for task in split.value.subtasks]
    assert len(ids) == len(set(ids))


def test_the_split_plan_runs_the_whole_workflow(
    dossier: Dossier, products: tuple[str, ...]
) -> None:
    budget = int(_tokens(dossier, products) * 0.7)
    run = synthesize(dossier, BudgetedModel(synthesis_rules_model(), max_input_tokens=budget))
    assert run.plan is not None and run.status is LoopStatus.VALID


def test_one_document_still_over_budget_is_refused(dossier: Dossier) -> None:
    one = replace(dossier, documents=dossier.documents[:1])
    model = BudgetedModel(ScriptedModel(), max_input_tokens=10)
    with pytest.raises(BudgetError, match="over its budget of 10"):
        plan_within_budget(one, model, ())


DOC_02 = ("doc-02",)


def _valid(*tasks: SubTask) -> LoopResult[Plan]:
    return LoopResult(LoopStatus.VALID, Plan("q", tasks), (_attempt(),), Usage(10, 5, 1.0))


TRUNCATED = Defect("truncated", "the answer stopped at the limit of 1024 new tokens")


def _attempt(*defects: Defect) -> Attempt:
    return Attempt(Request((), task="synthesis.planner"), Completion("{}", "stop", 1, 1), defects)


def _no_answer() -> LoopResult[Plan]:
    failed = Attempt(Request(()), None, (Defect("model_error", "no answer"),), "cannot reach")
    return LoopResult(LoopStatus.ERROR, None, (failed, failed))


def _refused() -> LoopResult[Plan]:
    return LoopResult(LoopStatus.REFUSED, None, (_attempt(TRUNCATED), _attempt(TRUNCATED)))


@pytest.mark.parametrize(
    ("parts", "status", "subtasks"),
    [
        pytest.param(
            [
                _valid(SubTask("cost", "q1", ("doc-01",))),
                _valid(SubTask("cost", "q2", ("doc-02",))),
            ],
            LoopStatus.VALID,
            (SubTask("cost", "q1", ("doc-01", "doc-02")),),
            id="same-id-one-subtask",
        ),
        pytest.param(
            [
                _valid(SubTask("cost", "q", ("doc-01",))),
                _valid(SubTask("licence", "q", ("doc-02",))),
            ],
            LoopStatus.VALID,
            (SubTask("cost", "q", ("doc-01",)), SubTask("licence", "q", ("doc-02",))),
            id="other-ids-kept",
        ),
        pytest.param(
            [_refused(), _valid(SubTask("cost", "q", ("doc-01",)))],
            LoopStatus.REFUSED,
            None,
            id="a-refused-part-refuses-the-plan",
        ),
        pytest.param(
            [_no_answer(), _refused()],
            LoopStatus.ERROR,
            None,
            id="no-answer-is-an-error",
        ),
    ],
)
def test_merge_plans(
    parts: list[LoopResult[Plan]], status: LoopStatus, subtasks: tuple[SubTask, ...] | None
) -> None:
    merged = merge_plans("q", parts)
    assert merged.status is status
    assert (merged.value.subtasks if merged.value else None) == subtasks
    assert merged.usage.prompt_tokens == sum(p.usage.prompt_tokens for p in parts)
    assert len(merged.attempts) == sum(len(p.attempts) for p in parts)
    # a refused plan says why, whichever part failed: its defects are the failed part's
    assert merged.defects == (() if status is LoopStatus.VALID else parts[0].defects)


def test_a_run_whose_split_plan_is_refused_says_why(
    dossier: Dossier, products: tuple[str, ...]
) -> None:
    budget = int(_tokens(dossier, products) * 0.7)
    prose = Completion("Here is the plan you asked for.", "stop", 10, 10)
    plan = json.dumps({"subtasks": [{"id": "cost", "question": "q", "scope": ["doc-20"]}]})
    # the first half's planner answers prose twice; the second half's answer is a plan
    model = ScriptedModel([prose, prose, Completion(plan, "stop", 10, 10)])
    run = synthesize(dossier, BudgetedModel(model, max_input_tokens=budget))
    assert run.status is LoopStatus.REFUSED and run.plan is None
    assert run.defects and all(d.code == "not_json" for d in run.defects)
