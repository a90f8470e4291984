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

Both are roles (:data:`MAP`, :data:`REDUCE`, one :class:`~preuve.models.role.Role` each);
their rules implementations read the line catalogue or the children's JSON back from the
prompt. One call per node, no re-ask by default: the one driver runs with ``reask=False``
because SPEC workflow 3 makes INVALID a terminal, cached status and its reference figures
count exactly one call per recomputed node (140 and 900); a re-ask would change every call
count and tie a node's output to two generations. It can be switched on
(:attr:`DigestSettings.reask`), which changes the code version in the keys."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol

from preuve.core.defects import Defect
from preuve.core.documents import Document, Snapshot
from preuve.core.errors import BudgetError
from preuve.core.stated import unstated
from preuve.digest.grammar import DEFAULT_GRAMMAR, FactGrammar
from preuve.digest.keys import CODE_VERSION, Budgets, GenerationParams, KeySettings, result_digest
from preuve.digest.lines import LineCatalogue, LineResolver, LineSpan, line_catalogue
from preuve.digest.rules_summarizer import (
    MAP_LINES_INTRO,
    REDUCE_INTRO,
    merge_child_claims,
    select_leaf_claims,
)
from preuve.digest.schema import (
    MAP_PROMPT,
    REDUCE_PROMPT,
    TASK_MAP,
    TASK_REDUCE,
    Claim,
    NodeStatus,
    claims_schema,
)
from preuve.io.records import dump_record
from preuve.models.base import Completion, Message, Model, ModelIdentity, Request
from preuve.models.budget import check_budget, context_window_of
from preuve.models.loop import Attempt, Checked, LoopResult, LoopStatus
from preuve.models.role import Role, RoleOptions

