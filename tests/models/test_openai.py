"""The OpenAI-compatible backend, end to end against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import openai
import pytest

from preuve.core.errors import ConfigError, ModelError
from preuve.models.base import Completion, ModelIdentity, Request, messages_of
from preuve.models.budget import EstimatingCounter, is_estimated, is_truncated
from preuve.models.journal import Journal, JournaledModel
from preuve.models.loop import Checked, LoopStatus, ask_verified
from preuve.models.openai import (
    OpenAIModel,
    ResponseFormatLevel,
    parse_chat_body,
    without_patterns,
)
from preuve.models.replay import RecordingModel
from tests.models.loopback import KEY, ChatServer, Reply, chat_body, free_port, running_server

SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}}
REQUEST = Request(messages_of([("system", "Answer in JSON."), ("user", "Hello?")]), task="t.ask")
SCHEMA_REQUEST = Request(REQUEST.messages, task="memo.reader", response_schema=SCHEMA)


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with running_server() as running:
        yield running


class Backends:
    """Builds backends for a test and closes their connection pools after it."""

    def __init__(self) -> None:
        self.built: list[OpenAIModel] = []

    def __call__(self, url: str, **overrides: Any) -> OpenAIModel:
        options: dict[str, Any] = {
            "env": {"OPENAI_API_KEY": KEY},
            "timeout": 2.0,
            "max_retries": 0,
            "allow_network": True,
        }
        options.update(overrides)
        model = OpenAIModel("test-model", url, **options)
        self.built.append(model)
        return model


@pytest.fixture
def backend() -> Iterator[Backends]:
    backends = Backends()
    yield backends
    for model in backends.built:
        model.close()


def one_line(err: BaseException) -> str:
    text = str(err)
    assert "\n" not in text
    return text


def test_normal_answer_and_the_request_body(server: ChatServer, backend: Backends) -> None:
    server.queue(Reply(body=chat_body("bonjour", usage=(21, 3))))
    model = backend(server.url)
    request = Request(REQUEST.messages, task="t.ask", seed=7, max_new_tokens=50)

    completion = model.complete(request)

    assert (completion.text, completion.finish_reason) == ("bonjour", "stop")
    assert (completion.prompt_tokens, completion.generated_tokens) == (21, 3)
    assert not is_estimated(completion) and completion.seconds > 0
    [got] = server.received
    assert got.path == "/v1/chat/completions"
    assert got.headers["authorization"] == f"Bearer {KEY}"
    assert got.body["model"] == "test-model"
    assert got.body["messages"] == [
        {"role": "system", "content": "Answer in JSON."},
        {"role": "user", "content": "Hello?"},
    ]
    assert (got.body["temperature"], got.body["seed"], got.body["max_tokens"]) == (0, 7, 50)
    assert not {"tools", "tool_choice", "functions", "function_call"} & set(got.body)
    assert "response_format" not in got.body  # no schema, no structured output
    assert model.identity == ModelIdentity("openai", "test-model", version=server.url)


def _sdk_post(url: str, body: dict[str, Any]) -> None:
    """What the SDK's own ``post`` sends (and raises) for ``body``."""
    with openai.OpenAI(api_key=KEY, base_url=url, timeout=2.0, max_retries=0) as client:
        client.post("/chat/completions", body=body, cast_to=httpx2.Response)


@pytest.mark.parametrize("query", ["", "?api-version=2024-06-01"])
def test_the_request_is_the_one_the_sdk_s_post_sends(
    server: ChatServer, backend: Backends, query: str
) -> None:
    # The backend posts through the SDK's HTTP client without its per-call machinery:
    # the same headers and body, and the same URL but for a base URL's query string,
    # which the backend keeps after the path where the SDK appends the path to the query.
    model = backend(server.url + query)
    model.complete(SCHEMA_REQUEST)
    _sdk_post(server.url + query, model._body(SCHEMA_REQUEST, ResponseFormatLevel.JSON_SCHEMA))
    ours, sdk = server.received
    assert ours.path == "/v1/chat/completions" + query
    assert sdk.path == ("/v1/?" + query[1:] + "chat/completions" if query else ours.path)
    assert ours.headers == sdk.headers
    assert ours.body == sdk.body


