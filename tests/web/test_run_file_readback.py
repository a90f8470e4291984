"""The run files of real runs (rules engine) read back typed, byte for byte, and the
viewer's loaders read them through RunFolder; a malformed one stops `preuve view` (exit 2)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from preuve.commands.memo import write_memo_run
from preuve.commands.synthesize import check_synthesis_command, write_run
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.io.documents import load_documents
from preuve.io.records import dump_record
from preuve.io.runfolder import RunFolder
from preuve.loaders import load_dossier
from preuve.memo.dashboard import DashboardRow, build_dashboard
from preuve.memo.pipeline import run_memo
from preuve.memo.rules_engine import memo_rules_model
from preuve.memo.run_files import DashboardFile, MemoRunFile
from preuve.models.journal import Journal
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.synthesis.run_files import read_defects, read_synthesis, read_trajectory
from preuve.synthesis.trajectory import trajectory_data
from preuve.web.layout import discover
from preuve.web.memo_loaders import load_dashboard, load_memo
from preuve.web.pages import DocumentLibrary
from preuve.web.synthesis_loaders import load_synthesis
from preuve.web.views import SynthesisView


def _json_text(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``memo/`` and ``synthesis/`` run folders written by the real workflows."""
    base = tmp_path_factory.mktemp("runs")
    reports = sorted(generate_memo_corpus(base / "corpus"))
    with Journal(base / "out/memo/journal.sqlite") as journal:
        run = run_memo(load_documents(reports), memo_rules_model(), journal=journal)
    write_memo_run(run, build_dashboard(run), base / "out/memo")
    dossier = load_dossier(generate_synthesis_dossier(base / "dossier").dossier)
    with Journal(base / "out/synthesis/journal.sqlite") as journal:
        synthesis = synthesize(dossier, synthesis_rules_model(), journal=journal)
    write_run(synthesis, base / "out/synthesis", dossier)
    return base / "out"


def test_memo_run_files_read_back_byte_for_byte(root: Path) -> None:
    folder = RunFolder(root / "memo")
    for name, kind in (("run.json", MemoRunFile), ("dashboard.json", DashboardFile)):
        record = folder.read(name, kind)
        assert _json_text(dump_record(record)) == folder.read_text(name), name
    run = folder.read("run.json", MemoRunFile)
    assert [c.company.slug for c in run.companies] == ["ferlac", "helvane", "solvea"]
    assert run.status == "VERIFIED"
    assert all(c.signals.signals_verified for c in run.companies)


def test_synthesis_run_files_read_back(root: Path) -> None:
    folder = RunFolder(root / "synthesis")
    run = read_trajectory(folder)
    assert _json_text(trajectory_data(run)) == folder.read_text("trajectory.json")
    assert read_defects(folder) == run.defects
    assert read_synthesis(folder) == run.synthesis


def test_the_viewer_loaders_read_the_real_run_folder(root: Path) -> None:
    layout = discover(root)
    library = DocumentLibrary(layout.root, layout.registries)
    memo = load_memo(layout, "memo", library)
    assert memo.problems == ()
    assert [c.status for c in memo.companies] == ["VERIFIED"] * 3
    assert all(f.link is not None for c in memo.companies for f in c.facts if f.kind == "Q")
    dashboard = load_dashboard(layout, "memo")
    assert dashboard.tables[0].columns == tuple(f.name for f in fields(DashboardRow))
    assert len(dashboard.tables[0].rows) == 3
    synthesis = load_synthesis(layout, "synthesis", library)
    assert isinstance(synthesis, SynthesisView)
    assert synthesis.status == "VALID"


def _cli(command: Callable[..., None], args: list[str]) -> tuple[int, list[str]]:
    app = typer.Typer()
    app.command()(command)
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.output.strip().splitlines()


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        ('{"companies": [', "memo/run.json:1:16: invalid JSON"),
        ('{"run_id": 7}', "memo/run.json: run_id: Input should be a valid string"),
    ],
    ids=["syntax", "wrong-type"],
)
def test_preuve_view_refuses_a_malformed_run_json_in_one_line(
    root: Path, tmp_path: Path, damage: str, expected: str
) -> None:
    from preuve.commands.view import view_command

    shutil.copytree(root / "memo", tmp_path / "memo")
    (tmp_path / "memo/run.json").write_text(damage, encoding="utf-8")
    code, lines = _cli(view_command, [str(tmp_path)])
    assert code == 2
    assert len(lines) == 1
    assert lines[0].startswith("preuve: error: ") and expected in lines[0]


def test_check_synthesis_refuses_a_malformed_trajectory_in_one_line(
    root: Path, tmp_path: Path
) -> None:
    shutil.copytree(root / "synthesis", tmp_path / "synthesis")
    (tmp_path / "synthesis/trajectory.json").write_text('{"format": ', encoding="utf-8")
    code, lines = _cli(check_synthesis_command, [str(tmp_path / "synthesis")])
    assert code == 2
    assert len(lines) == 1
    assert "synthesis/trajectory.json:1:12: invalid JSON" in lines[0]
