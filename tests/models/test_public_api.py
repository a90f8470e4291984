"""The public surface of preuve.models is pinned: sorted, complete, and cheap to import."""

from __future__ import annotations

import subprocess
import sys

import preuve.models

PINNED = [
    "ACCEPTED_FORMS", "Attempt", "BudgetedModel", "CallRecord", "CallStatus", "Checked",
    "Completion", "CountingModel", "EndpointLimits", "EstimatedCompletion", "EstimatingCounter",
    "FinishReason", "FunctionModel", "Journal", "JournaledModel", "LimitedModel", "LoopResult",
    "LoopStatus", "Message", "Model", "ModelIdentity", "ModelSpec", "OpenAIModel",
    "RecordingModel", "ReplayModel", "Request", "ResponseFormatLevel", "RulesHandler",
    "RulesModel", "ScriptExhaustedError", "ScriptedModel", "SpecKind", "TokenCounter", "Usage",
    "ask_verified", "check_budget", "complete_many", "counter_for", "estimate_text_tokens",
    "is_estimated", "is_truncated", "load_model", "messages_of", "parse_spec", "reask_message",
    "request_hash", "verification_flow",
]  # fmt: skip


def test_all_is_pinned_and_sorted() -> None:
    assert preuve.models.__all__ == PINNED
    assert sorted(PINNED) == PINNED


def test_every_public_name_resolves() -> None:
    for name in PINNED:
        assert getattr(preuve.models, name) is not None, name


def test_importing_the_models_does_not_import_the_openai_sdk() -> None:
    # The SDK costs about a second to import: rules-only commands must not pay for it.
    code = "import sys, preuve.models; print('openai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
