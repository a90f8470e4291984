"""Workflow 1's requests sized from the model's context window, schemas that name the
allowed ids, and prompts with no placeholder a model could copy literally."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from preuve.core.documents import Document
from preuve.core.errors import BudgetError
from preuve.core.facts import Fact
from preuve.memo.reader import (
    READER_SYSTEM,
    read_signals,
    reader_request,
    reader_requests,
    rendered_pages,
)
from preuve.memo.writer import WRITER_SYSTEM, writer_request
from preuve.models.base import Completion, Message, ModelIdentity, Request
from preuve.models.budget import counter_for

PAGES = ("a" * 300, "b" * 300, "c" * 300, "d" * 900)


def prompt_size(*numbers: int) -> int:
    """The size in characters of the reader request for these pages (system prompt, headers,
    pages): the windows below are read from it, so the categories the prompt lists may grow."""
    return sum(len(m.content) for m in reader_request("Acme SA", PAGES, numbers).messages)


class WindowedModel:
    """A model with a known context window whose tokenizer counts one token per character
    (so group sizes are exact); it answers no signal."""

    identity = ModelIdentity("test", "windowed")
    tokens_exact = True

    def __init__(self, context_window: int) -> None:
        self.context_window = context_window
        self.requests: list[Request] = []

    def count_prompt_tokens(self, messages: Sequence[Message]) -> int:
        return sum(len(m.content) for m in messages)

    def complete(self, request: Request) -> Completion:
        self.requests.append(request)
        return Completion('{"signals": []}', "stop", 1, 1)


def pages_of(request: Request) -> list[int]:
    return [number for number, _ in rendered_pages(request.messages)]


@pytest.mark.parametrize(
    ("window", "groups"),
    [
        (prompt_size(1, 2, 3, 4), [[1, 2, 3, 4]]),
        (prompt_size(3, 4), [[1, 2, 3], [4]]),  # pages 1-3 fit it, 1-4 do not
        (prompt_size(1, 2, 3) - 1, [[1, 2], [3], [4]]),  # and 3-4 do not fit it either
    ],
    ids=["all-fit", "two-chunks", "three-chunks"],
)
def test_reader_chunks_fit_the_window_less_the_answer_room(
    window: int, groups: list[list[int]]
) -> None:
    model = WindowedModel(window + 2048)  # the reader keeps 2048 tokens for its answer
    requests = reader_requests("Acme SA", PAGES, model=model)
    assert [pages_of(r) for r in requests] == groups
    counter = counter_for(model)
    assert all(counter.count_prompt_tokens(r.messages) <= window for r in requests)


def test_a_page_that_cannot_fit_alone_is_refused_before_any_call() -> None:
    need = prompt_size(4)  # page 4 alone
    model = WindowedModel(2048 + need - 1)
    with pytest.raises(BudgetError, match=rf"{need} tokens .* budget of {need - 1}; nothing was"):
        read_signals(model, "Acme SA", Document.from_pages("acme", PAGES))
    assert model.requests == []


def test_without_a_window_the_character_chunks_stay() -> None:
    requests = reader_requests("Acme SA", PAGES, max_chars=700)
    assert [pages_of(r) for r in requests] == [[1, 2], [3], [4]]


def test_reader_schema_names_the_pages_of_its_request() -> None:
    [request] = reader_requests("Acme SA", PAGES[:2])
    assert request.response_schema is not None
    item = request.response_schema["properties"]["signals"]["items"]
    assert item["properties"]["page"] == {"type": "integer", "enum": [1, 2]}


def test_writer_schema_names_the_fact_ids() -> None:
    facts = (Fact("R-1", "Marge 2024 : 5 %"), Fact("Q-2", "« Une phrase. » (p. 3)"))
    request = writer_request("Acme SA", facts, [2024])
    assert request.response_schema is not None
    item = request.response_schema["properties"]["paragraphs"]["items"]
    assert item["properties"]["sources"]["items"] == {"type": "string", "enum": ["R-1", "Q-2"]}


# A literal a model can copy as its answer: "...", <something>, ID, N as a value.
_PLACEHOLDER = re.compile(r'"\.\.\."|<[a-z ]+>|"ID"|:\s*N\b|\[\.\.\.\]\}')


@pytest.mark.parametrize("prompt", [READER_SYSTEM, WRITER_SYSTEM], ids=["reader", "writer"])
def test_memo_prompts_hold_no_copyable_placeholder(prompt: str) -> None:
    assert _PLACEHOLDER.findall(prompt) == []
