"""Workflow 1 end to end with the rules engine, journaling, and gold never opened."""

from __future__ import annotations

import builtins
import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from preuve.core.facts import parse_facts, render_facts
from preuve.corpora.memo_reports import GOLD_RELATIVE, generate_memo_corpus
from preuve.io.documents import load_documents
from preuve.io.records import dump_record
from preuve.memo.pipeline import MemoRun, run_memo
from preuve.memo.reader import READER_TASK
from preuve.memo.rules_engine import MEMO_RULES_HANDLERS, memo_rules_model
from preuve.memo.run_record import memo_run_file
from preuve.memo.writer import WRITER_TASK, MemoStatus
from preuve.models.journal import Journal

SLUGS = ("ferlac", "solvea", "helvane")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("memo-corpus")
    generate_memo_corpus(out)
    return out


def _reports(corpus: Path) -> list[Path]:
    return [corpus / "reports" / f"{slug}.pdf" for slug in SLUGS]


@pytest.fixture(scope="module")
def rules_run(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> MemoRun:
    journal_path = tmp_path_factory.mktemp("journal") / "journal.sqlite"
    with Journal(journal_path) as journal:
        return run_memo(
            load_documents(_reports(corpus)), memo_rules_model(), journal=journal, run_id="r1"
        )


def test_rules_engine_verifies_every_memo_with_zero_rejected_quotes(rules_run: MemoRun) -> None:
    assert rules_run.engine == "rules"
    assert rules_run.status is MemoStatus.VERIFIED
    assert rules_run.signals_rejected == 0
    for company, slug in zip(rules_run.companies, SLUGS, strict=True):
        assert company.company.slug == slug
        assert len(company.statements.fields) == 68
        assert company.identities.ok
        # levier, marge, gearing + 5 credit ratios + 7 of issue 14 (days, turnover, change,
        # FCF) + the covenant ratio the report publishes (Helvane's states no threshold)
        assert len(company.ratios) == (15 if slug == "helvane" else 16)
        assert len(company.reading.verified) == 6
        assert company.reading.first_rejected == 0
        assert company.memo.status is MemoStatus.VERIFIED
        ids = [f.id for f in company.facts]
        assert ids[:3] == [f"R-{slug}-levier", f"R-{slug}-marge", f"R-{slug}-gearing"]
        assert [i for i in ids if i.startswith("Q-")] == [f"Q-{slug}-{n}" for n in range(1, 7)]
        assert parse_facts(render_facts(company.facts)) == list(company.facts)


def test_quote_facts_carry_the_page_text(rules_run: MemoRun) -> None:
    ferlac = rules_run.companies[0]
    covenant = next(f for f in ferlac.facts if f.id.startswith("Q-") and "3,4x" in f.text)
    assert covenant.text.startswith("Maison Ferlac SAS - « Le crédit syndiqué de 85 000 k€")
    assert "selon la définition contractuelle" in covenant.text
    assert covenant.text.endswith("» (p. 8)")


def test_every_model_call_is_journaled(rules_run: MemoRun) -> None:
    assert [c.task for c in rules_run.calls] == [READER_TASK, WRITER_TASK] * 3
    assert all(c.run_id == "r1" and c.status == "ok" for c in rules_run.calls)
    assert all(c.identity.backend == "rules" for c in rules_run.calls)
    record = json.loads(json.dumps(dump_record(memo_run_file(rules_run))))
    assert record["status"] == "VERIFIED" and record["engine"] == "rules"
    assert len(record["calls"]) == 6
    assert record["calls"][0]["messages"][0]["role"] == "system"
    fields = record["companies"][0]["statements"]["fields"]
    assert {"key", "year", "value", "page"} <= set(fields[0])


def test_concurrency_gives_the_same_run(corpus: Path, tmp_path: Path, rules_run: MemoRun) -> None:
    with Journal(tmp_path / "j.sqlite") as journal:
        parallel = run_memo(
            load_documents(_reports(corpus)), memo_rules_model(), journal=journal, concurrency=3
        )
    assert [c.facts for c in parallel.companies] == [c.facts for c in rules_run.companies]
    assert [c.memo for c in parallel.companies] == [c.memo for c in rules_run.companies]
    assert len(parallel.calls) == 6


def test_rules_handlers_cover_both_roles() -> None:
    assert set(MEMO_RULES_HANDLERS) == {READER_TASK, WRITER_TASK}
    assert memo_rules_model().identity.backend == "rules"


def test_inference_never_opens_the_gold_file(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []

    def recording(original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            target = args[0] if args else kwargs.get("file", kwargs.get("path"))
            opened.append(os.fspath(target) if isinstance(target, str | Path) else repr(target))
            return original(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(builtins, "open", recording(builtins.open))
    monkeypatch.setattr(io, "open", recording(io.open))
    monkeypatch.setattr(os, "open", recording(os.open))
    for name in ("open", "read_text", "read_bytes"):
        monkeypatch.setattr(Path, name, recording(getattr(Path, name)))
    with Journal(tmp_path / "j.sqlite") as journal:
        run = run_memo(load_documents(_reports(corpus)), memo_rules_model(), journal=journal)
    monkeypatch.undo()
    assert run.status is MemoStatus.VERIFIED
    gold = str(corpus / GOLD_RELATIVE)
    # The recorder works: it saw the reports being opened...
    assert any(path.endswith("ferlac.pdf") for path in opened)
    # ...and never the gold file, nor anything in its folder.
    assert not [p for p in opened if p == gold or "memo_gold" in p or "/gold/" in p]
