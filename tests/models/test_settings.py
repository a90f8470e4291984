"""Settings: a flag over its PREUVE_* variable over the default, read in one place, frozen."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from preuve.core.errors import ConfigError
from preuve.models.settings import SETTINGS, Settings, default_home, read_settings

HOME = Path("/srv/preuve-home")


@pytest.mark.parametrize(
    ("flags", "environ", "field", "expected"),
    [
        pytest.param({}, {}, "model", "rules", id="model-default"),
        pytest.param(
            {}, {"PREUVE_MODEL": "replay:a.jsonl"}, "model", "replay:a.jsonl", id="model-env"
        ),
        pytest.param(
            {"model": "replay:b.jsonl"},
            {"PREUVE_MODEL": "replay:a.jsonl"},
            "model",
            "replay:b.jsonl",
            id="model-flag-over-env",
        ),
        pytest.param(
            {"model": None}, {"PREUVE_MODEL": "hf:x"}, "model", "hf:x", id="model-no-flag"
        ),
        pytest.param({}, {"PREUVE_MODEL": "  "}, "model", "rules", id="model-blank-env"),
        pytest.param({}, {}, "concurrency", 4, id="concurrency-default"),
        pytest.param({}, {"PREUVE_CONCURRENCY": "2"}, "concurrency", 2, id="concurrency-env"),
        pytest.param(
            {"concurrency": 7},
            {"PREUVE_CONCURRENCY": "2"},
            "concurrency",
            7,
            id="concurrency-flag-over-env",
        ),
        pytest.param({}, {}, "progress", True, id="progress-default"),
        pytest.param({}, {"PREUVE_QUIET": "1"}, "progress", False, id="quiet-env"),
        pytest.param({}, {"PREUVE_QUIET": "0"}, "progress", True, id="quiet-env-off"),
        pytest.param({"quiet": True}, {"PREUVE_QUIET": "0"}, "progress", False, id="quiet-flag"),
        pytest.param({}, {}, "record", None, id="record-default"),
        pytest.param({}, {"PREUVE_RECORD": "c.jsonl"}, "record", Path("c.jsonl"), id="record-env"),
        pytest.param({}, {}, "home", default_home(), id="home-default"),
        pytest.param({}, {"PREUVE_HOME": str(HOME)}, "home", HOME, id="home-env"),
        pytest.param({}, {}, "context_window", None, id="window-default"),
        pytest.param(
            {}, {"PREUVE_CONTEXT_WINDOW": "8192"}, "context_window", 8192, id="window-env"
        ),
        pytest.param({}, {}, "api_key_env", "OPENAI_API_KEY", id="key-env-default"),
        pytest.param(
            {},
            {"PREUVE_API_KEY_ENV": "GEMINI_API_KEY"},
            "api_key_env",
            "GEMINI_API_KEY",
            id="key-env-env",
        ),
        pytest.param(
            {},
            {"PREUVE_HOME": str(HOME)},
            "store",
            f"sqlite:{HOME / 'digest.sqlite'}",
            id="store-default-under-home",
        ),
        pytest.param(
            {},
            {"PREUVE_STORE": "postgresql://db/preuve"},
            "store",
            "postgresql://db/preuve",
            id="store-env",
        ),
        pytest.param(
            {"store": "sqlite:/tmp/s.sqlite"},
            {"PREUVE_STORE": "postgresql://db/preuve"},
            "store",
            "sqlite:/tmp/s.sqlite",
            id="store-flag-over-env",
        ),
        pytest.param({}, {}, "executor", "local", id="executor-default"),
        pytest.param({}, {"PREUVE_EXECUTOR": "ray"}, "executor", "ray", id="executor-env"),
        pytest.param(
            {"executor": "ray:10.0.0.1:6379"},
            {"PREUVE_EXECUTOR": "local"},
            "executor",
            "ray:10.0.0.1:6379",
            id="executor-flag-over-env",
        ),
    ],
)
def test_a_flag_wins_over_its_variable_which_wins_over_the_default(
    flags: dict[str, Any], environ: dict[str, str], field: str, expected: object
) -> None:
    assert getattr(read_settings(environ, **flags), field) == expected


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        pytest.param(
            {"PREUVE_CONCURRENCY": "0"}, r"CONCURRENCY must be a positive number, not '0'"
        ),
        pytest.param({"PREUVE_CONCURRENCY": "four"}, r"CONCURRENCY must be a positive number"),
        pytest.param(
            {"PREUVE_CONTEXT_WINDOW": "8k"}, r"WINDOW must be a positive number, not '8k'"
        ),
        pytest.param({"PREUVE_QUIET": "maybe"}, r"\$PREUVE_QUIET must be 1 or 0, not 'maybe'"),
    ],
)
def test_a_malformed_variable_is_a_config_error_naming_it(
    environ: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        read_settings(environ)


def test_settings_are_frozen_and_do_not_show_the_environment() -> None:
    settings = read_settings({"OPENAI_API_KEY": "sk-very-secret-value-0123"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.model = "hf:x"  # type: ignore[misc]
    assert "sk-very-secret" not in repr(settings)
    assert settings.environ["OPENAI_API_KEY"] == "sk-very-secret-value-0123"
    with pytest.raises(TypeError):
        settings.environ["OPENAI_API_KEY"] = "changed"  # type: ignore[index]


def test_an_unknown_flag_is_a_programming_error() -> None:
    with pytest.raises(TypeError, match="unknown settings: modle"):
        read_settings({}, modle="hf:x")


def test_every_field_is_in_the_table_and_every_variable_is_preuve_prefixed() -> None:
    fields = {f.name for f in dataclasses.fields(Settings)} - {"environ"}
    assert {s.field for s in SETTINGS} == fields
    assert all(s.env.startswith("PREUVE_") for s in SETTINGS)


def test_direct_construction_fills_the_store_from_home() -> None:
    assert Settings(home=HOME).store == f"sqlite:{HOME / 'digest.sqlite'}"
    with pytest.raises(ConfigError, match="concurrency must be at least 1"):
        Settings(concurrency=0)


def test_the_readme_lists_every_setting_in_one_table() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rows = [line for line in readme.splitlines() if line.startswith("| `PREUVE_")]
    assert [row.split("`")[1] for row in rows] == [s.env for s in SETTINGS]
