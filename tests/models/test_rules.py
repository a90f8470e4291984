"""The rules engine as a Model: dispatch on the task, the rendered prompt in, JSON text out."""

from __future__ import annotations

import json

import pytest

from preuve.core.errors import ConfigError
from preuve.models import Model, RulesModel
from preuve.models.base import ModelIdentity, Request, messages_of
from preuve.models.budget import EstimatingCounter, estimate_text_tokens, is_estimated


def count_words(request: Request) -> str:
    text = request.messages[-1].content.removeprefix("Count the words of: ")
    return json.dumps({"words": len(text.split())})


RULES = RulesModel({"digest.count": count_words}, version="rules-1")
REQUEST = Request(
    messages_of([("user", "Count the words of: one two three")]),
    task="digest.count",
)


def test_the_handler_reads_the_prompt_and_returns_json() -> None:
    completion = RULES.complete(REQUEST)
    assert json.loads(completion.text) == {"words": 3}
    assert completion.finish_reason == "stop"
    assert is_estimated(completion)
    assert completion.prompt_tokens == EstimatingCounter().count_prompt_tokens(REQUEST.messages)
    assert completion.generated_tokens == estimate_text_tokens(completion.text)
    assert isinstance(RULES, Model)


def test_identity_says_rules_with_its_code_version() -> None:
    assert RULES.identity == ModelIdentity("rules", "rules", version="rules-1")
    assert RULES.identity.label() == "rules:rules"


def test_an_unknown_task_is_a_one_line_config_error() -> None:
    with pytest.raises(ConfigError) as caught:
        RULES.complete(Request(REQUEST.messages, task="memo.writer"))
    assert str(caught.value) == (
        "the rules engine has no implementation for task 'memo.writer'"
        " (known tasks: digest.count)"
        " (use a task the rules engine implements, or choose an LLM with --model)"
    )


def test_handlers_are_fixed_at_construction() -> None:
    handlers = {"digest.count": count_words}
    model = RulesModel(handlers, version="v")
    handlers["memo.writer"] = count_words
    assert model.tasks == ("digest.count",)


def test_a_version_is_required() -> None:
    with pytest.raises(ValueError, match="code version"):
        RulesModel({}, version="")
