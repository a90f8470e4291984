"""The journal: every call kept whole in an append-only SQLite table, readable back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from preuve.core.errors import InputError, ModelError
from preuve.models import Journal, JournaledModel, ScriptedModel
from preuve.models.base import Completion, Request, messages_of, request_hash

SECRET = "sk-proj-0123456789SECRET"
ASK = Request(messages_of([("system", "Be exact."), ("user", "Quote it.")]), task="memo.reader")


class KeyedModel(ScriptedModel):
    @property
    def secret_values(self) -> tuple[str, ...]:
        return (SECRET,)


def journal_three_calls(journal: Journal) -> None:
    truncated = Completion('{"quote": "cut', "length", 30, 384, token_ids=(5, 6, 7), seconds=0.25)
    inner = KeyedModel(
        [Completion("ok", "stop", 30, 1, seconds=0.1), truncated, ModelError("HTTP 500")]
    )
    model = JournaledModel(inner, journal, run_id="run-a")
    model.complete(ASK)
    model.complete(Request(messages_of([("user", f"key={SECRET}")]), task="memo.writer"))
    with pytest.raises(ModelError):
        model.complete(ASK)


def test_every_call_is_recorded_with_its_status(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal_three_calls(journal)
        ok, invalid, error = journal.calls("run-a")

    assert (ok.status, ok.raw_output, ok.finish_reason) == ("ok", "ok", "stop")
    assert ok.messages == ASK.messages
    assert ok.request_hash == request_hash(ASK, ok.identity)
    assert ok.identity.label() == "scripted:scripted"
    assert ok.settings == {
        "max_new_tokens": 384,
        "temperature": 0.0,
        "seed": 0,
        "response_schema": None,
    }
    assert (ok.prompt_tokens, ok.generated_tokens, ok.seconds) == (30, 1, 0.1)

    assert invalid.status == "invalid"
    assert invalid.raw_output == '{"quote": "cut'  # kept whole
    assert invalid.token_ids == (5, 6, 7)
    assert invalid.messages[0].content == "key=[REDACTED]"

    assert (error.status, error.raw_output, error.error) == ("error", None, "ModelError: HTTP 500")
    assert error.seconds >= 0


def test_calls_are_read_back_per_run(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal_three_calls(journal)
        JournaledModel(ScriptedModel(["b"]), journal, run_id="run-b").complete(ASK)
    with Journal(path) as reopened:
        assert reopened.run_ids() == ["run-a", "run-b"]
        assert [c.raw_output for c in reopened.calls("run-b")] == ["b"]
        assert len(reopened.calls()) == 4
        assert [c.id for c in reopened.calls()] == [1, 2, 3, 4]


def test_readonly_journal_reads_without_writing(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal_three_calls(journal)
    before = path.read_bytes()
    with Journal(path, readonly=True) as reader:
        assert len(reader.calls("run-a")) == 3
        assert reader.run_ids() == ["run-a"]
        with pytest.raises(InputError, match="readonly"):
            reader.record(reader.calls()[0])
    # A WAL reader may create the -shm index beside it; the database itself is untouched.
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "statement",
    ["UPDATE calls SET raw_output = 'forged'", "DELETE FROM calls"],
    ids=["update", "delete"],
)
def test_the_table_is_append_only(tmp_path: Path, statement: str) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal_three_calls(journal)
    db = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(statement)
    finally:
        db.close()


def test_wal_and_strict_tables(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path):
        pass
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'calls'").fetchone()
        assert sql.rstrip().endswith("STRICT")
    finally:
        db.close()


def test_no_secret_in_the_database_bytes(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal_three_calls(journal)
    for file in tmp_path.glob("journal.sqlite*"):
        assert SECRET.encode() not in file.read_bytes(), file.name


def test_journal_level_secrets_are_scrubbed_too(tmp_path: Path) -> None:
    secret = "tok-abcdefgh-12345"
    with Journal(tmp_path / "j.sqlite", secrets=[secret]) as journal:
        JournaledModel(ScriptedModel([f"echo {secret}"]), journal, "r").complete(ASK)
        assert journal.calls("r")[0].raw_output == "echo [REDACTED]"
