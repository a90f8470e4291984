"""The ``rules`` summarizer: map and reduce as deterministic handlers (engine: rules).

It reads the request's rendered messages (the line catalogue of a map, the children's JSON
of a reduce: exactly what a model is shown) and never gold labels, and answers JSON text
that goes through the same parsing and checks as an LLM's. A dossier's own grammar, when it
has one, is the only payload (configuration: the prompt names its fields and labels).

- **map** selects whole fact lines in the grammar
  (:mod:`preuve.digest.grammar`) that are affirmed in their context
  (:mod:`preuve.digest.affirm`: not inside a quotation, a struck entry, a hypothetical, a
  reported or negated claim, an archived instruction), reading the lines and the blank
  lines between them as the model sees them. One claim per field first (in the grammar's
  field order, each its first affirmed fact line), then the remaining ones in text order,
  up to 4 claims; a claim cites every affirmed line stating its exact tuple (up to 4).
- **reduce** keeps field diversity and source diversity: for each field in that order,
  the claim of the latest child (in reading order) that has one and has not given a claim
  yet; when every such child already gave one, the latest child's. Up to 4 claims, each
  citing exactly the evidence its child cited.

Token counts are the declared estimate (:mod:`preuve.models.budget`), so call and token
figures are comparable to an LLM's. Generated token ids are pseudo ids derived from the
answer text (one per estimated token, hash of that slice of text), so comparing two
builds' token ids compares their exact outputs.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from preuve.digest.affirm import line_contexts
from preuve.digest.grammar import DEFAULT_GRAMMAR, FactGrammar, FactTuple, grammar_from_data
from preuve.digest.schema import MAX_CLAIMS, MAX_EVIDENCE, TASK_MAP, TASK_REDUCE
from preuve.io.records import dump_record
from preuve.models.base import Completion, ModelIdentity, Request
from preuve.models.budget import CHARS_PER_TOKEN
from preuve.models.rules import RulesModel

__all__ = [
    "PSEUDO_TOKENIZER",
    "RULES_VERSION",
    "RulesSummarizer",
    "merge_child_claims",
    "pseudo_token_ids",
    "rules_summarizer",
    "select_leaf_claims",
]

RULES_VERSION = "digest-rules/2"
PSEUDO_TOKENIZER = f"preuve-pseudo/{CHARS_PER_TOKEN:g}"
# Same order of magnitude as a real vocabulary (Qwen2.5 has 151 643 regular tokens).
_VOCABULARY = 151_643


def pseudo_token_ids(text: str) -> tuple[int, ...]:
    """One id per estimated token: a hash of each ``CHARS_PER_TOKEN``-character slice."""
    count = math.ceil(len(text) / CHARS_PER_TOKEN)
    ids: list[int] = []
    for index in range(count):
        piece = text[
            math.floor(index * CHARS_PER_TOKEN) : math.floor((index + 1) * CHARS_PER_TOKEN)
        ]
        digest = hashlib.sha256(piece.encode("utf-8")).digest()
        ids.append(int.from_bytes(digest[:4], "big") % _VOCABULARY)
    return tuple(ids)


def _answer(claims: Sequence[Mapping[str, Any]]) -> str:
    # The spacing an LLM typically writes, so token estimates are realistic.
    return json.dumps({"claims": list(claims)}, ensure_ascii=False)


MAP_LINES_INTRO = "Each line below is one piece of evidence, written as [evidence id] text."
REDUCE_INTRO = (
    "Claims of the child summaries, in order. Each evidence id is given with the line it names."
)
_LINE = re.compile(r"\[(?P<id>[^\]\n]+)\] (?P<text>.*)")


def _user(request: Request) -> str:
    return next((m.content for m in request.messages if m.role == "user"), "")


def rendered_lines(request: Request) -> list[tuple[str, str, bool]]:
    """A map prompt's catalogue read back: ``(evidence id, line, after a blank line)``."""
    _, found, listing = _user(request).partition(f"{MAP_LINES_INTRO}\n\n")
    if not found:
        return []
    rows: list[tuple[str, str, bool]] = []
    gap = False
    for line in listing.split("\n"):
        match = _LINE.fullmatch(line)
        if match is None:
            gap = gap or line == ""
            continue
        rows.append((match["id"], match["text"], gap))
        gap = False
    return rows


def rendered_children(request: Request) -> list[list[Mapping[str, Any]]]:
    """A reduce prompt's children read back: each child's claims, each citing its ids."""
    _, found, body = _user(request).partition(f"{REDUCE_INTRO}\n\n")
    shown = json.loads(body) if found else []
    return [
        [
            {**claim, "evidence": [e["id"] for e in claim.get("evidence", [])]}
            for claim in child.get("claims", [])
            if isinstance(claim, Mapping)
        ]
        for child in shown
        if isinstance(child, Mapping)
    ]


def _grammar(request: Request) -> FactGrammar:
    data = request.payload.get("grammar")
    return DEFAULT_GRAMMAR if data is None else grammar_from_data(data, "the request's grammar")


def select_leaf_claims(request: Request) -> str:
    """Map: the document's affirmed fact lines, one per field first, at most 4 claims."""
    grammar = _grammar(request)
    rows = rendered_lines(request)
    contexts = line_contexts([(text, gap) for _, text, gap in rows], grammar)
    cited: dict[FactTuple, list[str]] = {}
    for (evidence_id, _, _), context in zip(rows, contexts, strict=True):
        if context.affirmed and context.fact is not None:
            cited.setdefault(context.fact, []).append(evidence_id)
    facts = list(cited)
    chosen: list[FactTuple] = []
    for field_name in grammar.fields:
        first = next((fact for fact in facts if fact.field == field_name), None)
        if first is not None:
            chosen.append(first)
    chosen.extend(fact for fact in facts if fact not in chosen)
    claims = [
        {**dump_record(fact), "evidence": cited[fact][:MAX_EVIDENCE]}
        for fact in chosen[:MAX_CLAIMS]
    ]
    return _answer(claims)


def merge_child_claims(request: Request) -> str:
    """Reduce: one claim per field, each from a different child when possible, latest first."""
    children = rendered_children(request)
    used: set[int] = set()
    chosen: list[Mapping[str, Any]] = []
    for field_name in _grammar(request).fields:
        candidates = [
            (index, claim)
            for index in reversed(range(len(children)))
            for claim in children[index]
            if claim.get("field") == field_name and claim not in chosen
        ]
        if not candidates:
            continue
        index, claim = next(((i, c) for i, c in candidates if i not in used), candidates[0])
        used.add(index)
        chosen.append(claim)
    return _answer([dict(claim) for claim in chosen[:MAX_CLAIMS]])


class RulesSummarizer:
    """The rules engine for the digest roles, with pseudo token ids on every completion."""

    def __init__(self) -> None:
        self.inner = RulesModel(
            {TASK_MAP: select_leaf_claims, TASK_REDUCE: merge_child_claims},
            version=RULES_VERSION,
        )
        self._identity = ModelIdentity(
            backend="rules", name="rules", tokenizer=PSEUDO_TOKENIZER, version=RULES_VERSION
        )

    @property
    def identity(self) -> ModelIdentity:
        return self._identity

    def complete(self, request: Request) -> Completion:
        completion = self.inner.complete(request)
        return replace(completion, token_ids=pseudo_token_ids(completion.text))


def rules_summarizer() -> RulesSummarizer:
    """A fresh rules summarizer (no shared state: every caller gets its own)."""
    return RulesSummarizer()
