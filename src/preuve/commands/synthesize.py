"""`preuve synthesize`, `check-synthesis`, `grade`, `eval synthesis`: workflow 2 commands.

synthesize DOSSIER_DIR [--model M] [--out DIR] [--lexicon FILE ...] [--json]
    writes synthesis.md, synthesis.json (VALID only; synthesis.refused.json otherwise),
    trajectory.json (plan, reads, findings, failures, calls), defects.json and the call
    journal; exit 0 VALID, 1 REFUSED, 2 bad input.
check-synthesis RUN_DIR [--synthesis FILE] [--dossier DIR] [--json]
    re-runs the checks in code on a saved run (or on an edited synthesis); exit 0 / 1.
grade RUN --grid GRID.json [--json]
    scores a run folder or a synthesis JSON file with a grid (gold data).
eval synthesis [--repeat N] [--model M] [--dossier DIR ...] [--json]
    grades the bundled dossier and each held-out dossier (DIR with its grid.json; by
    default every one under tests/heldout/synthesis) N times: one table row per dossier.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from preuve.commands.cluster import ExecutorOpt, command_model, open_executor
from preuve.commands.common import (
    EXIT_OK,
    EXIT_REJECTED,
    ModelOpt,
    command_runtime,
    console,
    handles_errors,
    print_json,
)
from preuve.commands.usage_view import cost_table
from preuve.core.defects import Defect
from preuve.core.errors import InputError
from preuve.eval.grid import ScoreEntry, grade, load_grid
from preuve.eval.synthesis_eval import RepeatedScoreEntry, evaluate_dossiers, heldout_dossiers
from preuve.io.jsonfile import read_json_file
from preuve.io.records import dump_record, dump_records
from preuve.io.registry import RegistryEntry
from preuve.io.runfolder import RunFolder
from preuve.loaders import load_dossier, read_lexicon_extension
from preuve.models.journal import Journal
from preuve.models.loop import LoopStatus
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.entries import synthesis_entry
from preuve.synthesis.lexicon import merge_data
from preuve.synthesis.pipeline import SynthesisRun, synthesis_rules_model, synthesize
from preuve.synthesis.run_files import (
    DEFECTS_FILE,
    REFUSED_SYNTHESIS_FILE,
    SYNTHESIS_FILE,
    TRAJECTORY_FILE,
    read_synthesis,
    read_trajectory,
)
from preuve.synthesis.synthesizer import SynthesisContext, check_candidate, synthesis_markdown
from preuve.synthesis.trajectory import trajectory_data
from preuve.synthesis.types import Synthesis, synthesis_from_dict

__all__ = [
    "check_synthesis_command",
    "eval_synthesis_command",
    "grade_command",
    "print_summary",
    "synthesize_command",
    "write_run",
]


JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def write_run(run: SynthesisRun, out: Path, dossier: Dossier | None = None) -> dict[str, Path]:
    """Write a run's files under ``out``; a refused synthesis never goes to synthesis.json.

    With the ``dossier``, the text of each document as the sub-agents read it is written
    under ``documents/`` and registered by id, so the run folder is self-contained."""
    folder = RunFolder.create(out)  # every file is written atomically
    folder.remove(SYNTHESIS_FILE, REFUSED_SYNTHESIS_FILE)  # no previous verdict left behind
    markdown = synthesis_markdown(
        run.question,
        run.synthesis,
        status=run.status.value,
        engine=run.engine,
        limits=run.limit_lines,
        defects=run.defects,
    )
    files = {
        "markdown": folder.write_text("synthesis.md", markdown),
        "trajectory": folder.write_json(TRAJECTORY_FILE, trajectory_data(run)),
        "defects": folder.write_records(DEFECTS_FILE, run.defects, Defect),
    }
    if run.synthesis is not None:
        valid = run.status is LoopStatus.VALID
        name = SYNTHESIS_FILE if valid else REFUSED_SYNTHESIS_FILE
        files["synthesis"] = folder.write_json(name, dump_record(synthesis_entry(run.synthesis)))
    if dossier is not None:
        files["documents"] = _register_documents(dossier, folder)
    return files


def _register_documents(dossier: Dossier, folder: RunFolder) -> Path:
    entries = [
        RegistryEntry(
            document.doc_id,
            document.title,
            folder.write_text(f"documents/{document.doc_id}.txt", document.text),
        )
        for document in dossier.documents
    ]
    return folder.write_registry(entries)


def print_summary(run: SynthesisRun, files: dict[str, Path], *, show_files: bool = True) -> None:
    """The run in the terminal: status, contradictions, limits, defects, files written."""
    console.print(f"engine: {run.engine} · status: {run.status.value}", markup=False)
    synthesis = run.synthesis if run.status is LoopStatus.VALID else None
    if synthesis is not None:
        table = Table(title="Contradictions (found in code, arbitrated by the ordered rule)")
        for column in ("subject", "attribute", "retained", "rejected", "rule"):
            table.add_column(column)
        for c in synthesis.contradictions:
            kept = f"{c.retained.value} ({', '.join(c.retained.sources)})" if c.retained else "-"
            dropped = "; ".join(f"{v.value} ({', '.join(v.sources)})" for v in c.rejected)
            table.add_row(c.subject, c.attribute, kept, dropped, str(c.rule or "unresolved"))
        console.print(table)
    console.print("Limits of the dossier:", markup=False)
    for line in run.limit_lines or ["- none"]:
        console.print(f"  {line}", markup=False)
    for defect in run.defects:
        console.print(f"  defect: {defect.render()}", markup=False)
    if show_files:
        console.print(f"Wrote {', '.join(str(p) for p in files.values())}", markup=False)


@handles_errors
def synthesize_command(
    dossier_dir: Annotated[
        Path, typer.Argument(help="A dossier folder (question.md, documents/).")
    ],
    *,
    model: ModelOpt = None,
    out: Annotated[Path, typer.Option("--out", help="Where to write the run.")] = Path(
        "preuve-out/synthesis"
    ),
    lexicons: Annotated[
        list[Path] | None,
        typer.Option(
            "--lexicon",
            help="A TOML file extending the rules engine's lexicon (synonyms, units, status "
            "words of your domain); repeatable, after the dossier's own lexicon.toml.",
        ),
    ] = None,
    executor: ExecutorOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Synthesize a dossier: plan, sub-agents, evidence dossier, synthesis, checks in code."""
    dossier = load_dossier(dossier_dir)
    for path in lexicons or ():
        dossier = replace(
            dossier, lexicon=merge_data(dossier.lexicon, read_lexicon_extension(path))
        )
    runtime = command_runtime(model=model, executor=executor)
    runtime.load()  # a bad spec or model file fails here, before anything is written
    with open_executor(runtime.settings, runtime.concurrency) as runner:
        chosen = command_model(runtime, synthesis_rules_model, runner)
        out.mkdir(parents=True, exist_ok=True)
        with Journal(out / "journal.sqlite") as journal:
            run = synthesize(dossier, chosen, journal=journal, executor=runner)
    files = write_run(run, out, dossier)
    if as_json:
        print_json(
            {
                "engine": run.engine,
                "status": run.status.value,
                "defects": dump_records(run.defects, Defect),
                "limits": run.limit_lines,
                "files": {k: str(v) for k, v in files.items()},
            }
        )
    else:
        print_summary(run, files)
    raise typer.Exit(EXIT_OK if run.status is LoopStatus.VALID else EXIT_REJECTED)


