"""How each role's deterministic implementation plugs in as a :class:`Model`.

The rules engine is the offline default: every role has a handler (the ``rules`` of its
:class:`~preuve.models.role.Role`) that reads the request's rendered messages, the input a
model is given (never gold labels; ``payload`` only for a user's configuration), and returns
the JSON text an LLM would have returned, checked by the same verifiers. Its
identity says ``rules`` so no output can pass it off as an LLM's; ``version`` is the code
version of the handlers, so caches built by older rules are told apart.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType

from preuve.core.errors import ConfigError
from preuve.models.base import Completion, ModelIdentity, Request
from preuve.models.scripted import estimated_completion

__all__ = ["RulesHandler", "RulesModel"]

RulesHandler = Callable[[Request], str]


class RulesModel:
    """Dispatches each request to the handler registered for its ``task``."""

    def __init__(self, handlers: Mapping[str, RulesHandler], *, version: str) -> None:
        if not version:
            raise ValueError("a rules model needs a code version (it is part of cache keys)")
        # A read-only copy: the set of tasks is fixed once the model exists.
        self._handlers: Mapping[str, RulesHandler] = MappingProxyType(dict(handlers))
        self._identity = ModelIdentity(backend="rules", name="rules", version=version)

    @property
    def identity(self) -> ModelIdentity:
        return self._identity

    @property
    def tasks(self) -> tuple[str, ...]:
        return tuple(sorted(self._handlers))

    def complete(self, request: Request) -> Completion:
        handler = self._handlers.get(request.task)
        if handler is None:
            known = ", ".join(self.tasks) or "none"
            raise ConfigError(
                f"the rules engine has no implementation for task {request.task!r}"
                f" (known tasks: {known})",
                fix="use a task the rules engine implements, or choose an LLM with --model",
            )
        started = time.perf_counter()
        text = handler(request)
        completion = estimated_completion(request, text)
        return replace(completion, seconds=time.perf_counter() - started)
