"""How ``preuve digest`` shows its results: rich tables for people, dicts for ``--json``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from preuve.commands.common import console, error_console
from preuve.digest.build import BuildReport
from preuve.digest.mutations import Comparison, MutationStep
from preuve.digest.run_files import ComparisonEntry, build_answer
from preuve.digest.serve import ServeResult
from preuve.io.records import dump_record
from preuve.io.runfolder import RunFolder
from preuve.io.store_rows import RunInfo
from preuve.models.base import Model

__all__ = [
    "dossier_lines",
    "engine",
    "eval_lines",
    "eval_progress",
    "print_build",
    "print_comparison",
    "print_history",
    "print_mutations",
    "print_served",
    "repeat_table",
    "write_json",
]


def engine(model: Model) -> str:
    return f"engine: {model.identity.engine()}"


def write_json(out: Path | None, name: str, data: Any) -> None:
    if out is None:
        return
    RunFolder.create(out).write_json(name, data)
    # On stderr, so that --json output on stdout stays one JSON document.
    error_console.print(f"wrote {out / name}", markup=False)


def print_build(report: BuildReport, model: Model) -> None:
    table = Table(title=f"digest {report.run.mode} build {report.run_id} — {engine(model)}")
    for column in ("node", "status", "outcome", "calls", "claims", "diagnostic"):
        table.add_column(column)
    for node in report.nodes:
        diagnostic = node.diagnostic[0] if node.diagnostic else ""
        table.add_row(
            node.node_id,
            node.status.value,
            node.outcome.value,
            str(node.calls),
            str(len(node.claims)),
            diagnostic[:80],
        )
    console.print(table)
    c = report.counters
    console.print(
        f"recomputed {c.recomputed}, model calls {c.model_calls} {dict(c.calls_by_task)}, "
        f"cache hits {c.cache_hits}, new tokens {c.generated_tokens} (prompt {c.prompt_tokens})",
        markup=False,
    )


def print_served(result: ServeResult) -> None:
    console.print(f"{result.status.value}: {result.reason}", markup=False)
    if not result.served:
        return
    spans = {span.id: span for span in result.spans}
    table = Table(title=f"root summary ({result.root_status})")
    for column in ("subject", "field", "value", "evidence"):
        table.add_column(column)
    for claim in result.claims:
        lines = "\n".join(
            f"{spans[e].location}: {spans[e].quote}" if e in spans else e for e in claim.evidence
        )
        table.add_row(claim.subject, claim.field, claim.value, lines)
    console.print(table)


def print_comparison(comparison: Comparison) -> None:
    verdict = "IDENTICAL" if comparison.identical else "DIFFERENT"
    console.print(
        f"{verdict}: {comparison.nodes} nodes, {len(comparison.differences)} differences",
        markup=False,
    )
    for diff in comparison.differences:
        console.print(
            f"  {diff.node_id} {diff.aspect}: {diff.incremental} ≠ {diff.full}", markup=False
        )


def print_mutations(name: str, steps: Sequence[MutationStep], model: Model) -> list[dict[str, Any]]:
    """One row per event: calls and new tokens of both builds, root status, comparison."""
    table = Table(title=f"mutations of {name} — {engine(model)}")
    for column in ("event", "calls incr/full", "new tokens incr/full", "root", "comparison"):
        table.add_column(column)
    rows = []
    for step in steps:
        inc, full = step.incremental.counters, step.full_build.counters
        differences = len(step.compared.differences)
        table.add_row(
            step.mutation.label(),
            f"{inc.model_calls}/{full.model_calls}",
            f"{inc.generated_tokens}/{full.generated_tokens}",
            step.incremental.root.status.value,
            "identical" if not differences else f"{differences} differences",
        )
        rows.append(
            {
                "event": step.mutation.label(),
                "incremental": build_answer(step.incremental),
                "full": build_answer(step.full_build),
                "comparison": dump_record(ComparisonEntry.of(step.compared)),
            }
        )
    console.print(table)
    return rows


def print_history(runs: Sequence[RunInfo], where: Path | str) -> None:
    table = Table(title=f"digest runs in {where}")
    for column in ("run", "created", "mode", "dossier", "root", "calls", "hits", "new tokens"):
        table.add_column(column)
    for run in runs:
        counters = run.counters or {}
        table.add_row(
            run.run_id,  # whole: `compare` and `prov` take it as printed
            run.created_at[:19],
            run.mode,
            Path(run.dossier).name,
            run.root_status or "unfinished",
            str(counters.get("model_calls", "")),
            str(counters.get("cache_hits", "")),
            str(counters.get("generated_tokens", "")),
        )
    console.print(table)


def eval_progress(title: str) -> Progress:
    """The progress bar of a digest evaluation: one step per test dossier, gone when done."""
    return Progress(
        TextColumn(title),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )


def eval_lines(report: dict[str, Any]) -> list[str]:
    """The summary lines of a digest evaluation report (60 mutations, audit, baseline)."""
    calls, tokens = report["model_calls"], report["generated_tokens"]
    comparisons, audit = report["comparisons"], report["audit"]
    extractive = report["extractive"]
    return [
        f"engine: {report['engine']} · {report['events']} mutations on {report['dossiers']} "
        "test dossiers",
        f"model calls: incremental {calls['incremental']} vs full {calls['full']} · "
        f"new tokens: {tokens['incremental']} vs {tokens['full']} · comparisons identical: "
        f"{comparisons['identical']}/{comparisons['events']}",
        f"roots after mutation: {report['roots_after_mutation']} · audit: "
        + ", ".join(f"{k} {_short(v)}" for k, v in audit.items()),
        f"extractive baseline: {extractive['initial_facts']} initial and "
        f"{extractive['post_mutation_facts']} post-mutation facts, precision "
        f"{_short(extractive['precision'])}, recall {_short(extractive['recall'])}",
    ]


_REPEAT_ROWS = (
    ("roots VALID after the events", "roots_valid"),
    ("roots PARTIAL", "roots_partial"),
    ("roots INVALID", "roots_invalid"),
    ("root claims", "audit_claims"),
    ("claims supported (audit)", "audit_supported"),
    ("audit precision", "audit_precision"),
    ("audit recall", "audit_recall"),
    ("incremental = full (events)", "identical_to_full"),
)


def repeat_table(repeated: dict[str, Any]) -> Table:
    """Mean and worst case of a repeated digest evaluation's figures."""
    table = Table(
        title=f"Workflow 3, engine: {repeated['engine']}, runs: {repeated['repeat']}, "
        f"events per run: {repeated['runs'][0]['events']}"
    )
    for column in ("figure", "mean", "worst"):
        table.add_column(column)
    mean, worst = repeated["mean"], repeated["worst"]
    for label, name in _REPEAT_ROWS:
        if name in mean:
            table.add_row(label, _short(mean[name]), _short(worst[name]))
    return table


