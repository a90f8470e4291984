"""Builders for the concurrency tests: a model that holds every builder at one point, and
a build run in its own process (spawned: it imports this module by name)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from preuve.digest.build import build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import DigestSettings
from preuve.io import open_store
from preuve.io.documents import load_versions
from preuve.models.base import Completion, Model, ModelIdentity, Request

LEAVES = 12


class GateModel:
    """The rules engine, held at a barrier at its first call: every builder has looked the
    keys of its first level up, none has recorded any (a node is recorded as soon as it is
    computed), so every builder computes every leaf and they all race to store them."""

    def __init__(self, barrier: Any, at_call: int = 1) -> None:
        self.inner: Model = rules_summarizer()
        self.barrier = barrier
        self.at_call = at_call
        self.calls = 0
        self._lock = threading.Lock()

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        with self._lock:
            self.calls += 1
            number = self.calls
        completion = self.inner.complete(request)
        if number == self.at_call:
            self.barrier.wait(timeout=120)
        return completion


def build_once(url: str, dossier: str, barrier: Any) -> str:
    """One builder: open the store, build the dossier (held at the gate), its run id."""
    snapshot = load_versions(Path(dossier))
    with open_store(url) as store:
        report = build_digest(
            snapshot,
            GateModel(barrier),
            store,
            DigestSettings(),
            concurrency=1,
            dossier="shared",
        )
    return report.run_id


def build_in_process(url: str, dossier: str, barrier: Any, results: Any) -> None:
    try:
        results.put(("ok", build_once(url, dossier, barrier)))
    except BaseException as err:  # reported by the test
        results.put(("error", f"{type(err).__name__}: {err}"))
