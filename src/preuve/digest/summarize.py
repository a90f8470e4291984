"""The two summarizer roles, map (one document) and reduce (children's claims), and their checks.

A leaf is shown its document's line catalogue (every non-empty line with its evidence id)
and may cite only those ids. A reduce is shown its children's claims with the lines they
cite, and may cite only evidence its children cite. Every answer is parsed strictly
(:data:`~preuve.digest.schema.CLAIMS_SCHEMA`, two declared repairs only) and every cited
id is re-validated against the current snapshot. Any defect makes the whole answer
INVALID: it is kept whole with its diagnostic and gives zero usable claims.

Budgets are checked before the call (map input ≤ 2048 tokens, reduce ≤ 3072, counted with
the chat template; the 384 output tokens must also fit the 32768-token context). A model
that declares its context window sizes them (:meth:`DigestSettings.sized_for`): the context
is its window and no input budget exceeds the window less the answer's room, so no request
exceeds the model's context. An input over budget is never truncated: the node is INVALID
and no call is made (a document is one leaf: one too long for the window is not split).
A withdrawn or revoked document is INELIGIBLE: nothing of it is sent to any model.

One call per node, no re-ask by default. The shared loop (:func:`ask_verified`) is used
with ``reask=False`` because SPEC workflow 3 makes INVALID a terminal, cached status and
its reference figures count exactly one call per recomputed node (140 and 900); a re-ask
would change every call count and tie a node's output to two generations. It can be
switched on (:attr:`DigestSettings.reask`), which changes the code version in the keys.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from preuve.core.defects import Defect
from preuve.core.documents import Document, Snapshot
from preuve.core.errors import BudgetError
from preuve.core.jsonout import parse_model_json
from preuve.core.stated import unstated
from preuve.digest.grammar import DEFAULT_GRAMMAR, FactGrammar
from preuve.digest.keys import CODE_VERSION, Budgets, GenerationParams, KeySettings, result_digest
from preuve.digest.lines import LineResolver, LineSpan, line_catalogue
from preuve.digest.schema import (
    MAP_PROMPT,
    REDUCE_PROMPT,
    TASK_MAP,
    TASK_REDUCE,
    Claim,
    NodeStatus,
    claims_schema,
)
from preuve.models.base import Completion, Message, Model, ModelIdentity, Request
from preuve.models.budget import check_budget, context_window_of
from preuve.models.loop import Attempt, Checked, LoopStatus, ask_verified

__all__ = [
    "ChildSummary",
    "DigestSettings",
    "NodeResult",
    "claims_digest",
    "map_request",
    "node_digest",
    "reduce_request",
    "summarize_leaf",
    "summarize_reduce",
]

_Accepted = tuple[tuple[Claim, ...], tuple[LineSpan, ...]]


@dataclass(frozen=True, slots=True)
class DigestSettings:
    """Everything a digest build needs besides documents, model and principal."""

    map_prompt: str = MAP_PROMPT
    reduce_prompt: str = REDUCE_PROMPT
    fan_in: int = 4
    generation: GenerationParams = field(default_factory=GenerationParams)
    budgets: Budgets = field(default_factory=Budgets)
    chunking: str = "whole-document"
    code_version: str = CODE_VERSION
    reask: bool = False
    grammar: FactGrammar = DEFAULT_GRAMMAR

    @property
    def schema(self) -> Mapping[str, Any]:
        """The answer schema: the claim fields are the grammar's."""
        return claims_schema(self.grammar.fields)

    def sized_for(self, model: object) -> DigestSettings:
        """These settings with budgets that fit ``model``'s context window when it declares
        one (:func:`~preuve.models.budget.context_window_of`): the context is the window,
        each input budget at most the window less the answer's room. The sized budgets
        enter the cache keys, so a node judged against one window is not served under
        another. A model without a declared window keeps the budgets as set."""
        window = context_window_of(model)
        if window is None:
            return self
        room = window - self.generation.max_new_tokens
        if room <= 0:
            raise BudgetError(
                f"the model's context window ({window} tokens) leaves no room for a prompt"
                f" with {self.generation.max_new_tokens} new tokens",
                fix="use a model with a larger context window",
            )
        b = self.budgets
        sized = Budgets(min(b.map_input, room), min(b.reduce_input, room), min(b.context, window))
        return self if sized == b else replace(self, budgets=sized)

    def key_settings(self, identity: ModelIdentity, principal: str) -> KeySettings:
        """The functional inputs that enter cache keys (re-asking changes the transformation)."""
        code = f"{self.code_version}+reask" if self.reask else self.code_version
        return KeySettings(
            model=identity,
            map_prompt=self.map_prompt,
            reduce_prompt=self.reduce_prompt,
            principal=principal,
            code_version=code,
            generation=self.generation,
            chunking=self.chunking,
            budgets=self.budgets,
            grammar=self.grammar.digest,
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "map_prompt": self.map_prompt,
            "reduce_prompt": self.reduce_prompt,
            "fan_in": self.fan_in,
            "generation": self.generation.as_dict(),
            "budgets": {
                "map_input": self.budgets.map_input,
                "reduce_input": self.budgets.reduce_input,
                "context": self.budgets.context,
            },
            "chunking": self.chunking,
            "code_version": self.code_version,
            "reask": self.reask,
            "grammar": self.grammar.digest,
        }