def _load_run(run_dir: Path) -> SynthesisRun:
    if not (run_dir / TRAJECTORY_FILE).is_file():
        raise InputError(f"{run_dir}: no {TRAJECTORY_FILE} (run `preuve synthesize` first)")
    return read_trajectory(RunFolder(run_dir))


def _load_synthesis(path: Path) -> Synthesis:
    """A synthesis file the user names (it may live anywhere, a link included)."""
    return synthesis_from_dict(read_json_file(path), str(path))


@handles_errors
def check_synthesis_command(
    run_dir: Annotated[Path, typer.Argument(help="A folder written by `preuve synthesize`.")],
    synthesis_file: Annotated[
        Path | None, typer.Option("--synthesis", help="Check this synthesis JSON instead.")
    ] = None,
    dossier_dir: Annotated[
        Path | None,
        typer.Option("--dossier", help="Read dates and source types from the dossier itself."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Re-run the checks in code on a saved run: citations, arbitrations, contradictions,
    numbers, computations."""
    run = _load_run(run_dir)
    if synthesis_file is None:
        names = (SYNTHESIS_FILE, REFUSED_SYNTHESIS_FILE)
        found = [n for n in names if (run_dir / n).is_file()]
        if not found:
            raise InputError(f"{run_dir}: no synthesis to check (pass --synthesis FILE)")
        synthesis_file = run_dir / found[0]
        synthesis = read_synthesis(RunFolder(run_dir), found[0])
    else:
        synthesis = _load_synthesis(synthesis_file)
    context = run.context
    if dossier_dir is not None:
        dossier = load_dossier(dossier_dir)
        context = SynthesisContext(context.findings, dossier.source_infos(), context.computed)
    defects = check_candidate(synthesis, context)
    if as_json:
        print_json({"verified": not defects, "defects": dump_records(defects, Defect)})
    else:
        verdict = "VERIFIED" if not defects else "REFUSED"
        console.print(f"{synthesis_file}: {verdict}, {len(defects)} defects", markup=False)
        for defect in defects:
            console.print(f"  - {defect.render()}", markup=False)
    raise typer.Exit(EXIT_OK if not defects else EXIT_REJECTED)


@handles_errors
def grade_command(
    run: Annotated[Path, typer.Argument(help="A run folder, or a synthesis JSON file.")],
    grid_file: Annotated[Path, typer.Option("--grid", help="The grid data file (gold).")],
    as_json: JsonOpt = False,
) -> None:
    """Score a synthesis with a grid: facts, contradictions, citations, off-topic penalty."""
    grid = load_grid(grid_file)
    if not grid.documents:
        raise InputError(
            f"{grid_file}: the grid lists no 'documents' (the ids a citation may name)",
            fix="add the dossier's document ids, or grade with `preuve eval synthesis --dossier`",
        )
    if run.is_dir():
        # A refused run delivered nothing: it is graded as an empty synthesis.
        delivered = (run / SYNTHESIS_FILE).is_file()
        synthesis = read_synthesis(RunFolder(run)) if delivered else Synthesis((), ())
    else:
        synthesis = _load_synthesis(run)
    score = grade(grid, synthesis)
    if as_json:
        print_json(dump_record(ScoreEntry.of(score)))
    else:
        for line in score.lines():
            console.print(line, markup=False)
    raise typer.Exit(EXIT_OK)


DEFAULT_HELDOUT = Path("tests/heldout/synthesis")
_COLUMNS = ("kind", "dossier", "mean", "worst", "facts", "contradictions", "unplanned",
            "citations", "off_topic", "refused")  # fmt: skip


@handles_errors
def eval_synthesis_command(
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Number of runs.")] = 1,
    model: ModelOpt = None,
    dossiers: Annotated[
        list[Path] | None,
        typer.Option(
            "--dossier",
            help="A held-out dossier folder with its grid.json (repeatable); default: every "
            "one under tests/heldout/synthesis when that folder exists.",
        ),
    ] = None,
    with_heldout: Annotated[
        bool,
        typer.Option(
            "--heldout/--bundled-only",
            help="Grade the held-out dossiers too (default), or the bundled one alone.",
        ),
    ] = True,
    as_json: JsonOpt = False,
) -> None:
    """Grade the bundled dossier and each held-out dossier N times: one row per dossier
    (bundled and held-out apart), mean and worst case, the worst run's breakdown, and the
    model calls each dossier cost."""
    if dossiers and not with_heldout:
        raise InputError("--dossier names held-out dossiers: it cannot go with --bundled-only")
    heldout: tuple[Path, ...] = ()
    if with_heldout:
        heldout = tuple(dossiers) if dossiers else heldout_dossiers(DEFAULT_HELDOUT)
    runtime = command_runtime(model=model)
    with tempfile.TemporaryDirectory(prefix="preuve-eval-") as workdir:
        scores = evaluate_dossiers(
            lambda: runtime.model(synthesis_rules_model), Path(workdir), heldout,
            repeat=repeat, concurrency=runtime.concurrency,
        )  # fmt: skip
    if as_json:
        print_json(
            {
                s.name: {"kind": s.kind, **dump_record(RepeatedScoreEntry.of(s.result))}
                for s in scores
            }
        )
        raise typer.Exit(EXIT_OK)
    engine = scores[0].result.engine
    table = Table(title=f"Workflow 2 grid scores, engine: {engine}, runs: {repeat}")
    for column in _COLUMNS:
        table.add_column(column)
    for score in scores:
        row = score.row()
        table.add_row(*(str(row[c]) for c in _COLUMNS))
    console.print(table)
    for score in scores:
        console.print(f"{score.kind} {score.name}:", markup=False)
        for line in score.result.lines()[2:]:
            console.print(line, markup=False)
    for score in scores:
        console.print(cost_table(score.result.cost, repeat, title=f"{score.name}: model calls"))
    raise typer.Exit(EXIT_OK)
