"""Workflow 2 end to end: question → plan → sub-agents → evidence dossier → synthesizer → checks.

:func:`synthesize` runs the whole trajectory with one :class:`~preuve.models.base.Model` (the
rules engine of :func:`synthesis_rules_model`, an LLM, or a test double) and returns a
:class:`SynthesisRun` that keeps everything: the plan, what each sub-agent read and found,
failed sub-tasks, uncovered and unused documents, the contradictions and computations of
code, the evidence dossier, the synthesis and its defects, and every attempt of every role.
The run serializes to JSON (:meth:`SynthesisRun.to_dict`, :meth:`SynthesisRun.from_dict`), so
the checks can be re-run on a saved run without any model.

Sub-agents of independent sub-tasks run concurrently: each sub-task is a sans-I/O
:func:`~preuve.models.loop.verification_flow`, and every round of pending requests is sent
together through :func:`~preuve.models.pool.complete_many`.

Status: VALID when the plan and the synthesis pass their checks (a NOT INVESTIGATED sub-task
does not refuse the run: it is listed under the limits); REFUSED otherwise, with the
defects. When the model is the rules engine, the engine label is ``rules`` everywhere.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import partial
from typing import Any

from preuve.core.defects import Defect
from preuve.core.errors import BudgetError, InputError, ModelError
from preuve.models.base import Completion, Model, Request
from preuve.models.journal import Journal, JournaledModel
from preuve.models.loop import (
    Attempt,
    Checked,
    LoopResult,
    LoopStatus,
    VerificationFlow,
    verification_flow,
)
from preuve.models.pool import complete_many
from preuve.models.rules import RulesModel
from preuve.synthesis.checks import DossierLimits, dossier_limits
from preuve.synthesis.dossier import Dossier, DossierDocument
from preuve.synthesis.evidence_dossier import (
    EvidenceDossier,
    build_evidence_dossier,
    computed_from_dicts,
    computed_to_dicts,
    contradictions_from_dicts,
    contradictions_to_dicts,
    limit_lines,
)
from preuve.synthesis.findings import (
    ComputedValue,
    Contradiction,
    Finding,
    Plan,
    SubTask,
    Synthesis,
    synthesis_from_dict,
    synthesis_to_dict,
)
from preuve.synthesis.lexicon import extended_lexicon
from preuve.synthesis.planner import (
    PLANNER_TASK,
    complete_coverage,
    detect_products,
    make_plan,
    plan_from_dict,
    plan_to_dict,
    product_aliases,
    question_entities,
    rules_plan,
)
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.sizing import merge_findings, scope_groups
from preuve.synthesis.subagent import (
    SUBAGENT_TASK,
    check_findings,
    finding_from_dict,
    finding_from_result,
    finding_to_dict,
    not_investigated,
    rules_findings,
    subagent_request,
)
from preuve.synthesis.synthesizer import (
    SYNTHESIZER_TASK,
    SynthesisContext,
    last_candidate,
    rules_synthesis,
    write_synthesis,
)

__all__ = [
    "RULES_VERSION",
    "RUN_FORMAT",
    "AttemptRecord",
    "DocumentMeta",
    "RoleCall",
    "SynthesisRun",
    "engine_label",
    "synthesis_rules_model",
    "synthesize",
]

RULES_VERSION = "synthesis-rules/2"
RUN_FORMAT = "preuve-synthesis-run/1"


def synthesis_rules_model() -> RulesModel:
    """The rules engine for the three roles of workflow 2."""
    return RulesModel(
        {
            PLANNER_TASK: rules_plan,
            SUBAGENT_TASK: rules_findings,
            SYNTHESIZER_TASK: rules_synthesis,
        },
        version=RULES_VERSION,
    )


def engine_label(model: Model) -> str:
    """``rules`` for the rules engine, else the model's ``backend:name`` label."""
    return model.identity.engine()