@dataclass(frozen=True, slots=True)
class NodeResult:
    """What computing one node produced; ``attempts`` are the model calls, kept whole.

    ``reusable`` is False when a backend error made the node INVALID: that says nothing
    about the inputs, so such a result is recorded but never served from the cache.
    """

    status: NodeStatus
    claims: tuple[Claim, ...] = ()
    spans: tuple[LineSpan, ...] = ()
    diagnostic: tuple[str, ...] = ()
    attempts: tuple[Attempt, ...] = field(default=(), repr=False)
    reusable: bool = True

    @property
    def calls(self) -> int:
        return len(self.attempts)

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self._completions())

    @property
    def generated_tokens(self) -> int:
        return sum(c.generated_tokens for c in self._completions())

    @property
    def token_ids(self) -> tuple[int, ...] | None:
        """Generated token ids of the last answer, when the backend gives them."""
        done = self._completions()
        return done[-1].token_ids if done else None

    @property
    def digest(self) -> str:
        return node_digest(self.status, self.claims, self.spans)

    def _completions(self) -> list[Completion]:
        return [a.completion for a in self.attempts if a.completion is not None]


class ChildSummary(Protocol):
    """What a reduce reads of each child (a :class:`NodeResult` or a stored outcome)."""

    @property
    def status(self) -> NodeStatus: ...

    @property
    def claims(self) -> tuple[Claim, ...]: ...

    @property
    def spans(self) -> tuple[LineSpan, ...]: ...


def node_digest(status: NodeStatus, claims: Sequence[Claim], spans: Sequence[LineSpan]) -> str:
    """Digest of what a parent reads of a node: status, claims, and each cited id with its line.

    Offsets, versions and text hashes are left out on purpose: a parent's prompt shows
    content-based ids and lines only, so an edit of a line nobody cites (even one shifting
    every later offset) leaves the parent's input, and so its key, unchanged.
    """
    return claims_digest(status.value, claims, {span.id: span.quote for span in spans})


def claims_digest(status: str, claims: Sequence[Claim], quotes: Mapping[str, object]) -> str:
    """:func:`node_digest` from plain parts (``quotes``: evidence id -> cited line)."""
    data = [
        {
            "subject": claim.subject,
            "field": claim.field,
            "value": claim.value,
            "evidence": [{"id": e, "quote": quotes.get(e)} for e in claim.evidence],
        }
        for claim in claims
    ]
    return result_digest(status, data)


def _request(
    system: str,
    user: str,
    task: str,
    payload: Mapping[str, Any],
    settings: DigestSettings,
    *,
    evidence_ids: Sequence[str],
) -> Request:
    # The schema sent names the ids this node may cite (an enum a constrained decoder cannot
    # leave); answers are parsed with the general one, so that an id outside it gets its own
    # diagnostic (``evidence_not_allowed``) rather than a schema error.
    gen = settings.generation
    return Request(
        messages=(Message("system", system), Message("user", user)),
        task=task,
        payload=payload,
        response_schema=claims_schema(settings.grammar.fields, evidence_ids),
        max_new_tokens=gen.max_new_tokens,
        temperature=gen.temperature,
        seed=gen.seed,
    )