__all__ = [
    "ChildSummary",
    "DigestSettings",
    "NodeResult",
    "SettingsEntry",
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


@dataclass(frozen=True, slots=True, kw_only=True)
class SettingsEntry:
    """A build's settings as its run records them (``settings`` in the store): the
    grammar by its digest."""

    map_prompt: str
    reduce_prompt: str
    fan_in: int
    generation: GenerationParams
    budgets: Budgets
    chunking: str
    code_version: str
    reask: bool
    grammar: str

    @classmethod
    def of(cls, settings: DigestSettings) -> SettingsEntry:
        kept = {name: getattr(settings, name) for name in (f.name for f in fields(cls))}
        return cls(**(kept | {"grammar": settings.grammar.digest}))


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


@dataclass(frozen=True, slots=True)
class MapInput:
    """A leaf's input: one document, the snapshot its lines are checked against, and the
    document's line catalogue, read once (the prompt, the schema's ids and the check of the
    answer all list the same lines)."""

    doc: Document
    snapshot: Snapshot
    settings: DigestSettings
    lines: LineCatalogue = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", line_catalogue([self.doc]))


@dataclass(frozen=True, slots=True)
class ReduceInput:
    """A reduce's input: its children's summaries, in order."""

    children: tuple[ChildSummary, ...]
    snapshot: Snapshot
    settings: DigestSettings


def _options(settings: DigestSettings, subject: str = "") -> RoleOptions:
    gen = settings.generation
    # A dossier's own grammar is the rules engine's configuration (the prompt names its
    # fields and labels); the bundled one needs no payload at all.
    custom = settings.grammar.digest != DEFAULT_GRAMMAR.digest
    return RoleOptions(
        max_new_tokens=gen.max_new_tokens,
        temperature=gen.temperature,
        seed=gen.seed,
        subject=subject,
        payload={"grammar": dict(settings.grammar.data)} if custom else {},
        reask=settings.reask,
    )


def _render_map(given: MapInput) -> tuple[Message, ...]:
    """The document's line catalogue. The version number is not shown: what the model reads
    is the document's content, so a byte-identical re-upload is the same request (and the
    same cache key)."""
    fields = given.settings.grammar.data["fields"]
    named = "; ".join(
        f"{name} (written {', '.join(spec.get('labels', [name]))})" for name, spec in fields.items()
    )
    labels = given.settings.grammar.data["subject"].get("labels", [])
    subjects = (
        f" Subject labels: {', '.join(labels)} (a subject is the id after its label)."
        if labels
        else ""
    )
    user = (
        f"Document {given.doc.doc_id}. Fields: {named}.{subjects} {MAP_LINES_INTRO}\n\n"
        f"{given.lines.render()}"
    )
    return (Message("system", given.settings.map_prompt), Message("user", user))


def _render_reduce(given: ReduceInput) -> tuple[Message, ...]:
    """Each child's status and usable claims, with the lines they cite, as JSON."""
    shown: list[dict[str, Any]] = []
    for number, child in enumerate(given.children, start=1):
        claims = child.claims if child.status.usable else ()
        quotes = {span.id: span.quote for span in child.spans}
        shown.append(
            {
                "child": number,
                "status": child.status.value,
                "claims": [
                    {
                        **dump_record(claim),
                        "evidence": [{"id": e, "line": quotes.get(e, "")} for e in claim.evidence],
                    }
                    for claim in claims
                ],
            }
        )
    user = f"{REDUCE_INTRO}\n\n{json.dumps(shown, ensure_ascii=False, indent=1)}"
    return (Message("system", given.settings.reduce_prompt), Message("user", user))


def _map_allowed(given: MapInput) -> dict[str, LineSpan]:
    return {span.id: span for span in given.lines}


def _map_resolver(given: MapInput) -> LineResolver:
    resolver = LineResolver(given.snapshot)
    resolver.know(given.doc, given.lines)
    return resolver


def _reduce_allowed(given: ReduceInput) -> dict[str, LineSpan]:
    usable = [child for child in given.children if child.status.usable]
    return {span.id: span for child in usable for span in child.spans}


# The schema sent names the ids this node may cite (an enum a constrained decoder cannot
# leave); answers are parsed with the general one, so that an id outside it gets its own
# diagnostic (``evidence_not_allowed``) rather than a schema error.
MAP: Role[MapInput, _Accepted] = Role(
    task=TASK_MAP,
    render=_render_map,
    schema=lambda g: claims_schema(g.settings.grammar.fields, list(_map_allowed(g))),
    answer_schema=lambda g: g.settings.schema,
    check=lambda g, value: _check_claims(
        value, _map_allowed(g), _map_resolver(g), "a line of this document"
    ),
    rules=select_leaf_claims,
    options=lambda g: _options(g.settings, g.doc.doc_id),
)
REDUCE: Role[ReduceInput, _Accepted] = Role(
    task=TASK_REDUCE,
    render=_render_reduce,
    schema=lambda g: claims_schema(
        g.settings.grammar.fields,
        [s.id for c in g.children if c.status.usable for s in c.spans],
    ),
    answer_schema=lambda g: g.settings.schema,
    check=lambda g, value: _check_claims(
        value, _reduce_allowed(g), LineResolver(g.snapshot), "cited by a child summary"
    ),
    rules=merge_child_claims,
    options=lambda g: _options(g.settings),
)


def map_request(doc: Document, settings: DigestSettings) -> Request:
    """The map request for ``doc``: its line catalogue (:data:`MAP`)."""
    return MAP.request(MapInput(doc, Snapshot({}), settings))


def reduce_request(children: Sequence[ChildSummary], settings: DigestSettings) -> Request:
    """The reduce request: each child's status and usable claims, with the lines they cite."""
    return REDUCE.request(ReduceInput(tuple(children), Snapshot({}), settings))


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


def _check_claims(
    value: Any, allowed: Mapping[str, LineSpan], resolver: LineResolver, scope: str
) -> Checked[_Accepted]:
    """Every cited id allowed and current (in the resolver's snapshot), every value stated
    in the lines it cites; any defect refuses the whole answer."""
    if not isinstance(value, dict):
        return Checked.reject(Defect("schema", "the answer is not a JSON object"))
    claims = tuple(Claim.from_mapping(item) for item in value["claims"])
    defects: list[Defect] = []
    spans: dict[str, LineSpan] = {}
    for i, claim in enumerate(claims):
        for j, evidence_id in enumerate(claim.evidence):
            where = f"claims[{i}].evidence[{j}]"
            if evidence_id not in allowed:
                detail = f"{evidence_id!r} is not {scope}"
                defects.append(Defect("evidence_not_allowed", detail, path=where))
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


def _node(result: LoopResult[_Accepted]) -> NodeResult:
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
    given = MapInput(doc, snapshot, settings)
    request = MAP.request(given)
    budgets = settings.sized_for(model).budgets
    over = _budget_defect(model, request, budgets.map_input, budgets)
    if over is not None:
        return NodeResult(NodeStatus.INVALID, diagnostic=(over.render(),))
    return _node(MAP.ask(model, given, request))


def summarize_reduce(
    children: Sequence[ChildSummary], snapshot: Snapshot, model: Model, settings: DigestSettings
) -> NodeResult:
    """Merge the children's claims with one model call; PARTIAL over an invalid child."""
    if children and all(child.status is NodeStatus.INELIGIBLE for child in children):
        return NodeResult(NodeStatus.INELIGIBLE, diagnostic=("every source below is ineligible",))
    if children and not any(child.status.usable for child in children):
        # nothing verified below: a model asked to merge no claim could only invent them
        return NodeResult(NodeStatus.INVALID, diagnostic=("no child summary is usable",))
    given = ReduceInput(tuple(children), snapshot, settings)
    request = REDUCE.request(given)
    budgets = settings.sized_for(model).budgets
    over = _budget_defect(model, request, budgets.reduce_input, budgets)
    if over is not None:
        return NodeResult(NodeStatus.INVALID, diagnostic=(over.render(),))
    result = _node(REDUCE.ask(model, given, request))
    degraded = any(c.status in (NodeStatus.INVALID, NodeStatus.PARTIAL) for c in children)
    if result.status is NodeStatus.VALID and degraded:
        return replace(result, status=NodeStatus.PARTIAL)
    return result
