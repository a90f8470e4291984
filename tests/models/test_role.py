"""One Role, one driver: ask → check → re-ask once → keep what verified, or refuse.

The driver is exercised on a small role declared here (a list of words, each checked
against the input): every outcome a role can have, table-driven. Then the workflows' own
declarations: each is a ``Role``, its rules implementation is the one the rules engine
registers, and it answers from the rendered prompt alone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

from preuve.core.defects import Defect
from preuve.core.errors import BudgetError, ModelError
from preuve.models.base import Completion, Message, Request
from preuve.models.loop import REASK_INTRO, Checked, LoopStatus
from preuve.models.role import Role
from preuve.models.scripted import Answer, ScriptedModel

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"words": {"type": "array", "items": {"type": "string"}}},
    "required": ["words"],
    "additionalProperties": False,
}


@dataclass(frozen=True, slots=True)
class Text:
    text: str


def _render(given: Text) -> tuple[Message, ...]:
    return (Message("system", "List words of the text."), Message("user", f"Text: {given.text}"))


def _check(given: Text, value: Any) -> Checked[tuple[str, ...]]:
    words = tuple(str(w) for w in value["words"])
    kept = tuple(w for w in words if w in given.text.split())
    foreign = tuple(
        Defect("word_not_in_text", f"{w!r} is not a word of the text", path=f"words[{i}]")
        for i, w in enumerate(words)
        if w not in kept
    )
    return Checked.partial(kept, foreign)


def _rules(request: Request) -> str:
    text = request.messages[-1].content.removeprefix("Text: ")
    return json.dumps({"words": text.split()[:2]})


WORDS: Role[Text, tuple[str, ...]] = Role(
    task="test.words", render=_render, schema=lambda _: SCHEMA, check=_check, rules=_rules
)
GIVEN = Text("alpha beta gamma")


def words(*items: str) -> str:
    return json.dumps({"words": list(items)})


TRUNCATED = Completion('{"words": ["alpha"', "length", 5, 384)
OVER = BudgetError("input of 9000 tokens exceeds the budget of 8000", fix="shorten")


@pytest.mark.parametrize(
    ("script", "status", "value", "partial", "attempts", "codes"),
    [
        pytest.param([words("alpha")], "VALID", ("alpha",), ("alpha",), 1, [], id="valid"),
        pytest.param([words("alpha", "zeta"), words("alpha")], "VALID", ("alpha",),
                     ("alpha",), 2, [], id="fixed-on-the-re-ask"),
        pytest.param([words("alpha", "zeta"), words("beta", "eta")], "REFUSED", None,
                     ("beta",), 2, ["word_not_in_text"], id="partial-keeps-the-last-verified"),
        pytest.param([words("alpha", "zeta"), "no json"], "REFUSED", None, ("alpha",), 2,
                     ["not_json"], id="partial-of-the-last-answer-that-parsed"),
        pytest.param(["no json", "still none"], "REFUSED", None, None, 2, ["not_json"],
                     id="refused-nothing-kept"),
        pytest.param([TRUNCATED, TRUNCATED], "REFUSED", None, None, 2, ["truncated"],
                     id="truncated-never-checked"),
        pytest.param([ModelError("503"), ModelError("503")], "ERROR", None, None, 2,
                     ["model_error"], id="error-no-answer-arrived"),
        pytest.param([ModelError("503"), words("gamma")], "VALID", ("gamma",), ("gamma",), 2,
                     [], id="error-then-answer"),
        pytest.param([words("zeta"), OVER], "REFUSED", None, (), 1,
                     ["word_not_in_text", "reask_over_budget"], id="re-ask-over-budget"),
    ],
)  # fmt: skip
def test_the_driver(
    *,
    script: Sequence[Answer],
    status: str,
    value: tuple[str, ...] | None,
    partial: tuple[str, ...] | None,
    attempts: int,
    codes: list[str],
) -> None:
    model = ScriptedModel(script)
    result = WORDS.ask(model, GIVEN)
    assert result.status is LoopStatus(status)
    assert result.value == value
    assert result.partial == partial
    assert len(result.attempts) == attempts
    assert [d.code for d in result.defects] == codes


def test_the_re_ask_sends_the_answer_and_its_defects_back_once() -> None:
    model = ScriptedModel([words("zeta"), words("eta"), words("alpha")])
    result = WORDS.ask(model, GIVEN)
    assert result.status is LoopStatus.REFUSED and len(model.requests) == 2
    first, second = model.requests
    assert second.messages[: len(first.messages)] == first.messages
    assert second.messages[-2] == Message("assistant", words("zeta"))
    assert REASK_INTRO in second.messages[-1].content and "'zeta'" in second.messages[-1].content


def test_an_input_over_budget_is_never_sent() -> None:
    with pytest.raises(BudgetError):
        WORDS.ask(ScriptedModel([OVER]), GIVEN)


def test_without_re_ask_one_attempt() -> None:
    once = replace(WORDS, reask=False)
    result = once.ask(ScriptedModel([words("zeta"), words("alpha")]), GIVEN)
    assert result.status is LoopStatus.REFUSED and len(result.attempts) == 1


def test_the_rules_implementation_answers_from_the_rendered_prompt() -> None:
    request = WORDS.request(GIVEN)
    assert request.payload == {} and request.task == "test.words"
    assert WORDS.ask(ScriptedModel([WORDS.rules(request)]), GIVEN).value == ("alpha", "beta")
