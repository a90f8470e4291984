"""Test doubles shipped with preuve, for its tests and for users' own.

:class:`ScriptedModel` answers from a queue (a text, a whole :class:`Completion`, or an
exception to raise) and records every request it was asked. :class:`FunctionModel`
answers with a function of the request. Both are deterministic and do no I/O; token
counts of plain-text answers are the declared estimate (see :mod:`preuve.models.budget`).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable

from preuve.models.base import Completion, ModelIdentity, Request
from preuve.models.budget import (
    EstimatedCompletion,
    EstimatingCounter,
    estimate_text_tokens,
)

__all__ = [
    "Answer",
    "FunctionModel",
    "ScriptExhaustedError",
    "ScriptedModel",
    "estimated_completion",
]

Answer = str | Completion | BaseException


class ScriptExhaustedError(LookupError):
    """The script has no answer left: the test asked more than it planned.

    Deliberately not a :class:`preuve.core.errors.ModelError`, so a re-ask loop cannot
    mistake a mistake in the test for a backend failure.
    """


def estimated_completion(request: Request, text: str) -> Completion:
    """A stopped completion of ``text`` with estimated token counts."""
    return EstimatedCompletion(
        text=text,
        finish_reason="stop",
        prompt_tokens=EstimatingCounter().count_prompt_tokens(request.messages),
        generated_tokens=estimate_text_tokens(text),
    )


def _answer(request: Request, answer: str | Completion) -> Completion:
    return estimated_completion(request, answer) if isinstance(answer, str) else answer


class ScriptedModel:
    """Answers from a queue, in order; records every request in ``requests``."""

    def __init__(self, answers: Iterable[Answer] = (), *, name: str = "scripted") -> None:
        self._answers: deque[Answer] = deque(answers)
        self._lock = threading.Lock()
        self.requests: list[Request] = []
        self._identity = ModelIdentity(backend="scripted", name=name)

    @property
    def identity(self) -> ModelIdentity:
        return self._identity

    @property
    def remaining(self) -> int:
        return len(self._answers)

    def add(self, *answers: Answer) -> None:
        """Append answers to the end of the queue."""
        with self._lock:
            self._answers.extend(answers)

    def complete(self, request: Request) -> Completion:
        with self._lock:
            self.requests.append(request)
            number = len(self.requests)
            answer = self._answers.popleft() if self._answers else None
        if answer is None:
            task = f" (task {request.task!r})" if request.task else ""
            raise ScriptExhaustedError(
                f"scripted model {self._identity.name!r} has no answer left for request"
                f" {number}{task}: it was given {number - 1}; add answers to the script"
            )
        if isinstance(answer, BaseException):
            raise answer
        return _answer(request, answer)


class FunctionModel:
    """Answers with ``function(request)``; records every request in ``requests``."""

    def __init__(
        self, function: Callable[[Request], str | Completion], *, name: str | None = None
    ) -> None:
        self._function = function
        self._lock = threading.Lock()
        self.requests: list[Request] = []
        label = name if name is not None else getattr(function, "__name__", "function")
        self._identity = ModelIdentity(backend="function", name=label)

    @property
    def identity(self) -> ModelIdentity:
        return self._identity

    def complete(self, request: Request) -> Completion:
        with self._lock:
            self.requests.append(request)
        return _answer(request, self._function(request))
