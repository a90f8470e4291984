"""The synthesis of a dossier too large for one synthesizer request: written in parts.

The synthesizer sees the whole evidence dossier in one request. When that request does not
fit the model's input budget (the runtime's :class:`~preuve.models.budget.BudgetedModel`
refuses it before the call, never truncating it), :func:`write_within_budget` splits the
evidence by sub-task, writes each part apart (recursively, until each request fits), and
merges the parts:

- the sub-tasks are cut, in the plan's order, where the two halves' evidence is closest in
  size;
- every contradiction found by code goes to exactly one part: the one holding more of the
  sub-tasks whose statements carry its values (the lighter part when even). That part borrows the
  other part's statements carrying them, under their own sub-task, so no part lists a
  contradiction whose other side it never saw;
- a computed value goes to the part that read its sources (the lighter part when both did);
- the limits of a sub-task go to its part, those of the dossier to the lighter part;
- each part is checked against the *whole* dossier (its citations, numbers and computations
  against every finding), with its own share of the contradictions to list, and is re-asked
  once on its own defects;
- the merged synthesis (paragraphs, contradictions and computed values of the parts, in
  order) is checked again against the whole dossier, every check included: it is VALID only
  when every part is and that check finds nothing. A borrowed sub-task's paragraph may
  appear in two parts: a repetition, never a value no finding holds.

A part that cannot be made smaller (one sub-task, or a half that would borrow every
statement of the other) and is still over budget is refused with the budget's own error,
as one document too long for the planner is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from preuve.core.defects import Defect
from preuve.core.errors import BudgetError
from preuve.models.base import Model
from preuve.models.loop import LoopResult, LoopStatus
from preuve.synthesis.checks import DossierLimits
from preuve.synthesis.evidence_dossier import EvidenceDossier
from preuve.synthesis.matcher import group_key, subject_key
from preuve.synthesis.synthesizer import (
    SYNTHESIZER,
    SynthesisContext,
    SynthesizerInput,
    check_candidate,
    last_candidate,
)
from preuve.synthesis.types import (
    Contradiction,
    Finding,
    Plan,
    Statement,
    SubTask,
    Synthesis,
    values_agree,
)

__all__ = ["Written", "merge_parts", "split_evidence", "write_within_budget"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Written:
    """The synthesizer's outcome: one part, or several merged. ``synthesis`` is the accepted
    one, else the last that parsed (shown as refused); ``defects`` say why it was refused;
    ``parts`` keep every part's attempts, so each call is journaled and counted."""

    status: LoopStatus
    synthesis: Synthesis | None
    defects: tuple[Defect, ...]
    parts: tuple[LoopResult[Synthesis], ...]

    @classmethod
    def of(cls, result: LoopResult[Synthesis], engine: str) -> Written:
        return cls(result.status, last_candidate(result, engine), result.defects, (result,))


def write_within_budget(
    evidence: EvidenceDossier,
    model: Model,
    engine: str,
    *,
    context: SynthesisContext | None = None,
) -> Written:
    """Write the synthesis of ``evidence``, in parts when over budget (see the module).
    ``context`` is what a part is checked against (default: ``evidence`` itself)."""
    given = SynthesizerInput(evidence, engine, context)
    try:
        return Written.of(SYNTHESIZER.ask(model, given), engine)
    except BudgetError:
        halves = split_evidence(evidence)
        if halves is None:
            raise
    whole = given.checked_against
    parts = [
        write_within_budget(half, model, engine, context=replace(whole, found=half.contradictions))
        for half in halves
    ]
    return merge_parts(parts, whole, engine)


def merge_parts(parts: Sequence[Written], whole: SynthesisContext, engine: str) -> Written:
    """One outcome for the parts of a synthesis, checked again against ``whole``."""
    results = tuple(r for part in parts for r in part.parts)
    statuses = {part.status for part in parts}
    if LoopStatus.ERROR in statuses:  # no answer for a part: nothing to merge
        defects = tuple(d for part in parts for d in part.defects)
        return Written(LoopStatus.ERROR, None, defects, results)
    kept = [part.synthesis for part in parts]
    merged = (
        None
        if any(s is None for s in kept)
        else Synthesis(
            paragraphs=tuple(p for s in kept if s for p in s.paragraphs),
            contradictions=tuple(c for s in kept if s for c in s.contradictions),
            numbers=tuple(n for s in kept if s for n in s.numbers),
            engine=engine,
        )
    )
    if statuses != {LoopStatus.VALID}:
        defects = tuple(d for part in parts for d in part.defects)
        return Written(LoopStatus.REFUSED, merged, defects, results)
    assert merged is not None  # every part is VALID, so each carries its synthesis
    defects = tuple(check_candidate(merged, whole))
    status = LoopStatus.REFUSED if defects else LoopStatus.VALID
    return Written(status, merged, defects, results)


