"""The six roles are six declarations of one ``Role``, and their rules implementations
read the rendered prompt: a model and the rules engine are given the same input.

Each workflow runs on its bundled material with the rules engine behind a recorder; every
request is then checked for its payload. The memo reader and writer, the digest map and
reduce carry none. What the others still carry, and why, is pinned here (and in
docs/architecture.md): the sub-agent the dossier's lexicon extension (configuration) and
the metadata of documents outside its request (listing them in the prompt would change how
requests are split); the planner the full texts (its prompt shows 240-character openings:
its request is not split); the synthesizer the evidence dossier as data (its prompt is
the same content in prose).
"""

from __future__ import annotations

from typing import Any

import pytest

from preuve.core.documents import Document, Snapshot
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import MAP, REDUCE, DigestSettings, summarize_leaf, summarize_reduce
from preuve.memo.pipeline import run_memo
from preuve.memo.reader import READER
from preuve.memo.rules_engine import MEMO_RULES_HANDLERS, memo_rules_model
from preuve.memo.writer import WRITER
from preuve.models.base import Completion, Model, ModelIdentity, Request
from preuve.models.journal import Journal
from preuve.models.role import Role
from preuve.synthesis.dossier import load_dossier
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.synthesis.planner import PLANNER
from preuve.synthesis.subagent import SUBAGENT
from preuve.synthesis.synthesizer import SYNTHESIZER
from tests.cassettes.record import first_pages

ROLES: dict[str, Role[object, object]] = {
    "memo reader": READER,  # type: ignore[dict-item]
    "memo writer": WRITER,  # type: ignore[dict-item]
    "synthesis planner": PLANNER,  # type: ignore[dict-item]
    "synthesis sub-agent": SUBAGENT,  # type: ignore[dict-item]
    "synthesizer": SYNTHESIZER,  # type: ignore[dict-item]
    "digest summarizer (map)": MAP,  # type: ignore[dict-item]
    "digest summarizer (reduce)": REDUCE,  # type: ignore[dict-item]
}


class Recorder:
    def __init__(self, inner: Model) -> None:
        self.inner = inner
        self.requests: list[Request] = []

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        self.requests.append(request)
        return self.inner.complete(request)


@pytest.mark.parametrize("name", list(ROLES))
def test_each_role_is_one_declaration(name: str) -> None:
    role = ROLES[name]
    assert isinstance(role, Role)
    assert role.task and callable(role.render) and callable(role.check)


def test_the_rules_engines_register_the_declared_implementations() -> None:
    assert dict(MEMO_RULES_HANDLERS) == {READER.task: READER.rules, WRITER.task: WRITER.rules}
    synthesis = synthesis_rules_model()
    assert synthesis.tasks == tuple(sorted(r.task for r in (PLANNER, SUBAGENT, SYNTHESIZER)))
    for role in (PLANNER, SUBAGENT, SYNTHESIZER):
        assert synthesis._handlers[role.task] is role.rules
    digest = rules_summarizer().inner
    assert digest._handlers[MAP.task] is MAP.rules
    assert digest._handlers[REDUCE.task] is REDUCE.rules


@pytest.fixture(scope="module")
def sent(tmp_path_factory: pytest.TempPathFactory) -> list[Request]:
    """Every request the three workflows send on bundled material, rules engine behind."""
    root = tmp_path_factory.mktemp("roles")
    requests: list[Request] = []
    for quotes in ("copy", "select"):
        memo = Recorder(memo_rules_model())
        with Journal(root / f"{quotes}.sqlite") as journal:
            run_memo(first_pages(root / f"memo-{quotes}"), memo, journal=journal, quotes=quotes)
        requests += memo.requests
    synthesis = Recorder(synthesis_rules_model())
    dossier = load_dossier(generate_synthesis_dossier(root / "synthesis").dossier)
    synthesize(dossier, synthesis, concurrency=1)
    requests += synthesis.requests
    digest = Recorder(rules_summarizer())
    docs = [
        Document(f"d{i}", 1, "Note", "", "note", (f"Product P-0{i} status: packed.\n",))
        for i in (1, 2)
    ]
    snapshot = Snapshot.of(docs)
    leaves = [summarize_leaf(d, snapshot, digest, DigestSettings()) for d in docs]
    summarize_reduce(leaves, snapshot, digest, DigestSettings())
    return requests + digest.requests


def test_every_role_was_asked(sent: list[Request]) -> None:
    assert {r.task for r in sent} == {role.task for role in ROLES.values()}


@pytest.mark.parametrize("role", [READER, WRITER, MAP, REDUCE], ids=lambda r: r.task)
def test_these_rules_implementations_get_no_payload(
    sent: list[Request], role: Role[Any, Any]
) -> None:
    requests = [r for r in sent if r.task == role.task]
    assert requests and all(r.payload == {} for r in requests)


def test_what_the_others_still_carry(sent: list[Request]) -> None:
    keys = {(r.task, frozenset(r.payload)) for r in sent if r.payload}
    assert keys == {
        (SUBAGENT.task, frozenset({"catalogue"})),
        (PLANNER.task, frozenset({"question", "products", "lexicon", "entities", "aliases",
                                  "documents"})),
        (SYNTHESIZER.task, frozenset({"question", "subtasks", "contradictions", "computed",
                                      "limits", "documents"})),
    }  # fmt: skip
    catalogues = [r.payload["catalogue"] for r in sent if r.task == SUBAGENT.task]
    assert all(set(d) == {"id", "title", "date", "source_type"} for c in catalogues for d in c)
