"""Digest requests sized from the model's context window: budgets within the window less
the answer's room, a document too long for it INVALID before any call, and the sized
budgets in the cache keys (a node judged under one window is not served under another)."""

from __future__ import annotations

from pathlib import Path

import pytest

from preuve.core.errors import BudgetError
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.build import build_digest
from preuve.digest.keys import Budgets
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.schema import NodeStatus
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import load_versions
from preuve.io.stores import SqliteStore
from preuve.models.base import Completion, Model, ModelIdentity, Request
from preuve.models.budget import counter_for
from preuve.models.spec import load_model

SETTINGS = DigestSettings()  # 384 new tokens


class Windowed:
    """The rules summarizer behind a declared context window; records what is sent."""

    def __init__(self, window: int) -> None:
        self.inner: Model = rules_summarizer()
        self.context_window = window
        self.requests: list[Request] = []

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        self.requests.append(request)
        return self.inner.complete(request)


@pytest.mark.parametrize(
    ("window", "budgets"),
    [
        (None, Budgets(2048, 3072, 32768)),
        (65536, Budgets(2048, 3072, 32768)),
        (8192, Budgets(2048, 3072, 8192)),
        (3000, Budgets(2048, 2616, 3000)),
        (1024, Budgets(640, 640, 1024)),
    ],
    ids=["no-window", "larger-than-the-defaults", "smollm2", "between", "small"],
)
def test_budgets_fit_a_spec_declared_window(window: int | None, budgets: Budgets) -> None:
    env = {} if window is None else {"PREUVE_CONTEXT_WINDOW": str(window)}
    spec = "openai:small@http://127.0.0.1:9/v1"  # never called
    model = load_model(spec, rules=None, env=env, allow_network=True)
    assert SETTINGS.sized_for(model).budgets == budgets


def test_a_window_without_room_for_the_answer_is_refused() -> None:
    with pytest.raises(BudgetError, match=r"context window \(384 tokens\) leaves no room"):
        SETTINGS.sized_for(Windowed(384))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest-sizing"))


# test-00's map requests count 829 to 935 tokens (the declared estimate); its reduces fewer.
@pytest.mark.parametrize(
    ("window", "invalid_leaves"),
    [(8192, 0), (1300, 2), (1200, 12)],
    ids=["all-fit", "two-too-long", "none-fit"],
)
def test_no_request_exceeds_the_window_and_too_long_leaves_are_not_sent(
    corpus: CorpusInfo, tmp_path: Path, window: int, invalid_leaves: int
) -> None:
    snapshot = load_versions(corpus.dossier_dir("test-00"))
    model = Windowed(window)
    with SqliteStore(tmp_path / "store.sqlite") as store:
        report = build_digest(snapshot, model, store, SETTINGS)
    counter = counter_for(model)
    assert all(
        counter.count_prompt_tokens(r.messages) + r.max_new_tokens <= window for r in model.requests
    )
    leaves = [n for n in report.nodes if n.node_id.startswith("leaf:")]
    over = [n for n in leaves if n.status is NodeStatus.INVALID]
    assert len(over) == invalid_leaves
    assert all("[over_budget]" in n.diagnostic[0] for n in over)
    sent = {r.subject for r in model.requests if r.task == "digest.map"}
    assert sent.isdisjoint(n.node_id.removeprefix("leaf:") for n in over)


def test_sized_budgets_enter_the_keys(corpus: CorpusInfo, tmp_path: Path) -> None:
    snapshot = load_versions(corpus.dossier_dir("test-00"))
    with SqliteStore(tmp_path / "store.sqlite") as store:
        build_digest(snapshot, Windowed(8192), store, SETTINGS)
        again = Windowed(8192)
        build_digest(snapshot, again, store, SETTINGS)
        other = Windowed(4096)
        build_digest(snapshot, other, store, SETTINGS)
    assert again.requests == [] and len(other.requests) == 16
