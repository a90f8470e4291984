"""The plan of a dossier too large for one planner request: split by documents, then merged.

The planner sees every document of the dossier in one request. When that request does not
fit the model's input budget (the runtime's :class:`~preuve.models.budget.BudgetedModel`
refuses it before the call, never truncating it), :func:`plan_within_budget` plans each
half of the documents apart, recursively, until each request fits, and merges the plans:
sub-tasks with the same id (the same criterion, named the same way in each part) become
one sub-task reading the documents of both; the others are kept as they are. The merged
plan is VALID only when every part is; its attempts are every part's, so each call is
journaled and counted. A single document whose request is still over budget is refused
with the budget's own error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from preuve.core.errors import BudgetError
from preuve.models.base import Model
from preuve.models.loop import LoopResult, LoopStatus, Usage
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.planner import make_plan
from preuve.synthesis.types import Plan, SubTask

__all__ = ["merge_plans", "plan_within_budget"]

_ORDER = {LoopStatus.VALID: 0, LoopStatus.REFUSED: 1, LoopStatus.ERROR: 2}


def plan_within_budget(dossier: Dossier, model: Model, products: Sequence[str]) -> LoopResult[Plan]:
    """:func:`~preuve.synthesis.planner.make_plan`, split by documents when over budget."""
    try:
        return make_plan(dossier, model, products)
    except BudgetError:
        if len(dossier.documents) < 2:
            raise
    middle = len(dossier.documents) // 2
    halves = (dossier.documents[:middle], dossier.documents[middle:])
    parts = [plan_within_budget(replace(dossier, documents=h), model, products) for h in halves]
    return merge_plans(dossier.question, parts)


def merge_plans(question: str, parts: Sequence[LoopResult[Plan]]) -> LoopResult[Plan]:
    """One result for the plans of several parts of a dossier (see the module docstring).
    The attempts of the parts that decided the status come last (refused, then without an
    answer), so that the defects of a plan refused or in error (those of its last attempt)
    say why, whichever part failed."""
    ordered = sorted(parts, key=lambda part: _ORDER[part.status])
    attempts = tuple(a for part in ordered for a in part.attempts)
    usage = Usage(
        prompt_tokens=sum(p.usage.prompt_tokens for p in parts),
        generated_tokens=sum(p.usage.generated_tokens for p in parts),
        seconds=sum(p.usage.seconds for p in parts),
        estimated=any(p.usage.estimated for p in parts),
    )
    statuses = {part.status for part in parts}
    if statuses != {LoopStatus.VALID}:
        status = LoopStatus.ERROR if LoopStatus.ERROR in statuses else LoopStatus.REFUSED
        return LoopResult(status, None, attempts, usage)
    merged: dict[str, SubTask] = {}
    for part in parts:
        assert part.value is not None  # a VALID result carries its value
        for task in part.value.subtasks:
            known = merged.get(task.id)
            scope = task.scope if known is None else (*known.scope, *task.scope)
            first = task if known is None else known
            merged[task.id] = SubTask(first.id, first.question, tuple(dict.fromkeys(scope)))
    return LoopResult(LoopStatus.VALID, Plan(question, tuple(merged.values())), attempts, usage)
