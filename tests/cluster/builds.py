"""What the cluster tests share: a build on an executor, and the checks of a recorded run."""

from __future__ import annotations

from pathlib import Path

from preuve.cluster.executor import Executor
from preuve.digest.build import BuildReport, build_digest
from preuve.digest.integrity import verified_row
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import DigestSettings
from preuve.io import open_store
from preuve.io.documents import load_versions
from preuve.models.base import Model

SETTINGS = DigestSettings()


def build(
    folder: Path,
    store_path: Path | str,
    executor: Executor,
    *,
    model: Model | None = None,
    mode: str = "incremental",
) -> BuildReport:
    snapshot = load_versions(folder)
    with open_store(store_path) as store:
        return build_digest(
            snapshot,
            model or rules_summarizer(),
            store,
            SETTINGS,
            mode="full" if mode == "full" else "incremental",
            dossier=folder.name,
            executor=executor,
        )


def run_integrity(store_path: Path | str, run_ids: list[str]) -> dict[str, int]:
    """Every node of the runs read back and verified, and counts that reveal duplicates or
    losses in a store these runs alone wrote to.

    ``recorded``: tree nodes the last run recorded; ``rows``: result rows in the store;
    ``referenced``: distinct result rows the runs point to (a row no run points to is a
    duplicate a lost attempt left behind); ``generations``: rows of model calls.
    """
    referenced: set[int] = set()
    with open_store(store_path, read_only=True) as store:
        for run_id in run_ids:
            records = store.run_nodes(run_id)
            for record in records:
                row = store.node(record.node_row)
                verified_row(
                    row,
                    record.node_id,
                    recorded_digest=record.digest,
                    recorded_key=record.key,
                    recorded_status=record.status,
                )
                referenced.add(record.node_row)
        counts = store.row_counts()
    return {
        "recorded": len(records),
        "rows": counts["nodes"],
        "referenced": len(referenced),
        "generations": counts["generations"],
    }
