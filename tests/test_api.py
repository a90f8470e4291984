"""`import preuve`: the checks and workflows as functions, with plain inputs and defaults."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel
from pydantic_ai import Agent, ModelRetry
from pydantic_ai.exceptions import UnexpectedModelBehavior
from pydantic_ai.models.test import TestModel

import preuve
from preuve import api
from preuve.core.memocheck import Paragraph

FACTS = "[R-levier] Levier 2025 : 5,5x (2024 : 3,6x)\n[A-client] Premier client : 38 %"
R = ["R-levier"]
PAGES = ["Le levier s'établit à 5,5x fin 2025, contre 3,6x en 2024."]


def test_the_package_exports_the_api_lazily() -> None:
    assert preuve.__all__ == api.__all__
    for name in preuve.__all__:
        assert getattr(preuve, name) is getattr(api, name), name
    assert set(preuve.__all__) <= set(dir(preuve))
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = preuve.nothing_here
    # A submodule import, ``from preuve import <submodule>`` (which asks ``hasattr`` first) and
    # a tool's dunder probe do not load the workflows.
    probe = (
        "import sys, preuve.core.quotes; from preuve import io; hasattr(preuve, '__wrapped__');"
        " print('preuve.api' in sys.modules)"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert loaded == "False\n"  # a submodule import does not load the workflows


@pytest.mark.parametrize(
    ("name", "text", "sources", "expected"),
    [
        ("copied figures", "Le levier atteint 5,5x en 2025, contre 3,6x en 2024.", R, []),
        ("computed figure", "Le levier a gagné 1,9 point.", ["R-levier"], ["number_not_in_facts"]),
        ("uncited fact", "Le premier client pèse 38 %.", ["R-levier"], ["number_not_in_facts"]),
        ("a year of the facts", "En 2025, le levier atteint 5,5x.", ["R-levier"], []),
        ("a year of no fact", "Le plan court jusqu'en 2019.", R, ["number_not_in_facts"]),
        (
            "a value said of another year",
            "En 2019, le levier atteint 5,5x.",
            ["R-levier"],
            ["number_not_in_facts", "wrong_period"],
        ),
        ("no source", "Le levier atteint 5,5x.", [], ["no_source", "number_not_in_facts"]),
    ],
)
def test_check_memo_takes_json_data_or_objects_alike(
    name: str, text: str, sources: list[str], expected: list[str]
) -> None:
    as_data = preuve.check_memo({"paragraphs": [{"text": text, "sources": sources}]}, FACTS)
    as_objects = preuve.check_memo(
        [Paragraph(text, tuple(sources))], preuve.parse_facts(FACTS), locale="fr"
    )
    assert [d.code for d in as_data] == expected, name
    assert as_objects == as_data, name


def test_check_memo_years_can_be_given() -> None:
    memo = {"paragraphs": [{"text": "Le plan court jusqu'en 2019.", "sources": ["R-levier"]}]}
    assert preuve.check_memo(memo, FACTS, years=[2019]) == []


@pytest.mark.parametrize(
    ("memo", "locale", "message"),
    [
        ({"paragraphs": "none"}, "fr", "memo"),
        ({"paragraphs": [{"text": "x", "sources": ["R-levier"]}]}, "de", "locale 'de'"),
    ],
)
def test_check_memo_bad_input_is_one_input_error(
    memo: dict[str, object], locale: str, message: str
) -> None:
    with pytest.raises(preuve.InputError, match=message):
        preuve.check_memo(memo, FACTS, locale=locale)


def test_read_pages_refuses_a_missing_file_with_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(preuve.PreuveError):
        preuve.read_pages(tmp_path / "absent.pdf")


class Quote(BaseModel):
    page: int
    text: str


class Answer(BaseModel):
    quotes: list[Quote]


def test_pydantic_ai_validator_refuses_an_answer_that_never_verifies() -> None:
    """TestModel answers with made-up data ({"page": 0, "text": "a"}); the quote check
    refuses it on every attempt, so the run fails instead of returning it."""
    refusals: list[str] = []
    agent = Agent(TestModel(), output_type=Answer, retries=2)

    @agent.output_validator
    def verified(answer: Answer) -> Answer:
        results = preuve.check_quotes(PAGES, [(q.page, q.text) for q in answer.quotes])
        problems = [r.reason for r in results if not r.verified]
        if problems:
            refusals.append(problems[0])
            raise ModelRetry("; ".join(problems))
        return answer

    with pytest.raises(UnexpectedModelBehavior, match="maximum output retries"):
        agent.run_sync("Quote the report.")
    assert refusals == ["page 0 does not exist: the document has pages 1 to 1"] * 3
