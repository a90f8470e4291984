"""Input budgets counted with the chat template applied, and the length rule for outputs.

A budget is checked *before* a call: an input over budget raises :class:`BudgetError` and
is never truncated. Tokens are counted by the model's own tokenizer when it has one (a
model exposing ``count_prompt_tokens(messages)`` and ``tokens_exact = True``, as the
``hf`` backend does); otherwise by a declared estimate, and every message says so.

The estimate (:class:`EstimatingCounter`): ``ceil(characters / 3.5)`` for the contents,
plus 4 tokens per message for its role header and separators, plus 3 for the assistant
header the template appends. ChatML-style templates (Qwen2.5) spend about that much per
message; 3.5 characters per token sits between English (~4) and French (~3) prose.

A completion that stopped on length is INVALID for every caller (:func:`is_truncated`),
even when its prefix parses.

Budgets from the model: a backend that knows its context window exposes
``context_window`` (``hf``: the config's ``max_position_embeddings`` or the GGUF header;
``openai``: ``$PREUVE_CONTEXT_WINDOW`` when the user sets it, since the OpenAI API does not
say). such a backend refuses, before the call, any request whose prompt plus ``max_new_tokens``
would not fit that window (:func:`check_context_window`); :func:`input_budget` gives a workflow the
input room a request has, and :func:`fit_groups` groups pages or documents, in order,
into requests that each fit (one item alone over budget is refused, never cut).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, runtime_checkable

from preuve.core.errors import BudgetError
from preuve.models.base import (
    Completion,
    Message,
    Model,
    ModelIdentity,
    Request,
    wrapped_models,
)

__all__ = [
    "DEFAULT_CONTEXT_WINDOW",
    "BudgetedModel",
    "CountingModel",
    "EstimatedCompletion",
    "EstimatingCounter",
    "ModelCounter",
    "TokenCounter",
    "check_budget",
    "check_context_window",
    "context_window_of",
    "counter_for",
    "estimate_text_tokens",
    "fit_groups",
    "input_budget",
    "is_estimated",
    "is_truncated",
]

CHARS_PER_TOKEN = 3.5
PER_MESSAGE_OVERHEAD = 4
REPLY_PRIMING = 3


@runtime_checkable
class TokenCounter(Protocol):
    """Counts the tokens of a prompt as the model will see it (chat template applied)."""

    @property
    def exact(self) -> bool: ...

    def count_prompt_tokens(self, messages: Sequence[Message]) -> int: ...


def estimate_text_tokens(text: str) -> int:
    """The declared estimate for a bare text (no template): ``ceil(len / 3.5)``."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@dataclass(frozen=True, slots=True)
class EstimatingCounter:
    """The declared estimate used when the model has no tokenizer (see module docstring)."""

    chars_per_token: float = CHARS_PER_TOKEN
    per_message_overhead: int = PER_MESSAGE_OVERHEAD
    reply_priming: int = REPLY_PRIMING

    @property
    def exact(self) -> bool:
        return False

    def count_prompt_tokens(self, messages: Sequence[Message]) -> int:
        chars = sum(len(m.content) for m in messages)
        return (
            math.ceil(chars / self.chars_per_token)
            + self.per_message_overhead * len(messages)
            + self.reply_priming
        )

    def describe(self) -> str:
        return (
            f"estimated: characters/{self.chars_per_token:g}"
            f" + {self.per_message_overhead} per message + {self.reply_priming}"
        )


@runtime_checkable
class CountingModel(Protocol):
    """What a backend with a tokenizer exposes (the ``hf`` backend does)."""

    def count_prompt_tokens(self, messages: Sequence[Message]) -> int: ...


@dataclass(frozen=True, slots=True)
class ModelCounter:
    """A model that counts its own prompts (its tokenizer and chat template)."""

    model: CountingModel
    exact: bool

    def count_prompt_tokens(self, messages: Sequence[Message]) -> int:
        return self.model.count_prompt_tokens(messages)


@dataclass(frozen=True, slots=True)
class EstimatedCompletion(Completion):
    """A completion whose token counts are the declared estimate, not the endpoint's.

    Backends return it when the endpoint sent no ``usage`` (and the rules engine always
    does): callers and journals can tell an estimate from a count.
    """

    tokens_estimated: bool = True


def is_estimated(completion: Completion) -> bool:
    """True when the completion's token counts are estimates."""
    return isinstance(completion, EstimatedCompletion) and completion.tokens_estimated


def is_truncated(completion: Completion) -> bool:
    """True when the generation stopped on its length limit: such an answer is INVALID."""
    return completion.finish_reason == "length"


def _innermost_counting(model: object) -> CountingModel | None:
    # The tokenizer belongs to the backend at the bottom of the chain of wrappers.
    return next((m for m in wrapped_models(model) if isinstance(m, CountingModel)), None)


