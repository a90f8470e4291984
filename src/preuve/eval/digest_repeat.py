"""Workflow 3's evaluation repeated: N runs, each on a fresh store, mean and worst case.

A real model's answers vary from run to run (a server's decoding is not bit-identical), so
one run says little. Each run replays the same test dossiers and events through
:func:`~preuve.eval.digest_eval.run_digest_eval` into its own folder (``run-1``, ``run-2``…:
a shared store would answer every later run from the cache), counts its model calls with a
:class:`~preuve.models.usage.UsageMeter`, and gives one row: the roots' statuses after the
events, the audit's figures, and the calls' cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from preuve.corpora.digest_corpus import generate_digest_corpus
from preuve.digest.mutations import Mutation
from preuve.eval.digest_eval import run_digest_eval
from preuve.io.records import dump_record
from preuve.models.base import Model
from preuve.models.usage import SPEEDS, UsageMeter, spread

__all__ = ["repeat_digest_eval", "run_row"]

# The figures of a row where more is better (the worst case is their minimum).
_HIGHER_IS_BETTER = SPEEDS | {
    "roots_valid", "audit_supported", "audit_precision", "audit_recall", "identical_to_full",
}  # fmt: skip


def run_row(report: dict[str, Any], cost: dict[str, Any], wall_seconds: float) -> dict[str, Any]:
    """One run's figures: roots after the events by status, the audit, the model calls."""
    roots = report["roots_after_mutation"]
    audit = report["audit"]
    comparisons = report["comparisons"]
    return {
        "events": report["events"],
        "roots_valid": roots.get("VALID", 0),
        "roots_partial": roots.get("PARTIAL", 0),
        "roots_invalid": roots.get("INVALID", 0),
        **{f"audit_{key}": value for key, value in audit.items() if key != "summaries"},
        **({"identical_to_full": comparisons["identical"]} if comparisons["events"] else {}),
        **cost,
        "wall_seconds": round(wall_seconds, 3),
    }


def repeat_digest_eval(
    out_dir: Path,
    model_factory: Callable[[], Model],
    *,
    repeat: int,
    corpus_root: Path | None = None,
    dossiers: Sequence[str] | None = None,
    events: Sequence[Mutation] | None = None,
    full: bool = True,
    exercise: bool = True,
    concurrency: int = 4,
    on_dossier: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """``repeat`` evaluations under ``out_dir/run-K``: each run's report and row, and the
    mean and worst case of each figure of the rows."""
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    out_dir.mkdir(parents=True, exist_ok=True)
    root = corpus_root or generate_digest_corpus(out_dir / "corpus").root
    rows: list[dict[str, Any]] = []
    engine = ""
    for number in range(1, repeat + 1):
        meter = UsageMeter(model_factory())
        started = time.perf_counter()
        report = run_digest_eval(
            out_dir / f"run-{number}",
            corpus_root=root,
            model=meter,
            dossiers=dossiers,
            concurrency=concurrency,
            exercise=exercise,
            on_dossier=on_dossier,
            events=events,
            full=full,
        )
        engine = meter.identity.engine()
        rows.append(run_row(report, dump_record(meter.figures()), time.perf_counter() - started))
    return {
        "engine": engine,
        "repeat": repeat,
        **spread(rows, higher_is_better=_HIGHER_IS_BETTER),
        "runs": rows,
    }