@pytest.mark.parametrize(
    ("status", "body"),
    [(500, {"error": {"message": "boom"}}), (404, "no such route"), (422, {"detail": "bad"})],
)
def test_a_refusal_raises_the_error_the_sdk_raises(
    server: ChatServer, backend: Backends, status: int, body: dict[str, Any] | str
) -> None:
    server.queue(Reply(status=status, body=body), Reply(status=status, body=body))
    model = backend(server.url)
    with pytest.raises(openai.APIStatusError) as ours:
        model._send(REQUEST, ResponseFormatLevel.JSON_SCHEMA)
    with pytest.raises(openai.APIStatusError) as sdk:
        _sdk_post(server.url, model._body(REQUEST, ResponseFormatLevel.JSON_SCHEMA))
    assert type(ours.value) is type(sdk.value)
    assert (ours.value.message, ours.value.body) == (sdk.value.message, sdk.value.body)
    assert ours.value.status_code == status


def test_schema_is_sent_as_json_schema(server: ChatServer, backend: Backends) -> None:
    backend(server.url).complete(SCHEMA_REQUEST)
    assert server.received[0].body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "memo_reader", "schema": SCHEMA},
    }


def test_a_schema_no_grammar_compiles_is_never_sent(server: ChatServer, backend: Backends) -> None:
    # An empty enum: llama.cpp's server failed to parse the grammar and its process died.
    broken = {"type": "object", "properties": {"id": {"type": "string", "enum": []}}}
    request = Request(REQUEST.messages, task="digest.reduce", response_schema=broken)
    with pytest.raises(ConfigError, match=r"digest\.reduce: its answer schema is not supported"):
        backend(server.url).complete(request)
    assert server.received == []


def test_grammar_servers_get_the_schema_without_patterns() -> None:
    schema = {
        "type": "object",
        "properties": {
            "value": {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$"},
            "pattern": {"type": "string", "minLength": 1},  # a property named pattern stays
        },
        "items": [{"type": "string", "pattern": "a"}],
    }
    assert without_patterns(schema) == {
        "type": "object",
        "properties": {"value": {"type": "string"}, "pattern": {"type": "string", "minLength": 1}},
        "items": [{"type": "string"}],
    }


def test_llama_cpp_s_form_is_sent_without_patterns(server: ChatServer, backend: Backends) -> None:
    # llama-cpp-python's server failed to parse the grammar of "\." and its process died.
    schema = {
        "type": "object",
        "properties": {"n": {"type": "string", "pattern": r"^[0-9]+\.[0-9]$"}},
    }
    request = Request(REQUEST.messages, task="synthesis.synthesizer", response_schema=schema)

    def reply(received: Any) -> Reply:  # as llama-cpp-python's server answers json_schema
        if received.body.get("response_format", {}).get("type") == "json_schema":
            return Reply(status=500, body={"error": {"message": "response_format: json_schema"}})
        return Reply(body=chat_body('{"n": "1.5"}'))

    server.default = reply
    backend(server.url).complete(request)
    assert formats_sent(server) == ["json_schema", "json_object+schema"]
    first, second = (r.body["response_format"] for r in server.received)
    assert first["json_schema"]["schema"] == schema  # a json_schema server gets it whole
    assert second == {
        "type": "json_object",
        "schema": {"type": "object", "properties": {"n": {"type": "string"}}},
    }


def test_max_completion_tokens_field(server: ChatServer, backend: Backends) -> None:
    backend(server.url, max_tokens_field="max_completion_tokens").complete(REQUEST)
    body = server.received[0].body
    assert body["max_completion_tokens"] == 384 and "max_tokens" not in body


def test_429_then_success_with_retries(server: ChatServer, backend: Backends) -> None:
    server.queue(
        Reply(
            status=429, body={"error": {"message": "slow down"}}, headers=(("retry-after-ms", "5"),)
        ),
        Reply(body=chat_body("after retry")),
    )
    completion = backend(server.url, max_retries=1).complete(REQUEST)
    assert completion.text == "after retry"
    assert len(server.received) == 2


def test_429_without_retries_is_a_model_error(server: ChatServer, backend: Backends) -> None:
    server.queue(Reply(status=429, body={"error": {"message": "slow down"}}))
    with pytest.raises(ModelError) as caught:
        backend(server.url).complete(REQUEST)
    assert "HTTP 429" in one_line(caught.value)


@pytest.mark.parametrize(("retries", "sent"), [(0, 1), (1, 2)], ids=["no-retry", "one-retry"])
def test_500_is_a_model_error(
    server: ChatServer, retries: int, sent: int, backend: Backends
) -> None:
    failing = Reply(
        status=500, body={"error": {"message": "boom"}}, headers=(("retry-after-ms", "5"),)
    )
    server.queue(failing, failing)
    with pytest.raises(ModelError) as caught:
        backend(server.url, max_retries=retries).complete(REQUEST)
    assert "HTTP 500" in one_line(caught.value) and "boom" in str(caught.value)
    assert len(server.received) == sent


def test_timeout_is_a_model_error(server: ChatServer, backend: Backends) -> None:
    server.queue(Reply(delay=1.5))
    started = time.perf_counter()
    with pytest.raises(ModelError) as caught:
        backend(server.url, timeout=0.3).complete(REQUEST)
    assert time.perf_counter() - started < 1.2
    assert "did not answer within 0.3 s" in one_line(caught.value)


def test_length_finish_is_invalid_through_the_loop(server: ChatServer, backend: Backends) -> None:
    server.default = lambda _received: Reply(
        body=chat_body('{"answer": "cut', finish_reason="length")
    )
    model = backend(server.url)

    completion = model.complete(REQUEST)
    assert completion.finish_reason == "length" and is_truncated(completion)

    checked_texts: list[str] = []

    def check(done: Completion) -> Checked[str]:
        checked_texts.append(done.text)
        return Checked.accept(done.text)

    result = ask_verified(model, REQUEST, check)
    assert result.status is LoopStatus.REFUSED
    assert [d.code for a in result.attempts for d in a.defects] == ["truncated", "truncated"]
    assert checked_texts == []  # a truncated prefix is never even parsed


def test_missing_usage_is_estimated_and_flagged(server: ChatServer, backend: Backends) -> None:
    server.queue(Reply(body=chat_body("four", usage=None)))
    completion = backend(server.url).complete(REQUEST)
    assert is_estimated(completion)
    assert completion.prompt_tokens == EstimatingCounter().count_prompt_tokens(REQUEST.messages)
    assert completion.generated_tokens == 2  # ceil(4 / 3.5)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("<html>proxy error</html>", "not JSON"),
        ({"object": "chat.completion", "choices": []}, "no choices"),
        ({"choices": [{"finish_reason": "stop"}]}, "no message"),
        ({"choices": [{"message": {"content": 42}, "finish_reason": "stop"}]}, "not text"),
    ],
    ids=["not-json", "no-choices", "no-message", "content-not-text"],
)
def test_malformed_body_is_a_one_line_model_error(
    server: ChatServer, body: dict[str, Any] | str, why: str, backend: Backends
) -> None:
    server.queue(Reply(body=body))
    with pytest.raises(ModelError) as caught:
        backend(server.url).complete(REQUEST)
    assert f"malformed response from {server.url}" in one_line(caught.value)
    assert why in str(caught.value)


