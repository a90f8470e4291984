"""``python -m preuve`` runs the same app as the ``preuve`` script: its help, a check's
verdict in its exit code and JSON on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import preuve


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # The package this test imports (a worktree's src/, not the venv's editable install).
    source = str(Path(preuve.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": source, "PREUVE_HOME": str(cwd / "home")}
    return subprocess.run(
        [sys.executable, "-m", "preuve", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
        check=False,
    )


def test_python_m_preuve_shows_the_command_tree(tmp_path: Path) -> None:
    done = _run("--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "check-quote" in done.stdout and "synthesize" in done.stdout


def test_python_m_preuve_runs_a_check_with_its_exit_code(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    report.write_text("Le levier atteint 5,5x fin 2025.\fLe covenant est respecté.", "utf-8")
    found = _run(
        "check-quote",
        str(report),
        "--page",
        "1",
        "--quote",
        "levier atteint 5,5x",
        "--json",
        cwd=tmp_path,
    )
    assert found.returncode == 0, found.stderr
    answer = json.loads(found.stdout)
    assert answer["verified"] is True and (answer["start"], answer["end"]) == (3, 22)
    invented = _run(
        "check-quote",
        str(report),
        "--page",
        "2",
        "--quote",
        "le covenant est rompu",
        "--json",
        cwd=tmp_path,
    )
    assert invented.returncode == 1
    assert json.loads(invented.stdout)["verdict"] == "not_found"
