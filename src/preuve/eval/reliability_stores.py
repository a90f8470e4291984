"""Valid state the reliability cases start from: a built digest store, a saved synthesis run,
a digest corpus layout with its gold, and what the fault checks read back from a store.

Everything here runs the rules engine, in-process, in well under a second.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

from preuve.digest.build import BuildReport, build_digest
from preuve.digest.mutations import Comparison, compare_builds, stored_nodes
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import DigestSettings
from preuve.eval.reliability_files import write_digest_dossier, write_synthesis_dossier
from preuve.io.documents import load_versions
from preuve.io.stores import SqliteStore
from preuve.loaders import load_dossier as load_synthesis_dossier
from preuve.models.base import Model
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.synthesis.trajectory import trajectory_data

__all__ = [
    "build_store",
    "compare_with_reference",
    "corrupt_claims",
    "integrity",
    "reference_build",
    "unreadable_runs",
    "write_corpus_layout",
    "write_run_folder",
]


def build_store(
    dossier: Path,
    store_path: Path,
    *,
    principal: str = "default",
    model: Model | None = None,
    mode: str = "incremental",
) -> BuildReport:
    """Build ``dossier`` (first versions) into the store at ``store_path``, as the CLI does."""
    snapshot = load_versions(dossier, default="first")
    with SqliteStore(store_path) as store:
        return build_digest(
            snapshot,
            model or rules_summarizer(),
            store,
            DigestSettings(),
            principal=principal,
            mode="full" if mode == "full" else "incremental",
            concurrency=1,
            dossier=str(dossier.resolve()),
        )


def corrupt_claims(store_path: Path, text: str = '[{"subject": ') -> None:
    """Overwrite every stored result's claims with ``text`` (invalid JSON by default), as a
    hand edit or a bit flip would: the append-only triggers are dropped to do it."""
    with sqlite3.connect(store_path) as conn:
        conn.execute("DROP TRIGGER IF EXISTS nodes_no_update")
        conn.execute("UPDATE nodes SET claims = ?", (text,))
    conn.close()


def reference_build(dossier: Path, principal: str) -> BuildReport:
    """An uninterrupted full build of ``dossier`` in a store of its own (then deleted)."""
    with tempfile.TemporaryDirectory(prefix="preuve-reference-") as folder:
        return build_store(dossier, Path(folder) / "reference.sqlite", principal=principal)


def compare_with_reference(report: BuildReport, reference: BuildReport) -> Comparison:
    """Node by node: keys, statuses, claims, generated token ids."""
    return compare_builds(report.nodes, reference.nodes)


def integrity(store_path: Path) -> str:
    """``PRAGMA integrity_check`` of the store, read-only: ``"ok"`` when sound."""
    uri = f"{store_path.resolve().as_uri()}?mode=ro"
    connection = sqlite3.connect(uri, uri=True, timeout=30)
    try:
        rows = connection.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.Error as err:
        return f"unreadable: {err}"
    finally:
        connection.close()
    return "; ".join(str(row[0]) for row in rows)


def unreadable_runs(store_path: Path, finished: dict[str, int]) -> list[str]:
    """The runs of ``finished`` (run id → node count) that can no longer be read whole."""
    lost: list[str] = []
    with SqliteStore(store_path, read_only=True) as store:
        for run_id, count in finished.items():
            if not store.run(run_id).finished or len(stored_nodes(store, run_id)) != count:
                lost.append(run_id)
    return lost


def write_run_folder(folder: Path, *, damage: bool = False) -> Path:
    """A run folder as ``preuve synthesize`` leaves it (its trajectory.json), optionally
    with a document date that does not exist."""
    with tempfile.TemporaryDirectory(prefix="preuve-run-") as scratch:
        dossier = load_synthesis_dossier(write_synthesis_dossier(Path(scratch) / "dossier"))
    data = trajectory_data(synthesize(dossier, synthesis_rules_model()))
    if damage:
        data["documents"][0]["date"] = "2026-02-30"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "trajectory.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def write_corpus_layout(folder: Path, *, gold: str) -> Path:
    """``folder/corpus``: a digest corpus of one dossier (``test-00``) whose gold file holds
    ``gold``, and ``folder/store.sqlite`` with a current summary of that dossier."""
    root = folder / "corpus"
    dossier = write_digest_dossier(root / "dossiers" / "test-00")
    (root / "corpus.json").write_text('{"corpus": "preuve-digest"}\n', encoding="utf-8")
    (root / "gold").mkdir(parents=True, exist_ok=True)
    (root / "gold" / "test-00.json").write_text(gold, encoding="utf-8")
    build_store(dossier, folder / "store.sqlite")
    return root
