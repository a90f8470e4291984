"""Ask → verify in code → re-ask once with the list of defects → accept or refuse.

One mechanism for every workflow, written sans-I/O (the shape of httpx's auth flows):
:func:`verification_flow` is a generator that yields the requests to send and receives
each outcome (a completion, the ModelError the backend raised, or the BudgetError that
refused the request before it was sent: on a re-ask, the refusal then stands on the answer
that arrived; on the first request, the flow raises it); it returns a
:class:`LoopResult`. :func:`ask_verified` is the thin synchronous driver that sends each
request to a model. Tests can drive the flow by hand, with no model at all.

The checker is plain code: ``check(completion) -> Checked[T]``, a value or defects, or
both: a *partial* answer (what verified, and defects for what did not). Only an answer
without defects is VALID; after a refusal, :attr:`LoopResult.partial` is the value of the
last answer that parsed, so a role keeps what verified and counts the rest. A
generation that stopped on length is never checked: it is INVALID (defect ``truncated``)
even when its prefix parses. The re-ask appends the model's own answer and a user message
listing the defects, one per line, so the model can fix exactly those.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Generic, TypeVar, cast

from preuve.core.defects import Defect, render_defects
from preuve.core.errors import BudgetError, ModelError, VerificationError
from preuve.models.base import Completion, Message, Model, Request
from preuve.models.budget import is_estimated, is_truncated

__all__ = [
    "Attempt",
    "Checked",
    "LoopResult",
    "LoopStatus",
    "Usage",
    "VerificationFlow",
    "ask_verified",
    "reask_message",
    "verification_flow",
]

T = TypeVar("T")

REASK_INTRO = "Your previous answer was checked automatically and refused. Defects:"
REASK_OUTRO = (
    "Write the whole answer again, in the same format, fixing every defect listed above."
    " Do not explain the changes."
)


@dataclass(frozen=True, slots=True)
class Checked(Generic[T]):
    """What a checker returns: a value when there is no defect, else the defects; both when
    an answer is partly good (:meth:`partial`: the value holds what verified)."""

    value: T | None = None
    defects: tuple[Defect, ...] = ()

    @classmethod
    def accept(cls, value: T) -> Checked[T]:
        return cls(value=value)

    @classmethod
    def reject(cls, *defects: Defect) -> Checked[T]:
        if not defects:
            raise ValueError("a rejection needs at least one defect")
        return cls(defects=defects)

    @classmethod
    def partial(cls, value: T, defects: tuple[Defect, ...]) -> Checked[T]:
        """``value`` (what verified) when ``defects`` is empty, else ``value`` kept beside
        the defects: the answer is refused, its verified part survives the refusal."""
        return cls(value=value, defects=defects)

    @property
    def ok(self) -> bool:
        return not self.defects


class LoopStatus(StrEnum):
    """VALID: an answer passed the checks. REFUSED: answers arrived and failed them.
    ERROR: no answer ever arrived (every attempt was a backend failure): nothing was
    checked, and it is not reported as a refusal of the model's work."""

    VALID = "VALID"
    REFUSED = "REFUSED"
    ERROR = "ERROR"


