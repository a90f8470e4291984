"""Evaluation of workflow 1 against its gold, repeated runs, and the monitored rates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preuve.cli import app
from preuve.core.errors import InputError
from preuve.corpora.memo_reports import GOLD_RELATIVE, generate_memo_corpus
from preuve.eval.memo_eval import EvaluationEntry, evaluate_memo, evaluate_run, read_memo_gold
from preuve.eval.memo_rates import rates_overview, read_rates
from preuve.io.documents import load_documents
from preuve.io.records import dump_record
from preuve.memo.pipeline import MemoRun, run_memo
from preuve.memo.rules_engine import MEMO_RULES_HANDLERS, memo_rules_model
from preuve.memo.writer import WRITER_TASK, rendered_facts
from preuve.models.base import Request
from preuve.models.journal import Journal
from preuve.models.scripted import FunctionModel

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
    with Journal(tmp_path_factory.mktemp("j") / "journal.sqlite") as journal:
        return run_memo(load_documents(_reports(corpus)), memo_rules_model(), journal=journal)


def test_rules_engine_meets_every_goal_on_the_bundled_corpus(
    corpus: Path, rules_run: MemoRun
) -> None:
    evaluation = evaluate_run(rules_run, read_memo_gold(corpus / GOLD_RELATIVE))
    figures = evaluation.figures
    assert figures.field_accuracy == 1.0
    assert figures.max_ratio_deviation < 0.00005  # shown as 0.00%
    assert figures.signal_recall == 1.0
    assert figures.memo_verified == 1.0
    assert figures.rejected_quotes_per_report == 0.0
    assert figures.memos_refused_after_rewrite == 0.0
    assert evaluation.unmatched == ()
    for score in evaluation.scores.values():
        assert (score.fields_correct, score.fields_total) == (68, 68)
        assert (score.signals_recalled, score.signals_total) == (6, 6)


def _tampered_gold(corpus: Path, tmp_path: Path) -> Path:
    data: dict[str, Any] = json.loads((corpus / GOLD_RELATIVE).read_text(encoding="utf-8"))
    ferlac = data["companies"][0]
    ferlac["fields"][0]["value"] += 1  # a value the report does not print
    ferlac["fields"][1]["page"] += 1  # a right value on the wrong page
    ratio = ferlac["ratios"][0]
    ratio["values"]["2025"] = str(float(ratio["values"]["2025"]) * 1.1)
    path = tmp_path / "gold.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_scores_detect_wrong_values_pages_and_ratios(
    corpus: Path, rules_run: MemoRun, tmp_path: Path
) -> None:
    evaluation = evaluate_run(rules_run, read_memo_gold(_tampered_gold(corpus, tmp_path)))
    assert evaluation.figures.field_accuracy == pytest.approx(202 / 204)
    assert evaluation.figures.max_ratio_deviation == pytest.approx(0.1 / 1.1, rel=1e-4)
    ferlac = evaluation.scores[rules_run.companies[0].report]
    assert (ferlac.fields_correct, ferlac.fields_total) == (66, 68)


def test_signal_recall_counts_only_overlapping_spans(corpus: Path, tmp_path: Path) -> None:
    def reader_of_one_signal(request: Request) -> str:
        if request.task == WRITER_TASK:
            return MEMO_RULES_HANDLERS[WRITER_TASK](request)
        # The start of Ferlac's first gold sentence: recall 1 of 6, not more.
        quote = "Le premier client du groupe, une enseigne nationale"
        return json.dumps({"signals": [{"category": "concentration", "quote": quote, "page": 3}]})

    with Journal(tmp_path / "j.sqlite") as journal:
        run = run_memo(
            load_documents([corpus / "reports" / "ferlac.pdf"]),
            FunctionModel(reader_of_one_signal),
            journal=journal,
        )
    evaluation = evaluate_run(run, read_memo_gold(corpus / GOLD_RELATIVE))
    assert evaluation.figures.signal_recall == pytest.approx(1 / 6)


def test_repeated_runs_report_mean_and_worst_and_keep_the_rates(
    corpus: Path, tmp_path: Path
) -> None:
    rules = memo_rules_model()
    calls = {"writer": 0}

    def flaky_writer(request: Request) -> str:
        # Run 1 writes its three memos in three calls; from the 4th call on (run 2) the
        # writer invents a number, so each memo of run 2 is refused after its rewrite.
        if request.task == WRITER_TASK:
            calls["writer"] += 1
            if calls["writer"] > 3:
                text = "Le levier a gagné 1,9 point."
                sources = [rendered_facts(request.messages)[2][0].id]
                return json.dumps({"paragraphs": [{"text": text, "sources": sources}]})
        return rules.complete(request).text

    rates = tmp_path / "rates.jsonl"
    with Journal(tmp_path / "j.sqlite") as journal:
        result = evaluate_memo(
            _reports(corpus),
            corpus / GOLD_RELATIVE,
            FunctionModel(flaky_writer),
            journal=journal,
            repeat=2,
            rates_path=rates,
        )
    assert [r.figures.memo_verified for r in result.runs] == [1.0, 0.0]
    assert (result.mean.memo_verified, result.worst.memo_verified) == (0.5, 0.0)
    assert result.worst.memos_refused_after_rewrite == 1.0
    assert result.mean.memos_refused_after_rewrite == 0.5
    assert result.worst.field_accuracy == 1.0  # statements do not depend on the model
    rows = read_rates(rates)
    assert [r.memos_refused for r in rows] == [0, 3]
    assert [r.source for r in rows] == ["eval", "eval"]
    overview = rates_overview(rows)
    assert overview["runs"] == 2 and overview["last_memos_refused_after_rewrite"] == 1.0
    data = dump_record(EvaluationEntry.of(result))
    assert json.loads(json.dumps(data))["repeat"] == 2
    # Each run's calls come from its own journal records: run 2 rewrote its three memos.
    costs = [run["cost"] for run in data["runs"]]
    assert [c["calls_by_task"][WRITER_TASK] for c in costs] == [3, 6]
    assert costs[1]["calls"] == costs[0]["calls"] + 3
    assert data["cost"]["worst"]["calls"] == costs[1]["calls"]


def test_gold_errors_are_one_line_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such gold file"):
        read_memo_gold(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"companies": [{"slug": "x"}]}', encoding="utf-8")
    with pytest.raises(InputError, match="not a memo gold file"):
        read_memo_gold(bad)
    assert read_rates(tmp_path / "none.jsonl") == []
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"run_id": 1}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"broken\.jsonl:1"):
        read_rates(broken)


def test_eval_memo_refuses_an_unknown_quote_mode(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["eval", "memo", "--quotes", "paraphrase", "--out", str(tmp_path / "eval")]
    )
    assert result.exit_code == 2
    assert "unknown --quotes mode 'paraphrase'" in result.output
    assert not (tmp_path / "eval").exists()  # refused before anything is written


def test_both_reader_modes_go_through_the_same_grading(corpus: Path, tmp_path: Path) -> None:
    figures = {}
    for mode in ("copy", "select"):
        with Journal(tmp_path / f"{mode}.sqlite") as journal:
            result = evaluate_memo(
                _reports(corpus), corpus / GOLD_RELATIVE, memo_rules_model(),
                journal=journal, quotes=mode,
            )  # fmt: skip
            readers = [c for c in journal.calls() if c.task == "memo.reader"]
        figures[mode] = result.mean
        # in select mode the reader answers sentence ids, in copy mode the quotes' text
        selected = ['"sentence"' in (c.raw_output or "") for c in readers]
        assert readers and (all(selected) if mode == "select" else not any(selected)), mode
    assert figures["select"].field_accuracy == figures["copy"].field_accuracy == 1.0
    assert figures["select"].memo_verified == 1.0