def counter_for(model: object) -> TokenCounter:
    """The model's own counter when it has a tokenizer, else the declared estimate."""
    if isinstance(model, (EstimatingCounter, ModelCounter)):
        return model
    counting = _innermost_counting(model)
    if counting is None:
        return EstimatingCounter()
    exact = bool(getattr(counting, "tokens_exact", False))
    return ModelCounter(model=counting, exact=exact)


def _how_counted(counter: TokenCounter) -> str:
    if counter.exact:
        return "counted with the model's tokenizer and chat template"
    if isinstance(counter, EstimatingCounter):
        return counter.describe()
    return "estimated by the model"


def check_budget(model_or_counter: object, request: Request, max_input_tokens: int) -> int:
    """Count the request's input; raise :class:`BudgetError` when over budget, else the count.

    Nothing is ever truncated: the caller must shorten its input or raise the budget.
    """
    counter = counter_for(model_or_counter)
    count = counter.count_prompt_tokens(request.messages)
    if count > max_input_tokens:
        task = f" for task {request.task}" if request.task else ""
        raise BudgetError(
            f"input{task} is {count} tokens ({_how_counted(counter)}),"
            f" over its budget of {max_input_tokens}; nothing was sent and nothing truncated",
            fix="shorten the input (fewer or smaller documents) or raise the budget",
        )
    return count


DEFAULT_CONTEXT_WINDOW = 32768  # SPEC's context; Qwen2.5-1.5B-Instruct's window


class BudgetedModel:
    """A model that refuses, before the call, any request over its input budget.

    The budget is ``max_input_tokens``, or the room a ``context_window`` leaves once the
    request's ``max_new_tokens`` are reserved (both when both are given). With
    ``announce`` the window is the model's ``context_window`` for the workflows that size
    their inputs from it (:func:`context_window_of`); a fallback window nobody declared is
    not announced, so those workflows keep their own chunking.
    """

    def __init__(
        self,
        inner: Model,
        max_input_tokens: int | None = None,
        counter: TokenCounter | None = None,
        *,
        context_window: int | None = None,
        announce: bool = True,
    ) -> None:
        if max_input_tokens is None and context_window is None:
            raise ValueError("a budget needs max_input_tokens or a context_window")
        if max_input_tokens is not None and max_input_tokens <= 0:
            raise ValueError("max_input_tokens must be positive")
        if context_window is not None and context_window <= 0:
            raise ValueError("context_window must be positive")
        self.inner = inner
        self.max_input_tokens = max_input_tokens
        self.window = context_window
        self.announce = announce
        self.counter = counter if counter is not None else counter_for(inner)

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    @property
    def context_window(self) -> int | None:
        return self.window if self.announce else None

    def complete(self, request: Request) -> Completion:
        if self.window is not None:
            check_context_window(self.counter, request, self.window)
        if self.max_input_tokens is not None:
            check_budget(self.counter, request, self.max_input_tokens)
        return self.inner.complete(request)


T = TypeVar("T")


def context_window_of(model: object) -> int | None:
    """The context window (prompt + answer tokens) of the backend under the wrappers."""
    for layer in wrapped_models(model):
        window = getattr(layer, "context_window", None)
        if isinstance(window, int) and not isinstance(window, bool) and window > 0:
            return window
    return None


def input_budget(model: object, max_new_tokens: int, *, cap: int | None = None) -> int | None:
    """Prompt tokens a request may hold: the model's window less the answer's room (and at
    most ``cap``); ``cap`` alone when the window is unknown."""
    window = context_window_of(model)
    if window is None:
        return cap
    room = window - max_new_tokens
    if room <= 0:
        raise BudgetError(
            f"the model's context window ({window} tokens) leaves no room for a prompt"
            f" with {max_new_tokens} new tokens",
            fix="use a model with a larger context window",
        )
    return room if cap is None else min(room, cap)


def fit_groups(
    items: Sequence[T],
    build: Callable[[Sequence[T]], Request],
    counter: TokenCounter,
    budget: int,
) -> list[list[T]]:
    """``items`` in order, grouped greedily so that each group's request (``build(group)``)
    counts at most ``budget`` prompt tokens. One item that does not fit alone raises
    :class:`BudgetError`: it is never truncated."""
    groups: list[list[T]] = []
    current: list[T] = []
    for item in items:
        trial = [*current, item]
        if counter.count_prompt_tokens(build(trial).messages) <= budget:
            current = trial
            continue
        if current:
            groups.append(current)
        single = build([item])
        if counter.count_prompt_tokens(single.messages) > budget:
            check_budget(counter, single, budget)  # raises, with how it was counted
        current = [item]
    if current:
        groups.append(current)
    return groups


def check_context_window(counter: TokenCounter, request: Request, context_window: int) -> int:
    """Refuse before the call a request whose prompt and answer room exceed the model's
    context window; return the prompt's count. Backends that know their window call it."""
    room = context_window - max(request.max_new_tokens, 0)
    if room <= 0:
        raise BudgetError(
            f"{request.max_new_tokens} new tokens do not fit the model's context window"
            f" of {context_window}; nothing was sent",
            fix="lower max_new_tokens or use a model with a larger window",
        )
    return check_budget(counter, request, room)
