"""What a run's model calls cost: counted per call, summed, spread over repeated runs."""

from __future__ import annotations

import pytest

from preuve.core.errors import BudgetError, ModelError
from preuve.models import ScriptedModel
from preuve.models.base import Completion, Request, messages_of
from preuve.models.budget import BudgetedModel
from preuve.models.journal import CallRecord
from preuve.models.usage import (
    CallCost,
    UsageMeter,
    call_figures,
    costs_of_records,
    spread,
)

ASK = Request(messages_of([("user", "Give the page of the revenue.")]), task="memo.reader")


@pytest.mark.parametrize(
    ("costs", "expected"),
    [
        pytest.param((), (0, 0, 0, 0, 0, 0.0, 0.0, {}), id="no call"),
        pytest.param(
            (CallCost("a", 100, 40, 2.0, "stop"), CallCost("b", 50, 10, 3.0, "length")),
            (2, 0, 1, 150, 50, 5.0, 10.0, {"a": 1, "b": 1}),
            id="speed is generated tokens over backend seconds",
        ),
        pytest.param(
            (CallCost("a", 0, 0, 1.5, "error"), CallCost("a", 10, 4, 0.5, "stop")),
            (2, 1, 0, 10, 4, 2.0, 2.0, {"a": 2}),
            id="an error is a call with no tokens",
        ),
    ],
)
def test_call_figures(costs: tuple[CallCost, ...], expected: tuple[object, ...]) -> None:
    figures = call_figures(costs)
    assert (
        figures.calls,
        figures.errors,
        figures.stopped_on_length,
        figures.prompt_tokens,
        figures.generated_tokens,
        figures.model_seconds,
        figures.tokens_per_second,
        dict(figures.calls_by_task),
    ) == expected


def test_the_meter_counts_answers_and_backend_errors() -> None:
    inner = ScriptedModel(
        [Completion("{}", "stop", 30, 6, seconds=1.5), ModelError("HTTP 500"), "{}"]
    )
    meter = UsageMeter(inner)
    assert meter.identity == inner.identity
    meter.complete(ASK)
    with pytest.raises(ModelError):
        meter.complete(ASK)
    meter.complete(ASK)
    figures = meter.figures()
    assert (figures.calls, figures.errors, figures.calls_by_task) == (3, 1, {"memo.reader": 3})
    assert figures.prompt_tokens >= 30 and figures.generated_tokens >= 6


def test_a_request_the_budget_refuses_is_not_a_call() -> None:
    inner = ScriptedModel(["{}"])
    meter = UsageMeter(BudgetedModel(inner, context_window=16))
    huge = Request(messages_of([("user", "word " * 500)]), task="memo.reader")
    with pytest.raises(BudgetError):
        meter.complete(huge)
    assert meter.figures().calls == 0
    assert inner.requests == []


def test_spread_takes_the_mean_and_the_worst_way_of_each_figure() -> None:
    runs = [
        {"calls": 10, "tokens_per_second": 20.0, "valid": 3, "engine": "x", "flag": True},
        {"calls": 14, "tokens_per_second": 10.0, "valid": 1, "engine": "x", "flag": False},
    ]
    result = spread(runs, higher_is_better=frozenset({"tokens_per_second", "valid"}))
    assert result == {
        "mean": {"calls": 12.0, "tokens_per_second": 15.0, "valid": 2.0},
        "worst": {"calls": 14.0, "tokens_per_second": 10.0, "valid": 1.0},
    }
    assert spread([]) == {"mean": {}, "worst": {}}
    # a figure absent from one run (or None there) is left out rather than guessed
    assert spread([{"a": 1, "b": 2}, {"a": 3, "b": None}])["mean"] == {"a": 2.0}


def test_costs_of_journal_records() -> None:
    def record(raw: str | None, finish: str | None, prompt: int | None) -> CallRecord:
        return CallRecord(
            "run", "memo.writer", "h", ScriptedModel().identity, (), {}, raw, finish,
            prompt, 7 if prompt else None, False, None, 2.0, "ok" if raw else "error",
        )  # fmt: skip

    costs = costs_of_records([record("{}", "length", 100), record(None, None, None)])
    assert costs == (
        CallCost("memo.writer", 100, 7, 2.0, "length"),
        CallCost("memo.writer", 0, 0, 2.0, "error"),
    )
