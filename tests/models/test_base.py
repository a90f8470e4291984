"""The model seam's helpers: walking a chain of wrappers."""

from __future__ import annotations

from pathlib import Path

from preuve.models import BudgetedModel, JournaledModel, ScriptedModel
from preuve.models.base import ModelIdentity, wrapped_models
from preuve.models.journal import Journal, secret_values_of


class _Wrapper:
    def __init__(self, inner: object, secret: str = "") -> None:
        self.inner = inner
        self.secret_values = (secret,) if secret else ()


def test_wrapped_models_lists_the_chain_outermost_first(tmp_path: Path) -> None:
    backend = ScriptedModel()
    budgeted = BudgetedModel(backend, 1000)
    with Journal(tmp_path / "j.sqlite") as journal:
        outer = JournaledModel(budgeted, journal, "run")
        assert list(wrapped_models(outer)) == [outer, budgeted, backend]


def test_a_cycle_of_wrappers_ends_the_walk() -> None:
    first = _Wrapper(None, "first-secret")
    second = _Wrapper(first, "second-secret")
    first.inner = second
    assert list(wrapped_models(second)) == [second, first]
    assert secret_values_of(second) == ("second-secret", "first-secret")


def test_the_engine_label_never_passes_rules_off_as_a_model() -> None:
    assert ModelIdentity("rules", "rules", version="memo-rules-2").engine() == "rules"
    assert ModelIdentity("openai", "qwen2.5:1.5b").engine() == "openai:qwen2.5:1.5b"
    assert ModelIdentity("replay", "rules:rules").engine() == "replay:rules:rules"