def map_request(doc: Document, settings: DigestSettings) -> Request:
    """The map request for ``doc``: its line catalogue, as text and as payload.

    The version number is not shown: what the model reads is the document's content, so a
    byte-identical re-upload is the same request (and the same cache key).
    """
    catalogue = line_catalogue([doc])
    fields = settings.grammar.data["fields"]
    named = "; ".join(
        f"{name} (written {', '.join(spec.get('labels', [name]))})" for name, spec in fields.items()
    )
    labels = settings.grammar.data["subject"].get("labels", [])
    subjects = (
        f" Subject labels: {', '.join(labels)} (a subject is the id after its label)."
        if labels
        else ""
    )
    user = (
        f"Document {doc.doc_id}. Fields: {named}.{subjects} Each line below is one piece of "
        f"evidence, written as [evidence id] text.\n\n{catalogue.render()}"
    )
    payload = {
        "doc_id": doc.doc_id,
        "lines": [
            {"id": span.id, "text": span.quote, "after_blank": span.after_blank}
            for span in catalogue
        ],
        "grammar": dict(settings.grammar.data),
    }
    ids = [span.id for span in catalogue]
    return _request(settings.map_prompt, user, TASK_MAP, payload, settings, evidence_ids=ids)


def reduce_request(children: Sequence[ChildSummary], settings: DigestSettings) -> Request:
    """The reduce request: each child's status and usable claims, with the lines they cite."""
    shown: list[dict[str, Any]] = []
    payload: list[dict[str, Any]] = []
    for number, child in enumerate(children, start=1):
        claims = child.claims if child.status.usable else ()
        quotes = {span.id: span.quote for span in child.spans}
        shown.append(
            {
                "child": number,
                "status": child.status.value,
                "claims": [
                    {
                        **claim.as_dict(),
                        "evidence": [{"id": e, "line": quotes.get(e, "")} for e in claim.evidence],
                    }
                    for claim in claims
                ],
            }
        )
        payload.append({"status": child.status.value, "claims": [c.as_dict() for c in claims]})
    user = (
        "Claims of the child summaries, in order. Each evidence id is given with the line "
        f"it names.\n\n{json.dumps(shown, ensure_ascii=False, indent=1)}"
    )
    body = {"children": payload, "grammar": dict(settings.grammar.data)}
    cited = [span.id for child in children if child.status.usable for span in child.spans]
    return _request(settings.reduce_prompt, user, TASK_REDUCE, body, settings, evidence_ids=cited)


def _budget_defect(model: Model, request: Request, limit: int, budgets: Budgets) -> Defect | None:
    try:
        count = check_budget(model, request, limit)
    except BudgetError as err:
        return Defect("over_budget", err.one_line())
    # The model's own window (a declared one, through the runtime) may be the smaller.
    context = min(budgets.context, context_window_of(model) or budgets.context)
    if count + request.max_new_tokens > context:
        return Defect(
            "over_context",
            f"input of {count} tokens plus {request.max_new_tokens} reserved for the answer "
            f"exceeds the context of {context}; nothing was sent and nothing truncated",
        )
    return None


