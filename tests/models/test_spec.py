"""Model specs: parse every accepted form, refuse the rest in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preuve.core.errors import ConfigError
from preuve.models import (
    OpenAIModel,
    ReplayModel,
    RulesModel,
    ScriptedModel,
    load_model,
    parse_spec,
)
from preuve.models.secrets import ScrubbingModel
from preuve.models.spec import ModelSpec, SpecKind

RULES = RulesModel({}, version="v1")


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("rules", ModelSpec(SpecKind.RULES)),
        (" rules ", ModelSpec(SpecKind.RULES)),
        (
            "openai:qwen2.5:1.5b@http://localhost:11434/v1",
            ModelSpec(SpecKind.OPENAI, "qwen2.5:1.5b", "http://localhost:11434/v1"),
        ),
        (
            "openai:org@team/model@https://api.example.com/v1",
            ModelSpec(SpecKind.OPENAI, "org@team/model", "https://api.example.com/v1"),
        ),
        (
            "hf:/models/Qwen2.5-1.5B-Instruct",
            ModelSpec(SpecKind.HF, "/models/Qwen2.5-1.5B-Instruct"),
        ),
        ("replay:calls.jsonl", ModelSpec(SpecKind.REPLAY, "calls.jsonl")),
    ],
    ids=["rules", "rules-spaces", "ollama-colon-name", "at-in-name", "hf", "replay"],
)
def test_accepted_forms(spec: str, expected: ModelSpec) -> None:
    assert parse_spec(spec) == expected


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("gpt-4o", ""),
        ("", ""),
        ("rules:x", ""),
        ("anthropic:claude", ""),
        ("openai:qwen2.5", "an openai spec needs NAME@BASE_URL"),
        ("openai:@http://localhost/v1", "an openai spec needs NAME@BASE_URL"),
        ("openai:m@localhost:11434", "is not http(s)"),
        ("hf:", "nothing after hf:"),
    ],
    ids=[
        "bare-name",
        "empty",
        "rules-suffix",
        "unknown-kind",
        "no-url",
        "no-name",
        "no-scheme",
        "no-path",
    ],
)
def test_unknown_specs_list_the_accepted_forms(spec: str, why: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_spec(spec)
    text = str(caught.value)
    assert "\n" not in text and text.startswith(f"unknown model spec {spec!r}")
    assert "rules, openai:NAME@BASE_URL, hf:PATH, replay:FILE" in text
    assert why in text


def test_rules_returns_the_callers_engine() -> None:
    assert load_model("rules", rules=RULES, env={}) is RULES
    with pytest.raises(ConfigError, match="no rules engine"):
        load_model("rules", rules=None, env={})


def test_openai_spec_refuses_the_network_inside_tests() -> None:
    with pytest.raises(ConfigError, match="network backends are disabled in tests"):
        load_model("openai:m@http://127.0.0.1:9/v1", rules=None, env={})


def test_openai_spec_builds_the_backend_when_allowed() -> None:
    env = {"PREUVE_API_KEY_ENV": "GEMINI_API_KEY", "GEMINI_API_KEY": "gm-secret-value-123"}
    model = load_model(
        "openai:qwen2.5:1.5b@http://127.0.0.1:9/v1", rules=None, env=env, allow_network=True
    )
    assert isinstance(model, ScrubbingModel)  # the model boundary, around the backend
    assert isinstance(model.inner, OpenAIModel)
    assert model.identity.label() == "openai:qwen2.5:1.5b"
    assert model.secret_values == ("gm-secret-value-123",)


def test_replay_spec(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    with pytest.raises(ConfigError, match="replay file not found"):
        load_model(f"replay:{path}", rules=None, env={})
    entry = {"hash": "h", "model": {"backend": "openai", "name": "m"}, "completion": {}}
    path.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    model = load_model(f"replay:{path}", rules=None, env={})
    assert isinstance(model, ScrubbingModel) and isinstance(model.inner, ReplayModel)


def test_hf_spec_needs_an_existing_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_model(f"hf:{tmp_path / 'missing'}", rules=ScriptedModel(), env={})
    assert str(caught.value).startswith("hf model folder or .gguf file not found:")
