"""`preuve digest build-many DOSSIER...`: many dossiers at once, on the chosen executor.

Each dossier is read as ``digest build`` reads it (its manifest, its grammar), and its
build is one item of the executor's map (:func:`preuve.digest.fleet.build_dossiers`): one
Ray task per dossier with ``--executor ray[:ADDRESS]``, threads otherwise. Every build
records its own run in the one store. Exit 1 if any root is INVALID, 2 on bad input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from preuve.commands.cluster import ExecutorOpt, command_model, open_executor
from preuve.commands.common import (
    EXIT_OK,
    EXIT_REJECTED,
    ConcurrencyOpt,
    ModelOpt,
    command_runtime,
    console,
    handles_errors,
    print_json,
)
from preuve.commands.digest_state import StoreOpt, open_digest_store, open_dossier
from preuve.core.errors import InputError
from preuve.digest.fleet import DossierJob, build_dossiers
from preuve.digest.manifest import manifest_data
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.run_files import build_answer
from preuve.digest.schema import NodeStatus

__all__ = ["build_many_command"]


@handles_errors
def build_many_command(
    dossiers: Annotated[list[Path], typer.Argument(help="Dossier folders to build.")],
    *,
    store: StoreOpt = None,
    model: ModelOpt = None,
    executor: ExecutorOpt = None,
    concurrency: ConcurrencyOpt = None,
    full: Annotated[
        bool, typer.Option("--full", help="Recompute every node (reads no cache).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Build (or bring up to date) several dossiers at once, one run each."""
    targets = [open_dossier(folder) for folder in dossiers]
    labels = [t.label for t in targets]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise InputError(f"dossier listed twice: {repeated[0]}")
    jobs = [DossierJob(t.label, t.snapshot, t.settings, t.principal) for t in targets]
    runtime = command_runtime(model=model, concurrency=concurrency, executor=executor)
    with (
        open_executor(runtime.settings, runtime.concurrency) as runner,
        open_digest_store(store) as opened,
    ):
        summarizer = command_model(runtime, rules_summarizer, runner)
        for target in targets:
            if target.manifest is not None:
                manifest = target.manifest
                opened.record_manifest(
                    target.label, manifest.sha256, "read by build", manifest_data(manifest)
                )
        reports = build_dossiers(
            jobs,
            summarizer.model(rules_summarizer),
            opened,
            runner,
            mode="full" if full else "incremental",
            concurrency=runtime.concurrency,
        )
    if as_json:
        print_json([{"dossier": r.run.dossier, **build_answer(r)} for r in reports])
    else:
        for report in reports:
            counters = report.counters
            console.print(
                f"{report.run.dossier}: {report.root.status.value}, run {report.run_id}, "
                f"{counters.recomputed} recomputed, {counters.cache_hits} hits, "
                f"{counters.model_calls} calls",
                markup=False,
            )
    refused = any(n.status is NodeStatus.INVALID for r in reports for n in r.nodes)
    raise typer.Exit(EXIT_REJECTED if refused else EXIT_OK)
