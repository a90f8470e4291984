"""Ask → verify in code → re-ask once with the defects → accept or refuse."""

from __future__ import annotations

import json

import pytest

from preuve.core.defects import Defect
from preuve.core.errors import ModelError, VerificationError
from preuve.models import (
    Checked,
    LoopStatus,
    ScriptedModel,
    ask_verified,
    reask_message,
    verification_flow,
)
from preuve.models.base import Completion, Message, Request, messages_of

ASK = Request(
    messages_of([("system", "Answer in JSON."), ("user", "Give the page of the revenue.")]),
    task="memo.reader",
)


def page_check(completion: Completion) -> Checked[int]:
    """A checker as a workflow writes one: parse, then check, listing every defect."""
    try:
        data = json.loads(completion.text)
    except json.JSONDecodeError:
        return Checked.reject(Defect("not_json", "the answer must be one JSON object"))
    page = data.get("page")
    if not isinstance(page, int):
        return Checked.reject(Defect("no_page", "give the page as an integer", path="page"))
    if page > 10:
        return Checked.reject(Defect("page_out_of_range", f"page {page} does not exist (1-10)"))
    return Checked.accept(page)


def exact(text: str, finish: str = "stop") -> Completion:
    return Completion(text, finish, 20, 5, seconds=0.5)  # type: ignore[arg-type]


def test_valid_at_once() -> None:
    model = ScriptedModel([exact('{"page": 3}')])
    result = ask_verified(model, ASK, page_check)
    assert (result.status, result.value, len(result.attempts)) == (LoopStatus.VALID, 3, 1)
    assert result.unwrap() == 3
    assert model.requests == [ASK]


def test_reask_once_with_the_defects_then_valid() -> None:
    model = ScriptedModel([exact('{"page": 42}'), exact('{"page": 4}')])
    result = ask_verified(model, ASK, page_check)

    assert result.status is LoopStatus.VALID and result.value == 4
    assert [a.defects for a in result.attempts] == [
        (Defect("page_out_of_range", "page 42 does not exist (1-10)"),),
        (),
    ]
    reask = model.requests[1]
    assert reask.messages[:2] == ASK.messages
    assert reask.messages[2] == Message("assistant", '{"page": 42}')
    assert reask.messages[3] == Message(
        "user",
        "Your previous answer was checked automatically and refused. Defects:\n"
        "- [page_out_of_range] page 42 does not exist (1-10)\n"
        "Write the whole answer again, in the same format, fixing every defect listed above."
        " Do not explain the changes.",
    )
    assert (reask.task, reask.seed) == (ASK.task, ASK.seed)
    usage = result.usage
    assert (usage.prompt_tokens, usage.generated_tokens, usage.seconds) == (40, 10, 1.0)
    assert not usage.estimated


def test_still_defective_is_refused_with_both_attempts() -> None:
    model = ScriptedModel([exact("page three"), exact('{"pg": 3}')])
    result = ask_verified(model, ASK, page_check)

    assert result.status is LoopStatus.REFUSED and result.value is None
    assert [d.code for a in result.attempts for d in a.defects] == ["not_json", "no_page"]
    assert [a.completion.text for a in result.attempts if a.completion] == [
        "page three",
        '{"pg": 3}',
    ]
    assert result.defects == (Defect("no_page", "give the page as an integer", path="page"),)
    with pytest.raises(VerificationError) as caught:
        result.unwrap()
    assert str(caught.value) == (
        "memo.reader refused after 2 attempt(s): page: [no_page] give the page as an integer"
    )


def test_truncated_is_a_defect_even_if_the_prefix_parses() -> None:
    model = ScriptedModel([exact('{"page": 3}', "length"), exact('{"page": 3}')])
    result = ask_verified(model, ASK, page_check)
    assert result.status is LoopStatus.VALID
    [defect] = result.attempts[0].defects
    assert defect.code == "truncated" and "384 new tokens" in defect.detail


def test_a_model_error_is_an_attempt_and_the_same_request_is_sent_again() -> None:
    model = ScriptedModel([ModelError("endpoint answered HTTP 500"), exact('{"page": 2}')])
    result = ask_verified(model, ASK, page_check)
    assert result.status is LoopStatus.VALID and result.value == 2
    first = result.attempts[0]
    assert (first.completion, first.error) == (None, "endpoint answered HTTP 500")
    assert [d.code for d in first.defects] == ["model_error"]
    assert model.requests == [ASK, ASK]
    assert result.usage.prompt_tokens == 20  # only the answered attempt counts


def test_two_model_errors_are_an_error_not_a_refusal() -> None:
    # Issue 12: no answer ever arrived, so nothing was refused: the status says ERROR.
    model = ScriptedModel([ModelError("down"), ModelError("still down")])
    result = ask_verified(model, ASK, page_check)
    assert result.status is LoopStatus.ERROR
    assert [a.error for a in result.attempts] == ["down", "still down"]


def test_without_reask_one_attempt_only() -> None:
    model = ScriptedModel([exact("nope")])
    result = ask_verified(model, ASK, page_check, reask=False)
    assert result.status is LoopStatus.REFUSED and len(result.attempts) == 1


def test_the_flow_runs_without_any_model() -> None:
    flow = verification_flow(ASK, page_check)
    assert next(flow) is ASK
    second = flow.send(exact('{"page": 99}'))
    assert second.messages[-1].role == "user"
    with pytest.raises(StopIteration) as stop:
        flow.send(exact('{"page": 9}'))
    assert stop.value.value.value == 9


def test_estimated_usage_is_flagged() -> None:
    result = ask_verified(ScriptedModel(['{"page": 1}']), ASK, page_check)
    assert result.usage.estimated


def test_reask_message_lists_every_defect() -> None:
    message = reask_message((Defect("a", "first"), Defect("b", "second", paragraph=2)))
    assert "- [a] first\n- paragraph 2: [b] second\n" in message.content


def test_a_rejection_needs_a_defect() -> None:
    with pytest.raises(ValueError, match="at least one defect"):
        Checked[int].reject()
