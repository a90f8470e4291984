"""The journal of model calls on both backends: the SQLite file of a run folder, or the
PostgreSQL database of a postgresql:// store (same scrubbing, same append-only rule)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import psycopg
import pytest

from preuve.core.errors import InputError, ModelError
from preuve.models import JournaledModel, ScriptedModel
from preuve.models.base import Completion, Request, messages_of
from preuve.models.journal import CallJournal, Journal, open_journal
from preuve.models.journal_postgres import PostgresJournal

SECRET = "sk-proj-0123456789SECRET"
ASK = Request(messages_of([("system", "Be exact."), ("user", "Quote it.")]), task="memo.reader")


class KeyedModel(ScriptedModel):
    @property
    def secret_values(self) -> tuple[str, ...]:
        return (SECRET,)


@pytest.fixture(params=["sqlite", "postgresql"])
def journal(request: pytest.FixtureRequest, tmp_path: Path) -> CallJournal:
    store = None if request.param == "sqlite" else request.getfixturevalue("pg_url")
    opened = open_journal(store, tmp_path / "journal.sqlite")
    request.addfinalizer(opened.close)
    return opened


def test_open_journal_follows_the_store(tmp_path: Path, pg_url: str) -> None:
    with open_journal(None, tmp_path / "a.sqlite") as default:
        assert isinstance(default, Journal)
    with open_journal(f"sqlite:{tmp_path / 'd.sqlite'}", tmp_path / "b.sqlite") as beside:
        assert isinstance(beside, Journal) and (tmp_path / "b.sqlite").is_file()
    with open_journal(pg_url, tmp_path / "c.sqlite") as shared:
        assert isinstance(shared, PostgresJournal)
    assert not (tmp_path / "c.sqlite").exists()


def test_calls_are_kept_whole_and_secrets_scrubbed(journal: CallJournal) -> None:
    truncated = Completion('{"quote": "cut', "length", 30, 384, token_ids=(5, 6, 7), seconds=0.25)
    inner = KeyedModel(
        [Completion("ok", "stop", 30, 1, seconds=0.1), truncated, ModelError("HTTP 500")]
    )
    model = JournaledModel(inner, journal, run_id="run-a")
    model.complete(ASK)
    model.complete(Request(messages_of([("user", f"key={SECRET}")]), task="memo.writer"))
    with pytest.raises(ModelError):
        model.complete(ASK)
    JournaledModel(ScriptedModel([Completion("b", "stop", 1, 1)]), journal, "run-b").complete(ASK)
    ok, invalid, error = journal.calls("run-a")
    assert (ok.status, ok.raw_output, ok.seconds) == ("ok", "ok", 0.1)
    assert ok.messages == ASK.messages
    assert (invalid.status, invalid.raw_output, invalid.token_ids) == (
        "invalid",
        '{"quote": "cut',
        (5, 6, 7),
    )
    assert invalid.messages[0].content == "key=[REDACTED]"
    assert (error.status, error.raw_output, error.error) == ("error", None, "ModelError: HTTP 500")
    assert journal.run_ids() == ["run-a", "run-b"]
    ids = [c.id or 0 for c in journal.calls()]
    assert ids == sorted(ids) and len(set(ids)) == 4
    assert all(SECRET not in repr(call) for call in journal.calls())


def test_concurrent_writers_lose_no_call(journal: CallJournal) -> None:
    def worker(number: int) -> None:
        answers = [Completion(f"{number}-{i}", "stop", 1, 1) for i in range(10)]
        model = JournaledModel(ScriptedModel(answers), journal, run_id=f"run-{number}")
        for _ in range(10):
            model.complete(ASK)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    calls = journal.calls()
    assert len(calls) == 40 and len({c.id for c in calls}) == 40
    assert sorted(c.raw_output or "" for c in calls) == sorted(
        f"{n}-{i}" for n in range(4) for i in range(10)
    )


def test_the_postgresql_journal_is_append_only(pg_url: str) -> None:
    with PostgresJournal(pg_url) as journal:
        JournaledModel(ScriptedModel([Completion("a", "stop", 1, 1)]), journal, "r").complete(ASK)
    for statement in ("UPDATE calls SET task = 'x'", "DELETE FROM calls", "TRUNCATE calls"):
        with (
            psycopg.connect(pg_url, autocommit=True) as conn,
            pytest.raises(psycopg.errors.RestrictViolation, match="append-only"),
        ):
            conn.execute(statement)
    with PostgresJournal(pg_url) as reopened:  # opening again migrates nothing
        assert len(reopened.calls()) == 1


def test_the_sqlite_journal_is_still_append_only(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with open_journal(None, path) as journal:
        JournaledModel(ScriptedModel([Completion("a", "stop", 1, 1)]), journal, "r").complete(ASK)
    with sqlite3.connect(path) as conn, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM calls")


def test_an_unreachable_journal_server_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        open_journal("postgresql://u:pw@127.0.0.1:9/none", tmp_path / "j.sqlite")
    assert "\n" not in str(caught.value) and "pw@" not in str(caught.value)
