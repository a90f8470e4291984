"""A digest build to kill: the rules summarizer slowed down, so a SIGKILL lands mid-build.

    python -m preuve.eval.reliability_victim STORE DOSSIER PRINCIPAL DELAY [CONCURRENCY]

prints ``started`` once the store is open (imports done), builds DOSSIER (first versions)
into STORE for PRINCIPAL with every model call delayed by DELAY seconds, then prints
``finished RUN_ID NODES``. The slowed model keeps the rules engine's identity, so its keys
and results are those of an ordinary rules build: the fault checks compare them with one.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path

from preuve.digest.build import build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import load_versions
from preuve.io.stores import SqliteStore
from preuve.models.base import Completion, Model, ModelIdentity, Request

__all__ = ["SlowModel", "main"]


class SlowModel:
    """``inner``, ``delay`` seconds slower per call (same identity, same answers)."""

    def __init__(self, inner: Model, delay: float) -> None:
        self._inner = inner
        self._delay = delay

    @property
    def identity(self) -> ModelIdentity:
        return self._inner.identity

    def complete(self, request: Request) -> Completion:
        time.sleep(self._delay)
        return self._inner.complete(request)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    store, dossier, principal, delay = Path(args[0]), Path(args[1]), args[2], float(args[3])
    concurrency = int(args[4]) if len(args) == 5 else 1
    snapshot = load_versions(dossier, default="first")
    with SqliteStore(store) as opened:
        print("started", flush=True)
        report = build_digest(
            snapshot,
            SlowModel(rules_summarizer(), delay),
            opened,
            DigestSettings(),
            principal=principal,
            concurrency=concurrency,
            dossier=str(dossier.resolve()),
        )
    print(f"finished {report.run_id} {len(report.nodes)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
