"""`preuve demo`: three workflows on the bundled corpora, rerunnable, outputs in one folder."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from preuve.cli import app


def test_demo_runs_the_three_workflows_and_can_run_again(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    runner = CliRunner()
    first = runner.invoke(app, ["demo", "--out", str(out)])
    assert first.exit_code == 0, first.output
    text = first.stdout
    assert "field accuracy: 100.0% · max ratio deviation: 0.00% · signal recall: 100%" in text
    assert "memo verified: yes" in text
    assert "grid score: 100.0/100" in text
    # 120, not the reference's 140 (issue 16): content-based evidence ids let the root be
    # cut off when doc-00 v2 moves a date the root does not cite.
    assert "model calls: incremental 120 vs full 900" in text
    assert "comparisons identical: 60/60" in text
    assert "engine: rules" in text
    assert text.rstrip().splitlines()[-1] == f"Open the viewer: preuve view {out}"
    for name in (
        "memo/memo.md",
        "memo/run.json",
        "synthesis/synthesis.md",
        "synthesis/score.json",
        "synthesis/documents.json",
        "memo/documents.json",
        "digest/documents.json",
        "digest/serve.json",
        "digest/digest.sqlite",
        "digest/exercise.json",
        "refusals/verdicts.json",
    ):
        assert (out / name).is_file(), name
    summary = json.loads((out / "demo.json").read_text(encoding="utf-8"))
    exercise = summary["digest"]["exercise"]["document_moved"]
    assert exercise["served_before_rebuild"] == "STALE"
    assert exercise["calls_by_task"] == {"map": 1, "reduce": 2}
    # two quotes cut inside a number joined the reference failures (issue 11)
    assert summary["refusals"] == {"quotes_refused": 5, "memo_defects": 5}

    (out / "unrelated.txt").write_text("kept", encoding="utf-8")
    second = runner.invoke(app, ["demo", "--out", str(out)])
    assert second.exit_code == 0, second.output
    assert (
        json.loads((out / "demo.json").read_text(encoding="utf-8"))["digest"] == summary["digest"]
    )
    assert (out / "unrelated.txt").read_text(encoding="utf-8") == "kept"


def test_eval_digest_runs_the_60_mutations(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["eval", "digest", "--out", str(tmp_path / "eval")])
    assert result.exit_code == 0, result.output
    assert "model calls: incremental 120 vs full 900" in result.stdout  # see above
    assert "comparisons identical: 60/60" in result.stdout
    again = CliRunner().invoke(app, ["eval", "digest", "--out", str(tmp_path / "eval")])
    assert again.exit_code == 2  # an existing store would turn every build into cache hits
    assert "already exists" in again.stderr
