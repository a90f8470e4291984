"""`preuve demo`: the three workflows on the bundled corpora, offline, in well under a minute.

Everything is written under one folder (default ``preuve-out/``)::

    corpora/memo/        three French annual reports (PDF) and, apart, their gold
    corpora/synthesis/   the architecture-committee dossier and, apart, its grid
    corpora/digest/      30 dossiers x 12 documents x 2 versions and, apart, their gold
    memo/                memo.md, facts.txt, dashboard.json, run.json, journal.sqlite
    synthesis/           synthesis.md, synthesis.json, trajectory.json, score.json, journal.sqlite
    digest/              digest.sqlite, serve.json, exercise.json, evaluation/ (60 mutations)
    refusals/            the reference failures, replayed: what preuve refuses, and why
    demo.json            the summary lines

Gold files are read only by :mod:`preuve.eval` to print the figures; no workflow reads them.
A rerun replaces the demo's own entries in that folder (and nothing else), so each run starts
from empty stores and shows the same counts.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.rule import Rule
from rich.table import Table

from preuve.commands.common import ModelOpt, command_runtime, console, handles_errors
from preuve.commands.digest_views import eval_lines, eval_progress
from preuve.commands.memo import print_dashboard, write_memo_run
from preuve.commands.synthesize import print_summary, write_run
from preuve.core.defects import Defect
from preuve.core.facts import parse_facts
from preuve.core.memocheck import check_memo, parse_memo
from preuve.core.numbers import Locale
from preuve.core.quotes import QuoteChecker
from preuve.corpora.digest_corpus import generate_digest_corpus
from preuve.corpora.example import EXAMPLE_FACTS, EXAMPLE_MEMO, EXAMPLE_PAGES, EXAMPLE_QUOTES
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.run_files import serve_answer
from preuve.digest.summarize import DigestSettings
from preuve.eval.digest_eval import exercise_scenario, run_digest_eval
from preuve.eval.grid import ScoreEntry, load_grid
from preuve.eval.memo_eval import evaluate_run, read_memo_gold
from preuve.eval.synthesis_eval import grade_run
from preuve.io.documents import load_documents, load_versions
from preuve.io.records import QuoteEntry, dump_record, dump_records
from preuve.io.registry import RegistryEntry
from preuve.io.runfolder import RunFolder
from preuve.io.stores import SqliteStore
from preuve.loaders import load_dossier as load_synthesis_dossier
from preuve.memo.dashboard import build_dashboard
from preuve.memo.pipeline import run_memo
from preuve.models.journal import Journal
from preuve.models.runtime import Runtime
from preuve.synthesis.pipeline import synthesize

__all__ = ["demo_command"]


@handles_errors
def demo_command(
    out: Annotated[Path, typer.Option("--out", help="Where to write everything.")] = Path(
        "preuve-out"
    ),
    model: ModelOpt = None,
) -> None:
    """Run the three workflows on the bundled corpora and write every output to one folder."""
    started = time.perf_counter()
    runtime = command_runtime(model=model)  # one for the three workflows: one endpoint limit
    runtime.load()
    _clear_previous_demo(out)
    corpora = out / "corpora"
    with console.status("Generating the bundled corpora (PDF reports, dossier, 720 texts)"):
        reports = generate_memo_corpus(corpora / "memo")
        dossier = generate_synthesis_dossier(corpora / "synthesis")
        digest_corpus = generate_digest_corpus(corpora / "digest")
    summary: dict[str, Any] = {}
    summary["memo"] = _memo(reports, corpora / "memo", out / "memo", runtime)
    summary["synthesis"] = _synthesis(dossier.dossier, dossier.grid, out / "synthesis", runtime)
    summary["digest"] = _digest(digest_corpus.root, out / "digest", runtime)
    summary["refusals"] = _refusals(out / "refusals")
    summary["seconds"] = round(time.perf_counter() - started, 1)
    RunFolder(out).write_json("demo.json", summary)
    console.print(Rule())
    console.print(f"Done in {summary['seconds']} s. Every output is in {out}/", markup=False)
    console.print(f"Open the viewer: preuve view {out}", markup=False)


_DEMO_ENTRIES = ("corpora", "memo", "synthesis", "digest", "refusals", "demo.json")


def _clear_previous_demo(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name in _DEMO_ENTRIES:
        entry = out / name
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        elif entry.exists() or entry.is_symlink():
            entry.unlink()


def _memo(reports: list[Path], corpus: Path, out: Path, runtime: Runtime) -> dict[str, Any]:
    console.print(Rule("Workflow 1 — cited risk signals and a verified credit memo"))
    RunFolder.create(out)
    with Journal(out / "journal.sqlite") as journal:
        run = run_memo(load_documents(reports), runtime, journal=journal)
    evaluation = evaluate_run(
        run, read_memo_gold(corpus / "gold" / "memo_gold.json"), source="demo"
    )
    dashboard = build_dashboard(run, evaluation.scores)
    write_memo_run(run, dashboard, out)
    print_dashboard(dashboard)
    return {"line": dashboard.summary.line(), "status": run.status.value}


def _synthesis(dossier: Path, grid: Path, out: Path, runtime: Runtime) -> dict[str, Any]:
    console.print(Rule("Workflow 2 — aggregated findings, arbitrated contradictions"))
    folder = RunFolder.create(out)
    documents = load_synthesis_dossier(dossier)
    with Journal(out / "journal.sqlite") as journal:
        run = synthesize(documents, runtime, journal=journal)
    files = write_run(run, out, documents)
    score = grade_run(run, load_grid(grid))
    folder.write_json("score.json", ScoreEntry.of(score))
    print_summary(run, files, show_files=False)
    for line in score.lines():
        console.print(f"grid {line}", markup=False)
    return {"status": run.status.value, "score": dump_record(ScoreEntry.of(score))}


def _digest(corpus: Path, out: Path, runtime: Runtime) -> dict[str, Any]:
    console.print(Rule("Workflow 3 — versioned, incremental summaries that refuse to be stale"))
    folder = RunFolder.create(out)
    model = runtime.model(rules_summarizer)
    settings = DigestSettings()
    first = sorted(p.name for p in (corpus / "dossiers").iterdir() if p.name.startswith("test"))[0]
    answers: list[dict[str, Any]] = []
    with SqliteStore(out / "digest.sqlite") as store:
        exercise = exercise_scenario(
            corpus / "dossiers" / first,
            model,
            store,
            settings,
            dossier=first,
            on_serve=lambda label, answer: answers.append(serve_answer(answer, label)),
        )
    folder.write_json("exercise.json", exercise)
    folder.write_json("serve.json", answers)
    _register_versions(corpus / "dossiers" / first, folder)
    _print_exercise(first, exercise, len(load_versions(corpus / "dossiers" / first)))

    evaluation_dir = out / "evaluation"
    tests = [p.name for p in (corpus / "dossiers").iterdir() if p.name.startswith("test")]
    with eval_progress("60 mutations: incremental vs full rebuild") as progress:
        task = progress.add_task("dossiers", total=len(tests))
        report = run_digest_eval(
            evaluation_dir,
            corpus_root=corpus,
            model=model,
            settings=settings,
            exercise=False,
            on_dossier=lambda _name: progress.advance(task),
        )
    lines = eval_lines(report)
    for line in lines:
        console.print(line, markup=False)
    return {"exercise": exercise, "lines": lines}


def _register_versions(dossier: Path, folder: RunFolder) -> None:
    """Copy every version of the exercise's documents into the run folder, registered as
    ``doc@version`` so the viewer can open each cited span."""
    entries = []
    for document in sorted(p for p in dossier.iterdir() if p.is_dir()):
        for version in sorted(document.glob("v*.txt")):
            doc_id = f"{document.name}@{version.stem.removeprefix('v')}"
            copy = folder.copy_in(version, f"documents/{doc_id}.txt")
            entries.append(RegistryEntry(doc_id, f"{document.name}, version {version.stem}", copy))
    folder.write_registry(entries)


def _print_exercise(dossier: str, exercise: dict[str, Any], documents: int) -> None:
    table = Table(title=f"Exercise on {dossier} ({documents} documents, 16 nodes)")
    for column in ("change", "served before rebuild", "recomputed", "model calls", "hits"):
        table.add_column(column)
    table.add_column("identical to a full rebuild")
    for label, key in (
        ("doc-11 gets a new date (v2)", "document_moved"),
        ("only the reduce prompt changes", "reduce_prompt_changed"),
    ):
        step = exercise[key]
        table.add_row(
            label,
            str(step["served_before_rebuild"]),
            ", ".join(step["recomputed"]),
            json.dumps(step["calls_by_task"]),
            str(step["cache_hits"]),
            "yes" if step["identical_to_full"] else "NO",
        )
    console.print(table)


def _refusals(out: Path) -> dict[str, Any]:
    """The reference failures of SPEC.md, replayed as scripted answers: what gets refused."""
    console.print(Rule("What preuve refuses — the reference failures, replayed (scripted answers)"))
    folder = RunFolder.create(out)
    checker = QuoteChecker(EXAMPLE_PAGES)
    table = Table(title="Quote check")
    for column in ("answer", "page", "verdict", "why"):
        table.add_column(column)
    quotes = []
    for case in EXAMPLE_QUOTES:
        result = checker.verify(case.page, case.quote)
        quotes.append(dump_record(QuoteEntry.of(result)) | {"case": case.label})
        why = f"span [{result.start}:{result.end}]" if result.verified else result.reason
        table.add_row(case.label, str(case.page), result.verdict.value, why)
    console.print(table)
    defects = check_memo(
        parse_memo(EXAMPLE_MEMO, source="example memo"),
        parse_facts(EXAMPLE_FACTS, source="example facts"),
        locale=Locale.FR,
        years={2024, 2025},
    )
    console.print(f"Memo check: REFUSED with {len(defects)} defects", markup=False)
    for defect in defects:
        console.print(f"  - {defect.render()}", markup=False)
    verdicts = {"quotes": quotes, "memo_defects": dump_records(defects, Defect)}
    folder.write_json("verdicts.json", verdicts)
    return {"quotes_refused": sum(not q["verified"] for q in quotes), "memo_defects": len(defects)}
