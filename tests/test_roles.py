"""The six roles are six declarations of one ``Role``, and their rules implementations
read the rendered prompt: a model and the rules engine are given the same input.

Each workflow runs on its bundled material with the rules engine behind a recorder; every
request is then checked for its payload: none carries one. The only payloads are
configuration a user gives, pinned here (and in docs/architecture.md): a dossier's
``lexicon.toml`` for the planner and the sub-agent, a digest's own ``grammar.json`` for the
map and the reduce.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from preuve.core.documents import Document, Snapshot
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import MAP, REDUCE, DigestSettings, summarize_leaf, summarize_reduce
from preuve.loaders import load_dossier
from preuve.memo.pipeline import run_memo
from preuve.memo.reader import READER
from preuve.memo.rules_engine import MEMO_RULES_HANDLERS, memo_rules_model
from preuve.memo.writer import WRITER
from preuve.models.base import Completion, Model, ModelIdentity, Request
from preuve.models.journal import Journal
from preuve.models.role import Role
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


@pytest.mark.parametrize("role", list(ROLES.values()), ids=lambda r: r.task)
def test_no_rules_implementation_gets_a_payload(sent: list[Request], role: Role[Any, Any]) -> None:
    requests = [r for r in sent if r.task == role.task]
    assert requests and all(r.payload == {} for r in requests)


def test_a_dossier_lexicon_is_the_only_payload_of_the_planner_and_the_sub_agent(
    tmp_path: Path,
) -> None:
    extension = {"stopwords": {"words": ["tracker"]}}
    bundled = load_dossier(generate_synthesis_dossier(tmp_path / "synthesis").dossier)
    dossier = replace(bundled, lexicon=MappingProxyType(extension))
    recorder = Recorder(synthesis_rules_model())
    synthesize(dossier, recorder, concurrency=1)
    carried = {(r.task, frozenset(r.payload)) for r in recorder.requests}
    assert carried == {
        (PLANNER.task, frozenset({"lexicon"})),
        (SUBAGENT.task, frozenset({"lexicon"})),
        (SYNTHESIZER.task, frozenset()),
    }
    assert all(r.payload["lexicon"] == extension for r in recorder.requests if r.payload)
