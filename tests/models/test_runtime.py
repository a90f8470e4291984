"""The Runtime: every model call of every workflow goes through its budget and its limit."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import preuve
from preuve.core.defects import Defect
from preuve.core.documents import Document, Snapshot
from preuve.core.errors import BudgetError
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.digest.build import build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.schema import TASK_MAP, TASK_REDUCE, NodeStatus
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import load_documents
from preuve.io.stores import SqliteStore
from preuve.loaders import load_dossier
from preuve.memo.pipeline import run_memo
from preuve.memo.reader import READER_TASK
from preuve.memo.rules_engine import memo_rules_model
from preuve.memo.writer import WRITER_TASK
from preuve.models.base import (
    Completion,
    Model,
    ModelIdentity,
    Request,
    messages_of,
    wrapped_models,
)
from preuve.models.budget import DEFAULT_CONTEXT_WINDOW, BudgetedModel, context_window_of
from preuve.models.journal import Journal, JournaledModel
from preuve.models.loop import Checked, LoopStatus, ask_verified
from preuve.models.pool import LimitedModel
from preuve.models.replay import RecordingModel, ReplayModel
from preuve.models.runtime import Runtime, as_runtime
from preuve.models.scripted import ScriptedModel
from preuve.models.settings import Settings
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.synthesis.planner import PLANNER_TASK
from preuve.synthesis.subagent import SUBAGENT_TASK
from preuve.synthesis.synthesizer import SYNTHESIZER_TASK

SENTENCE = "Le chiffre d'affaires de Acme SA atteint 12 millions d'euros en 2024. "


@pytest.fixture(scope="module")
def dossier(tmp_path_factory: pytest.TempPathFactory) -> Dossier:
    return load_dossier(generate_synthesis_dossier(tmp_path_factory.mktemp("runtime")).dossier)


def _snapshot() -> Snapshot:
    return Snapshot.of(
        Document(f"doc-0{i}", 1, f"Doc {i}", f"2024-01-0{i + 1}", "report", (SENTENCE * 40,))
        for i in range(3)
    )


def _big(tokens: int) -> Request:
    return Request(messages_of([("user", "x" * int(tokens * 3.5))]), task="t", max_new_tokens=8)


def test_the_model_is_wrapped_budget_outermost_then_limit_then_recorder(tmp_path: Path) -> None:
    settings = Settings(record=tmp_path / "calls.jsonl", concurrency=3)
    runtime = Runtime(settings, backend=ScriptedModel())
    model = runtime.model(synthesis_rules_model)
    assert isinstance(model, BudgetedModel) and isinstance(model.inner, LimitedModel)
    assert isinstance(model.inner.inner, RecordingModel)
    assert model.inner.limits is runtime.limits and runtime.limits.per_endpoint == 3
    assert runtime.wrap(model) is model  # a runtime's model is never wrapped twice


@pytest.mark.parametrize(
    ("window", "announced", "budget"),
    [
        pytest.param(None, None, DEFAULT_CONTEXT_WINDOW - 8, id="fallback-window-not-announced"),
        pytest.param(4096, 4096, 4096 - 8, id="declared-window-announced"),
    ],
)
def test_every_call_has_a_budget_even_without_a_declared_window(
    window: int | None, announced: int | None, budget: int
) -> None:
    scripted = ScriptedModel(["ok"])
    model = Runtime(Settings(context_window=window), backend=scripted).model(ScriptedModel)
    assert context_window_of(model) == announced
    with pytest.raises(BudgetError, match=f"over its budget of {budget}; nothing was sent"):
        model.complete(_big(budget + 1))
    assert scripted.requests == []


def test_a_bare_model_given_to_a_workflow_gets_a_budget_too() -> None:
    scripted = ScriptedModel()
    model = as_runtime(scripted).model(ScriptedModel)
    with pytest.raises(BudgetError, match="nothing was sent"):
        model.complete(_big(DEFAULT_CONTEXT_WINDOW))
    assert scripted.requests == []


def test_the_spec_is_loaded_once_and_rules_mean_each_workflows_engine(tmp_path: Path) -> None:
    rules = Runtime(Settings(model="rules"))
    assert rules.model(synthesis_rules_model).identity == synthesis_rules_model().identity
    assert rules.model(rules_summarizer).identity == rules_summarizer().identity
    recording = tmp_path / "calls.jsonl"
    recording.write_text("", encoding="utf-8")
    replay = Runtime(Settings(model=f"replay:{recording}"))
    first, second = replay.model(synthesis_rules_model), replay.model(rules_summarizer)
    innermost = [list(wrapped_models(m))[-1] for m in (first, second)]
    assert isinstance(innermost[0], ReplayModel) and innermost[0] is innermost[1]


# --- every workflow's calls go through the budget ------------------------------------------


def test_memo_refuses_an_input_over_the_runtime_budget_and_sends_nothing(tmp_path: Path) -> None:
    scripted = ScriptedModel()
    runtime = Runtime(Settings(context_window=2600), backend=scripted)  # 552 after 2048 out
    pages = ["Acme SA, rapport annuel 2024. " + SENTENCE * 60]
    with (
        Journal(tmp_path / "journal.sqlite") as journal,
        pytest.raises(BudgetError, match="over its budget of 552; nothing was sent"),
    ):
        run_memo([Document.from_pages("acme.pdf", pages)], runtime, journal=journal)
    assert scripted.requests == []


def test_synthesis_refuses_an_input_over_the_runtime_budget_and_sends_nothing(
    dossier: Dossier,
) -> None:
    scripted = ScriptedModel()
    runtime = Runtime(Settings(context_window=400), backend=scripted)
    with pytest.raises(
        BudgetError,
        match=r"task synthesis\.planner is \d+ tokens .*, over its budget of \d+; nothing",
    ):
        synthesize(dossier, runtime)
    assert scripted.requests == []


def test_digest_marks_nodes_over_the_runtime_window_invalid_and_sends_nothing(
    tmp_path: Path,
) -> None:
    scripted = ScriptedModel()
    runtime = Runtime(Settings(context_window=500), backend=scripted)
    with SqliteStore(tmp_path / "store.sqlite") as store:
        report = build_digest(_snapshot(), runtime, store, DigestSettings(), dossier="x")
    leaves = [n for n in report.nodes if n.node_id.startswith("leaf:")]
    assert [n.status for n in leaves] == [NodeStatus.INVALID] * 3
    # the map budget is sized within the 500-token window (its answer's room left out)
    assert all(
        n.diagnostic[0].startswith("[over_budget]")
        and "over its budget of 116; nothing was sent and nothing truncated" in n.diagnostic[0]
        for n in leaves
    )
    assert scripted.requests == []


# --- the concurrency limit holds across a workflow -----------------------------------------


class Gauge:
    """A model answering with ``inner`` after a pause; counts calls in flight at once."""

    def __init__(self, inner: Model, pause: float = 0.05) -> None:
        self.inner, self.pause = inner, pause
        self.lock = threading.Lock()
        self.now = self.peak = self.calls = 0

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        with self.lock:
            self.now += 1
            self.calls += 1
            self.peak = max(self.peak, self.now)
        time.sleep(self.pause)
        try:
            return self.inner.complete(request)
        finally:
            with self.lock:
                self.now -= 1


def test_synthesis_sub_agents_never_exceed_the_endpoint_limit(dossier: Dossier) -> None:
    gauge = Gauge(synthesis_rules_model())
    run = synthesize(dossier, Runtime(Settings(concurrency=2), backend=gauge), concurrency=8)
    assert run.status.value == "VALID"
    assert gauge.calls > 3 and gauge.peak == 2


def test_digest_nodes_never_exceed_the_endpoint_limit(tmp_path: Path) -> None:
    gauge = Gauge(rules_summarizer())
    runtime = Runtime(Settings(concurrency=2), backend=gauge)
    with SqliteStore(tmp_path / "store.sqlite") as store:
        build_digest(_snapshot(), runtime, store, DigestSettings(), dossier="x", concurrency=8)
    assert gauge.calls == 4 and gauge.peak == 2  # 3 leaves at once, held to 2; then the root


# --- a re-ask over budget is not sent; the refusal stands on the answer that arrived ------


def test_a_reask_over_budget_is_not_sent_and_the_refusal_keeps_its_defects() -> None:
    huge = '{"x": "' + "A" * 20_000 + '"}'
    scripted = ScriptedModel([huge])
    model = Runtime(Settings(context_window=2_000), backend=scripted).model(ScriptedModel)

    def check(completion: Completion) -> Checked[None]:
        return Checked.reject(Defect("too_large", "the answer is too large"))

    small = Request(messages_of([("user", "hi")]), task="t", max_new_tokens=8)
    result = ask_verified(model, small, check)
    assert result.status is LoopStatus.REFUSED and len(scripted.requests) == 1
    assert [d.code for d in result.defects] == ["too_large", "reask_over_budget"]
    assert "the re-ask was not sent: input for task t is" in result.defects[1].detail


def test_a_first_request_over_budget_is_raised_and_nothing_is_sent() -> None:
    scripted = ScriptedModel(["{}"])
    model = Runtime(Settings(context_window=100), backend=scripted).model(ScriptedModel)
    with pytest.raises(BudgetError, match="over its budget of 92"):
        ask_verified(model, _big(93), lambda c: Checked.accept(None))
    assert scripted.requests == []


# --- every workflow's calls reach the journal through the runtime -------------------------


class Counting:
    """A model answering with ``inner``; keeps the task of every request it receives."""

    def __init__(self, inner: Model) -> None:
        self.inner = inner
        self.tasks: list[str] = []
        self.lock = threading.Lock()

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        with self.lock:
            self.tasks.append(request.task)
        return self.inner.complete(request)


def _memo(runtime: Runtime, tmp_path: Path, dossier: Dossier) -> None:
    report = generate_memo_corpus(tmp_path / "corpus")[0]
    run_memo(load_documents([report]), runtime)  # no journal given: the runtime's


def _synthesis(runtime: Runtime, tmp_path: Path, dossier: Dossier) -> None:
    synthesize(dossier, runtime)


def _digest(runtime: Runtime, tmp_path: Path, dossier: Dossier) -> None:
    with SqliteStore(tmp_path / "store.sqlite") as store:
        build_digest(_snapshot(), runtime, store, DigestSettings(), dossier="x")


@pytest.mark.parametrize(
    ("run", "rules", "tasks"),
    [
        pytest.param(_memo, memo_rules_model, {READER_TASK, WRITER_TASK}, id="memo"),
        pytest.param(
            _synthesis,
            synthesis_rules_model,
            {PLANNER_TASK, SUBAGENT_TASK, SYNTHESIZER_TASK},
            id="synthesis",
        ),
        pytest.param(_digest, rules_summarizer, {TASK_MAP, TASK_REDUCE}, id="digest"),
    ],
)
def test_every_workflow_journals_its_calls_through_the_runtime(
    run: Callable[[Runtime, Path, Dossier], None],
    rules: Callable[[], Model],
    tasks: set[str],
    tmp_path: Path,
    dossier: Dossier,
) -> None:
    backend = Counting(rules())
    with Journal(tmp_path / "journal.sqlite") as journal:
        runtime = Runtime(Settings(), backend=backend).journaling(journal, "run-1")
        run(runtime, tmp_path, dossier)
        recorded = journal.calls("run-1")
        assert journal.run_ids() == ["run-1"]
    assert {call.task for call in recorded} == tasks
    # every call the backend received is journaled once, and nothing else is
    assert sorted(call.task for call in recorded) == sorted(backend.tasks)
    assert all(call.status == "ok" for call in recorded)


def test_a_journaled_model_is_built_by_the_runtime_only() -> None:
    """The one place journaling is wired: no workflow wraps a model in a journal itself."""
    source = Path(preuve.__file__).parent
    builders = sorted(
        str(path.relative_to(source))
        for path in source.rglob("*.py")
        if "JournaledModel(" in path.read_text(encoding="utf-8")
    )
    assert builders == ["models/runtime.py"]


def test_a_runtime_without_a_journal_journals_nothing_and_one_journal_wraps_once(
    tmp_path: Path,
) -> None:
    plain = Runtime(Settings(), backend=ScriptedModel())
    assert plain.journaling(None, "r") is plain
    assert not any(
        isinstance(m, JournaledModel) for m in wrapped_models(plain.model(ScriptedModel))
    )
    with Journal(tmp_path / "journal.sqlite") as journal:
        journaled = plain.journaling(journal, "r")
        model = journaled.model(ScriptedModel)
        assert journaled.journaled(model) is model
        layers = [m for m in wrapped_models(model) if isinstance(m, JournaledModel)]
        assert len(layers) == 1 and layers[0].run_id == "r"
        # the derived runtime shares the endpoint limit (and the loaded backend)
        assert journaled.limits is plain.limits
