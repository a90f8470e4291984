"""Regressions found by the reliability matrix in the journal and the replay backend.

A journal that cannot be written (read-only or missing folder, full disk, not a database)
raised a bare sqlite3 error (a traceback in the CLI); a replay file that is not UTF-8, holds
an over-long integer, or a damaged recording did too. Each is now one InputError line.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from preuve.core.errors import ConfigError, InputError
from preuve.models import ReplayModel
from preuve.models.base import ModelIdentity, Request, messages_of, request_hash
from preuve.models.journal import CallRecord, Journal

ASK = Request(messages_of([("user", "Quote page 2.")]), task="memo.reader")


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda p: p.mkdir() or p, id="a-folder"),
        pytest.param(lambda p: p.write_bytes(b"not a database" * 400) and p, id="not-a-database"),
    ],
)
def test_an_unusable_journal_is_an_input_error(tmp_path: Path, make: object) -> None:
    target = tmp_path / "journal.sqlite"
    assert callable(make)
    make(target)
    with pytest.raises(InputError) as caught:
        Journal(target)
    assert str(caught.value).startswith(f"journal {target}: ")
    assert "writable and has free space" in str(caught.value)


def test_a_failed_journal_write_is_an_input_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    journal.close()  # any later use fails inside sqlite3, like a full disk would
    record = CallRecord(
        run_id="r", task="t", request_hash="h", identity=ModelIdentity("scripted", "s"),
        messages=ASK.messages, settings={}, raw_output="x", finish_reason="stop",
        prompt_tokens=1, generated_tokens=1, tokens_estimated=True, token_ids=None,
        seconds=0.0, status="ok", error="",
    )  # fmt: skip
    with pytest.raises(InputError, match="journal"):
        journal.record(record)
    with pytest.raises(InputError, match="journal"):
        journal.calls()
    assert issubclass(sqlite3.ProgrammingError, sqlite3.Error)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param("é".encode("latin-1"), "not UTF-8 text (byte 0)", id="latin-1"),
        pytest.param(b'{"hash": 1' + b"1" * 5000 + b', "completion": {}}', "line 1",
                     id="over-long-integer"),
        pytest.param(b"[" * 100_000, "line 1", id="nested"),
    ],
)  # fmt: skip
def test_an_unreadable_replay_file_is_a_config_error(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "calls.jsonl"
    path.write_bytes(content)
    with pytest.raises(ConfigError, match=re.escape(message)):
        ReplayModel(path)


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param({"completion": {"text": "x"}}, id="completion-missing-fields"),
        pytest.param({"completion": ["x"]}, id="completion-not-an-object"),
        pytest.param({"error": "boom"}, id="error-not-an-object"),
    ],
)
def test_a_damaged_recording_is_a_config_error_when_replayed(
    tmp_path: Path, entry: dict[str, object]
) -> None:
    path = tmp_path / "calls.jsonl"
    path.write_text(json.dumps({"hash": request_hash(ASK), **entry}) + "\n", encoding="utf-8")
    model = ReplayModel(path)
    with pytest.raises(ConfigError, match="damaged"):
        model.complete(ASK)
