"""One scrubber for every artefact (preuve.models.secrets), and the model boundary."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from preuve.core.errors import ConfigError, InputError, ModelError
from preuve.models.base import Completion, Message, ModelIdentity, Request
from preuve.models.budget import EstimatedCompletion
from preuve.models.replay import RecordingModel
from preuve.models.scripted import FunctionModel
from preuve.models.secrets import (
    REDACTED,
    Scrubber,
    ScrubbingModel,
    environment_secrets,
)
from preuve.models.spec import load_model, parse_spec, shown_spec

KEY = "sk-proj-Q7vLx2Rk9TfW4mZp8HsJ3nBc6YdE1aGu"
B64 = base64.b64encode


@pytest.mark.parametrize(
    "echo",
    [
        KEY,
        KEY.upper(),
        KEY.lower(),
        B64(KEY.encode()).decode(),
        B64(f"Bearer {KEY}".encode()).decode(),
        B64(f"user:{KEY}".encode()).decode(),
        base64.urlsafe_b64encode(f"xx{KEY}".encode()).decode(),
        KEY.encode().hex(),
        KEY.encode().hex().upper(),
    ],
    ids=["exact", "upper", "lower", "b64", "b64-bearer", "b64-basic", "b64-url-offset-2",
         "hex", "hex-upper"],
)  # fmt: skip
def test_every_echo_form_is_scrubbed(echo: str) -> None:
    text = f"the server said «{echo}» to us"
    scrubbed = Scrubber((KEY,)).scrub(text)
    assert REDACTED in scrubbed
    assert echo not in scrubbed
    assert KEY[8:20] not in scrubbed and KEY[8:20].upper() not in scrubbed.upper()


def test_short_values_and_ordinary_text_are_left_alone() -> None:
    scrubber = Scrubber(("short", KEY))
    assert scrubber.secrets == (KEY,)
    assert scrubber.scrub("a short text, nothing secret") == "a short text, nothing secret"
    assert not Scrubber(())


def test_environment_secrets() -> None:
    environ = {
        "OPENAI_API_KEY": KEY,
        "HF_TOKEN": "hf_abcdefgh1234",
        "PREUVE_API_KEY_ENV": "MY_PROVIDER",
        "MY_PROVIDER": "named-by-preuve-1234",
        "PATH": "/usr/bin:/bin",
        "DB_PASSWORD": "short",
    }
    assert environment_secrets(environ) == (KEY, "hf_abcdefgh1234", "named-by-preuve-1234")


def test_a_scrubbed_error_keeps_its_class_and_exit_code() -> None:
    err = ConfigError(f"bad key {KEY}", fix=f"not {KEY.upper()}")
    clean = Scrubber((KEY,)).error(err)
    assert type(clean) is ConfigError and clean.exit_code == 2
    assert clean.one_line() == f"bad key {REDACTED} (not {REDACTED})"


REQUEST = Request((Message("user", "hello"),), task="t")


def test_the_boundary_scrubs_answers_errors_and_identity() -> None:
    def answer(request: Request) -> Completion:
        return EstimatedCompletion(f"echo {KEY.upper()}", "stop", 1, 1)

    inner = FunctionModel(answer)
    model = ScrubbingModel(inner, Scrubber((KEY,)))
    completion = model.complete(REQUEST)
    assert completion.text == f"echo {REDACTED}"
    assert isinstance(completion, EstimatedCompletion)  # the declared estimate survives

    def failing(request: Request) -> Completion:
        raise ModelError(f"server said {B64(KEY.encode()).decode()}")

    with pytest.raises(ModelError) as caught:
        ScrubbingModel(FunctionModel(failing), Scrubber((KEY,))).complete(REQUEST)
    assert KEY not in str(caught.value) and B64(KEY.encode()).decode() not in str(caught.value)

    def crashing(request: Request) -> Completion:
        raise RuntimeError(f"bug with {KEY}")

    with pytest.raises(ModelError, match=r"RuntimeError: bug with \[REDACTED\]"):
        ScrubbingModel(FunctionModel(crashing), Scrubber((KEY,))).complete(REQUEST)


def test_a_key_under_an_innocent_url_parameter_never_reaches_the_identity() -> None:
    model = load_model(
        f"openai:m@http://127.0.0.1:9/v1?api-version=2024-06-01&x={KEY}",
        rules=None,
        env={},
        allow_network=True,
    )
    version = model.identity.version
    assert KEY not in version
    assert version.startswith("http://127.0.0.1:9/v1?api-version=2024-06-01&x=sha256-")
    assert model.identity == ModelIdentity("openai", "m", "", version)
    assert isinstance(model, ScrubbingModel)
    assert KEY in model.secret_values  # so its echoes are scrubbed too


@pytest.mark.parametrize(
    ("spec", "shown"),
    [
        (f"openai:m@http://user:{KEY}@host/v1", "openai:m@http://[REDACTED]@host/v1"),
        (f"openai:m@https://h/v1?x={KEY}&y=2", "openai:m@https://h/v1?x=[REDACTED]&y=[REDACTED]"),
        ("openai:qwen2.5:1.5b@http://localhost:11434/v1", "openai:qwen2.5:1.5b@http://localhost:11434/v1"),
    ],
    ids=["userinfo", "query", "plain"],
)  # fmt: skip
def test_shown_spec(spec: str, shown: str) -> None:
    assert shown_spec(spec) == shown


def test_a_spec_with_userinfo_is_refused_without_echoing_the_key() -> None:
    with pytest.raises(InputError) as caught:
        parse_spec(f"openai:m@http://user:{KEY}@127.0.0.1:8000/v1")
    message = str(caught.value)
    assert KEY not in message and "\n" not in message
    assert "the base URL carries user:password@" in message
    with pytest.raises(InputError) as caught:
        parse_spec(f"openai:m@ftp://h/v1?x={KEY}")
    assert KEY not in str(caught.value)


def test_recordings_hold_no_echo(tmp_path: Path) -> None:
    def answer(request: Request) -> Completion:
        return Completion(f"echo {B64(KEY.encode()).decode()}", "stop", 1, 1)

    inner = ScrubbingModel(FunctionModel(answer), Scrubber((KEY,)))
    path = tmp_path / "calls.jsonl"
    RecordingModel(inner, path).complete(REQUEST)
    line = json.loads(path.read_text(encoding="utf-8"))
    # The last base64 characters also hold the zero padding: they do not show the key.
    assert line["completion"]["text"] == f"echo {REDACTED}dQ=="
