"""Load a folder of versioned documents (a dossier) into a :class:`Snapshot`.

This is the input format of ``preuve digest``, for the bundled corpus and for a user's own
documents alike::

    <dossier>/
        <doc_id>/              one folder per document; its name is the document id
            v1.txt             version 1: UTF-8 text, pages separated by form feeds (\\f)
            v2.pdf             version 2: a PDF (its extracted text is the reference)
            meta.json          optional: title, date, source type
        manifest.json          optional: the dossier's state (:mod:`preuve.digest.manifest`)
        grammar.json           optional: its fact grammar (:mod:`preuve.digest.grammar`)

``meta.json`` holds fields common to all versions, and per-version overrides::

    {"title": "Logistics note on P-03-07", "source_type": "technical note",
     "date": "2026-06-14", "versions": {"2": {"date": "2026-08-02"}}}

Every field is optional (title defaults to the document id, date to unknown, source type
to ``"unknown"``). Hidden files are skipped; any other file is an error naming it, so a
typo (``v01.txt``, ``meta.jsn``) is never silently dropped. The folders are read by the one
document loader (:func:`preuve.io.documents.load_versions`); this module adds what the
digest keeps beside them (the manifest, the grammar) and the manifest's state.

Only the document folders are read: gold labels, which the corpus keeps elsewhere, are
never opened here. A future version is never loaded unless the caller asks for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from preuve.core.documents import Snapshot
from preuve.core.errors import InputError
from preuve.digest.grammar import GRAMMAR_FILE
from preuve.digest.manifest import MANIFEST_FILE, Manifest
from preuve.io.documents import list_versions as list_folder_versions
from preuve.io.documents import load_versions

__all__ = ["list_versions", "load_dossier", "load_state"]

# Files a dossier folder may hold beside its document folders.
_DOSSIER_FILES = (MANIFEST_FILE, GRAMMAR_FILE)


def list_versions(folder: Path) -> dict[str, tuple[int, ...]]:
    """``doc_id -> available versions`` (ascending) of the dossier ``folder``."""
    return list_folder_versions(folder, beside=_DOSSIER_FILES)


def load_dossier(
    folder: Path,
    versions: Mapping[str, int] | None = None,
    *,
    default: Literal["first", "latest"] = "first",
) -> Snapshot:
    """The snapshot of the dossier ``folder``, every document active and eligible.

    ``versions`` picks the version of some documents; the others take their ``default``
    version: ``"first"`` (so a future version is shown only once it is activated, as in
    the bundled corpus) or ``"latest"`` (the current state of a user's folder).
    """
    return load_versions(folder, versions, default=default, beside=_DOSSIER_FILES)


def load_state(
    folder: Path,
    manifest: Manifest | None,
    versions: Mapping[str, int] | None = None,
    *,
    default: Literal["first", "latest"] = "latest",
) -> Snapshot:
    """The snapshot the dossier's manifest describes (``default`` rule when it has none).

    Each document takes its pinned version, else the manifest's rule; ``versions``
    overrides some for this snapshot only. Access states (withdrawn, revoked, revision)
    come from the manifest and are kept whatever version is shown.
    """
    available = list_versions(folder)
    rule = manifest.versions if manifest is not None else default
    chosen: dict[str, int] = {}
    if manifest is not None:
        for doc_id, state in manifest.documents.items():
            if doc_id not in available:
                raise InputError(
                    f"{folder / MANIFEST_FILE}: names {doc_id!r}, which has no document folder"
                )
            if state.version is not None:
                chosen[doc_id] = state.version
    chosen.update(versions or {})
    snapshot = load_dossier(folder, chosen, default=rule)
    if manifest is not None:
        for doc_id, state in manifest.documents.items():
            snapshot = snapshot.with_access(doc_id, state.access)
    return snapshot
