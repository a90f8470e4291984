"""The test doubles shipped in preuve.models: a scripted queue and a function model."""

from __future__ import annotations

import pytest

from preuve.core.errors import ModelError
from preuve.models import FunctionModel, Model, ScriptedModel, ScriptExhaustedError
from preuve.models.base import Completion, Request, messages_of
from preuve.models.budget import is_estimated

ASK = Request(messages_of([("user", "Which page?")]), task="memo.reader")


def test_scripted_answers_in_order_and_records_requests() -> None:
    exact = Completion("second", "length", 5, 384)
    model = ScriptedModel(["first", exact])
    other = Request(messages_of([("user", "Again?")]))

    first, second = model.complete(ASK), model.complete(other)

    assert (first.text, first.finish_reason, is_estimated(first)) == ("first", "stop", True)
    assert first.prompt_tokens == 4 + 4 + 3  # ceil(11 / 3.5) + one message + priming
    assert second is exact
    assert model.requests == [ASK, other]
    assert model.remaining == 0
    assert isinstance(model, Model)


def test_scripted_raises_a_scripted_exception() -> None:
    model = ScriptedModel([ModelError("endpoint down"), "ok"])
    with pytest.raises(ModelError, match="endpoint down"):
        model.complete(ASK)
    assert model.complete(ASK).text == "ok"


def test_an_empty_script_says_so_clearly() -> None:
    model = ScriptedModel(["only"], name="reader")
    model.complete(ASK)
    with pytest.raises(ScriptExhaustedError) as caught:
        model.complete(ASK)
    assert str(caught.value) == (
        "scripted model 'reader' has no answer left for request 2 (task 'memo.reader'):"
        " it was given 1; add answers to the script"
    )
    assert not isinstance(caught.value, ModelError)  # a loop must not swallow a test bug
    assert len(model.requests) == 2


def test_add_appends_answers() -> None:
    model = ScriptedModel()
    model.add("a", "b")
    assert [model.complete(ASK).text for _ in range(2)] == ["a", "b"]


def test_function_model_answers_with_its_function() -> None:
    def echo_task(request: Request) -> str:
        return f"task={request.task}"

    model = FunctionModel(echo_task)
    assert model.complete(ASK).text == "task=memo.reader"
    assert model.requests == [ASK]
    assert model.identity.label() == "function:echo_task"
    assert FunctionModel(echo_task, name="x").identity.name == "x"
