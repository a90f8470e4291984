"""`preuve eval digest`: the bundled corpus's test mutations, or one dossier of any corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

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
from preuve.commands.digest_views import dossier_lines, eval_lines, eval_progress, write_json
from preuve.core.errors import InputError
from preuve.digest.mutations import events_from_file
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.eval.digest_dossier import evaluate_dossier
from preuve.eval.digest_eval import run_digest_eval
from preuve.io.store import DigestStore

__all__ = ["eval_digest_command"]


@handles_errors
def eval_digest_command(
    *,
    out: Annotated[
        Path, typer.Option("--out", help="A new folder for the store, report and review sample.")
    ] = Path("preuve-out/digest-eval"),
    corpus: Annotated[
        Path | None,
        typer.Option("--corpus", help="A generated digest corpus (default: generate one)."),
    ] = None,
    model: ModelOpt = None,
    events: Annotated[
        Path | None,
        typer.Option("--events", help="A JSON list of events instead of SPEC's three."),
    ] = None,
    dossier: Annotated[
        Path | None,
        typer.Option("--dossier", help="Evaluate one dossier of any corpus (needs --gold)."),
    ] = None,
    gold: Annotated[Path | None, typer.Option("--gold", help="The gold file of --dossier.")] = None,
    concurrency: ConcurrencyOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """The 60 test mutations, each followed by an incremental and an independent full build
    compared node by node, the audit against gold, and the extractive baseline; or, with
    --dossier and --gold, one dossier of any corpus with its events."""
    runtime = command_runtime(model=model, concurrency=concurrency)
    summarizer = runtime.model(rules_summarizer)
    concurrency = runtime.concurrency
    chosen = events_from_file(events) if events is not None else None
    if dossier is not None:
        if gold is None or chosen is None:
            raise InputError("--dossier needs --gold and --events")
        out.mkdir(parents=True, exist_ok=True)
        store = out / f"{dossier.name}.sqlite"
        if store.exists():  # an earlier evaluation's store would make every build a hit
            raise InputError(f"{store} already exists", fix="choose another --out folder")
        with DigestStore(store) as opened:
            figures = evaluate_dossier(
                dossier, gold, chosen, summarizer, opened, concurrency=concurrency
            )
        write_json(out, f"{dossier.name}.json", figures)
        if as_json:
            print_json(figures)
        else:
            for line in dossier_lines(figures):
                console.print(line, markup=False)
        ok = figures["identical_to_full"] == figures["events"]
        raise typer.Exit(EXIT_OK if ok else EXIT_REJECTED)
    root = corpus.resolve() if corpus is not None else None
    dossiers = sorted(p for p in (root / "dossiers").iterdir()) if root is not None else []
    total = sum(p.name.startswith("test") for p in dossiers) or 20
    with eval_progress("mutations: incremental vs full rebuild") as progress:
        task = progress.add_task("dossiers", total=total)
        report = run_digest_eval(
            out,
            corpus_root=root,
            model=summarizer,
            concurrency=concurrency,
            on_dossier=lambda _name: progress.advance(task),
            events=chosen,
        )
    if as_json:
        print_json(report)
    else:
        for line in eval_lines(report):
            console.print(line, markup=False)
        console.print(f"wrote {out}/", markup=False)
    comparisons = report["comparisons"]
    identical = comparisons["identical"] == comparisons["events"]
    raise typer.Exit(EXIT_OK if identical else EXIT_REJECTED)
