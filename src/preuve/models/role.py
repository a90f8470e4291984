"""A role, declared once, and the one driver that runs it.

A :class:`Role` is everything about one step a model (or the rules engine) performs: the
task name, how its input renders into messages (``render``), the answer's JSON Schema
(``schema``: the one sent, which may name the ids the input allows as an ``enum``; answers
are parsed with ``answer_schema`` when a general one gives better diagnostics), the check
in code that turns a parsed answer into a value and defects (``check``), and the rules
implementation (``rules``), which works from the *rendered messages*, the very input a
model sees. ``Request.payload`` carries only configuration a user gives (a dossier's
lexicon extension, a digest's grammar), never part of the task (``docs/architecture.md``).

The driver is :func:`preuve.models.loop.verification_flow`: ask, parse, check, re-ask once
with the defects, then accept, keep what verified (a check may return a value *and*
defects: partial acceptance, the value of the last answer that parsed is
:attr:`LoopResult.partial`) or refuse. :meth:`Role.flow` gives it for one input (the
synthesis pipeline sends many flows at once); :meth:`Role.ask` drives it against a model.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from preuve.core.jsonout import parse_model_json
from preuve.models.base import Completion, Message, Model, Request
from preuve.models.loop import (
    Checked,
    LoopResult,
    VerificationFlow,
    ask_verified,
    verification_flow,
)
from preuve.models.rules import RulesHandler

__all__ = ["Role", "RoleOptions", "checked_answer"]

In = TypeVar("In")  # the input type of a role
Out = TypeVar("Out")  # the value its check accepts


def checked_answer(
    completion: Completion, schema: Mapping[str, Any], check: Callable[[Any], Checked[Out]]
) -> Checked[Out]:
    """Parse an answer strictly against ``schema`` (the one place answers are parsed), then
    ``check`` the parsed value."""
    parsed = parse_model_json(completion.text, schema, finish_reason=completion.finish_reason)
    return check(parsed.value) if parsed.ok else Checked.reject(*parsed.defects)


@dataclass(frozen=True, slots=True)
class RoleOptions:
    """Per-input request settings (a digest's generation parameters, the progress label)."""

    max_new_tokens: int | None = None
    temperature: float | None = None
    seed: int | None = None
    subject: str = ""
    payload: Mapping[str, Any] = field(default_factory=dict)
    reask: bool | None = None


@dataclass(frozen=True, slots=True)
class Role(Generic[In, Out]):
    """One role, declared once (see the module docstring)."""

    task: str
    render: Callable[[In], Sequence[Message]]
    schema: Callable[[In], Mapping[str, Any]]
    check: Callable[[In, Any], Checked[Out]]
    rules: RulesHandler
    max_new_tokens: int = 384
    reask: bool = True
    answer_schema: Callable[[In], Mapping[str, Any]] | None = None
    options: Callable[[In], RoleOptions] | None = None

    def request(self, given: In) -> Request:
        """The request for ``given``: its rendered messages and the schema sent."""
        opts = self.options(given) if self.options is not None else RoleOptions()
        return Request(
            messages=tuple(self.render(given)),
            task=self.task,
            subject=opts.subject,
            payload=opts.payload,
            response_schema=self.schema(given),
            max_new_tokens=opts.max_new_tokens or self.max_new_tokens,
            temperature=0.0 if opts.temperature is None else opts.temperature,
            seed=0 if opts.seed is None else opts.seed,
        )

    def checker(self, given: In) -> Callable[[Completion], Checked[Out]]:
        """Parse an answer strictly (:func:`checked_answer`), then check it for ``given``."""
        schema = (self.answer_schema or self.schema)(given)

        def check(completion: Completion) -> Checked[Out]:
            return checked_answer(completion, schema, lambda value: self.check(given, value))

        return check

    def reasks(self, given: In) -> bool:
        opts = self.options(given) if self.options is not None else RoleOptions()
        return self.reask if opts.reask is None else opts.reask

    def flow(self, given: In, request: Request | None = None) -> VerificationFlow[Out]:
        """The driver for ``given`` (sans-I/O): yields requests, returns the result."""
        sent = request if request is not None else self.request(given)
        return verification_flow(sent, self.checker(given), reask=self.reasks(given))

    def ask(self, model: Model, given: In, request: Request | None = None) -> LoopResult[Out]:
        """Run the driver against ``model``: ask, check, re-ask once, keep or refuse."""
        sent = request if request is not None else self.request(given)
        return ask_verified(model, sent, self.checker(given), reask=self.reasks(given))
