"""Workflow 2's rules engine with its answers kept for the test process.

Three held-out tests run the rules engine on every dossier (its grade, its quotes, its
answers corrupted); the engine is deterministic, so each request is answered once per
process and the later tests get the same completion. The three tests of one dossier share
an xdist group (:func:`dossier_group`) so that they land in one process.
"""

from __future__ import annotations

import json
import threading

import pytest

from preuve.models.base import Completion, ModelIdentity, Request, request_hash
from preuve.synthesis.pipeline import synthesis_rules_model

__all__ = ["CachedRules", "dossier_group"]

_ANSWERS: dict[str, Completion] = {}
_LOCK = threading.Lock()


def _key(request: Request) -> str:
    payload = json.dumps(request.payload, sort_keys=True, ensure_ascii=False, default=str)
    return f"{request_hash(request)}:{request.subject}:{payload}"


class CachedRules:
    """:func:`synthesis_rules_model`, each distinct request computed once per process."""

    def __init__(self) -> None:
        self._rules = synthesis_rules_model()

    @property
    def identity(self) -> ModelIdentity:
        return self._rules.identity

    def complete(self, request: Request) -> Completion:
        key = _key(request)
        with _LOCK:
            known = _ANSWERS.get(key)
        if known is not None:
            return known
        answer = self._rules.complete(request)
        with _LOCK:
            _ANSWERS.setdefault(key, answer)
        return answer


def dossier_group(name: str) -> pytest.MarkDecorator:
    """The xdist group of a held-out dossier's tests (one process, one cache)."""
    return pytest.mark.xdist_group(f"heldout-synthesis-{name}")
