"""PREUVE_RECORD records every call of a run; --model replay:FILE replays it exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.cli import app
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier


def test_a_recorded_run_replays_to_the_same_synthesis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dossier = generate_synthesis_dossier(tmp_path / "corpus").dossier
    recording = tmp_path / "calls.jsonl"
    runner = CliRunner()

    monkeypatch.setenv("PREUVE_RECORD", str(recording))
    first = runner.invoke(app, ["synthesize", str(dossier), "--out", str(tmp_path / "a")])
    assert first.exit_code == 0, first.output
    monkeypatch.delenv("PREUVE_RECORD")
    lines = recording.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 3  # planner, sub-agents, synthesizer
    assert {json.loads(line)["task"] for line in lines} >= {
        "synthesis.planner",
        "synthesis.synthesizer",
    }

    replay = ["synthesize", str(dossier), "--model", f"replay:{recording}"]
    second = runner.invoke(app, [*replay, "--out", str(tmp_path / "b")])
    assert second.exit_code == 0, second.output
    recorded = json.loads((tmp_path / "a" / "synthesis.json").read_text(encoding="utf-8"))
    replayed = json.loads((tmp_path / "b" / "synthesis.json").read_text(encoding="utf-8"))
    assert (recorded.pop("engine"), replayed.pop("engine")) == ("rules", "replay:rules:rules")
    assert replayed == recorded

    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "question.md").write_text("Une autre question ?", encoding="utf-8")
    (tmp_path / "other" / "documents").mkdir()
    (tmp_path / "other" / "documents" / "doc-01.md").write_text(
        "---\nid: doc-01\ntitle: Note\ndate: 2026-01-02\nsource_type: blog\n---\nUn texte.\n",
        encoding="utf-8",
    )
    miss = runner.invoke(
        app, ["synthesize", str(tmp_path / "other"), "--model", f"replay:{recording}"]
    )
    assert miss.exit_code in (1, 2)
    assert "no recorded answer" in miss.output + miss.stderr
