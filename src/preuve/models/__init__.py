"""preuve.models: the only part of preuve that talks to models.

A workflow holds a :class:`Model` (one method: a request in, a completion out) and never
deals with HTTP, tokenizers or retries. Backends: ``openai`` (any OpenAI-compatible
endpoint), ``hf`` (local transformers, optional extra; import it from
``preuve.models.hf``), ``rules`` (the offline default), replay of recorded calls, and the
test doubles :class:`ScriptedModel` and :class:`FunctionModel`. Wrappers add what every
call needs: a journal, budgets, recording, per-endpoint limits. A role
(:class:`preuve.models.role.Role`) declares one step once (prompt, schema, check, rules
implementation reading the rendered prompt); its driver, :func:`verification_flow` /
:func:`ask_verified`, is the ask → check → re-ask once → accept, keep what verified, or
refuse loop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from preuve.models.base import (
    Completion,
    FinishReason,
    Message,
    Model,
    ModelIdentity,
    Request,
    messages_of,
    request_hash,
)
from preuve.models.budget import (
    BudgetedModel,
    CountingModel,
    EstimatedCompletion,
    EstimatingCounter,
    TokenCounter,
    check_budget,
    counter_for,
    estimate_text_tokens,
    is_estimated,
    is_truncated,
)
from preuve.models.journal import CallRecord, CallStatus, Journal, JournaledModel
from preuve.models.loop import (
    Attempt,
    Checked,
    LoopResult,
    LoopStatus,
    Usage,
    ask_verified,
    reask_message,
    verification_flow,
)
from preuve.models.pool import EndpointLimits, LimitedModel, complete_many
from preuve.models.replay import RecordingModel, ReplayModel
from preuve.models.rules import RulesHandler, RulesModel
from preuve.models.scripted import FunctionModel, ScriptedModel, ScriptExhaustedError
from preuve.models.spec import ACCEPTED_FORMS, ModelSpec, SpecKind, load_model, parse_spec

if TYPE_CHECKING:
    from preuve.models.openai import OpenAIModel, ResponseFormatLevel

__all__ = [
    "ACCEPTED_FORMS",
    "Attempt",
    "BudgetedModel",
    "CallRecord",
    "CallStatus",
    "Checked",
    "Completion",
    "CountingModel",
    "EndpointLimits",
    "EstimatedCompletion",
    "EstimatingCounter",
    "FinishReason",
    "FunctionModel",
    "Journal",
    "JournaledModel",
    "LimitedModel",
    "LoopResult",
    "LoopStatus",
    "Message",
    "Model",
    "ModelIdentity",
    "ModelSpec",
    "OpenAIModel",
    "RecordingModel",
    "ReplayModel",
    "Request",
    "ResponseFormatLevel",
    "RulesHandler",
    "RulesModel",
    "ScriptExhaustedError",
    "ScriptedModel",
    "SpecKind",
    "TokenCounter",
    "Usage",
    "ask_verified",
    "check_budget",
    "complete_many",
    "counter_for",
    "estimate_text_tokens",
    "is_estimated",
    "is_truncated",
    "load_model",
    "messages_of",
    "parse_spec",
    "reask_message",
    "request_hash",
    "verification_flow",
]

# The openai SDK takes about a second to import: only commands that use it pay for it.
_LAZY = {"OpenAIModel": "preuve.models.openai", "ResponseFormatLevel": "preuve.models.openai"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
