"""Identified facts: the ``[ID] text`` line format, its errors, and its round trip."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.errors import InputError
from preuve.core.facts import Fact, parse_facts, render_facts

LEVIER = "Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; formule : dette nette / EBITDA"


PARSE_CASES = [
    ("one-fact", f"[R-ferlac-levier] {LEVIER}", [Fact("R-ferlac-levier", LEVIER)]),
    (
        "comments-and-blank-lines",
        "# faits du mémo\n\n[A-solvea-2] Alerte\n   \n  # autre\n[Q-ferlac-3] « x » (p. 4)\n",
        [Fact("A-solvea-2", "Alerte"), Fact("Q-ferlac-3", "« x » (p. 4)")],
    ),
    ("crlf-and-bom", "\ufeff[A-1] un\r\n[A-2] deux\r\n", [Fact("A-1", "un"), Fact("A-2", "deux")]),
    ("surrounding-space", "  [A-1]   texte  \t", [Fact("A-1", "texte")]),
    ("brackets-inside-text", "[A-1] voir [B-2]", [Fact("A-1", "voir [B-2]")]),
    ("empty-file", "", []),
]


@pytest.mark.parametrize(
    ("text", "expected"), [c[1:] for c in PARSE_CASES], ids=[c[0] for c in PARSE_CASES]
)
def test_parse_facts(text: str, expected: list[Fact]) -> None:
    assert parse_facts(text) == expected


ERROR_CASES = [
    ("no-brackets", "[A-1] ok\nR-x texte", "facts.txt line 2: expected '[ID] text'"),
    ("space-in-id", "[R x] texte", "facts.txt line 1: expected '[ID] text'"),
    ("no-text", "\n\n[R-x]", "facts.txt line 3: expected '[ID] text'"),
    ("no-space-after-id", "[R-x]texte", "facts.txt line 1: expected '[ID] text'"),
    ("empty-id", "[] texte", "facts.txt line 1: expected '[ID] text'"),
    ("carriage-return-inside", "[R-x] a\rb", "facts.txt line 1: expected '[ID] text'"),
    (
        "duplicate-id",
        "[A-1] un\n# c\n[A-1] deux",
        "facts.txt line 3: duplicate fact id [A-1] (first on line 1)",
    ),
]


@pytest.mark.parametrize(
    ("text", "message"), [c[1:] for c in ERROR_CASES], ids=[c[0] for c in ERROR_CASES]
)
def test_parse_facts_errors_name_source_and_line(text: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_facts(text, source="facts.txt")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("fact_id", "text"),
    [("", "x"), ("a b", "x"), ("a]", "x"), ("A-1", ""), ("A-1", " x"), ("A-1", "x\ny")],
    ids=["empty-id", "space-id", "bracket-id", "empty-text", "unstripped", "two-lines"],
)
def test_fact_rejects_what_cannot_be_one_line(fact_id: str, text: str) -> None:
    with pytest.raises(ValueError, match="fact"):
        Fact(fact_id, text)


def test_render_facts() -> None:
    rendered = render_facts([Fact("R-ferlac-levier", LEVIER), Fact("A-solvea-2", "Alerte")])
    assert rendered == f"[R-ferlac-levier] {LEVIER}\n[A-solvea-2] Alerte\n"
    assert render_facts([]) == ""


ids = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="[]"),
    min_size=1,
    max_size=12,
).filter(lambda s: not any(c.isspace() for c in s))
texts = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\r\n"),
    min_size=1,
    max_size=40,
).filter(lambda s: s == s.strip() and s != "")


@given(st.dictionaries(ids, texts, max_size=8))
def test_render_then_parse_round_trips(entries: dict[str, str]) -> None:
    original = [Fact(fact_id, text) for fact_id, text in entries.items()]
    assert parse_facts(render_facts(original)) == original
