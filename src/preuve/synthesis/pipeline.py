"""Workflow 2 end to end: question → plan → sub-agents → evidence dossier → synthesizer → checks.

:func:`synthesize` runs the whole trajectory with one :class:`~preuve.models.base.Model` (the
rules engine of :func:`synthesis_rules_model`, an LLM, or a test double) and returns a
:class:`SynthesisRun` that keeps everything: the plan, what each sub-agent read and found,
failed sub-tasks, uncovered and unused documents, the contradictions and computations of
code, the evidence dossier, the synthesis and its defects, and every attempt of every role.
The run is written as ``trajectory.json`` and read back through its run-file types
(:mod:`preuve.synthesis.trajectory`), so the checks can be re-run on a saved run without any
model.

Sub-agents of independent sub-tasks run concurrently: each sub-task is a sans-I/O
:func:`~preuve.models.loop.verification_flow`, and every round of pending requests is sent
together through :func:`~preuve.models.pool.complete_many`.

Every source of a sub-agent statement rests on a quote of its document, resolved to a
:class:`~preuve.core.evidence.Span` by the quote check and holding the value
(:mod:`preuve.synthesis.sources`); a statement whose quote still fails after the re-ask is
refused: dropped from its finding, kept in ``refused`` with its defects, counted in
:attr:`SynthesisRun.statements_refused` and listed under the limits, so the synthesis never
rests on it and never loses it silently (like a rejected signal of workflow 1).

Status: VALID when the plan and the synthesis pass their checks (a NOT INVESTIGATED sub-task
or a refused statement does not refuse the run: it is listed under the limits); REFUSED
otherwise, with the defects. When the model is the rules engine, the engine label is
``rules`` everywhere.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import partial
from typing import Any, ClassVar

from preuve.cluster.executor import Executor
from preuve.core.defects import Defect
from preuve.core.documents import Document
from preuve.core.errors import BudgetError, InputError, ModelError, PreuveError
from preuve.models.base import Completion, Model, ModelIdentity, Request
from preuve.models.journal import Journal
from preuve.models.loop import (
    Attempt,
    LoopResult,
    LoopStatus,
    VerificationFlow,
)
from preuve.models.pool import complete_many
from preuve.models.rules import RulesModel
from preuve.models.runtime import Runtime, as_runtime
from preuve.synthesis.checks import DossierLimits, dossier_limits
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.evidence_dossier import (
    EvidenceDossier,
    build_evidence_dossier,
    limit_lines,
)
from preuve.synthesis.lexicon import extended_lexicon
from preuve.synthesis.planner import (
    PLANNER_TASK,
    complete_coverage,
    detect_products,
    product_aliases,
    question_entities,
    rules_plan,
)
from preuve.synthesis.planning import plan_within_budget
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.sizing import merge_findings, scope_groups
from preuve.synthesis.sources import checkers_of
from preuve.synthesis.subagent import (
    SUBAGENT,
    SUBAGENT_TASK,
    SubagentInput,
    finding_from_result,
    not_investigated,
    rules_findings,
)
from preuve.synthesis.synthesizer import SYNTHESIZER_TASK, SynthesisContext, rules_synthesis
from preuve.synthesis.types import (
    ComputedValue,
    Contradiction,
    Finding,
    Plan,
    SubTask,
    Synthesis,
)
from preuve.synthesis.writing import Written, write_within_budget

__all__ = [
    "RULES_VERSION",
    "RUN_FORMAT",
    "AttemptRecord",
    "DocumentRecord",
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
class DocumentRecord:
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
    # Kept as they are in ``trajectory.json``: an unknown key is refused on read.
    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}

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
    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}  # see AttemptRecord

    @classmethod
    def of(cls, task: str, result: LoopResult[Any], subtask_id: str = "") -> RoleCall:
        attempts = tuple(AttemptRecord.of(a) for a in result.attempts)
        return cls(task, subtask_id, result.status.value, attempts)


@dataclass(frozen=True, slots=True)
class SynthesisRun:
    """Everything one run did and produced (see the module docstring)."""

    question: str
    engine: str
    status: LoopStatus
    documents: tuple[DocumentRecord, ...]
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
    def statements_refused(self) -> int:
        """Statements dropped because their quotes failed the check (as rejected signals)."""
        return sum(len(f.refused) for f in self.findings)

    @property
    def limit_lines(self) -> list[str]:
        return limit_lines(self.limits)

    @property
    def context(self) -> SynthesisContext:
        return SynthesisContext(self.findings, self.sources, self.computed)


@dataclass(frozen=True, slots=True)
class _Call:
    """One sub-agent call where the executor runs it; a refusal comes back as a value."""

    model: Model

    def __call__(self, request: Request) -> Completion | PreuveError:
        try:
            return self.model.complete(request)
        except PreuveError as err:
            return err


class _Answered:
    """Answers already computed elsewhere, given back in this process so that the run's
    wrappers (the journal) record them as if called here."""

    def __init__(self, identity: ModelIdentity, answers: Mapping[int, Completion | PreuveError]):
        self._identity = identity
        self.answers = answers

    @property
    def identity(self) -> ModelIdentity:
        return self._identity

    def complete(self, request: Request) -> Completion:
        answer = self.answers[id(request)]
        if isinstance(answer, PreuveError):
            raise answer
        return answer


@dataclass(frozen=True, slots=True)
class _RemoteCalls:
    """Sub-agent calls on a remote executor (Ray: one task per call of a round); the
    answers pass through ``wrap`` here (the journal), in the requests' order."""

    executor: Executor
    model: Model
    wrap: Callable[[Model], Model]

    def complete(self, requests: Sequence[Request]) -> list[Completion | PreuveError]:
        answers = self.executor.map(_Call(self.model), requests)
        local = self.wrap(
            _Answered(
                self.model.identity, {id(r): a for r, a in zip(requests, answers, strict=True)}
            )
        )
        return [_Call(local)(request) for request in requests]


