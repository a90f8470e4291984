"""`preuve reliability`: run the reliability matrix and print it as a table.

reliability [--rounds N] [--pages N] [--workdir DIR] [--json]
    bad inputs through this very CLI (in-process, and a subset in real processes), a
    2 000-page PDF (peak memory), hostile model output on every role, the viewer on crafted
    files (peak memory), runs against an endpoint echoing the API key, digest builds killed
    with SIGKILL, two builds on one store, a read-only store, a full disk. Prints inputs
    tried, faults injected, crashes, data lost and secrets found; exit 0 when every case
    passed, else 1.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Protocol

import typer
from rich.table import Table
from typer.testing import CliRunner

from preuve.commands.common import (
    EXIT_OK,
    EXIT_REJECTED,
    console,
    error_console,
    handles_errors,
    print_json,
)
from preuve.eval.reliability import ReliabilityEntry, ReliabilityReport, run_reliability
from preuve.eval.reliability_inputs import CliOutcome, Invoke
from preuve.io.records import dump_record

__all__ = ["RootCommand", "in_process", "print_report", "reliability_command"]


class RootCommand(Protocol):
    """The command tree as click sees it (what ``ctx.find_root().command`` is)."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        *,
        standalone_mode: bool = True,
    ) -> Any: ...


def in_process(root: RootCommand) -> Invoke:
    """Run command lines through ``root`` (the whole ``preuve`` tree) in this process, with
    stdout and stderr captured as the CLI runner of the tests captures them."""
    runner = CliRunner()

    def invoke(argv: Sequence[str]) -> CliOutcome:
        crash = ""
        with runner.isolation() as (out, err, _):
            try:
                root.main(args=list(argv), prog_name="preuve", standalone_mode=True)
                code = EXIT_OK
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
            except Exception as error:  # the matrix counts crashes; it must not be one
                code, crash = EXIT_REJECTED, repr(error)[:300]
            sys.stdout.flush()
            sys.stderr.flush()
            stdout, stderr = out.getvalue(), err.getvalue()
        return CliOutcome(code, stdout.decode("utf-8", "replace"), stderr.decode(), crash)

    return invoke


def print_report(report: ReliabilityReport) -> None:
    table = Table(title="Reliability matrix")
    for column in ("group", "tried", "passed", "crashes", "data lost"):
        table.add_column(column, justify="left" if column == "group" else "right")
    for group, tried, passed, crashes, lost in report.rows():
        table.add_row(group, str(tried), str(passed), str(crashes), str(lost))
    console.print(table)
    if report.big_pdf is not None:
        big = report.big_pdf
        console.print(
            f"{big.pages}-page PDF: check-quotes exit {big.exit_code}, {big.verified}/"
            f"{big.quotes} quotes verified in {big.seconds:.1f} s, peak RSS {big.peak_mib:.0f}"
            f" MiB (2-page PDF: {big.baseline_mib:.0f} MiB)",
            markup=False,
        )
    if report.viewer is not None:
        viewer = report.viewer
        console.print(
            f"viewer on crafted files: {len(viewer.statuses)} pages, then {viewer.load} "
            f"requests at up to {viewer.concurrency} at once: peak RSS {viewer.peak_mib:.0f} MiB "
            f"(limit 300), largest answer {viewer.largest_body} bytes",
            markup=False,
        )
    for check in report.checks:
        if not check.passed:
            console.print(f"FAILED {check.group} / {check.id}: {'; '.join(check.problems)}",
                          markup=False)  # fmt: skip
    for note in report.notes:
        console.print(f"note: {note}", markup=False)
    console.print(report.summary(), markup=False)


@handles_errors
def reliability_command(
    ctx: typer.Context,
    rounds: Annotated[int, typer.Option("--rounds", min=20, help="SIGKILL rounds.")] = 20,
    pages: Annotated[int, typer.Option("--pages", min=0, help="Pages of the long PDF.")] = 2000,
    workdir: Annotated[
        Path | None, typer.Option("--workdir", help="Keep every input and store here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Bad inputs, hostile model output and faults: the reliability matrix, as a table."""
    invoke = in_process(ctx.find_root().command)

    def progress(step: str) -> None:
        error_console.print(f"reliability: {step}...", markup=False)

    if workdir is not None:
        workdir.mkdir(parents=True, exist_ok=True)
        report = run_reliability(workdir, invoke, kill_rounds=rounds, big_pages=pages,
                                 progress=progress)  # fmt: skip
    else:
        with tempfile.TemporaryDirectory(prefix="preuve-reliability-") as scratch:
            report = run_reliability(Path(scratch), invoke, kill_rounds=rounds, big_pages=pages,
                                     progress=progress)  # fmt: skip
    if as_json:
        print_json(dump_record(ReliabilityEntry.of(report)))
    else:
        print_report(report)
    raise typer.Exit(EXIT_OK if report.failures == 0 else EXIT_REJECTED)
