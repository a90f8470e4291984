"""`preuve eval digest --repeat N`: N runs on fresh stores, mean and worst, their calls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.cli import app
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.eval.digest_repeat import repeat_digest_eval


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest-repeat-corpus"))


def test_each_run_has_its_own_store_and_the_same_figures(
    corpus: CorpusInfo, tmp_path: Path
) -> None:
    repeated = repeat_digest_eval(
        tmp_path, rules_summarizer, repeat=2, corpus_root=corpus.root,
        dossiers=["test-00"], full=False, exercise=False,
    )  # fmt: skip
    assert repeated["engine"] == "rules" and repeated["repeat"] == 2
    first, second = repeated["runs"]
    # 16 nodes for the initial build and 2 per event, in both runs: the second run's store
    # was empty too (a shared one would have answered every call from the cache).
    assert first["calls"] == second["calls"] == 16 + 3 * 2

    def untimed(row: dict[str, object]) -> dict[str, object]:
        return {k: v for k, v in row.items() if "seconds" not in k and k != "tokens_per_second"}

    assert untimed(first) == untimed(second)
    assert (first["events"], first["roots_valid"]) == (3, 3)
    assert "identical_to_full" not in first  # no full rebuild was asked for
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("run-")) == [
        "run-1",
        "run-2",
    ]
    assert repeated["mean"]["calls"] == repeated["worst"]["calls"] == first["calls"]


def test_with_full_rebuilds_the_comparison_is_a_figure(corpus: CorpusInfo, tmp_path: Path) -> None:
    repeated = repeat_digest_eval(
        tmp_path, rules_summarizer, repeat=2, corpus_root=corpus.root,
        dossiers=["test-00"], full=True, exercise=False,
    )  # fmt: skip
    assert [run["identical_to_full"] for run in repeated["runs"]] == [3, 3]
    assert repeated["worst"]["identical_to_full"] == 3.0


def test_the_command_prints_mean_and_worst_and_the_calls(
    corpus: CorpusInfo, tmp_path: Path
) -> None:
    out = tmp_path / "eval"
    args = ["eval", "digest", "--corpus", str(corpus.root), "--out", str(out)]
    args += ["--repeat", "2", "--limit", "1", "--no-full", "--no-exercise"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "roots VALID after the events" in result.output
    assert "generated tokens / s" in result.output
    written = json.loads((out / "digest-eval-repeat.json").read_text(encoding="utf-8"))
    assert written["repeat"] == 2 and len(written["runs"]) == 2
    assert written["runs"][0]["events"] == 3  # one dossier, SPEC's three events
