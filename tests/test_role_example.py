"""A new role is one declaration of under 60 lines: the example of ``docs/roles.md``, run.

The documentation's first Python block is a whole role (schema, prompt, check, rules engine
and the ``Role``); it is counted, executed as it is written, and driven through the one
driver: offline by its rules implementation, and by a scripted model that invents a quote
(re-asked once with the defect, then accepted or refused). The second block, the usage the
page shows, runs too. And each of the seven ``Role(...)`` declarations in ``src/`` stays
under 60 lines.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from preuve.core.documents import Document
from preuve.models.loop import LoopStatus
from preuve.models.scripted import ScriptedModel

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "roles.md"
LIMIT = 60
BLOCKS = re.findall(r"^```python\n(.*?)^```$", PAGE.read_text(encoding="utf-8"), re.M | re.S)
DOCUMENT = Document.from_pages(
    "note", ["Titre.\nLe levier atteint 5,5x en 2025, contre 3,6x en 2024.\nSuite.", "Fin."]
)


@pytest.fixture(scope="module")
def example() -> Iterator[types.ModuleType]:
    module = types.ModuleType("role_example")
    sys.modules[module.__name__] = module  # a dataclass resolves its module by name
    try:
        exec(compile(BLOCKS[0], str(PAGE), "exec"), module.__dict__)
        yield module
    finally:
        del sys.modules[module.__name__]


def _answer(quote: str, page: int = 1) -> str:
    return json.dumps({"headline": "Levier en hausse", "page": page, "quote": quote})


def test_the_documented_role_is_under_60_lines() -> None:
    assert len(BLOCKS) >= 2
    assert len(BLOCKS[0].splitlines()) < LIMIT


def test_its_rules_implementation_reads_the_rendered_pages(example: Any) -> None:
    result = example.HEADLINE.ask(_rules(example), DOCUMENT)
    assert result.status is LoopStatus.VALID and len(result.attempts) == 1
    span = result.value.evidence
    quote = "Le levier atteint 5,5x en 2025, contre 3,6x en 2024."  # "Titre." is too short
    assert span.quote == quote and DOCUMENT.text[span.start : span.end] == quote


@pytest.mark.parametrize(
    ("answers", "status", "quote"),
    [
        pytest.param(
            [_answer("Le levier atteint 5,5x en 2025, contre 3,6x en 2024.")],
            LoopStatus.VALID,
            "Le levier atteint 5,5x en 2025, contre 3,6x en 2024.",
            id="copied",
        ),
        pytest.param(
            [_answer("Le levier a fortement augmenté en 2025."), _answer("contre 3,6x en 2024.")],
            LoopStatus.VALID,
            "contre 3,6x en 2024.",
            id="invented-then-copied",
        ),
        pytest.param(
            [_answer("Le levier atteint 5,5x en 2025.", page=2), _answer("Le levier baisse.")],
            LoopStatus.REFUSED,
            None,
            id="wrong-page-then-invented",
        ),
    ],
)
def test_a_model_answer_goes_through_the_one_driver(
    example: Any, answers: list[str], status: LoopStatus, quote: str | None
) -> None:
    model = ScriptedModel(answers)
    result = example.HEADLINE.ask(model, DOCUMENT)
    assert result.status is status and len(model.requests) == len(answers)
    assert (result.value.evidence.quote if result.value else None) == quote
    if len(answers) > 1:  # the re-ask carries the defect of the first answer
        assert "quote_not_found" in model.requests[1].messages[-1].content
        assert result.attempts[0].defects[0].code == "quote_not_found"


def test_the_documented_usage_runs(example: Any) -> None:
    exec(compile(BLOCKS[1], str(PAGE), "exec"), dict(example.__dict__))


def _rules(example: Any) -> Any:
    from preuve.models.rules import RulesModel

    return RulesModel({example.HEADLINE.task: example.HEADLINE.rules}, version="test")


def _role_declarations() -> dict[str, int]:
    """Each ``NAME: Role[...] = Role(...)`` statement in src/, with its number of lines."""
    found: dict[str, int] = {}
    for path in sorted((ROOT / "src" / "preuve").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            target: ast.expr
            if isinstance(node, ast.AnnAssign):
                target, value = node.target, node.value
            elif isinstance(node, ast.Assign):
                target, value = node.targets[0], node.value
            else:
                continue
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "Role":
                name = f"{path.stem}.{ast.unparse(target)}"
                found[name] = (node.end_lineno or node.lineno) - node.lineno + 1
    return found


def test_every_role_of_src_is_one_declaration_under_60_lines() -> None:
    found = _role_declarations()
    assert sorted(found) == [
        "planner.PLANNER",
        "reader.READER",
        "subagent.SUBAGENT",
        "summarize.MAP",
        "summarize.REDUCE",
        "synthesizer.SYNTHESIZER",
        "writer.WRITER",
    ]
    assert {name: n for name, n in found.items() if n >= LIMIT} == {}