def test_connection_refused_is_a_one_line_config_error(backend: Backends) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(ConfigError) as caught:
        backend(url).complete(REQUEST)
    assert one_line(caught.value) == f"cannot reach {url}: start the server or fix --model"


@pytest.mark.parametrize(
    ("status", "expected"),
    [(401, "refused the API key (HTTP 401) (set OPENAI_API_KEY"), (404, "HTTP 404")],
    ids=["bad-key", "unknown-model"],
)
def test_key_and_model_errors_are_config_errors(
    server: ChatServer, status: int, expected: str, backend: Backends
) -> None:
    server.queue(Reply(status=status, body={"error": {"message": "no"}}))
    with pytest.raises(ConfigError) as caught:
        backend(server.url).complete(REQUEST)
    assert expected in one_line(caught.value)


def formats_sent(server: ChatServer) -> list[str | None]:
    """The structured-output form of each request received, as ladder level names."""
    shown: list[str | None] = []
    for received in server.received:
        fmt = received.body.get("response_format")
        if fmt is not None:
            shown.append("json_object+schema" if "schema" in fmt else fmt["type"])
        else:
            shown.append("format" if "format" in received.body else None)
    return shown


def test_json_schema_unsupported_falls_back_to_json_object_and_remembers(
    server: ChatServer, backend: Backends
) -> None:
    # The ladder gained llama.cpp's json_object+schema form (issue 12): a server that
    # refuses both schema forms lands on plain JSON mode, as before.
    def reply(received: Any) -> Reply:
        fmt = received.body.get("response_format", {})
        if fmt.get("type") == "json_schema" or "schema" in fmt:
            return Reply(status=400, body={"error": {"message": "json_schema is not supported"}})
        return Reply(body=chat_body('{"answer": "x"}'))

    server.default = reply
    model = backend(server.url)
    assert model.complete(SCHEMA_REQUEST).text == '{"answer": "x"}'
    assert model.response_format_level is ResponseFormatLevel.JSON_OBJECT
    model.complete(SCHEMA_REQUEST)
    forms = ["json_schema", "json_object+schema", "json_object", "json_object"]
    assert formats_sent(server) == forms