def _drive(
    model: Model,
    flows: Sequence[VerificationFlow[Finding]],
    concurrency: int,
    remote: _RemoteCalls | None = None,
) -> list[LoopResult[Finding] | BudgetError]:
    """Drive the flows together: each round sends every pending request concurrently
    (on ``remote``'s executor when there is one)."""
    pending = {i: next(flow) for i, flow in enumerate(flows)}
    results: dict[int, LoopResult[Finding] | BudgetError] = {}
    while pending:
        order = list(pending)
        requests = [pending[i] for i in order]
        outcomes = (
            remote.complete(requests)
            if remote is not None
            else complete_many(model, requests, concurrency=concurrency)
        )
        pending = {}
        for index, outcome in zip(order, outcomes, strict=True):
            if isinstance(outcome, BudgetError):
                try:  # a re-ask over budget ends the flow; a first request raises it back
                    pending[index] = flows[index].send(outcome)
                except StopIteration as stop:
                    results[index] = stop.value
                except BudgetError:
                    results[index] = outcome  # this sub-task alone is too long to be read
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
    plan: Plan,
    dossier: Dossier,
    products: Sequence[str],
    model: Model,
    concurrency: int,
    *,
    remote: _RemoteCalls | None = None,
) -> tuple[tuple[Finding, ...], tuple[RoleCall, ...]]:
    """Every sub-agent, concurrently; a failed sub-task is kept as NOT INVESTIGATED."""
    lexicon = extended_lexicon(dossier.lexicon)
    scopes = [
        tuple(d for d in (dossier.get(i) for i in t.scope) if d is not None) for t in plan.subtasks
    ]

    def given(task: SubTask, documents: Sequence[Document]) -> SubagentInput:
        return SubagentInput(
            task,
            tuple(documents),
            dossier.question,
            tuple(products),
            catalogue=dossier.documents,
            aliases=product_aliases(dossier.question, products),
            lexicon=dossier.lexicon,
            checkers=checkers_of(documents),  # each normalized once for both attempts
            lexicon_object=lexicon,
        )

    def request(task: SubTask, documents: Sequence[Document]) -> Request:
        return SUBAGENT.request(given(task, documents))

    # each sub-task's documents in as many requests as the model's window needs (sizing.py)
    parts = [
        (index, task, group)
        for index, (task, documents) in enumerate(zip(plan.subtasks, scopes, strict=True))
        for group in scope_groups(model, documents, partial(request, task))
    ]
    flows = [SUBAGENT.flow(given(task, g)) for _, task, g in parts]
    found: list[list[Finding]] = [[] for _ in plan.subtasks]
    calls = []
    driven = _drive(model, flows, concurrency, remote)
    for (index, task, group), result in zip(parts, driven, strict=True):
        read = tuple(d.doc_id for d in group)
        if isinstance(result, BudgetError):
            found[index].append(not_investigated(task, result.one_line(), read))
            continue
        found[index].append(finding_from_result(task, result, read))
        calls.append(RoleCall.of(SUBAGENT_TASK, result, task.id))
    findings = [merge_findings(task, f) for task, f in zip(plan.subtasks, found, strict=True)]
    return tuple(findings), tuple(calls)