@dataclass(frozen=True, slots=True)
class DocumentMeta:
    """What a run keeps of a document: its metadata, never its text."""

    id: str
    title: str
    date: date | None
    source_type: SourceType
    rank: int | None = None  # from the dossier's own rank table (None: the default table)

    @property
    def source_info(self) -> SourceInfo:
        return SourceInfo(self.id, self.date, self.source_type, self.rank)


@dataclass(frozen=True, slots=True)
class AttemptRecord:
    """One attempt of a role as a run keeps it: the raw answer (None when the backend
    failed), how it ended, its defects and the backend's error."""

    text: str | None
    finish_reason: str | None
    defects: tuple[Defect, ...]
    error: str = ""

    @classmethod
    def of(cls, attempt: Attempt) -> AttemptRecord:
        done = attempt.completion
        return cls(
            done.text if done else None,
            done.finish_reason if done else None,
            attempt.defects,
            attempt.error,
        )


@dataclass(frozen=True, slots=True)
class RoleCall:
    """One ask → check → re-ask loop of a role, every attempt kept (raw text included)."""

    task: str
    subtask_id: str
    status: str
    attempts: tuple[AttemptRecord, ...]

    @classmethod
    def of(cls, task: str, result: LoopResult[Any], subtask_id: str = "") -> RoleCall:
        attempts = tuple(AttemptRecord.of(a) for a in result.attempts)
        return cls(task, subtask_id, result.status.value, attempts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "subtask_id": self.subtask_id,
            "status": self.status,
            "attempts": [
                {
                    "text": a.text,
                    "finish_reason": a.finish_reason,
                    "defects": [_defect_dict(d) for d in a.defects],
                    "error": a.error,
                }
                for a in self.attempts
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoleCall:
        attempts = tuple(
            AttemptRecord(
                a["text"],
                a["finish_reason"],
                tuple(_defect_from(d) for d in a["defects"]),
                str(a["error"]),
            )
            for a in data["attempts"]
        )
        return cls(str(data["task"]), str(data["subtask_id"]), str(data["status"]), attempts)


def _defect_dict(defect: Defect) -> dict[str, Any]:
    return {
        "code": defect.code,
        "detail": defect.detail,
        "paragraph": defect.paragraph,
        "path": defect.path,
    }


def _defect_from(data: Mapping[str, Any]) -> Defect:
    return Defect(str(data["code"]), str(data["detail"]), data.get("paragraph"), str(data["path"]))


@dataclass(frozen=True, slots=True)
class SynthesisRun:
    """Everything one run did and produced (see the module docstring)."""

    question: str
    engine: str
    status: LoopStatus
    documents: tuple[DocumentMeta, ...]
    products: tuple[str, ...]
    plan: Plan | None
    findings: tuple[Finding, ...]
    contradictions: tuple[Contradiction, ...]
    computed: tuple[ComputedValue, ...]
    evidence: str
    synthesis: Synthesis | None
    defects: tuple[Defect, ...]
    calls: tuple[RoleCall, ...] = ()

    @property
    def sources(self) -> dict[str, SourceInfo]:
        return {d.id: d.source_info for d in self.documents}

    @property
    def uncovered(self) -> tuple[str, ...]:
        ids = [d.id for d in self.documents]
        return self.plan.uncovered(ids) if self.plan is not None else tuple(ids)

    @property
    def limits(self) -> DossierLimits:
        plan = self.plan if self.plan is not None else Plan(self.question, ())
        return dossier_limits(plan, self.findings, [d.id for d in self.documents])

    @property
    def limit_lines(self) -> list[str]:
        return limit_lines(self.limits)

    @property
    def context(self) -> SynthesisContext:
        return SynthesisContext(self.findings, self.sources, self.computed)

    def to_dict(self) -> dict[str, Any]:
        """The trajectory as JSON-ready data."""
        limits = self.limits
        return {
            "format": RUN_FORMAT,
            "engine": self.engine,
            "status": self.status.value,
            "question": self.question,
            "documents": [
                {
                    "id": d.id,
                    "title": d.title,
                    "date": d.date.isoformat() if d.date else None,
                    "source_type": d.source_type.value,
                    "rank": d.source_info.rank,
                }
                for d in self.documents
            ],
            "products": list(self.products),
            "plan": plan_to_dict(self.plan) if self.plan is not None else None,
            "reads": {f.subtask_id: list(f.docs_read) for f in self.findings},
            "findings": [finding_to_dict(f) for f in self.findings],
            "failures": [{"subtask_id": t, "error": e} for t, e in limits.not_investigated],
            "uncovered": list(limits.uncovered),
            "read_but_not_used": list(limits.read_but_not_used),
            "contradictions": contradictions_to_dicts(self.contradictions),
            "computed": computed_to_dicts(self.computed),
            "evidence": self.evidence,
            "synthesis": synthesis_to_dict(self.synthesis) if self.synthesis else None,
            "defects": [_defect_dict(d) for d in self.defects],
            "limits": self.limit_lines,
            "calls": [c.to_dict() for c in self.calls],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "trajectory") -> SynthesisRun:
        """Rebuild a run from :meth:`to_dict` output; malformed data raises InputError."""
        if data.get("format") != RUN_FORMAT:
            raise InputError(f"{where}: not a synthesis run (format {RUN_FORMAT} expected)")
        try:
            return _run_from(data)
        # AttributeError: an object where a list was expected; ArithmeticError: a bad Decimal.
        except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError) as err:
            raise InputError(f"{where}: malformed synthesis run ({err!r})") from None


def _run_from(data: Mapping[str, Any]) -> SynthesisRun:
    question = str(data["question"])
    return SynthesisRun(
        question=question,
        engine=str(data["engine"]),
        status=LoopStatus(data["status"]),
        documents=tuple(
            DocumentMeta(
                str(d["id"]),
                str(d["title"]),
                date.fromisoformat(d["date"]) if d["date"] else None,
                SourceType.named(d["source_type"]),
                int(d["rank"]) if d.get("rank") is not None else None,
            )
            for d in data["documents"]
        ),
        products=tuple(str(p) for p in data["products"]),
        plan=plan_from_dict(question, data["plan"]) if data["plan"] is not None else None,
        findings=tuple(finding_from_dict(f) for f in data["findings"]),
        contradictions=contradictions_from_dicts(data["contradictions"]),
        computed=computed_from_dicts(data["computed"]),
        evidence=str(data["evidence"]),
        synthesis=synthesis_from_dict(data["synthesis"]) if data["synthesis"] else None,
        defects=tuple(_defect_from(d) for d in data["defects"]),
        calls=tuple(RoleCall.from_dict(c) for c in data["calls"]),
    )


def _checker(
    task: SubTask, documents: Sequence[DossierDocument]
) -> Callable[[Completion], Checked[Finding]]:
    def check(completion: Completion) -> Checked[Finding]:
        return check_findings(completion, task, documents)

    return check


def _drive(
    model: Model, flows: Sequence[VerificationFlow[Finding]], concurrency: int
) -> list[LoopResult[Finding] | BudgetError]:
    """Drive the flows together: each round sends every pending request concurrently."""
    pending = {i: next(flow) for i, flow in enumerate(flows)}
    results: dict[int, LoopResult[Finding] | BudgetError] = {}
    while pending:
        order = list(pending)
        outcomes = complete_many(model, [pending[i] for i in order], concurrency=concurrency)
        pending = {}
        for index, outcome in zip(order, outcomes, strict=True):
            if isinstance(outcome, BudgetError):
                results[index] = outcome  # this sub-task alone is too long to be read
                flows[index].close()
                continue
            if isinstance(outcome, InputError):
                raise outcome  # a wrong spec or setting: every sub-task would fail the same way
            # Any other refusal of the backend is a model failure, re-asked once by the flow.
            sent = (
                outcome
                if isinstance(outcome, Completion | ModelError)
                else ModelError(str(outcome))
            )
            try:
                pending[index] = flows[index].send(sent)
            except StopIteration as stop:
                results[index] = stop.value
    return [results[i] for i in range(len(flows))]


def _investigate(
    plan: Plan, dossier: Dossier, products: Sequence[str], model: Model, concurrency: int
) -> tuple[tuple[Finding, ...], tuple[RoleCall, ...]]:
    """Every sub-agent, concurrently; a failed sub-task is kept as NOT INVESTIGATED."""
    scopes = [
        tuple(d for d in (dossier.get(i) for i in t.scope) if d is not None) for t in plan.subtasks
    ]

    def request(task: SubTask, documents: Sequence[DossierDocument]) -> Request:
        return subagent_request(
            task,
            documents,
            dossier.question,
            products,
            catalogue=dossier.documents,
            aliases=product_aliases(dossier.question, products),
            lexicon=dossier.lexicon,
        )

    # each sub-task's documents in as many requests as the model's window needs (sizing.py)
    parts = [
        (index, task, group)
        for index, (task, documents) in enumerate(zip(plan.subtasks, scopes, strict=True))
        for group in scope_groups(model, documents, partial(request, task))
    ]
    flows = [verification_flow(request(task, g), _checker(task, g)) for _, task, g in parts]
    found: list[list[Finding]] = [[] for _ in plan.subtasks]
    calls = []
    for (index, task, group), result in zip(parts, _drive(model, flows, concurrency), strict=True):
        read = tuple(d.id for d in group)
        if isinstance(result, BudgetError):
            found[index].append(not_investigated(task, result.one_line(), read))
            continue
        found[index].append(finding_from_result(task, result, read))
        calls.append(RoleCall.of(SUBAGENT_TASK, result, task.id))
    findings = [merge_findings(task, f) for task, f in zip(plan.subtasks, found, strict=True)]
    return tuple(findings), tuple(calls)


def _metas(dossier: Dossier) -> tuple[DocumentMeta, ...]:
    return tuple(
        DocumentMeta(d.id, d.title, d.date, d.source_type, d.rank) for d in dossier.documents
    )


def synthesize(
    dossier: Dossier,
    model: Model,
    *,
    journal: Journal | None = None,
    run_id: str | None = None,
    concurrency: int = 4,
) -> SynthesisRun:
    """Run workflow 2 on ``dossier`` with ``model`` (see the module docstring). With a
    ``journal``, every call is recorded under ``run_id`` (a fresh one by default)."""
    engine = engine_label(model)
    if journal is not None:
        model = JournaledModel(model, journal, run_id or uuid.uuid4().hex)
    texts = [f"{d.title}\n{d.text}" for d in dossier.documents]
    lexicon = extended_lexicon(dossier.lexicon)
    products = detect_products(dossier.question, texts, lexicon)
    # the other names of the question (a company, a vendor) are subjects of their own
    subjects = (*products, *question_entities(dossier.question, texts, products))
    planned = make_plan(dossier, model, products)
    base = SynthesisRun(
        question=dossier.question,
        engine=engine,
        status=LoopStatus.REFUSED,
        documents=_metas(dossier),
        products=products,
        plan=None,
        findings=(),
        contradictions=(),
        computed=(),
        evidence="",
        synthesis=None,
        defects=planned.defects,
        calls=(RoleCall.of(PLANNER_TASK, planned),),
    )
    if planned.value is None:
        return base
    plan = complete_coverage(planned.value, dossier, products, lexicon)
    findings, subagent_calls = _investigate(plan, dossier, subjects, model, concurrency)
    evidence = build_evidence_dossier(dossier.question, plan, findings, dossier.source_infos())
    written = write_synthesis(evidence, model, engine)
    return _finished(base, plan, evidence, written, subagent_calls)


def _finished(
    base: SynthesisRun,
    plan: Plan,
    evidence: EvidenceDossier,
    written: LoopResult[Synthesis],
    subagent_calls: tuple[RoleCall, ...],
) -> SynthesisRun:
    return replace(
        base,
        status=written.status,
        plan=plan,
        findings=evidence.findings,
        contradictions=evidence.contradictions,
        computed=evidence.computed,
        evidence=evidence.render(),
        synthesis=last_candidate(written, base.engine),
        defects=written.defects,
        calls=(*base.calls, *subagent_calls, RoleCall.of(SYNTHESIZER_TASK, written)),
    )
