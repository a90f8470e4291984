"""Many dossiers at once: each dossier's build is one item of an executor's map.

A platform keeps thousands of dossiers current; their builds are independent (each its
own run, its own tree), so they are spread over the executor (one Ray task per dossier,
or threads), and inside one dossier the nodes of a level run on ``concurrency`` threads.
Every build reads and writes the same store (a remote task reopens it where it runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from preuve.cluster.executor import Executor, LocalExecutor
from preuve.core.documents import Snapshot
from preuve.digest.build import BuildMode, BuildReport, _StoreRef, build_digest
from preuve.digest.summarize import DigestSettings
from preuve.io.stores import Store
from preuve.models.base import Model

__all__ = ["DossierJob", "build_dossiers"]


@dataclass(frozen=True, slots=True)
class DossierJob:
    """One dossier to build: its label (as the store records it), snapshot and settings."""

    label: str
    snapshot: Snapshot
    settings: DigestSettings
    principal: str = "default"


@dataclass(frozen=True, slots=True)
class _DossierTask:
    model: Model
    store: _StoreRef
    mode: BuildMode
    concurrency: int

    def __call__(self, job: DossierJob) -> BuildReport:
        with self.store.opened() as store:
            return build_digest(
                job.snapshot,
                self.model,
                store,
                job.settings,
                principal=job.principal,
                mode=self.mode,
                dossier=job.label,
                executor=LocalExecutor(self.concurrency),
            )


def build_dossiers(
    jobs: Sequence[DossierJob],
    model: Model,
    store: Store,
    executor: Executor,
    *,
    mode: BuildMode = "incremental",
    concurrency: int = 4,
) -> list[BuildReport]:
    """Build every dossier (reports in the jobs' order); ``concurrency`` threads each."""
    return executor.map(_DossierTask(model, _StoreRef(store), mode, concurrency), jobs)
