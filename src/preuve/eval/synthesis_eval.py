"""Grading workflow 2 runs with a grid, once or repeated (mean and worst case).

This is the only place where a run meets its gold labels: the grid is read here (and by the
``grade`` command), never by the pipeline. A REFUSED run delivers no synthesis, so it is
graded as an empty one: refusing costs the points it would have earned.

Repeated runs matter for LLMs (sampling, server-side nondeterminism); the rules engine gives
the same run each time, so its mean equals its worst case.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.models.base import Model
from preuve.models.loop import LoopStatus
from preuve.synthesis.dossier import Dossier, load_dossier
from preuve.synthesis.findings import Synthesis
from preuve.synthesis.grid import Grid, GridScore, grade, load_grid
from preuve.synthesis.pipeline import SynthesisRun, synthesize

__all__ = [
    "GradedRun",
    "RepeatedScore",
    "evaluate_bundled",
    "evaluate_synthesis",
    "grade_run",
]


def grade_run(run: SynthesisRun, grid: Grid) -> GridScore:
    """The grid score of a run's delivered synthesis (an empty one when REFUSED)."""
    delivered = run.synthesis if run.status is LoopStatus.VALID and run.synthesis else None
    return grade(grid, delivered or Synthesis((), ()))


@dataclass(frozen=True, slots=True)
class GradedRun:
    """One run's status, score, and what its trajectory lost upstream."""

    status: LoopStatus
    score: GridScore
    uncovered: tuple[str, ...]
    not_investigated: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "score": self.score.to_dict(),
            "uncovered": list(self.uncovered),
            "not_investigated": list(self.not_investigated),
        }


@dataclass(frozen=True, slots=True)
class RepeatedScore:
    """Scores of N runs of one dossier: mean and worst case, with every run kept."""

    engine: str
    runs: tuple[GradedRun, ...]

    @property
    def totals(self) -> tuple[float, ...]:
        return tuple(r.score.rounded for r in self.runs)

    @property
    def mean(self) -> float:
        return round(statistics.fmean(self.totals), 1) if self.runs else 0.0

    @property
    def worst(self) -> float:
        return min(self.totals) if self.runs else 0.0

    @property
    def refused(self) -> int:
        return sum(r.status is LoopStatus.REFUSED for r in self.runs)

    def lines(self) -> tuple[str, ...]:
        head = (
            f"engine: {self.engine} · runs: {len(self.runs)} · mean {self.mean:.1f}/100 · "
            f"worst {self.worst:.1f}/100 · refused {self.refused}"
        )
        worst = min(self.runs, key=lambda r: r.score.total, default=None)
        detail = tuple(f"  {line}" for line in worst.score.lines()) if worst else ()
        return (head, "worst run:", *detail)

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "runs": [r.to_dict() for r in self.runs],
            "mean": self.mean,
            "worst": self.worst,
            "refused": self.refused,
        }


def evaluate_synthesis(
    dossier: Dossier,
    model_factory: Callable[[], Model],
    grid: Grid,
    *,
    repeat: int = 1,
    concurrency: int = 4,
) -> RepeatedScore:
    """Run ``repeat`` times (a fresh model each time) and grade each run with ``grid``."""
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    runs: list[GradedRun] = []
    engine = ""
    for _ in range(repeat):
        run = synthesize(dossier, model_factory(), concurrency=concurrency)
        engine = run.engine
        runs.append(
            GradedRun(
                run.status,
                grade_run(run, grid),
                run.uncovered,
                tuple(t for t, _ in run.limits.not_investigated),
            )
        )
    return RepeatedScore(engine, tuple(runs))


def evaluate_bundled(
    model_factory: Callable[[], Model], workdir: Path, *, repeat: int = 1, concurrency: int = 4
) -> RepeatedScore:
    """Write the bundled dossier and its grid under ``workdir``, then evaluate."""
    info = generate_synthesis_dossier(workdir)
    return evaluate_synthesis(
        load_dossier(info.dossier),
        model_factory,
        load_grid(info.grid),
        repeat=repeat,
        concurrency=concurrency,
    )
