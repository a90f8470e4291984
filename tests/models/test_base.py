"""The model seam's helpers: walking a chain of wrappers."""

from __future__ import annotations

from pathlib import Path

from preuve.models import BudgetedModel, JournaledModel, ScriptedModel
from preuve.models.base import wrapped_models
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
