"""Sub-agent requests sized from the model's context window (preuve.synthesis.sizing): a
sub-task's documents are split, in order and never cut, into requests that each fit the
window less the answer's room; the findings of one sub-task are merged into one."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from preuve.core.documents import Document
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.loaders import load_dossier
from preuve.models.base import Completion, Model, ModelIdentity, Request, messages_of
from preuve.models.budget import counter_for
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.pipeline import SynthesisRun, _investigate, synthesis_rules_model, synthesize
from preuve.synthesis.sizing import merge_findings, scope_groups
from preuve.synthesis.subagent import SUBAGENT_TASK, rendered_documents
from preuve.synthesis.types import Finding, FindingStatus, Statement, SubTask


class Windowed:
    """The rules engine behind a declared context window; records what is sent."""

    def __init__(self, window: int | None) -> None:
        self.inner: Model = synthesis_rules_model()
        self.context_window = window
        self.requests: list[Request] = []

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        self.requests.append(request)
        return self.inner.complete(request)


@pytest.fixture(scope="module")
def dossier(tmp_path_factory: pytest.TempPathFactory) -> Dossier:
    return load_dossier(generate_synthesis_dossier(tmp_path_factory.mktemp("sizing")).dossier)


@pytest.fixture(scope="module")
def unsplit(dossier: Dossier) -> SynthesisRun:
    return synthesize(dossier, synthesis_rules_model(), concurrency=1)


def _run(
    dossier: Dossier, unsplit: SynthesisRun, window: int | None
) -> tuple[tuple[Finding, ...], list[Request]]:
    """The sub-agents of the unsplit run's plan, asked through a model of that window (the
    planner's own request is not split: over a small window the runtime refuses it)."""
    model = Windowed(window)
    assert unsplit.plan is not None
    findings, _ = _investigate(unsplit.plan, dossier, unsplit.products, model, 1)
    return findings, [r for r in model.requests if r.task == SUBAGENT_TASK]


# The bundled dossier's 7 sub-agent requests (declared estimate, each document rendered
# whole for its quotes, the dossier's other documents listed by id, date, type and title)
# with 1 536 new tokens each: a window of 1 536 + 1 900 splits them into 12 requests. (The
# listing adds about 650 tokens to every request: before it was rendered, when the rules
# engine read it from a payload, a window of 1 536 + 1 100 split them into 16 requests.)
@pytest.mark.parametrize(
    ("window", "requests"), [(None, 7), (8192, 7), (1536 + 1900, 12)], ids=["none", "8k", "small"]
)
def test_every_sub_agent_request_fits_the_window(
    dossier: Dossier, unsplit: SynthesisRun, window: int | None, requests: int
) -> None:
    findings, sent = _run(dossier, unsplit, window)
    assert len(sent) == requests
    counter = counter_for(Windowed(window))
    if window is not None:
        assert all(counter.count_prompt_tokens(r.messages) + 1536 <= window for r in sent)
    whole = unsplit
    assert [f.subtask_id for f in findings] == [f.subtask_id for f in whole.findings]
    for finding, one in zip(findings, whole.findings, strict=True):
        assert finding.status is FindingStatus.OK
        assert set(finding.docs_read) == set(one.docs_read)  # every document read once
    read = [d["id"] for r in sent for d in rendered_documents(r)]
    assert sorted(read) == sorted(d for f in whole.findings for d in f.docs_read)


# Three documents whose requests count 100, 1 000 and 100 tokens (+ 7 of message overhead).
SIZES = {"doc-01": 350, "doc-02": 3500, "doc-03": 350}


@pytest.mark.parametrize(
    ("window", "groups"),
    [
        (None, [["doc-01", "doc-02", "doc-03"]]),
        (100 + 2000, [["doc-01", "doc-02", "doc-03"]]),
        (100 + 1200, [["doc-01", "doc-02"], ["doc-03"]]),
        (100 + 600, [["doc-01"], ["doc-02"], ["doc-03"]]),  # doc-02 alone does not fit
        (50, [["doc-01", "doc-02", "doc-03"]]),  # no room for the answer: the backend refuses
    ],
    ids=["no-window", "all-fit", "two-groups", "one-too-long", "no-room"],
)
def test_scope_groups(dossier: Dossier, window: int | None, groups: list[list[str]]) -> None:
    documents = [d for d in dossier.documents if d.doc_id in SIZES]

    def build(group: Sequence[Document]) -> Request:
        text = "x" * sum(SIZES[d.doc_id] for d in group)
        return Request(messages_of([("user", text)]), max_new_tokens=100)

    found = scope_groups(Windowed(window), documents, build)
    assert [[d.doc_id for d in g] for g in found] == groups


STATEMENT = Statement.of("Alpha", "licence", "MIT", "Alpha is MIT.", "doc-01")
SUBTASK = SubTask("s1", "licence", ("doc-01", "doc-02", "doc-03"))


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (
            [
                Finding("s1", (STATEMENT,), ("a",), ("doc-01",)),
                Finding("s1", (), ("a", "b"), ("doc-02",)),
            ],
            Finding("s1", (STATEMENT,), ("a", "b"), ("doc-01", "doc-02")),
        ),
        (
            [
                Finding("s1", (STATEMENT,), (), ("doc-01",)),
                Finding.not_investigated("s1", "too long", ("doc-02",)),
            ],
            Finding("s1", (STATEMENT,), ("not read (doc-02): too long",), ("doc-01",)),
        ),
        (
            [
                Finding.not_investigated("s1", "too long", ("doc-01",)),
                Finding.not_investigated("s1", "timeout", ("doc-02",)),
            ],
            Finding.not_investigated("s1", "too long; timeout", ("doc-01", "doc-02")),
        ),
    ],
    ids=["both-read", "one-failed", "all-failed"],
)
def test_findings_of_one_sub_task_merge(parts: list[Finding], expected: Finding) -> None:
    assert merge_findings(SUBTASK, parts) == expected


def test_an_unsplit_sub_task_keeps_its_finding() -> None:
    finding = Finding("s1", (STATEMENT,), ("a",), ("doc-01",))
    assert merge_findings(SUBTASK, [finding]) is finding
