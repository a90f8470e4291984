"""The reader's answer bounded by its request: one signal per prose sentence of its pages,
a quote no longer than their longest sentence, and a token cap derived from both.

A small model that loops on one item (SmolLM2 repeating an invented "quote" until its token
cap) is stopped by the schema a constrained server decodes, so its answer ends and the quote
check judges it, instead of a truncated answer refused whole."""

from __future__ import annotations

import json

import pytest

from preuve.core.documents import Document
from preuve.memo.cues import CATEGORY_INFO
from preuve.memo.reader import (
    READER_MAX_NEW_TOKENS,
    answer_cap,
    read_signals,
    reader_request,
)
from preuve.memo.selection import MAX_SIGNALS, SELECT_SYSTEM, catalogue, max_signals
from preuve.models.scripted import ScriptedModel

FIRST = "Le prêt de 4 000 k€ arrive à échéance en juin 2026 et n'est pas refinancé."
SECOND = "La blanchisserie emploie 140 personnes sur deux sites."
PAGE = f"Rapport de gestion\n\n{FIRST} {SECOND}\n"
TABLE = "Chiffre d'affaires 12 400 11 900\nRésultat net 310 280\n"


def _signals(schema: object) -> dict[str, object]:
    assert isinstance(schema, dict)
    return dict(schema["properties"]["signals"])


@pytest.mark.parametrize("quotes", ["copy", "select"])
def test_one_signal_per_prose_sentence(quotes: str) -> None:
    request = reader_request("Lavandia SAS", [PAGE, TABLE], [1, 2], quotes)
    assert _signals(request.response_schema)["maxItems"] == 2  # the table page has none


def test_a_quote_is_no_longer_than_the_longest_sentence() -> None:
    request = reader_request("Lavandia SAS", [PAGE], [1], "copy")
    quote = _signals(request.response_schema)["items"]["properties"]["quote"]  # type: ignore[index]
    assert quote == {"type": "string", "minLength": 1, "maxLength": len(FIRST)}


CAPS = {
    "copy: keys and both sentences in full": ("copy", [PAGE], 16 + 2 * 24 + len(FIRST + SECOND)),
    "select: keys and two ids": ("select", [PAGE], 16 + 2 * 24),
    "no prose: an empty list": ("copy", [TABLE], 16),
}


@pytest.mark.parametrize(("quotes", "pages", "cap"), CAPS.values(), ids=CAPS.keys())
def test_the_token_cap_is_derived_from_the_sentences(
    quotes: str, pages: list[str], cap: int
) -> None:
    request = reader_request("Lavandia SAS", pages, range(1, len(pages) + 1), quotes)
    assert request.max_new_tokens == cap
    assert answer_cap(catalogue(pages, range(1, len(pages) + 1)), quotes) == cap


def test_a_long_request_keeps_the_reader_cap_and_the_signal_limit() -> None:
    pages = [" ".join([FIRST] * 30)] * 4  # 120 sentences
    request = reader_request("Lavandia SAS", pages, [1, 2, 3, 4], "copy")
    assert request.max_new_tokens == READER_MAX_NEW_TOKENS
    assert _signals(request.response_schema)["maxItems"] == MAX_SIGNALS == max_signals(120)


def test_an_answer_longer_than_the_page_is_refused_by_its_schema() -> None:
    item = {"category": "refinancing", "quote": FIRST, "page": 1}
    looping = json.dumps({"signals": [item, item]})  # one sentence on the page, twice
    model = ScriptedModel([looping, looping])
    reading = read_signals(model, "Lavandia SAS", Document.from_pages("lavandia", [f"{FIRST}\n"]))
    assert (reading.verified, reading.attempts) == ((), 2)
    assert [(d.code, d.detail) for d in reading.defects] == [("schema", "has 2 items; at most 1")]


def test_the_catalogue_prompt_describes_every_category() -> None:
    for info in CATEGORY_INFO:  # data/cues.json, as in the copy-mode prompt
        assert f"{info.name} ({info.describe})" in SELECT_SYSTEM