def dossier_lines(figures: dict[str, Any]) -> list[str]:
    """The summary lines of one dossier's evaluation (:mod:`preuve.eval.digest_dossier`)."""
    claims, coverage, audit = figures["claims"], figures["coverage"], figures["audit"]
    return [
        f"{figures['dossier']}: {figures['events']} events, model calls incremental "
        f"{figures['incremental_calls']} vs full {figures['full_calls']}, identical to full "
        f"{figures['identical_to_full']}/{figures['events']}",
        "calls by event: "
        + "; ".join(f"{kind} {calls}" for kind, calls in figures["calls_by_event"].items()),
        f"claims from not-affirmed lines: leaf {claims.get('leaf_from_not_affirmed', 0)}/"
        f"{claims.get('leaf_claims', 0)}, root {claims.get('root_from_not_affirmed', 0)}/"
        f"{claims.get('root_claims', 0)}",
        f"genuine facts: grammar {coverage['grammar_parses']}/{coverage['genuine']}, claimable "
        f"in context {coverage['claimable']}/{coverage['genuine']}; not-affirmed lines kept "
        f"{coverage.get('not_affirmed_kept', 0)}/{coverage.get('not_affirmed_rows', 0)} (whole "
        f"fact lines among them: {coverage.get('fact_shaped_not_affirmed', 0)})",
        "audit: " + ", ".join(f"{k} {_short(v)}" for k, v in audit.items()),
    ]


def _short(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)
