"""The seam every backend implements: one request in, one completion out.

A backend implements :class:`Model`: an ``identity`` (what cache keys and journals record)
and one method, ``complete``. Budgets, journaling, retries, replay and re-asks wrap that
method; a workflow only ever holds a ``Model``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

__all__ = [
    "Completion",
    "FinishReason",
    "Message",
    "Model",
    "ModelIdentity",
    "Request",
    "messages_of",
    "request_hash",
    "wrapped_models",
]

Role = Literal["system", "user", "assistant"]
FinishReason = Literal["stop", "length", "error"]


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    content: str
    # Read by pydantic at the I/O edge (preuve.io.records): an unknown key is refused.
    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}


@dataclass(frozen=True, slots=True)
class Request:
    """What a role asks a model.

    ``task`` names the role's step (e.g. ``"memo.reader"``). Every backend, the ``rules``
    engine included, reads its input from ``messages`` (:mod:`preuve.models.role`).
    ``payload`` holds only configuration a user gives the rules engine (a dossier's lexicon
    extension, a digest's own grammar; ``docs/architecture.md``, "Role"), never part of the
    task: a rules implementation reads the task from the messages. ``subject`` names
    what the request is about (a company, a document) for progress lines; no backend reads
    it. ``response_schema`` is a JSON Schema the answer must follow, sent to endpoints that
    support structured output.
    """

    messages: tuple[Message, ...]
    task: str = ""
    subject: str = ""
    payload: Mapping[str, Any] = field(default_factory=dict)
    response_schema: Mapping[str, Any] | None = None
    max_new_tokens: int = 384
    temperature: float = 0.0
    seed: int = 0


@dataclass(frozen=True, slots=True)
class Completion:
    text: str
    finish_reason: FinishReason
    prompt_tokens: int
    generated_tokens: int
    token_ids: tuple[int, ...] | None = None
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class ModelIdentity:
    """Everything about a model that changes its output; part of every cache key."""

    backend: str
    name: str
    tokenizer: str = ""
    version: str = ""
    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}  # see Message

    def label(self) -> str:
        return f"{self.backend}:{self.name}" if self.name else self.backend

    def engine(self) -> str:
        """What every output says produced it: ``rules`` for the deterministic engine (never
        passed off as an LLM), else ``backend:name``."""
        return "rules" if self.backend == "rules" else self.label()


@runtime_checkable
class Model(Protocol):
    """One small seam: a request in, a completion out."""

    @property
    def identity(self) -> ModelIdentity: ...

    def complete(self, request: Request) -> Completion: ...


def request_hash(request: Request, identity: ModelIdentity | None = None) -> str:
    """A stable SHA-256 of everything that determines the answer (for replay and journal)."""
    body: dict[str, Any] = {
        "messages": [[m.role, m.content] for m in request.messages],
        "task": request.task,
        "schema": request.response_schema,
        "max_new_tokens": request.max_new_tokens,
        "temperature": request.temperature,
        "seed": request.seed,
    }
    if identity is not None:
        body["model"] = [identity.backend, identity.name, identity.tokenizer, identity.version]
    raw = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def messages_of(pairs: Sequence[tuple[Role, str]]) -> tuple[Message, ...]:
    """Build a message tuple from (role, content) pairs."""
    return tuple(Message(role, content) for role, content in pairs)


def wrapped_models(model: object) -> Iterator[object]:
    """``model``, then each model it wraps, outermost first.

    Wrappers (journal, budget, recording, pool limits) expose the model they wrap as
    ``inner``; a cycle of wrappers ends the walk instead of looping forever.
    """
    seen: set[int] = set()
    current: object | None = model
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = getattr(current, "inner", None)
