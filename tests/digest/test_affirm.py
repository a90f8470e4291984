"""Affirmed facts only (preuve.digest.affirm): fact lines read in their context.

The contexts below were written for these tests, each in its own style (markers, tags,
headings, introducing lines, notes pointing back, cues inside a value); none is a phrasing
of the bundled corpus generator.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.documents import Document, Snapshot
from preuve.digest.affirm import DEFAULT_CUES, cues_from_data, line_contexts
from preuve.digest.audit import audit_claims
from preuve.digest.extractive import document_contexts, extract_document_facts
from preuve.digest.grammar import DEFAULT_GRAMMAR, FactTuple
from preuve.digest.lines import document_lines
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.schema import Claim, NodeStatus
from preuve.digest.summarize import DigestSettings, summarize_leaf
from preuve.models.scripted import ScriptedModel

GOOD = "Item Q-7 status: packed."
OTHER = "Item Q-7 site: Brämhult yard."


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    affirmed: tuple[str, ...]  # values of the affirmed facts, in order
    context: str | None  # the context of the first fact that is not affirmed


CASES = [
    Case("plain", f"Memo.\n{GOOD}\n{OTHER}\n", ("packed", "Brämhult yard"), None),
    Case(
        "begin-end-marker",
        f"Memo.\n-----BEGIN FORWARDED MESSAGE-----\nItem Q-7 status: scrapped.\n"
        f"-----END FORWARDED MESSAGE-----\n{GOOD}\n",
        ("packed",),
        "quotation",
    ),
    Case(
        "uppercase-marker",
        f"START OF PASTED TEXT\nItem Q-7 status: scrapped.\nEND OF PASTED TEXT\n{GOOD}\n",
        ("packed",),
        "quotation",
    ),
    Case(
        "fence",
        f"Log:\n\n```\nItem Q-7 status: scrapped.\n```\n\n{GOOD}\n",
        ("packed",),
        "quotation",
    ),
    Case(
        "typographic-quote-over-lines",
        f"The vendor’s reply was “see below\nItem Q-7 status: scrapped.\nthanks”.\n{GOOD}\n",
        ("packed",),
        "quotation",
    ),
    Case(
        "french-quotes-over-lines",
        f"Message reçu : «\nItem Q-7 status: scrapped.\n»\n{GOOD}\n",
        ("packed",),
        "quotation",
    ),
    Case(
        "straight-quote-over-lines",
        f'Pasted from chat: "\nItem Q-7 status: scrapped.\n"\n{GOOD}\n',
        ("packed",),
        "quotation",
    ),
    Case(
        "struck-list",
        f"Struck entries, kept for the record:\nItem Q-7 status: scrapped.\nItem Q-7 site: "
        f"Old Mill yard.\n\nCurrent entries:\n{GOOD}\n",
        ("packed",),
        "struck",
    ),
    Case(
        "del-tag-block",
        f"<del>\nItem Q-7 status: scrapped.\n</del>\n{GOOD}\n",
        ("packed",),
        "struck",
    ),
    Case(
        "superseded-heading",
        f"## Superseded values\nThese no longer apply.\nItem Q-7 status: scrapped.\n"
        f"## Position today\n{GOOD}\n",
        ("packed",),
        "struck",
    ),
    Case(
        "hypothetical-introduction",
        f"Should the carrier strike, the entries would become:\nItem Q-7 status: delayed.\n\n"
        f"{GOOD}\n",
        ("packed",),
        "hypothetical",
    ),
    Case(
        "scenario-forward-reference",
        f"A contingency scenario is sketched below.\nItem Q-7 site: Fallback yard.\n\n{GOOD}\n",
        ("packed",),
        "hypothetical",
    ),
    Case(
        "reported-introduction",
        f"According to a forum post, as follows:\nItem Q-7 status: scrapped.\n\n{GOOD}\n",
        ("packed",),
        "reported",
    ),
    Case(
        "negated-introduction",
        f"The following line is false:\nItem Q-7 status: scrapped.\n\n{GOOD}\n",
        ("packed",),
        "negated",
    ),
    Case(
        "archived-instruction",
        f"Instructions from an unknown sender, archived:\nItem Q-7 status: scrapped.\n\n{GOOD}\n",
        ("packed",),
        "instruction",
    ),
    Case(
        "note-pointing-back",
        f"{GOOD}\nItem Q-7 site: Old Mill yard.\n(The two lines above were struck on 3 May.)\n\n"
        f"{OTHER}\n",
        ("Brämhult yard",),
        "struck",
    ),
    Case(
        "cue-in-the-value",
        f"Item Q-7 status: reportedly shipped.\n{OTHER}\n",
        ("Brämhult yard",),
        "reported",
    ),
    Case(
        "blank-line-ends-an-introduction",
        f"Old values, withdrawn:\nItem Q-7 status: scrapped.\n\n{GOOD}\n",
        ("packed",),
        "struck",
    ),
    Case(
        "prose-line-ends-an-introduction",
        f"Draft figures:\nItem Q-7 status: scrapped.\nThe meeting then moved on.\n{GOOD}\n",
        ("packed",),
        "hypothetical",
    ),
    Case(
        "neutral-introduction",
        f"Agreed position as of today:\n{GOOD}\n{OTHER}\n",
        ("packed", "Brämhult yard"),
        None,
    ),
    Case(
        "neutral-heading-resets",
        f"# History\nItem Q-7 status: scrapped.\n# Now\n{GOOD}\n",
        ("packed",),
        "struck",
    ),
    Case(
        "unclosed-quotation-runs-to-the-end",
        f"He wrote “please record\n{GOOD}\n",
        (),
        "quotation",
    ),
]


def make_doc(text: str, doc_id: str = "d1") -> Document:
    return Document(doc_id, 1, "t", "", "note", (text,))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_only_affirmed_fact_lines_are_facts(case: Case) -> None:
    doc = make_doc(case.text)
    assert tuple(f.fact.value for f in extract_document_facts(doc)) == case.affirmed
    not_affirmed = [
        context for _, context in document_contexts(doc) if context.fact and not context.affirmed
    ]
    assert (not_affirmed[0].context if not_affirmed else None) == case.context
    assert all(context.reason for context in not_affirmed)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_rules_summarizer_claims_only_affirmed_lines(case: Case) -> None:
    doc = make_doc(case.text)
    result = summarize_leaf(doc, Snapshot.of([doc]), rules_summarizer(), DigestSettings())
    assert result.status is NodeStatus.VALID
    assert {claim.value for claim in result.claims} == set(case.affirmed)


def test_the_audit_flags_a_claim_an_llm_took_from_a_non_affirmed_line() -> None:
    case = next(c for c in CASES if c.name == "struck-list")
    doc = make_doc(case.text)
    ids = {line.quote: line.id for line in document_lines(doc)}
    struck, current = ids["Item Q-7 status: scrapped."], ids[GOOD]
    answer = {
        "claims": [
            {"subject": "Q-7", "field": "status", "value": "scrapped", "evidence": [struck]},
            {"subject": "Q-7", "field": "status", "value": "packed", "evidence": [current]},
        ]
    }
    snapshot = Snapshot.of([doc])
    llm = ScriptedModel([json.dumps(answer)])
    result = summarize_leaf(doc, snapshot, llm, DigestSettings())
    assert result.status is NodeStatus.VALID  # the claims' ids resolve: the audit judges them
    audit = audit_claims(result.claims, snapshot)
    assert [a.supported for a in audit.claims] == [False, True]
    assert audit.claims[0].support.startswith("unsupported: not affirmed: ")
    assert "struck" in audit.claims[0].support and audit.figures().not_affirmed == 1


def test_cues_are_data_a_user_can_extend() -> None:
    text = "Speculation corner:\nItem Q-7 status: scrapped.\n"
    rows = [(line, False) for line in text.splitlines()]
    assert line_contexts(rows, DEFAULT_GRAMMAR)[1].affirmed
    data = json.loads(json.dumps(DEFAULT_CUES.data))
    data["contexts"]["hypothetical"].append("speculation")
    extended = line_contexts(rows, DEFAULT_GRAMMAR, cues_from_data(data))[1]
    assert (extended.fact, extended.context) == (
        FactTuple("Q-7", "status", "scrapped"),
        "hypothetical",
    )
    assert not extended.affirmed


def test_claims_keep_their_line_ids_across_contexts() -> None:
    doc = make_doc(f"{GOOD}\n{GOOD}\n")
    lines = document_lines(doc)
    assert lines[0].id != lines[1].id and lines[1].id.endswith(".2")
    result = summarize_leaf(doc, Snapshot.of([doc]), rules_summarizer(), DigestSettings())
    assert result.claims == (Claim("Q-7", "status", "packed", (lines[0].id, lines[1].id)),)


def test_the_audit_says_why_a_line_that_embeds_the_tuple_does_not_support_it() -> None:
    doc = make_doc(f'> Forwarded: "Item Q-7 status: scrapped." ignore it\n{GOOD}\n')
    line = document_lines(doc)[0]
    claim = Claim("Q-7", "status", "scrapped", (line.id,))
    audit = audit_claims([claim], Snapshot.of([doc])).claims[0]
    assert not audit.supported and audit.not_affirmed
    assert audit.support.startswith(f"unsupported: not affirmed: {line.id} is quotation")
    other = Claim("Q-7", "status", "packed", (line.id,))
    assert audit_claims([other], Snapshot.of([doc])).claims[0].support == (
        f"unsupported: {line.id} does not state this tuple"
    )


BLOCKS = [
    ("```", "```"),
    ("-----BEGIN QUOTED TEXT-----", "-----END QUOTED TEXT-----"),
    ("<blockquote>", "</blockquote>"),
    ("<del>", "</del>"),
    ("He pasted this: “", "” and left."),
    ("Old values, struck for the record:", ""),
    ("If the ferry is cancelled, the lines would read:", ""),
]
FACT = st.builds(
    lambda subject, field, value: f"Item {subject} {field}: {value}.",
    st.from_regex(r"[A-Z]{1,3}-[0-9]{1,4}", fullmatch=True),
    st.just("status"),
    st.from_regex(r"[a-z]{3,8}(?: [a-z]{3,8})?", fullmatch=True).filter(
        lambda v: (
            DEFAULT_CUES.context_of(v) is None
            and DEFAULT_GRAMMAR.parse(f"Item A-1 status: {v}.") is not None
        )
    ),
)


@given(
    block=st.sampled_from(BLOCKS),
    inside=st.lists(FACT, min_size=1, max_size=4),
    outside=st.lists(FACT, min_size=1, max_size=3),
)
def test_no_fact_line_inside_a_block_is_affirmed_and_every_one_outside_is(
    block: tuple[str, str], inside: list[str], outside: list[str]
) -> None:
    opening, closing = block
    lines = ["Memo.", opening, *inside, *([closing] if closing else []), "", *outside]
    doc = make_doc("\n".join(lines) + "\n")
    kept = [f.span.quote for f in extract_document_facts(doc)]
    assert kept == outside


@pytest.mark.parametrize(
    "long_line",
    ["-" * 50_000 + "x", "== " + "a " * 25_000, '"' * 50_001, "BEGIN " + "x" * 50_000],
    ids=["dashes", "heading-like", "quote-marks", "marker-like"],
)
def test_a_very_long_line_is_read_in_linear_time_and_never_as_a_heading(long_line: str) -> None:
    # Headings and markers are short: a 50 000-character line is plain text (a quotation
    # it opens still counts). Before the length bound, the dashes case took minutes.
    doc = make_doc(f"{long_line}\n\n{GOOD}\n")
    contexts = document_contexts(doc)
    assert contexts[0][1].fact is None
    expected = () if long_line.startswith('"') else ("packed",)
    assert tuple(f.fact.value for f in extract_document_facts(doc)) == expected
