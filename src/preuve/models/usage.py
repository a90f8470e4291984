"""What a run's model calls cost: calls, tokens, seconds, tokens per second.

:class:`UsageMeter` wraps a model and keeps one :class:`CallCost` per call that reached the
backend (an answer or a backend error; a request the budget refused before sending is not a
call). :func:`call_figures` sums them, whatever their source: a meter, or the records of a
journal. :func:`spread` gives the mean and the worst case of the figures of repeated runs.
The evaluations print these beside their grades, so a real model's cost is read in the
same run as its quality.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from preuve.core.errors import ModelError
from preuve.models.base import Completion, Model, ModelIdentity, Request
from preuve.models.journal import CallRecord

__all__ = [
    "SPEEDS",
    "CallCost",
    "CallFigures",
    "UsageMeter",
    "call_figures",
    "costs_of_records",
    "spread",
]


@dataclass(frozen=True, slots=True)
class CallCost:
    """One call: its task, tokens and seconds; ``finish_reason`` is ``error`` when the backend
    raised instead of answering."""

    task: str
    prompt_tokens: int
    generated_tokens: int
    seconds: float
    finish_reason: str


@dataclass(frozen=True, slots=True)
class CallFigures:
    """The sums over a run's calls. ``tokens_per_second`` is generated tokens over the
    seconds the backend took (prefill included), 0.0 without calls."""

    calls: int
    errors: int
    stopped_on_length: int
    prompt_tokens: int
    generated_tokens: int
    model_seconds: float
    tokens_per_second: float
    calls_by_task: Mapping[str, int]


def call_figures(costs: Iterable[CallCost]) -> CallFigures:
    """The figures of these calls."""
    listed = list(costs)
    seconds = sum(c.seconds for c in listed)
    generated = sum(c.generated_tokens for c in listed)
    return CallFigures(
        calls=len(listed),
        errors=sum(c.finish_reason == "error" for c in listed),
        stopped_on_length=sum(c.finish_reason == "length" for c in listed),
        prompt_tokens=sum(c.prompt_tokens for c in listed),
        generated_tokens=generated,
        model_seconds=round(seconds, 3),
        tokens_per_second=round(generated / seconds, 2) if seconds > 0 else 0.0,
        calls_by_task=dict(sorted(Counter(c.task for c in listed).items())),
    )


def costs_of_records(records: Iterable[CallRecord]) -> tuple[CallCost, ...]:
    """The costs of journaled calls (a call the backend failed has no token counts)."""
    return tuple(
        CallCost(
            r.task,
            r.prompt_tokens or 0,
            r.generated_tokens or 0,
            r.seconds,
            "error" if r.raw_output is None else r.finish_reason or "error",
        )
        for r in records
    )


# Lower is better for every figure of a run's cost except the speed.
SPEEDS = frozenset({"tokens_per_second"})


def spread(
    runs: Sequence[Mapping[str, Any]], *, higher_is_better: frozenset[str] = SPEEDS
) -> dict[str, dict[str, float]]:
    """``{"mean": …, "worst": …}`` of each numeric figure of ``runs``: the worst case is the
    max, or the min of a figure named in ``higher_is_better``; a figure that is not a number
    in every run is left out."""
    if not runs:
        return {"mean": {}, "worst": {}}
    names = [
        name
        for name, value in runs[0].items()
        if _numeric(value) and all(_numeric(run.get(name)) for run in runs)
    ]
    columns = {name: [float(run[name]) for run in runs] for name in names}
    return {
        "mean": {n: statistics.fmean(v) for n, v in columns.items()},
        "worst": {n: (min(v) if n in higher_is_better else max(v)) for n, v in columns.items()},
    }


def _numeric(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class UsageMeter:
    """A model that records the cost of every call it forwards (thread-safe)."""

    def __init__(self, inner: Model) -> None:
        self.inner = inner
        self._lock = threading.Lock()
        self._costs: list[CallCost] = []

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        started = time.perf_counter()
        try:
            completion = self.inner.complete(request)
        except ModelError:
            self._add(CallCost(request.task, 0, 0, time.perf_counter() - started, "error"))
            raise
        self._add(
            CallCost(
                request.task,
                completion.prompt_tokens,
                completion.generated_tokens,
                completion.seconds or time.perf_counter() - started,
                completion.finish_reason,
            )
        )
        return completion

    def _add(self, cost: CallCost) -> None:
        with self._lock:
            self._costs.append(cost)

    def figures(self) -> CallFigures:
        """The figures of every call so far."""
        with self._lock:
            return call_figures(tuple(self._costs))
