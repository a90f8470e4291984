"""The OpenAI backend against servers on 127.0.0.1 that answer as real ones do.

``llama_cpp_like`` answers as llama.cpp's server does (HTTP 500 naming ``response_format``
to a ``json_schema`` form, the ``json_object``+``schema`` form accepted); ``ollama_like``
knows only its own ``format`` field; ``proxy_404`` is a gateway that answers 404 to a
response format it does not route. Each test counts the requests the server received:
no request that cannot succeed is sent twice.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from preuve.core.errors import ModelError
from preuve.core.jsonout import parse_model_json
from preuve.models.base import Completion, Request, messages_of
from preuve.models.loop import Checked, LoopStatus, ask_verified
from preuve.models.openai import OpenAIModel, ResponseFormatLevel
from tests.models.loopback import KEY, ChatServer, Received, Reply, chat_body, running_server

SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}
REQUEST = Request(
    messages_of([("system", "Answer in JSON."), ("user", "Hello?")]),
    task="memo.reader",
    response_schema=SCHEMA,
    max_new_tokens=32,
)
# What llama-cpp-python's server 0.3.36 answered here to {"type": "json_schema", ...}
# (recorded from the real server, its traceback lines shortened).
LLAMA_500 = {
    "error": {
        "message": "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', "
        "'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", "
        "'input': 'json_schema', 'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n"
        '  File "llama_cpp/server/app.py", line 376, in create_chat_completion\n'
        "    POST /v1/chat/completions",
        "type": "internal_server_error",
        "param": None,
        "code": None,
    }
}


def llama_cpp_like(answer: str) -> Callable[[Received], Reply]:
    def reply(received: Received) -> Reply:
        fmt = received.body.get("response_format") or {}
        if fmt.get("type") == "json_schema":
            return Reply(status=500, body=LLAMA_500, headers=(("retry-after-ms", "1"),))
        if fmt.get("type") == "json_object" and fmt.get("schema") != SCHEMA:
            return Reply(body=chat_body("prose, no schema was enforced"))
        return Reply(body=chat_body(answer))

    return reply


def ollama_like(received: Received) -> Reply:
    if "response_format" in received.body:
        message = 'json: unknown field "response_format"'
        return Reply(status=400, body={"error": {"message": message, "type": "invalid_request"}})
    if received.body.get("format") != SCHEMA:
        return Reply(body=chat_body("prose"))
    return Reply(body=chat_body('{"answer": "from format"}'))


def proxy_404(received: Received) -> Reply:
    fmt = received.body.get("response_format") or {}
    if "schema" in fmt or fmt.get("type") == "json_schema":
        return Reply(status=404, body={"error": {"message": "no route for json_schema"}})
    return Reply(body=chat_body('{"answer": "json mode"}'))


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with running_server() as running:
        yield running


def backend(server: ChatServer, retries: int = 2) -> OpenAIModel:
    return OpenAIModel(
        "smollm2",
        server.url,
        env={"OPENAI_API_KEY": KEY},
        timeout=2.0,
        max_retries=retries,
        allow_network=True,
    )


def sent_forms(server: ChatServer) -> list[str]:
    forms = []
    for received in server.received:
        fmt = received.body.get("response_format")
        if fmt is None:
            forms.append("format" if "format" in received.body else "prompt")
        else:
            forms.append("json_object+schema" if "schema" in fmt else fmt["type"])
    return forms


@pytest.mark.parametrize(
    ("responder", "level", "forms", "text"),
    [
        (
            llama_cpp_like('{"answer": "ok"}'),
            ResponseFormatLevel.JSON_OBJECT_SCHEMA,
            ["json_schema", "json_object+schema", "json_object+schema"],
            '{"answer": "ok"}',
        ),
        (
            ollama_like,
            ResponseFormatLevel.FORMAT_FIELD,
            ["json_schema", "json_object+schema", "json_object", "format", "format"],
            '{"answer": "from format"}',
        ),
        (
            proxy_404,
            ResponseFormatLevel.JSON_OBJECT,
            ["json_schema", "json_object+schema", "json_object", "json_object"],
            '{"answer": "json mode"}',
        ),
    ],
    ids=["llama.cpp-500", "ollama-format", "proxy-404"],
)
def test_the_ladder_lands_on_the_form_the_server_takes_without_retries(
    server: ChatServer,
    responder: Callable[[Received], Reply],
    level: ResponseFormatLevel,
    forms: list[str],
    text: str,
) -> None:
    server.default = responder
    with backend(server, retries=2) as model:
        assert model.complete(REQUEST).text == text
        assert model.response_format_level is level
        assert model.complete(REQUEST).text == text  # the second call starts at that level
    # Each refused form was sent once although two retries were allowed.
    assert sent_forms(server) == forms


def test_the_schema_sent_in_json_object_form_is_the_requests(server: ChatServer) -> None:
    server.default = llama_cpp_like('{"answer": "ok"}')
    with backend(server) as model:
        model.complete(REQUEST)
    assert server.received[-1].body["response_format"] == {"type": "json_object", "schema": SCHEMA}


def test_a_500_that_does_not_name_the_format_is_retried_then_an_error(server: ChatServer) -> None:
    failing = Reply(
        status=500,
        body={"error": {"message": "slot unavailable"}},
        headers=(("retry-after-ms", "1"),),
    )
    server.default = lambda _received: failing
    with backend(server, retries=2) as model, pytest.raises(ModelError) as caught:
        model.complete(REQUEST)
    assert "HTTP 500 after 2 retries: Error code: 500 - slot unavailable" in str(caught.value)
    assert sent_forms(server) == ["json_schema"] * 3
    assert model.response_format_level is ResponseFormatLevel.JSON_SCHEMA


def test_an_unrelated_500_without_schema_is_not_a_downgrade(server: ChatServer) -> None:
    server.queue(
        Reply(status=500, body=LLAMA_500, headers=(("retry-after-ms", "1"),)),
        Reply(body=chat_body("plain")),
    )
    plain = Request(REQUEST.messages, task="t")  # no schema: nothing to downgrade
    with backend(server, retries=1) as model:
        assert model.complete(plain).text == "plain"
        assert model.response_format_level is ResponseFormatLevel.JSON_SCHEMA
    assert len(server.received) == 2


def _strict(completion: Completion) -> Checked[object]:
    parsed = parse_model_json(completion.text, SCHEMA, finish_reason=completion.finish_reason)
    return Checked.accept(parsed.value) if parsed.ok else Checked.reject(*parsed.defects)


@pytest.mark.parametrize(
    ("answer", "code", "reason"),
    [
        ('{"answer": "a\tb"}', "not_json", "Invalid control character at"),
        ('{"answer": "a\x01b"}', "not_json", "Invalid control character at"),
        ("{'answer': 'x'}", "not_json", "Expecting property name enclosed in double quotes"),
        (
            '{"answer": "x",}',
            "not_json",
            "Expecting property name enclosed in double quotes at line 1 column 16",
        ),
        ('Here it is: {"answer": "x"}', "not_json", "does not start with JSON"),
        ('{"answer": "x"} ok', "not_json", "text follows the JSON value"),
    ],
    ids=["raw-tab", "raw-control", "single-quotes", "trailing-comma", "prose-before", "after"],
)
def test_near_json_is_refused_with_the_strict_parsers_reason_never_repaired(
    server: ChatServer, answer: str, code: str, reason: str
) -> None:
    server.default = llama_cpp_like(answer)
    with backend(server) as model:
        result = ask_verified(model, REQUEST, _strict)
    assert result.status is LoopStatus.REFUSED and result.value is None
    assert [d.code for d in result.defects] == [code]
    assert reason in result.defects[0].detail
    # The re-ask sent the model its own answer and the parser's reason.
    reask = server.received[-1].body["messages"]
    assert reask[-2] == {"role": "assistant", "content": answer}
    assert reason in reask[-1]["content"]


def test_no_answer_at_all_is_error_not_refused(server: ChatServer) -> None:
    server.default = lambda _received: Reply(status=503, body={"error": {"message": "loading"}})
    with backend(server, retries=0) as model:
        result = ask_verified(model, REQUEST, _strict)
    assert result.status is LoopStatus.ERROR
    assert [a.completion for a in result.attempts] == [None, None]
    assert all(d.code == "model_error" for d in result.defects)
    with pytest.raises(ModelError, match="no answer after 2 attempt"):
        result.unwrap()


def test_an_answer_then_an_error_is_refused(server: ChatServer) -> None:
    server.queue(Reply(body=chat_body("not json")))
    server.default = lambda _received: Reply(status=503, body={"error": {"message": "gone"}})
    with backend(server, retries=0) as model:
        result = ask_verified(model, REQUEST, _strict)
    assert result.status is LoopStatus.REFUSED
    assert result.attempts[0].defects[0].code == "not_json"


def test_llama_cpp_error_body_reaches_the_journal_line_scrubbed(server: ChatServer) -> None:
    body: dict[str, Any] = {"error": {"message": f"response_format broke {KEY}", "code": 500}}
    server.default = lambda _received: Reply(status=500, body=body)
    with backend(server, retries=0) as model, pytest.raises(ModelError) as caught:
        model.complete(Request(REQUEST.messages, task="t"))
    assert KEY not in str(caught.value) and "HTTP 500" in str(caught.value)
    assert json.dumps(body)  # the body was valid JSON: the failure is the status, not parsing


def test_a_declared_context_window_refuses_before_the_call(server: ChatServer) -> None:
    from preuve.core.errors import BudgetError
    from preuve.models.spec import load_model

    env = {"OPENAI_API_KEY": KEY, "PREUVE_CONTEXT_WINDOW": "40"}
    model = load_model(f"openai:smollm2@{server.url}", rules=None, env=env, allow_network=True)
    big = Request(messages_of([("user", "x" * 200)]), task="t", max_new_tokens=8)
    with pytest.raises(BudgetError, match="over its budget of 32; nothing was sent"):
        model.complete(big)
    assert server.received == []
    small = Request(messages_of([("user", "hi")]), task="t", max_new_tokens=8)
    assert model.complete(small).text == "ok"


@pytest.mark.parametrize("raw", ["0", "-3", "8k"], ids=["zero", "negative", "suffix"])
def test_a_bad_declared_window_is_a_config_error(server: ChatServer, raw: str) -> None:
    from preuve.core.errors import ConfigError
    from preuve.models.spec import load_model

    env = {"PREUVE_CONTEXT_WINDOW": raw}
    with pytest.raises(ConfigError, match="PREUVE_CONTEXT_WINDOW must be a positive number"):
        load_model(f"openai:m@{server.url}", rules=None, env=env, allow_network=True)


@pytest.mark.parametrize(
    ("raw", "seconds"),
    [("", 120.0), ("900", 900.0), ("0.5", 0.5)],
    ids=["default", "long", "short"],
)
def test_the_request_timeout_is_declared_by_the_environment(raw: str, seconds: float) -> None:
    from preuve.models.base import wrapped_models
    from preuve.models.spec import load_model

    env = {"PREUVE_TIMEOUT": raw} if raw else {}
    model = load_model("openai:m@http://127.0.0.1:9/v1", rules=None, env=env, allow_network=True)
    [inner] = [m for m in wrapped_models(model) if isinstance(m, OpenAIModel)]
    assert inner.timeout == seconds


def test_a_request_slower_than_the_declared_timeout_is_a_model_error(server: ChatServer) -> None:
    from preuve.models.spec import load_model

    server.default = lambda _received: Reply(delay=1.5)
    env = {"PREUVE_TIMEOUT": "0.5"}
    model = load_model(f"openai:m@{server.url}", rules=None, env=env, allow_network=True)
    with pytest.raises(ModelError, match=r"did not answer within 0\.5 s"):
        model.complete(REQUEST)


@pytest.mark.parametrize("raw", ["0", "-1", "nan", "2m"], ids=["zero", "negative", "nan", "unit"])
def test_a_bad_declared_timeout_is_a_config_error(raw: str) -> None:
    from preuve.core.errors import ConfigError
    from preuve.models.spec import load_model

    with pytest.raises(ConfigError, match="PREUVE_TIMEOUT must be a positive number of seconds"):
        load_model(
            "openai:m@http://127.0.0.1:9/v1",
            rules=None,
            env={"PREUVE_TIMEOUT": raw},
            allow_network=True,
        )
