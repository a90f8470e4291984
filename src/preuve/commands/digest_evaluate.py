"""`preuve eval digest`: the bundled corpus's test mutations, or one dossier of any corpus."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, NoReturn

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
from preuve.commands.digest_views import (
    dossier_lines,
    eval_lines,
    eval_progress,
    repeat_table,
    write_json,
)
from preuve.commands.usage_view import cost_table
from preuve.core.errors import InputError
from preuve.corpora.digest_corpus import generate_digest_corpus
from preuve.digest.mutations import Mutation
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.eval.digest_dossier import evaluate_dossier
from preuve.eval.digest_eval import evaluation_dossiers, run_digest_eval
from preuve.eval.digest_repeat import repeat_digest_eval
from preuve.io.stores import SqliteStore
from preuve.loaders import events_from_file
from preuve.models.base import Model

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
    repeat: Annotated[
        int, typer.Option("--repeat", min=1, help="Runs, each on a fresh store: mean and worst.")
    ] = 1,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="The first N test dossiers only.")
    ] = None,
    full: Annotated[
        bool,
        typer.Option(
            "--full/--no-full",
            help="Rebuild each event in full and compare node by node (default), or not.",
        ),
    ] = True,
    exercise: Annotated[
        bool,
        typer.Option("--exercise/--no-exercise", help="Run SPEC's exercise after the events."),
    ] = True,
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
        with SqliteStore(store) as opened:
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
    if repeat > 1 or limit is not None:  # one corpus for every run, or to pick from
        root = root or generate_digest_corpus(out / "corpus").root
    names = evaluation_dossiers(root)[:limit] if root is not None else None
    total = len(names) if names is not None else 20
    label = _progress_label(full)
    if repeat > 1 and root is not None:
        _repeated(
            out,
            lambda: runtime.model(rules_summarizer),
            repeat,
            corpus_root=root,
            dossiers=names,
            events=chosen,
            full=full,
            exercise=exercise,
            concurrency=concurrency,
            as_json=as_json,
        )
    with eval_progress(label) as progress:
        task = progress.add_task("dossiers", total=total)
        report = run_digest_eval(
            out,
            corpus_root=root,
            model=summarizer,
            dossiers=names,
            concurrency=concurrency,
            on_dossier=lambda _name: progress.advance(task),
            events=chosen,
            full=full,
            exercise=exercise,
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


def _repeated(
    out: Path,
    model_factory: Callable[[], Model],
    repeat: int,
    *,
    corpus_root: Path,
    dossiers: Sequence[str] | None,
    events: Sequence[Mutation] | None,
    full: bool,
    exercise: bool,
    concurrency: int,
    as_json: bool,
) -> NoReturn:
    """``--repeat N``: N runs on fresh stores, mean and worst case, and their model calls."""
    label = _progress_label(full)
    total = len(dossiers) if dossiers is not None else 20
    with eval_progress(label) as progress:
        task = progress.add_task("dossiers", total=total * repeat)
        repeated = repeat_digest_eval(
            out,
            model_factory,
            repeat=repeat,
            corpus_root=corpus_root,
            dossiers=dossiers,
            events=events,
            full=full,
            exercise=exercise,
            concurrency=concurrency,
            on_dossier=lambda _name: progress.advance(task),
        )
    write_json(out, "digest-eval-repeat.json", repeated)
    if as_json:
        print_json(repeated)
    else:
        console.print(repeat_table(repeated))
        console.print(cost_table(repeated, repeat))
        console.print(f"wrote {out}/", markup=False)
    events_per_run = repeated["runs"][0]["events"]
    identical = repeated["worst"].get("identical_to_full", events_per_run)
    raise typer.Exit(EXIT_OK if identical == events_per_run else EXIT_REJECTED)


def _progress_label(full: bool) -> str:
    return "mutations: incremental vs full rebuild" if full else "mutations: incremental"