def test_no_structured_output_falls_back_to_the_prompt_alone(
    server: ChatServer, backend: Backends
) -> None:
    def reply(received: Any) -> Reply:
        if "response_format" in received.body or "format" in received.body:
            message = "Unrecognized request argument supplied: response_format"
            return Reply(status=400, body={"error": {"message": message}})
        return Reply(body=chat_body('{"answer": "plain"}'))

    server.default = reply
    model = backend(server.url)
    assert model.complete(SCHEMA_REQUEST).text == '{"answer": "plain"}'
    model.complete(SCHEMA_REQUEST)
    assert formats_sent(server) == [
        "json_schema",
        "json_object+schema",
        "json_object",
        "format",
        None,
        None,
    ]
    assert model.response_format_level is ResponseFormatLevel.PROMPT


def test_an_unrelated_400_is_not_a_downgrade(server: ChatServer, backend: Backends) -> None:
    server.queue(Reply(status=400, body={"error": {"message": "context length exceeded"}}))
    model = backend(server.url)
    with pytest.raises(ModelError, match="HTTP 400"):
        model.complete(SCHEMA_REQUEST)
    assert model.response_format_level is ResponseFormatLevel.JSON_SCHEMA
    assert len(server.received) == 1


def test_the_key_never_reaches_journal_recording_or_errors(
    server: ChatServer, tmp_path: Path, backend: Backends
) -> None:
    # A hostile or careless server echoes the key back in an answer and in an error.
    server.queue(
        Reply(body=chat_body(f"your key is {KEY}")),
        Reply(status=500, body={"error": {"message": f"bad key {KEY}"}}),
    )
    db, recording = tmp_path / "journal.sqlite", tmp_path / "calls.jsonl"
    with Journal(db) as journal:
        model = JournaledModel(RecordingModel(backend(server.url), recording), journal, "run-1")
        assert model.complete(REQUEST).text == f"your key is {KEY}"  # the caller sees it as is
        with pytest.raises(ModelError) as caught:
            model.complete(REQUEST)
        assert [c.status for c in journal.calls("run-1")] == ["ok", "error"]
    assert KEY not in str(caught.value)
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in server.received)
    for path in (db, recording, *tmp_path.glob("journal.sqlite*")):
        assert KEY.encode() not in path.read_bytes(), path.name
    assert "[REDACTED]" in recording.read_text(encoding="utf-8")


def test_network_backends_refuse_to_run_in_tests_unless_allowed() -> None:
    with pytest.raises(ConfigError) as caught:
        OpenAIModel("m", "http://127.0.0.1:9/v1", env={})
    assert one_line(caught.value) == (
        "network backends are disabled in tests; pass allow_network=True"
    )


@pytest.mark.parametrize(
    ("url", "version"),
    [
        ("http://user:pw@127.0.0.1:8000/v1/", "http://127.0.0.1:8000/v1"),
        ("https://api.example.com/v1", "https://api.example.com/v1"),
        (
            "https://x.example.com/openai?api-version=2024-06&api-key=pw",
            "https://x.example.com/openai?api-version=2024-06&api-key=REDACTED",
        ),
        (
            "https://x.example.com/v1?sig=pw&token=pw",
            "https://x.example.com/v1?sig=REDACTED&token=REDACTED",
        ),
    ],
    ids=["userinfo-stripped", "plain", "query-key-redacted", "query-token-and-signature"],
)
def test_identity_never_holds_credentials(url: str, version: str, backend: Backends) -> None:
    model = backend(url)
    assert model.identity.version == version
    assert "pw" not in repr(model) and KEY not in repr(model)
    assert model.secret_values == (KEY,)


@pytest.mark.parametrize(
    ("finish", "expected"),
    [
        ("stop", "stop"),
        ("eos", "stop"),
        ("length", "length"),
        ("content_filter", "error"),
        ("tool_calls", "error"),
        (None, "error"),
    ],
    ids=["stop", "eos", "length", "content-filter", "tool-calls", "missing"],
)
def test_finish_reason_mapping(finish: str | None, expected: str) -> None:
    raw = json.dumps(chat_body("x", finish_reason=finish))
    completion = parse_chat_body(raw, REQUEST, source="test", seconds=0.0)
    assert completion.finish_reason == expected
