"""Held-out: sub-agent answers whose quotes are invented, paraphrased or glued together,
against the held-out synthesis dossiers (measured, not tuned on).

Every sub-agent of a run answers as the rules engine does, plus up to three corrupted
statements built from its own answer (so nothing here knows a dossier's wording): a
sentence its document does not hold with a value it never states, a real passage with one
inner word left out, and two passages of one document glued together. Each must be refused
by the quote check, re-asked once, dropped and counted; every statement of the rules answer
stays verified, and the run stays VALID with the refusals listed under its limits.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from preuve.core.quotes import QuoteChecker
from preuve.eval.synthesis_eval import heldout_dossiers
from preuve.loaders import load_dossier
from preuve.models import FunctionModel, LoopStatus
from preuve.models.base import Request
from preuve.synthesis.pipeline import synthesize
from preuve.synthesis.subagent import SUBAGENT_TASK, rendered_documents
from tests.heldout.rules_cache import CachedRules, dossier_group

HERE = Path(__file__).parent / "synthesis"
DOSSIERS = heldout_dossiers(HERE)
Statement = dict[str, Any]


def _corrupt(value: str, statement: Statement, quote: str) -> Statement:
    source = {**statement["sources"][0], "value": value, "quote": quote}
    return {**statement, "value": value, "text": quote, "sources": [source]}


def invented(statements: list[Statement], texts: dict[str, str]) -> Statement | None:
    """A sentence the document does not hold, with a value it never states."""
    first = statements[0]
    return _corrupt("MIT", first, f"{first['subject']} is released under the MIT licence.")


def paraphrased(statements: list[Statement], texts: dict[str, str]) -> Statement | None:
    """A real passage with one inner word (not of the value) left out."""
    for statement in statements:
        words = statement["sources"][0]["quote"].split()
        keep = set(statement["value"].split())
        inner = [i for i in range(1, len(words) - 1) if words[i] not in keep and len(words[i]) > 3]
        if len(words) >= 6 and inner:
            cut = inner[len(inner) // 2]
            return _corrupt(statement["value"], statement, " ".join(words[:cut] + words[cut + 1 :]))
    return None


def glued(statements: list[Statement], texts: dict[str, str]) -> Statement | None:
    """Two passages of one document with text between them, glued into one quote."""
    located = []
    for statement in statements:
        doc_id, quote = statement["sources"][0]["doc_id"], statement["sources"][0]["quote"]
        span = QuoteChecker([texts[doc_id]]).find(quote)
        if span.verified and span.start is not None and span.end is not None:
            located.append((doc_id, span.start, span.end, statement))
    for doc_a, _, end_a, a in located:
        for doc_b, start_b, _, b in located:
            # text between them, not only punctuation (a quote's span leaves its final period
            # out: "A. B" is a contiguous passage, not a glued one)
            gap = texts[doc_a][end_a:start_b]
            if doc_a == doc_b and start_b > end_a and re.search(r"\w", gap):
                glue = f"{a['sources'][0]['quote']} {b['sources'][0]['quote']}"
                return _corrupt(a["value"], a, glue)
    return None


CASES = (invented, paraphrased, glued)


class Corrupting:
    """The rules engine, whose sub-agents each add corrupted statements to their answer;
    records what it added and how many statements the rules answer had, per sub-task."""

    def __init__(self) -> None:
        self.rules = CachedRules()
        self.added: dict[str, dict[str, str]] = {}  # sub-task -> case -> quote
        self.clean: dict[str, int] = {}
        self.lock = threading.Lock()

    def answer(self, request: Request) -> str:
        text = self.rules.complete(request).text
        if request.task != SUBAGENT_TASK:
            return text
        data = json.loads(text)
        single = [s for s in data["statements"] if len(s["sources"]) == 1]
        task = str(request.subject)
        texts = {d["id"]: d["text"] for d in rendered_documents(request)}
        extra = {case.__name__: case(single, texts) for case in CASES} if single else {}
        added = {name: s for name, s in extra.items() if s is not None}
        with self.lock:
            self.added[task] = {name: s["sources"][0]["quote"] for name, s in added.items()}
            self.clean[task] = len(data["statements"])
        data["statements"] += list(added.values())
        return json.dumps(data, ensure_ascii=False)


# Known misses of issues 13/15 (open), kept visible: on these blind dossiers the rules
# sub-agent itself quotes a table row or a bare amount that the quote check refuses (the
# statement is dropped and counted, as it must be; the engine should quote better).
# en-grid-storage's (a space-aligned table row "0.5C  86.9  3", 11 characters) passes now: a row
# too short to be checked is quoted with the line(s) above it.
# en-eprescribing's (a header's condition "timeouts (>10 s)" read as the cells' unit, and a
# dotted leader line "Training ...... $9,600.00" cut at its dots) pass too.
# eclairage-led-saint-aurel-fr (s24, a blind writer's, never tuned on): the rules sub-agent
# quotes a datasheet bullet "Die-cast aluminium, IP66, IK10; 6.8 kg" for a weight, and the
# check refuses it (the statement is dropped and counted, as it must be).
# The ninth writer's two (s25, never tuned on) pass now (s26): the passages refused there
# were values read from a superscript ("² equals" in "1 mJ/cm² equals 10 J/m²"), and an
# exponent is no value.
# The eleventh writer's French one (s26, never tuned on): the rules sub-agent quotes a timing
# table's rows ("| 2 | 20/03 | 2 h 23 min | 839 doc./h | ...") for a rate, and the check
# refuses them.
# Both pass now (s27): a row numbered by its run is the row's condition, never glued to its
# value ("1 861 doc"), and a sentence too short to be checked ("6.8 kg" after a ";") is
# quoted with what precedes it on its line.
# The thirteenth writer's two (s27, never tuned on) on arrival: the rules sub-agent quotes a
# quote's line-item rows ("| 5 | Removal and disposal of two old machines | 1 | 800.00 |") and
# a bare heading ("### Corrigé"), and the check refuses them. The English one passes after the
# s27 merges (a row numbered by its run is the row's condition); the French one's heading stays.
# The French one's passes now (s28): a heading is never a quote (nor the state of an advisory
# named just before it), and a document's last state ("Résolu.") is quoted with its line.
RULES_QUOTES_REFUSED: frozenset[str] = frozenset()


@pytest.mark.parametrize(
    "folder",
    [
        pytest.param(
            d,
            marks=[
                pytest.mark.xfail(
                    d.name in RULES_QUOTES_REFUSED,
                    reason="issues 13/15: the rules sub-agent quotes table rows the check refuses",
                    strict=True,
                ),
                dossier_group(d.name),
            ],
        )
        for d in DOSSIERS
    ],
    ids=[d.name for d in DOSSIERS],
)
def test_invented_paraphrased_and_glued_quotes_are_refused_and_counted(folder: Path) -> None:
    corrupting = Corrupting()
    run = synthesize(load_dossier(folder), FunctionModel(corrupting.answer, name="corrupting"))
    added = {(t, q): case for t, cases in corrupting.added.items() for case, q in cases.items()}
    refused = {
        (f.subtask_id, r.statement.sources[0].quote): r.defects[0].code
        for f in run.findings
        for r in f.refused
    }
    by_case = {case: sum(1 for c in added.values() if c == case) for case in ("invented",
               "paraphrased", "glued")}  # fmt: skip
    print(f"\n{folder.name}: {len(refused)}/{len(added)} corrupted quotes refused", by_case)
    assert by_case["invented"] and by_case["paraphrased"] and by_case["glued"]
    assert set(refused) == set(added)  # every corrupted statement, and nothing else
    assert set(refused.values()) == {"quote_not_found"}
    assert run.statements_refused == len(added)
    for finding in run.findings:  # every statement of the rules answer stays verified
        assert len(finding.statements) == corrupting.clean[finding.subtask_id]
    assert run.status is LoopStatus.VALID
    assert sum("refused: its quote failed" in line for line in run.limits.lines()) == len(added)
