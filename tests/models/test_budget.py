"""Budgets: counted with the template (or a declared estimate), refused before the call."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.errors import BudgetError
from preuve.models import (
    BudgetedModel,
    EstimatingCounter,
    RecordingModel,
    ScriptedModel,
    check_budget,
    counter_for,
    is_truncated,
)
from preuve.models.base import Completion, Message, ModelIdentity, Request, messages_of
from preuve.models.budget import (
    check_context_window,
    context_window_of,
    estimate_text_tokens,
    input_budget,
)


class TokenizerModel(ScriptedModel):
    """A backend with its own tokenizer, as the hf backend exposes it."""

    tokens_exact = True

    def count_prompt_tokens(self, messages: Sequence[Message]) -> int:
        return 100 * len(messages)


def ask(text: str, task: str = "memo.writer") -> Request:
    return Request(messages_of([("system", "Write."), ("user", text)]), task=task)


@pytest.mark.parametrize(
    ("contents", "expected"),
    [
        ((), 3),
        (("",), 7),
        (("abc",), 1 + 4 + 3),
        (("a" * 7, "b" * 8), 5 + 8 + 3),  # ceil(15 / 3.5) = 5
    ],
    ids=["no-message", "empty-message", "short", "two-messages"],
)
def test_the_declared_estimate(contents: tuple[str, ...], expected: int) -> None:
    messages = [Message("user", c) for c in contents]
    assert EstimatingCounter().count_prompt_tokens(messages) == expected


@given(st.lists(st.text(max_size=200), max_size=6), st.text(min_size=1, max_size=50))
def test_the_estimate_grows_with_the_input(contents: list[str], extra: str) -> None:
    counter = EstimatingCounter()
    messages = [Message("user", c) for c in contents]
    longer = [*messages, Message("user", extra)]
    assert counter.count_prompt_tokens(longer) > counter.count_prompt_tokens(messages)


def test_under_budget_returns_the_count_and_calls_the_model() -> None:
    inner = ScriptedModel(["done"])
    model = BudgetedModel(inner, max_input_tokens=50)
    assert model.complete(ask("short")).text == "done"
    assert check_budget(inner, ask("short"), 50) == 4 + 8 + 3  # ceil(11 / 3.5) = 4


def test_over_budget_is_refused_before_the_call_and_says_estimated() -> None:
    inner = ScriptedModel(["never sent"])
    model = BudgetedModel(inner, max_input_tokens=20)
    with pytest.raises(BudgetError) as caught:
        model.complete(ask("x" * 70))
    assert inner.requests == []  # refused before the call, nothing truncated
    assert str(caught.value) == (
        "input for task memo.writer is 33 tokens (estimated: characters/3.5 + 4 per message + 3),"
        " over its budget of 20; nothing was sent and nothing truncated"
        " (shorten the input (fewer or smaller documents) or raise the budget)"
    )


def test_a_model_with_a_tokenizer_counts_itself_even_when_wrapped(tmp_path: Path) -> None:
    backend = TokenizerModel(["ok"])
    wrapped = RecordingModel(backend, tmp_path / "calls.jsonl")
    counter = counter_for(BudgetedModel(wrapped, 1000))
    assert counter.exact
    assert counter.count_prompt_tokens(ask("anything").messages) == 200
    with pytest.raises(BudgetError, match="counted with the model's tokenizer and chat template"):
        check_budget(BudgetedModel(backend, 1000), ask("anything"), 150)


def test_a_model_without_a_tokenizer_uses_the_estimate() -> None:
    counter = counter_for(ScriptedModel())
    assert isinstance(counter, EstimatingCounter) and not counter.exact


@pytest.mark.parametrize(
    ("finish", "truncated"),
    [("stop", False), ("length", True), ("error", False)],
    ids=["stop", "length", "error"],
)
def test_is_truncated(finish: str, truncated: bool) -> None:
    completion = Completion("{", finish, 1, 1)  # type: ignore[arg-type]
    assert is_truncated(completion) is truncated


def test_estimate_text_tokens() -> None:
    assert [estimate_text_tokens(t) for t in ("", "abc", "abcd", "a" * 35)] == [0, 1, 2, 10]


def test_budget_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        BudgetedModel(ScriptedModel(), 0)


def test_budgeted_model_keeps_the_identity() -> None:
    inner = ScriptedModel(name="x")
    assert BudgetedModel(inner, 10).identity == ModelIdentity("scripted", "x")


class _Windowed:
    def __init__(self, window: object) -> None:
        self.context_window = window


class _Wrapper:
    def __init__(self, inner: object) -> None:
        self.inner = inner


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        (_Wrapper(_Windowed(8192)), 8192),
        (_Windowed(None), None),
        (_Windowed(True), None),
        (_Windowed(0), None),
        (object(), None),
    ],
    ids=["wrapped", "unknown", "bool", "zero", "none"],
)
def test_context_window_of(model: object, expected: int | None) -> None:
    assert context_window_of(model) == expected


@pytest.mark.parametrize(
    ("window", "new", "cap", "expected"),
    [(8192, 2048, None, 6144), (8192, 2048, 1000, 1000), (None, 2048, 1000, 1000)],
    ids=["window", "capped", "no-window"],
)
def test_input_budget(window: int | None, new: int, cap: int | None, expected: int) -> None:
    assert input_budget(_Windowed(window), new, cap=cap) == expected


def test_input_budget_without_room_is_refused() -> None:
    with pytest.raises(BudgetError, match="leaves no room for a prompt"):
        input_budget(_Windowed(100), 100)


def test_check_context_window_counts_the_answer_room() -> None:
    counter = EstimatingCounter()
    request = Request(messages_of([("user", "x" * 35)]), task="t", max_new_tokens=10)
    counted = counter.count_prompt_tokens(request.messages)  # 10 + 4 + 3 = 17
    assert check_context_window(counter, request, counted + 10) == counted
    with pytest.raises(BudgetError, match=f"is {counted} tokens"):
        check_context_window(counter, request, counted + 9)
    with pytest.raises(BudgetError, match="do not fit the model's context window of 10"):
        check_context_window(counter, request, 10)
