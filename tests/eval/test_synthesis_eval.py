"""Grading workflow 2 runs: one run, repeated runs (mean and worst), refused runs."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.cli import app
from preuve.corpora.synthesis_dossier import SynthesisCorpusInfo, generate_synthesis_dossier
from preuve.eval.grid import load_grid
from preuve.eval.synthesis_eval import (
    RepeatedScoreEntry,
    evaluate_bundled,
    evaluate_synthesis,
    grade_run,
    grid_for,
)
from preuve.io.records import dump_record
from preuve.loaders import load_dossier
from preuve.models import FunctionModel, LoopStatus
from preuve.models.base import Completion, Model, Request
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.synthesis.subagent import SUBAGENT_TASK
from preuve.synthesis.synthesizer import SYNTHESIZER_TASK


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> SynthesisCorpusInfo:
    return generate_synthesis_dossier(tmp_path_factory.mktemp("eval"))


def with_override(task: str, handler: Callable[[Request], str]) -> Model:
    rules = synthesis_rules_model()

    def answer(request: Request) -> str | Completion:
        return handler(request) if request.task == task else rules.complete(request)

    return FunctionModel(answer, name="override")


def skip_longevity_sources(request: Request) -> str:
    """A sub-agent that reads past doc-30 and doc-31 (the planner cannot lose them any more:
    code assigns every relevant document a plan leaves out)."""
    blocks = re.compile(r'<document id="doc-3[01]".*?\n</document>', re.DOTALL)
    system, user, *rest = request.messages
    shown = replace(user, content=blocks.sub("", user.content))  # the rules read the prompt
    skipped = replace(request, messages=(system, shown, *rest))
    return synthesis_rules_model().complete(skipped).text


def test_rules_on_the_bundled_dossier_score_100_every_time(tmp_path: Path) -> None:
    result = evaluate_bundled(synthesis_rules_model, tmp_path, repeat=2)
    assert result.totals == (100.0, 100.0)
    assert (result.mean, result.worst, result.refused) == (100.0, 100.0, 0)
    assert result.engine == "rules"
    assert result.lines()[0].startswith("engine: rules · runs: 2 · mean 100.0/100")
    # Every run counts its own model calls (the same ones: the rules engine is deterministic).
    calls = [run.cost["calls"] for run in result.runs]
    assert calls[0] == calls[1] > 0
    assert result.cost["mean"]["calls"] == result.cost["worst"]["calls"] == calls[0]
    assert all(run.cost["wall_seconds"] > 0 for run in result.runs)


def test_the_command_can_grade_the_bundled_dossier_alone() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["eval", "synthesis", "--bundled-only", "--json"])
    assert result.exit_code == 0, result.output
    graded = json.loads(result.output)
    assert list(graded) == ["bundled"]
    assert graded["bundled"]["cost"]["mean"]["calls"] > 0
    both = runner.invoke(app, ["eval", "synthesis", "--bundled-only", "--dossier", "x"])
    assert both.exit_code == 2
    assert "cannot go with --bundled-only" in both.output


def test_mean_and_worst_case_over_uneven_runs(corpus: SynthesisCorpusInfo) -> None:
    models = iter([synthesis_rules_model(), with_override(SUBAGENT_TASK, skip_longevity_sources)])
    result = evaluate_synthesis(
        load_dossier(corpus.dossier), lambda: next(models), load_grid(corpus.grid), repeat=2
    )
    best, dropped = result.runs
    assert best.score.rounded == 100.0
    assert "C4" in dropped.score.contradictions_missed
    assert not {"doc-30", "doc-31"} & set(dropped.uncovered)
    assert result.worst == dropped.score.rounded < 100.0
    assert result.mean == round((100.0 + dropped.score.rounded) / 2, 1)
    assert "C4" in "\n".join(result.lines())  # the worst run's breakdown is shown
    assert dump_record(RepeatedScoreEntry.of(result))["runs"][1]["uncovered"] == [
        f"doc-{n}" for n in range(24, 30)
    ]


def test_a_refused_run_is_graded_as_delivering_nothing(corpus: SynthesisCorpusInfo) -> None:
    def empty_list(request: Request) -> str:
        answer = json.loads(synthesis_rules_model().complete(request).text)
        answer["contradictions"] = []
        return json.dumps(answer, ensure_ascii=False)

    run = synthesize(load_dossier(corpus.dossier), with_override(SYNTHESIZER_TASK, empty_list))
    assert run.status is LoopStatus.REFUSED and run.synthesis is not None
    score = grade_run(run, load_grid(corpus.grid))
    assert (score.total, score.citations_total, len(score.facts_found)) == (0.0, 0, 0)


def test_repeat_must_be_positive(corpus: SynthesisCorpusInfo) -> None:
    with pytest.raises(ValueError, match="repeat"):
        evaluate_synthesis(
            load_dossier(corpus.dossier), synthesis_rules_model, load_grid(corpus.grid), repeat=0
        )


def test_a_grid_without_documents_takes_the_dossier_s_or_is_refused_by_grade(
    corpus: SynthesisCorpusInfo, tmp_path: Path
) -> None:
    data = json.loads(corpus.grid.read_text(encoding="utf-8"))
    del data["documents"]
    bare = tmp_path / "grid.json"
    bare.write_text(json.dumps(data), encoding="utf-8")
    dossier = load_dossier(corpus.dossier)
    filled = grid_for(load_grid(bare), dossier)
    assert filled.documents == frozenset(dossier.ids) == load_grid(corpus.grid).documents
    kept = load_grid(corpus.grid)
    assert grid_for(kept, dossier) is kept  # a grid that lists its documents is left alone
    run = synthesize(dossier, synthesis_rules_model())
    graded = grade_run(run, filled)
    assert graded.citations_valid == graded.citations_total > 0
    out = tmp_path / "synthesis.json"  # refused before it is read
    out.write_text("{}", encoding="utf-8")
    refused = CliRunner().invoke(app, ["grade", str(out), "--grid", str(bare)])
    assert refused.exit_code == 2
    assert "lists no 'documents'" in refused.output
