"""``trajectory.json`` through its run-file types: round trip and strict read-back."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from preuve.core.defects import Defect
from preuve.core.errors import InputError
from preuve.core.evidence import Span
from preuve.models import LoopStatus
from preuve.synthesis.pipeline import AttemptRecord, DocumentRecord, RoleCall, SynthesisRun
from preuve.synthesis.ranks import SourceType
from preuve.synthesis.trajectory import run_from_data, trajectory_data
from preuve.synthesis.types import (
    ComputedValue,
    Contradiction,
    Finding,
    Paragraph,
    Plan,
    RefusedStatement,
    SourcedValue,
    Statement,
    StatementSource,
    SubTask,
    Synthesis,
)

WHERE = "run/trajectory.json"
SPAN = Span("d1", 1, 4, 9, "12 ms", "ab" * 32, page=None)


def _run() -> SynthesisRun:
    spanned = Statement(
        "X", "latency", "12 ms", "X: 12 ms", (StatementSource("d1", "12 ms", "12 ms", SPAN),)
    )
    refused = RefusedStatement(
        Statement.of("X", "licence", "MIT", "X: MIT", "d2"), (Defect("quote_not_found", "no"),)
    )
    return SynthesisRun(
        question="Q?",
        engine="rules",
        status=LoopStatus.VALID,
        documents=(
            DocumentRecord("d1", "One", date(2026, 1, 2), SourceType.named("blog"), 3),
            DocumentRecord("d2", "Two", None, SourceType.named("blog"), 3),
        ),
        products=("X",),
        plan=Plan("Q?", (SubTask("a", "?", ("d1", "d2")),), (("d2", "read"),)),
        findings=(
            Finding("a", statements=(spanned,), docs_read=("d1", "d2"), refused=(refused,)),
            Finding.not_investigated("b", "timeout"),
        ),
        contradictions=(
            Contradiction(
                "X",
                "latency",
                SourcedValue("12 ms", ("d1",)),
                (SourcedValue("15 ms", ("d2",)),),
                3,
                "newer",
                "p99",
            ),
        ),
        computed=(ComputedValue("cost", Decimal("331200.50"), "€", "a*b", ("d1",)),),
        evidence="E",
        synthesis=Synthesis((Paragraph("P", ("d1",)),), (), engine="rules"),
        defects=(Defect("some_code", "detail", paragraph=1),),
        calls=(
            RoleCall(
                "planner",
                "",
                "VALID",
                (
                    AttemptRecord(None, None, (), "boom"),
                    AttemptRecord("{}", "stop", (Defect("x", "y"),)),
                ),
            ),
        ),
    )


def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(trajectory_data(_run()), ensure_ascii=False))
    return data


def test_the_trajectory_round_trips_with_spans_refusals_and_decimals() -> None:
    data = _data()
    assert run_from_data(data, WHERE) == _run()
    assert data["computed"][0]["value"] == "331200.50"
    assert data["findings"][0]["statements"][0]["sources"][0]["span"]["id"] == "d1@1:4:9"
    assert "span" not in data["findings"][0]["refused"][0]["statement"]["sources"][0]
    assert data["documents"][1]["date"] is None and data["documents"][0]["date"] == "2026-01-02"
    assert data["failures"] == [{"subtask_id": "b", "error": "timeout"}]


def _set(path: tuple[str | int, ...], value: object) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        target: Any = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return mutate


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.pop(key) and None


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        pytest.param(_set(("documents", 0, "date"), "2026-02-30"),
                     "documents[0].date: Input should be a valid date in the format YYYY-MM-DD, "
                     "day value is outside expected range", id="impossible-date"),
        pytest.param(_set(("plan", "subtasks", 0, "scope"), "d1"),
                     "plan.subtasks[0].scope: Input should be a valid array", id="str-for-list"),
        pytest.param(_set(("surprise",), 1), "surprise: Unexpected keyword argument",
                     id="unknown-key"),
        pytest.param(_set(("findings", 0, "status"), "maybe"),
                     "findings[0].status: Input should be 'ok' or 'NOT INVESTIGATED'",
                     id="unknown-finding-status"),
        pytest.param(_set(("computed", 0, "value"), "abc"),
                     "computed[0].value: Input should be a valid decimal", id="not-a-decimal"),
        pytest.param(_drop("calls"), "calls: Field required", id="missing-key"),
        pytest.param(_set(("findings", 0, "statements", 0, "sources", 0, "span", "id"), "d1@1:0:9"),
                     "span id 'd1@1:0:9' does not match its fields ('d1@1:4:9')",
                     id="span-id-not-its-fields"),
    ],
)  # fmt: skip
def test_a_damaged_trajectory_is_one_input_error_naming_the_place(
    mutate: Callable[[dict[str, Any]], None], message: str
) -> None:
    data = _data()
    mutate(data)
    with pytest.raises(InputError) as caught:
        run_from_data(data, WHERE)
    assert caught.value.message == f"{WHERE}: malformed synthesis run ({message})"


def test_a_file_of_another_format_is_not_a_synthesis_run() -> None:
    with pytest.raises(InputError) as caught:
        run_from_data({**_data(), "format": "preuve-memo-run/1"}, WHERE)
    expected = f"{WHERE}: not a synthesis run (format preuve-synthesis-run/1 expected)"
    assert caught.value.message == expected


def test_derived_keys_may_be_absent_and_are_recomputed() -> None:
    data = _data()
    for key in ("reads", "failures", "uncovered", "read_but_not_used", "statements_refused"):
        data.pop(key)
    data["limits"] = ["written by hand"]
    again = run_from_data(data, WHERE)
    assert again == _run()
    assert trajectory_data(again) == _data()
