"""Quotes by selection: the catalogue, the enum of ids, resolution to exact text, and the
same checks as copied quotes (the rules engine finds the same signals in both modes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.cli import app
from preuve.core.documents import Document
from preuve.core.quotes import QuoteChecker
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.io.pdf import load_pages
from preuve.memo.reader import read_signals, reader_requests
from preuve.memo.rules_engine import memo_rules_model
from preuve.memo.selection import catalogue
from preuve.models.scripted import ScriptedModel

PAGES = (
    "Rapport 2025\n\nLe client Orvane représente 41 % du chiffre d'affaires. "
    "La dette nette a diminué de 3 M€ au cours de l'exercice.",
    "Le prêt de 12 M€ arrive à échéance en mars 2026 et doit être refinancé.",
)
REPORT = Document.from_pages("acme.pdf", PAGES)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("memo-select")
    generate_memo_corpus(out)
    return out


def test_catalogue_ids_and_text() -> None:
    entries = catalogue(PAGES, [1, 2])
    assert [(e.id, e.page) for e in entries] == [("p1-s1", 1), ("p1-s2", 1), ("p2-s1", 2)]
    assert entries[0].text == "Le client Orvane représente 41 % du chiffre d'affaires."


def test_the_schema_names_the_ids_and_the_prompt_lists_them() -> None:
    [request] = reader_requests("Acme SA", PAGES, quotes="select")
    assert request.response_schema is not None
    item = request.response_schema["properties"]["signals"]["items"]
    assert item["properties"]["sentence"] == {"type": "string", "enum": ["p1-s1", "p1-s2", "p2-s1"]}
    assert "[p2-s1] Le prêt de 12 M€" in request.messages[1].content


def test_a_picked_id_resolves_to_the_exact_sentence() -> None:
    answer = {"signals": [{"category": "refinancing", "sentence": "p2-s1"}]}
    reading = read_signals(ScriptedModel([json.dumps(answer)]), "Acme SA", REPORT, quotes="select")
    [signal] = reading.verified
    assert (signal.page, signal.category) == (2, "refinancing")
    assert REPORT.text[signal.span.start : signal.span.end] == signal.matched == PAGES[1].rstrip()


def test_an_invented_id_is_refused_by_the_schema_then_dropped() -> None:
    bad = json.dumps({"signals": [{"category": "covenant", "sentence": "p9-s9"}]})
    reading = read_signals(ScriptedModel([bad, bad]), "Acme SA", REPORT, quotes="select")
    assert reading.verified == () and reading.attempts == 2
    [defect] = reading.defects
    assert (defect.code, defect.path) == ("schema", "$.signals[0].sentence")
    assert defect.detail == 'must be one of "p1-s1", "p1-s2", "p2-s1"; got string "p9-s9"'


def test_rules_engine_finds_the_same_signals_in_both_modes(corpus: Path) -> None:
    pages = load_pages(corpus / "reports/ferlac.pdf")
    report = Document.from_pages("ferlac.pdf", pages)
    copied = read_signals(memo_rules_model(), "Maison Ferlac SAS", report)
    selected = read_signals(memo_rules_model(), "Maison Ferlac SAS", report, quotes="select")
    key = [(s.category, s.page, s.span.start, s.span.end) for s in copied.verified]
    assert key and key == [
        (s.category, s.page, s.span.start, s.span.end) for s in selected.verified
    ]
    checker = QuoteChecker(pages)
    assert all(checker.verify(s.page, s.quote).verified for s in selected.verified)


def test_cli_refuses_an_unknown_mode(tmp_path: Path) -> None:
    report = tmp_path / "r.pdf"
    report.write_bytes(b"%PDF-1.4\n")
    result = CliRunner().invoke(app, ["memo", str(report), "--quotes", "paraphrase"])
    assert result.exit_code == 2 and "unknown --quotes mode 'paraphrase'" in result.output