def _records(dossier: Dossier) -> tuple[DocumentRecord, ...]:
    infos = dossier.source_infos()
    return tuple(
        DocumentRecord(d.doc_id, d.title, i.date, i.source_type, i.declared_rank)
        for d, i in ((d, infos[d.doc_id]) for d in dossier.documents)
    )


def synthesize(
    dossier: Dossier,
    runtime: Runtime | Model,
    *,
    journal: Journal | None = None,
    run_id: str | None = None,
    concurrency: int | None = None,
    executor: Executor | None = None,
) -> SynthesisRun:
    """Run workflow 2 on ``dossier`` (see the module docstring); every call goes through the
    runtime (budget, endpoint limit, recorder, progress). ``concurrency`` sub-agents are
    asked at once (default: the runtime's). With a ``journal`` (or a runtime that
    journals: :meth:`Runtime.journaling`), every call is recorded under ``run_id`` (the
    runtime's, else a fresh one, by default). On a remote ``executor`` (Ray) the
    sub-agents' calls run as its tasks, the plan, the checks and the synthesis here."""
    given = as_runtime(runtime)
    run = run_id or given.run_id or uuid.uuid4().hex
    given = given.journaling(journal or given.journal, run)
    shipped = given.model(synthesis_rules_model, journaled=False)  # to a remote executor
    model = given.journaled(shipped)
    concurrency = given.concurrency if concurrency is None else concurrency
    engine = engine_label(model)
    # on a remote executor, the sub-agents' answers are journaled here when they come back
    remote = (
        _RemoteCalls(executor, shipped, given.journaled) if executor and executor.remote else None
    )
    texts = [f"{d.title}\n{d.text}" for d in dossier.documents]
    lexicon = extended_lexicon(dossier.lexicon)
    products = detect_products(dossier.question, texts, lexicon)
    # the other names of the question (a company, a vendor) are subjects of their own
    subjects = (*products, *question_entities(dossier.question, texts, products))
    planned = plan_within_budget(dossier, model, products)
    base = SynthesisRun(
        question=dossier.question,
        engine=engine,
        status=LoopStatus.REFUSED,
        documents=_records(dossier),
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
    findings, subagent_calls = _investigate(
        plan, dossier, subjects, model, concurrency, remote=remote
    )
    evidence = build_evidence_dossier(dossier.question, plan, findings, dossier.source_infos())
    written = write_within_budget(evidence, model, engine)
    return _finished(base, plan, evidence, written, subagent_calls)


def _finished(
    base: SynthesisRun,
    plan: Plan,
    evidence: EvidenceDossier,
    written: Written,
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
        synthesis=written.synthesis,
        defects=written.defects,
        calls=(
            *base.calls,
            *subagent_calls,
            *(RoleCall.of(SYNTHESIZER_TASK, part) for part in written.parts),
        ),
    )
