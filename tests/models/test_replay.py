"""Record real calls to a file, replay them deterministically; a miss is a clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preuve.core.errors import ConfigError, ModelError
from preuve.models import FunctionModel, RecordingModel, ReplayModel, ScriptedModel
from preuve.models.base import Completion, Request, messages_of, request_hash
from preuve.models.budget import is_estimated

SECRET = "sk-live-abcdefghijklmnop"
ASK = Request(messages_of([("user", "Quote page 2.")]), task="memo.reader", seed=3)
OTHER = Request(messages_of([("user", "Quote page 3.")]), task="memo.reader")


class KeyedModel(ScriptedModel):
    """A scripted backend that declares an API key, as the openai backend does."""

    @property
    def secret_values(self) -> tuple[str, ...]:
        return (SECRET,)


def record(path: Path) -> None:
    exact = Completion("exact", "length", 12, 384, token_ids=(1, 2, 3), seconds=0.5)
    inner = KeyedModel(["estimated", exact, ModelError("HTTP 500 from the endpoint")])
    recorder = RecordingModel(inner, path)
    recorder.complete(ASK)
    recorder.complete(Request(messages_of([("user", f"my key {SECRET}")])))
    with pytest.raises(ModelError):
        recorder.complete(OTHER)


def test_replay_returns_exactly_what_was_recorded(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    record(path)
    replay = ReplayModel(path)

    first = replay.complete(ASK)
    assert (first.text, first.finish_reason, is_estimated(first)) == ("estimated", "stop", True)
    second = replay.complete(Request(messages_of([("user", f"my key {SECRET}")])))
    assert second == Completion("exact", "length", 12, 384, token_ids=(1, 2, 3), seconds=0.5)
    assert not is_estimated(second)
    with pytest.raises(ModelError, match="HTTP 500 from the endpoint"):
        replay.complete(OTHER)
    assert replay.complete(ASK) == first  # deterministic
    assert len(replay) == 3


def test_recording_strips_secrets_and_keys_lines_by_request_hash(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    record(path)
    raw = path.read_text(encoding="utf-8")
    assert SECRET not in raw and "[REDACTED]" in raw
    assert "authorization" not in raw.lower()
    lines = [json.loads(line) for line in raw.splitlines()]
    assert lines[0]["hash"] == request_hash(ASK)
    assert lines[0]["settings"]["seed"] == 3
    assert lines[0]["model"] == {
        "backend": "scripted",
        "name": "scripted",
        "tokenizer": "",
        "version": "",
    }


def test_a_miss_names_the_request_and_the_file(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    record(path)
    unknown = Request(messages_of([("user", "never asked")]), task="digest.summarize")
    with pytest.raises(ModelError) as caught:
        ReplayModel(path).complete(unknown)
    text = str(caught.value)
    assert text.startswith(
        f"no recorded answer for request {request_hash(unknown)[:16]} (task digest.summarize)"
        f" in {path} (record again"
    )
    assert "\n" not in text


def test_identity_names_the_recorded_models_and_the_file_digest(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    record(path)
    identity = ReplayModel(path).identity
    assert (identity.backend, identity.name) == ("replay", "scripted:scripted")
    assert identity.version.startswith("sha256:")
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\n")  # a different file is a different identity
    assert ReplayModel(path).identity.version != identity.version


def test_the_last_recording_of_a_request_wins(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    RecordingModel(ScriptedModel(["old"]), path).complete(ASK)
    RecordingModel(ScriptedModel(["new"]), path).complete(ASK)
    assert ReplayModel(path).complete(ASK).text == "new"


@pytest.mark.parametrize(
    "content",
    ["not json\n", '{"hash": "x"}\n', '["a list"]\n'],
    ids=["not-json", "no-outcome", "not-an-object"],
)
def test_a_corrupt_file_is_a_config_error_with_its_line(tmp_path: Path, content: str) -> None:
    path = tmp_path / "calls.jsonl"
    path.write_text("\n" + content, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"line 2 is not a recorded call"):
        ReplayModel(path)


def test_recording_passes_through_the_inner_identity(tmp_path: Path) -> None:
    inner = FunctionModel(lambda request: "x", name="fn")
    assert RecordingModel(inner, tmp_path / "r.jsonl").identity == inner.identity