def split_evidence(evidence: EvidenceDossier) -> tuple[EvidenceDossier, EvidenceDossier] | None:
    """Two halves of ``evidence`` by sub-task, or None when it cannot be made smaller (one
    sub-task, or a half that must borrow every statement of the other)."""
    tasks = evidence.plan.subtasks
    if len(tasks) < 2:
        return None
    costs = [_cost(evidence, i) for i in range(len(tasks))]
    # the sub-tasks in order, cut where the two halves' evidence is closest in size
    middle = min(range(1, len(tasks)), key=lambda m: abs(sum(costs[:m]) - sum(costs[m:])))
    halves = (range(middle), range(middle, len(tasks)))
    lighter = 0 if sum(costs[:middle]) <= sum(costs[middle:]) else 1
    holders = _holders(evidence)
    # a contradiction goes to the half with more of its holders (the lighter one if even)
    owner = [
        _side(sum(i < middle for i in held), sum(i >= middle for i in held), lighter)
        for held in holders
    ]
    read = [_read(evidence, half) for half in halves]
    # a computed value goes to the half that read its sources (the lighter one if both)
    computed = [
        _side(bool(read[0] & set(c.sources)), bool(read[1] & set(c.sources)), lighter)
        for c in evidence.computed
    ]
    parts = tuple(
        _part(
            evidence,
            half,
            [o == h for o in owner],
            [o == h for o in computed],
            holders,
            lead=h == lighter,
        )
        for h, half in enumerate(halves)
    )
    whole = _statement_count(evidence)
    if any(_statement_count(part) >= whole for part in parts):
        return None
    return parts[0], parts[1]


def _side(first: int, second: int, lighter: int) -> int:
    """0 or 1, the half with the larger claim; ``lighter`` when even."""
    return lighter if first == second else (0 if first > second else 1)


def _cost(evidence: EvidenceDossier, index: int) -> int:
    """The size of one sub-task's evidence, as rendered (characters)."""
    task = evidence.plan.subtasks[index]
    alone = replace(
        evidence,
        plan=Plan(evidence.plan.question, (task,)),
        findings=tuple(f for f in evidence.findings if f.subtask_id == task.id),
        contradictions=(),
        computed=(),
        limits=DossierLimits((), (), (), ()),
    )
    return len(alone.render())


def _read(evidence: EvidenceDossier, indices: range) -> set[str]:
    ids = {evidence.plan.subtasks[i].id for i in indices}
    return {d for f in evidence.findings if f.subtask_id in ids for d in f.docs_read}


def _statement_count(evidence: EvidenceDossier) -> int:
    return sum(len(f.statements) for f in evidence.findings)


def _carries(statement: Statement, contradiction: Contradiction) -> bool:
    """True when ``statement`` carries one of the contradiction's values: the same group
    (subject, attribute, context), or the same subject with that value read in one of that
    value's sources (two attributes code compared as one quantity)."""
    key = group_key(
        contradiction.subject,
        contradiction.attribute,
        contradiction.values[0].value,
        contradiction.context,
    )
    s = statement
    return group_key(s.subject, s.attribute, s.value, s.context) == key or (
        subject_key(s.subject) == subject_key(contradiction.subject)
        and any(
            doc_id in v.sources and values_agree(value, v.value)
            for doc_id, value in s.values_by_source()
            for v in contradiction.values
        )
    )


def _holds(finding: Finding, contradiction: Contradiction) -> bool:
    return any(_carries(s, contradiction) for s in finding.statements)


def _holders(evidence: EvidenceDossier) -> list[list[int]]:
    """For each contradiction, the indices of the sub-tasks whose findings hold it."""
    by_id = {f.subtask_id: f for f in evidence.findings}
    findings = [by_id.get(t.id) for t in evidence.plan.subtasks]
    return [
        [i for i, f in enumerate(findings) if f is not None and _holds(f, c)]
        for c in evidence.contradictions
    ]


def _part(
    evidence: EvidenceDossier,
    indices: range,
    contradictions: Sequence[bool],
    computed: Sequence[bool],
    holders: Sequence[Sequence[int]],
    *,
    lead: bool,
) -> EvidenceDossier:
    """The evidence of the sub-tasks at ``indices``, with the contradictions and computed
    values flagged True. A contradiction held by a sub-task of the other half borrows that
    sub-task's statements carrying its values (under their sub-task); the dossier's own
    limits go to the ``lead`` half."""
    tasks = evidence.plan.subtasks
    mine = _flagged(evidence.contradictions, contradictions)
    borrowed = sorted(
        {i for held, flag in zip(holders, contradictions, strict=True) if flag for i in held}
        - set(indices)
    )
    by_id = {f.subtask_id: f for f in evidence.findings}
    findings = [by_id[tasks[i].id] for i in indices if tasks[i].id in by_id]
    for i in borrowed:
        finding = by_id[tasks[i].id]
        kept = tuple(s for s in finding.statements if any(_carries(s, c) for c in mine))
        findings.append(replace(finding, statements=kept, gaps=(), refused=()))
    ids = {tasks[i].id for i in indices}
    limits = evidence.limits
    part_limits = DossierLimits(
        uncovered=limits.uncovered if lead else (),
        read_but_not_used=limits.read_but_not_used if lead else (),
        not_investigated=tuple(x for x in limits.not_investigated if x[0] in ids),
        merged=tuple(x for x in limits.merged if x[0] in ids),
        coverage=limits.coverage if lead else (),
        unknown_types=limits.unknown_types if lead else (),
        refused=tuple(x for x in limits.refused if x[0] in ids),
    )
    order = sorted({*indices, *borrowed})
    return replace(
        evidence,
        plan=Plan(
            evidence.plan.question,
            tuple(tasks[i] for i in order),
            evidence.plan.coverage if lead else (),
        ),
        findings=tuple(sorted(findings, key=lambda f: order.index(_index(tasks, f)))),
        contradictions=mine,
        computed=_flagged(evidence.computed, computed),
        limits=part_limits,
    )


def _index(tasks: Sequence[SubTask], finding: Finding) -> int:
    return next(i for i, t in enumerate(tasks) if t.id == finding.subtask_id)


def _flagged(items: Sequence[T], flags: Sequence[bool]) -> tuple[T, ...]:
    return tuple(item for item, flag in zip(items, flags, strict=True) if flag)