def _checker(
    allowed: Mapping[str, LineSpan], snapshot: Snapshot, scope: str, schema: Mapping[str, Any]
) -> Callable[[Completion], Checked[_Accepted]]:
    resolver = LineResolver(snapshot)

    def check(completion: Completion) -> Checked[_Accepted]:
        parsed = parse_model_json(completion.text, schema, finish_reason=completion.finish_reason)
        if not parsed.ok or not isinstance(parsed.value, dict):
            return Checked.reject(*parsed.defects)
        claims = tuple(Claim.from_mapping(item) for item in parsed.value["claims"])
        defects: list[Defect] = []
        spans: dict[str, LineSpan] = {}
        for i, claim in enumerate(claims):
            for j, evidence_id in enumerate(claim.evidence):
                where = f"claims[{i}].evidence[{j}]"
                if evidence_id not in allowed:
                    defects.append(
                        Defect(
                            "evidence_not_allowed", f"{evidence_id!r} is not {scope}", path=where
                        )
                    )
                    continue
                current = resolver.resolve(evidence_id)
                if not current.ok or current.line is None:
                    defects.append(
                        Defect(f"evidence_{current.status.value}", current.detail, path=where)
                    )
                elif current.line.quote != allowed[evidence_id].quote:
                    defects.append(
                        Defect("evidence_stale", f"{evidence_id}: the line changed", path=where)
                    )
                else:
                    spans.setdefault(evidence_id, current.line)
            cited = [allowed[e].quote for e in claim.evidence if e in allowed]
            why = unstated(claim.value, cited) if cited else None
            if why is not None:
                defects.append(Defect("value_not_stated", why, path=f"claims[{i}].value"))
        if defects:
            return Checked.reject(*defects)
        return Checked.accept((claims, tuple(spans.values())))

    return check


def _ask(
    model: Model,
    *,
    request: Request,
    allowed: Mapping[str, LineSpan],
    snapshot: Snapshot,
    settings: DigestSettings,
    scope: str,
) -> NodeResult:
    check = _checker(allowed, snapshot, scope, settings.schema)
    result = ask_verified(model, request, check, reask=settings.reask)
    attempts = result.attempts
    reusable = all(not a.error for a in attempts)
    if result.status is LoopStatus.VALID and result.value is not None:
        claims, spans = result.value
        return NodeResult(NodeStatus.VALID, claims, spans, (), attempts, reusable)
    diagnostic = tuple(d.render() for d in result.defects)
    return NodeResult(NodeStatus.INVALID, (), (), diagnostic, attempts, reusable)


def summarize_leaf(
    doc: Document, snapshot: Snapshot, model: Model, settings: DigestSettings
) -> NodeResult:
    """Summarize one whole document (its lines, unnormalized) with one model call."""
    if not doc.access.usable:
        why = "withdrawn" if not doc.access.active else "not eligible for this principal"
        return NodeResult(NodeStatus.INELIGIBLE, diagnostic=(f"{doc.doc_id} is {why}",))
    request = map_request(doc, settings)
    budgets = settings.sized_for(model).budgets
    over = _budget_defect(model, request, budgets.map_input, budgets)
    if over is not None:
        return NodeResult(NodeStatus.INVALID, diagnostic=(over.render(),))
    allowed = {span.id: span for span in line_catalogue([doc])}
    return _ask(
        model,
        request=request,
        allowed=allowed,
        snapshot=snapshot,
        settings=settings,
        scope="a line of this document",
    )


def summarize_reduce(
    children: Sequence[ChildSummary], snapshot: Snapshot, model: Model, settings: DigestSettings
) -> NodeResult:
    """Merge the children's claims with one model call; PARTIAL over an invalid child."""
    if children and all(child.status is NodeStatus.INELIGIBLE for child in children):
        return NodeResult(NodeStatus.INELIGIBLE, diagnostic=("every source below is ineligible",))
    if children and not any(child.status.usable for child in children):
        # nothing verified below: a model asked to merge no claim could only invent them
        return NodeResult(NodeStatus.INVALID, diagnostic=("no child summary is usable",))
    request = reduce_request(children, settings)
    budgets = settings.sized_for(model).budgets
    over = _budget_defect(model, request, budgets.reduce_input, budgets)
    if over is not None:
        return NodeResult(NodeStatus.INVALID, diagnostic=(over.render(),))
    allowed = {span.id: span for child in children if child.status.usable for span in child.spans}
    result = _ask(
        model,
        request=request,
        allowed=allowed,
        snapshot=snapshot,
        settings=settings,
        scope="cited by a child summary",
    )
    degraded = any(c.status in (NodeStatus.INVALID, NodeStatus.PARTIAL) for c in children)
    if result.status is NodeStatus.VALID and degraded:
        return replace(result, status=NodeStatus.PARTIAL)
    return result
