"""The report of ``preuve reliability``: what it counts, how it prints, how it exits.

The matrix itself is exercised case by case by the other tests of this folder; here the
counting is checked on known checks, and the command on a stubbed run plus the
in-process invoker on the real command tree.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from preuve.cli import app, build_app
from preuve.commands import reliability as command_module
from preuve.commands.reliability import in_process, reliability_command
from preuve.eval.reliability import BigPdf, Check, ReliabilityEntry, ReliabilityReport
from preuve.eval.reliability_viewer import ViewerProbe
from preuve.io.records import dump_record

CHECKS = (
    Check("input: pdf", "pdf/corrupt"),
    Check("input: pdf", "pdf/zero-page", ("exit code 1, expected 2",)),
    Check("model: digest.map", "nan"),
    Check("model: memo.writer", "nested-10000", ("KeyError('x')",), crashed=True),
    Check("fault: sigkill", "kill 00"),
    Check("fault: sigkill", "kill 01", ("finished run lost: r1",), data_lost=True),
)
REPORT = ReliabilityReport(CHECKS, BigPdf(2000, 0, 3, 3, 1.7, 66.1, 60.1), ("a note",))
CLEAN = ReliabilityReport(tuple(c for c in CHECKS if c.passed), None)


def test_the_report_counts_inputs_faults_crashes_and_losses() -> None:
    assert (REPORT.inputs_tried, REPORT.faults_injected) == (4, 2)
    assert (REPORT.crashes, REPORT.data_lost, REPORT.failures) == (1, 1, 3)
    assert REPORT.rows() == [
        ("input: pdf", 2, 1, 0, 0),
        ("model: digest.map", 1, 1, 0, 0),
        ("model: memo.writer", 1, 0, 1, 0),
        ("fault: sigkill", 2, 1, 0, 1),
    ]
    assert REPORT.summary() == (
        "inputs tried 4, faults injected 2, crashes 1, data lost 1, secrets found 0, "
        "fetched or executed 0, other failures 1"
    )
    data = dump_record(ReliabilityEntry.of(REPORT))
    assert [f["id"] for f in data["failed"]] == ["pdf/zero-page", "nested-10000", "kill 01"]
    assert data["big_pdf"]["peak_mib"] == 66.1
    json.dumps(data)  # JSON-ready


def test_secrets_found_are_counted_apart() -> None:
    report = ReliabilityReport(
        (
            Check("secrets: memo", "9 files read"),
            Check("secrets: synthesize", "8 files read", ("secret found in run.json",), secrets=2),
            Check("input: viewer", "/page/x/1", ("/page/x/1: HTTP 500, expected 200",)),
        ),
        viewer=ViewerProbe({"/page/x/1": 500}, 10, 120.0, ()),
    )
    assert (report.inputs_tried, report.secrets_found, report.failures) == (3, 2, 2)
    assert report.summary() == (
        "inputs tried 3, faults injected 0, crashes 0, data lost 0, secrets found 2, "
        "fetched or executed 0, other failures 1"
    )
    assert dump_record(ReliabilityEntry.of(report))["viewer"]["peak_mib"] == 120.0


@pytest.fixture
def with_command() -> typer.Typer:
    tree = build_app()
    tree.command("reliability")(reliability_command)
    return tree


@pytest.mark.parametrize(
    ("report", "code"), [(REPORT, 1), (CLEAN, 0)], ids=["failures", "all-passed"]
)
def test_the_command_prints_the_matrix_and_exits_by_it(
    report: ReliabilityReport,
    code: int,
    with_command: typer.Typer,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    seen: dict[str, object] = {}

    def fake_run(workdir: Path, invoke: object, **options: object) -> ReliabilityReport:
        seen.update(options, workdir=workdir, invoke=invoke)
        return report

    monkeypatch.setattr(command_module, "run_reliability", fake_run)
    result = CliRunner().invoke(with_command, ["reliability", "--workdir", str(tmp_path)])
    assert result.exit_code == code, result.stdout
    assert "Reliability matrix" in result.stdout
    assert report.summary() in result.stdout
    assert seen["kill_rounds"] == 20 and seen["big_pages"] == 2000
    assert seen["workdir"] == tmp_path
    if report is REPORT:
        assert "2000-page PDF" in result.stdout and "peak RSS 66 MiB" in result.stdout
        assert "FAILED model: memo.writer / nested-10000: KeyError('x')" in result.stdout
    result = CliRunner().invoke(with_command, ["reliability", "--json", "--workdir", str(tmp_path)])
    assert json.loads(result.stdout)["crashes"] == report.crashes


def test_fewer_than_twenty_kill_rounds_is_refused(with_command: typer.Typer) -> None:
    result = CliRunner().invoke(with_command, ["reliability", "--rounds", "3"])
    assert result.exit_code == 2


def test_the_in_process_invoker_runs_the_real_tree(tmp_path: Path) -> None:
    invoke = in_process(typer.main.get_command(app))
    missing = tmp_path / "missing.pdf"
    outcome = invoke(["check-quote", str(missing), "--page", "1", "--quote", "x" * 20])
    assert (outcome.exit_code, outcome.stdout, outcome.crash) == (2, "", "")
    assert outcome.stderr == f"preuve: error: {missing}: no such file\n"


def test_the_in_process_invoker_reports_an_escaping_exception() -> None:
    broken = typer.Typer()

    @broken.command()
    def explode() -> None:
        raise KeyError("boom")

    outcome = in_process(typer.main.get_command(broken))([])
    assert outcome.exit_code == 1 and outcome.crash == "KeyError('boom')"