@dataclass(frozen=True, slots=True)
class Attempt:
    """One request sent, and what came back: a completion with its defects, or an error;
    ``kept`` is the value the check drew from the answer (None when it did not parse)."""

    request: Request
    completion: Completion | None
    defects: tuple[Defect, ...]
    error: str = ""
    kept: object | None = None


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens and seconds spent over all attempts; ``estimated`` if any count was."""

    prompt_tokens: int = 0
    generated_tokens: int = 0
    seconds: float = 0.0
    estimated: bool = False

    @staticmethod
    def of(attempts: tuple[Attempt, ...]) -> Usage:
        done = [a.completion for a in attempts if a.completion is not None]
        return Usage(
            prompt_tokens=sum(c.prompt_tokens for c in done),
            generated_tokens=sum(c.generated_tokens for c in done),
            seconds=sum(c.seconds for c in done),
            estimated=any(is_estimated(c) for c in done),
        )


@dataclass(frozen=True, slots=True)
class LoopResult(Generic[T]):
    """The outcome: VALID with its value, REFUSED or ERROR; every attempt is kept."""

    status: LoopStatus
    value: T | None
    attempts: tuple[Attempt, ...]
    usage: Usage = field(default_factory=Usage)

    @property
    def defects(self) -> tuple[Defect, ...]:
        """The defects of the last attempt (empty when VALID)."""
        return self.attempts[-1].defects if self.attempts else ()

    @property
    def partial(self) -> T | None:
        """The accepted value, else the value of the last answer that parsed (kept with its
        defects: the partial acceptance of a refused answer), else None."""
        if self.value is not None:
            return self.value
        kept = next((a.kept for a in reversed(self.attempts) if a.kept is not None), None)
        return cast(T | None, kept)

    def unwrap(self) -> T:
        """The accepted value, or a one-line VerificationError with the last defects."""
        if self.status is LoopStatus.VALID:
            return cast(T, self.value)
        task = self.attempts[0].request.task if self.attempts else ""
        listed = "; ".join(d.render() for d in self.defects)
        if self.status is LoopStatus.ERROR:
            raise ModelError(
                f"{task or 'answer'}: no answer after {len(self.attempts)} attempt(s): {listed}"
            )
        raise VerificationError(
            f"{task or 'answer'} refused after {len(self.attempts)} attempt(s): {listed}"
        )


VerificationFlow = Generator[Request, Completion | ModelError | BudgetError, LoopResult[T]]


def reask_message(defects: tuple[Defect, ...]) -> Message:
    """The user message that sends the defects back, in a form a model can act on."""
    return Message("user", f"{REASK_INTRO}\n{render_defects(defects)}\n{REASK_OUTRO}")


def _defects_of(
    request: Request, completion: Completion, check: Callable[[Completion], Checked[T]]
) -> Checked[T]:
    if is_truncated(completion):
        return Checked.reject(
            Defect(
                "truncated",
                f"the answer stopped at the limit of {request.max_new_tokens} new tokens and"
                " is incomplete; give a shorter answer that is complete",
            )
        )
    if completion.finish_reason != "stop":
        return Checked.reject(
            Defect(
                "model_error",
                "the answer ended abnormally (no normal stop); answer with text only",
            )
        )
    return check(completion)


def _next_request(request: Request, attempt: Attempt) -> Request:
    if attempt.completion is None:
        return request  # the backend failed: ask the same thing once more
    added = (Message("assistant", attempt.completion.text), reask_message(attempt.defects))
    return replace(request, messages=(*request.messages, *added))


def verification_flow(
    request: Request, check: Callable[[Completion], Checked[T]], *, reask: bool = True
) -> VerificationFlow[T]:
    """Yield requests, receive outcomes, return the accepted or refused result."""
    attempts: list[Attempt] = []
    current = request
    for _ in range(2 if reask else 1):
        outcome = yield current
        if isinstance(outcome, BudgetError):
            if not attempts:
                raise outcome  # the input itself is over budget: nothing was ever sent
            # The re-ask (the refused answer sent back) is over budget: it is not sent, and
            # the refusal stands on the answer that arrived.
            why = Defect("reask_over_budget", f"the re-ask was not sent: {outcome.one_line()}")
            attempts[-1] = replace(attempts[-1], defects=(*attempts[-1].defects, why))
            break
        if isinstance(outcome, ModelError):
            attempt = Attempt(
                current, None, (Defect("model_error", outcome.one_line()),), outcome.one_line()
            )
        else:
            checked = _defects_of(current, outcome, check)
            if checked.ok:
                attempts.append(Attempt(current, outcome, (), kept=checked.value))
                done = tuple(attempts)
                return LoopResult(LoopStatus.VALID, checked.value, done, Usage.of(done))
            attempt = Attempt(current, outcome, checked.defects, kept=checked.value)
        attempts.append(attempt)
        current = _next_request(request, attempt)
    done = tuple(attempts)
    answered = any(a.completion is not None for a in done)
    status = LoopStatus.REFUSED if answered else LoopStatus.ERROR
    return LoopResult(status, None, done, Usage.of(done))


def ask_verified(
    model: Model,
    request: Request,
    check: Callable[[Completion], Checked[T]],
    *,
    reask: bool = True,
) -> LoopResult[T]:
    """Drive :func:`verification_flow` against a model (a ModelError becomes an attempt)."""
    flow = verification_flow(request, check, reask=reask)
    try:
        pending = next(flow)
        while True:
            outcome: Completion | ModelError | BudgetError
            try:
                outcome = model.complete(pending)
            except (ModelError, BudgetError) as err:
                outcome = err
            pending = flow.send(outcome)
    except StopIteration as stop:
        return cast(LoopResult[T], stop.value)
