"""Grading workflow 2 runs with a grid, once or repeated (mean and worst case).

This is the only place where a run meets its gold labels: the grid is read here (and by the
``grade`` command), never by the pipeline. A REFUSED run delivers no synthesis, so it is
graded as an empty one: refusing costs the points it would have earned.

Repeated runs matter for LLMs (sampling, server-side nondeterminism); the rules engine gives
the same run each time, so its mean equals its worst case.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from preuve.core.errors import InputError
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.eval.grid import (
    Grid,
    GridScore,
    ScoreEntry,
    grade,
    load_grid,
    unplanned_contradictions,
)
from preuve.io.records import STRICT, dump_record, record_of
from preuve.loaders import load_dossier
from preuve.models.base import Model
from preuve.models.loop import LoopStatus
from preuve.models.usage import UsageMeter, spread
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.pipeline import SynthesisRun, synthesize
from preuve.synthesis.types import Synthesis

__all__ = [
    "DossierScore",
    "GradedRun",
    "GradedRunEntry",
    "RepeatedScore",
    "RepeatedScoreEntry",
    "evaluate_bundled",
    "evaluate_dossiers",
    "evaluate_synthesis",
    "grade_run",
    "grid_for",
    "heldout_dossiers",
]


def grade_run(run: SynthesisRun, grid: Grid) -> GridScore:
    """The grid score of a run's delivered synthesis (an empty one when REFUSED)."""
    delivered = run.synthesis if run.status is LoopStatus.VALID and run.synthesis else None
    return grade(grid, delivered or Synthesis((), ()))


@dataclass(frozen=True, slots=True)
class GradedRun:
    """One run's status, score, what its trajectory lost upstream, and the contradictions
    it listed that the grid did not plant (traps taken for contradictions)."""

    status: LoopStatus
    score: GridScore
    uncovered: tuple[str, ...]
    not_investigated: tuple[str, ...]
    unplanned: tuple[str, ...] = ()
    cost: Mapping[str, Any] = field(default_factory=dict)  # calls, tokens, seconds


@dataclass(frozen=True, slots=True, kw_only=True)
class GradedRunEntry:
    """A :class:`GradedRun` as an evaluation report writes it."""

    status: str
    cost: dict[str, Any]
    score: ScoreEntry
    uncovered: tuple[str, ...]
    not_investigated: tuple[str, ...]
    unplanned_contradictions: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, run: GradedRun) -> GradedRunEntry:
        return record_of(
            cls,
            run,
            status=run.status.value,
            cost=dict(run.cost),
            score=ScoreEntry.of(run.score),
            unplanned_contradictions=run.unplanned,
        )


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

    @property
    def cost(self) -> dict[str, dict[str, float]]:
        """Mean and worst case of the runs' model calls, tokens and seconds."""
        return spread([r.cost for r in self.runs])


@dataclass(frozen=True, slots=True, kw_only=True)
class RepeatedScoreEntry:
    """A :class:`RepeatedScore` as ``eval synthesis --json`` writes it, per dossier."""

    engine: str
    cost: dict[str, dict[str, float]]
    runs: tuple[GradedRunEntry, ...]
    mean: float
    worst: float
    refused: int
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, score: RepeatedScore) -> RepeatedScoreEntry:
        return record_of(cls, score, runs=tuple(GradedRunEntry.of(run) for run in score.runs))


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
        meter = UsageMeter(model_factory())
        started = time.perf_counter()
        run = synthesize(dossier, meter, concurrency=concurrency)
        wall = round(time.perf_counter() - started, 3)
        engine = run.engine
        delivered = run.synthesis if run.status is LoopStatus.VALID and run.synthesis else None
        unplanned = unplanned_contradictions(grid, delivered or Synthesis((), ()))
        runs.append(
            GradedRun(
                run.status,
                grade_run(run, grid),
                run.uncovered,
                tuple(t for t, _ in run.limits.not_investigated),
                tuple(f"{c.subject} / {c.attribute}" for c in unplanned),
                {**dump_record(meter.figures()), "wall_seconds": wall},
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


GRID_FILE = "grid.json"


@dataclass(frozen=True, slots=True)
class DossierScore:
    """The scores of one dossier, and whether it is the bundled one or held out."""

    name: str
    kind: str  # "bundled" or "held-out"
    result: RepeatedScore

    def row(self) -> dict[str, Any]:
        worst = min(self.result.runs, key=lambda r: r.score.total)
        score = worst.score
        n_facts = len(score.facts_found) + len(score.facts_missed)
        n_contra = len(score.contradictions_right) + len(score.contradictions_missed)
        return {
            "kind": self.kind,
            "dossier": self.name,
            "mean": self.result.mean,
            "worst": self.result.worst,
            "facts": f"{len(score.facts_found)}/{n_facts}",
            "contradictions": f"{len(score.contradictions_right)}/{n_contra}",
            "unplanned": len(worst.unplanned),
            "citations": f"{score.citations_valid}/{score.citations_total}",
            "off_topic": len(score.off_topic_cited),
            "refused": self.result.refused,
        }


def grid_for(grid: Grid, dossier: Dossier) -> Grid:
    """``grid`` with the dossier's own document ids as the valid citations when the grid
    lists none (a grid written beside its dossier need not repeat them; without this every
    citation would count as invalid)."""
    return grid if grid.documents else replace(grid, documents=frozenset(dossier.ids))


def heldout_dossiers(folder: Path) -> tuple[Path, ...]:
    """The dossier folders under ``folder`` that ship a ``grid.json`` (sorted by name)."""
    if not folder.is_dir():
        return ()
    return tuple(sorted(p for p in folder.iterdir() if p.is_dir() and (p / GRID_FILE).is_file()))


def evaluate_dossiers(
    model_factory: Callable[[], Model],
    workdir: Path,
    heldout: Sequence[Path],
    *,
    repeat: int = 1,
    concurrency: int = 4,
) -> tuple[DossierScore, ...]:
    """The bundled dossier, then each held-out dossier (its ``grid.json`` beside it)."""
    bundled = evaluate_bundled(model_factory, workdir, repeat=repeat, concurrency=concurrency)
    scores = [DossierScore("bundled", "bundled", bundled)]
    for folder in heldout:
        grid_path = folder / GRID_FILE
        if not grid_path.is_file():
            raise InputError(f"{folder}: no {GRID_FILE} beside the dossier")
        dossier = load_dossier(folder)
        result = evaluate_synthesis(
            dossier,
            model_factory,
            grid_for(load_grid(grid_path), dossier),
            repeat=repeat,
            concurrency=concurrency,
        )
        scores.append(DossierScore(folder.name, "held-out", result))
    return tuple(scores)
