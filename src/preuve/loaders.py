"""The loaders of a user's input: files read by :mod:`preuve.io`, their texts and data
turned into a workflow's types by the workflow's own pure functions.

The workflow modules open no file (an import-linter contract and
``tests/test_loaders.py`` hold it); this module, above them and below the edges (CLI, API,
evaluation), is where a path becomes a dossier, a manifest, a grammar or a list of events:

- workflow 2: :func:`load_dossier` (:func:`preuve.io.dossier_files.read_dossier_files`, then
  :func:`preuve.synthesis.dossier.dossier_from_files`);
- workflow 3: :func:`read_manifest` / :func:`write_manifest` (``manifest.json``),
  :func:`load_state` (the snapshot a manifest describes), :func:`load_grammar` and
  :func:`events_from_file` (JSON files a user writes); a mutation reads its new versions
  from a :class:`preuve.io.documents.VersionedFolder`;
- the rules engines' vocabulary a user extends: :func:`load_mapping` (workflow 1's concept
  mapping, ``--mapping``), :func:`load_cues` (its risk cues, ``--cues``),
  :func:`read_lexicon_extension` and :func:`load_lexicon` (workflow 2's lexicon,
  ``--lexicon``), parsed by :mod:`preuve.memo.lexicon`, :mod:`preuve.memo.risk_cues` and
  :mod:`preuve.synthesis.lexicon` (which read only their bundled package data).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from preuve.core.documents import Snapshot
from preuve.core.errors import InputError
from preuve.digest.grammar import FactGrammar, grammar_from_data
from preuve.digest.manifest import (
    MANIFEST_FILE,
    Manifest,
    chosen_versions,
    manifest_data,
    manifest_from_data,
    with_access_of,
)
from preuve.digest.mutations import Mutation, events_from_data
from preuve.io.documents import list_versions, load_versions
from preuve.io.dossier_files import read_dossier_files
from preuve.io.files import write_json_atomic
from preuve.io.jsonfile import read_json_file
from preuve.io.tomlfile import read_toml_file
from preuve.memo.lexicon import LabelRule, parse_mapping
from preuve.memo.risk_cues import CueSet, bundled_cues, parse_cues
from preuve.synthesis.dossier import DOSSIER_FIX, Dossier, dossier_from_files
from preuve.synthesis.lexicon import Lexicon, checked_extension, lexicon_with

__all__ = [
    "events_from_file",
    "load_cues",
    "load_dossier",
    "load_grammar",
    "load_lexicon",
    "load_mapping",
    "load_state",
    "read_lexicon_extension",
    "read_manifest",
    "write_manifest",
]


def load_dossier(folder: Path) -> Dossier:
    """The workflow-2 dossier in ``folder`` (the format: :mod:`preuve.synthesis.dossier`);
    anything wrong raises :class:`~preuve.core.errors.InputError` naming the file and line."""
    return dossier_from_files(read_dossier_files(folder, fix=DOSSIER_FIX))


def read_manifest(folder: Path) -> Manifest | None:
    """The manifest of the dossier ``folder``, or ``None`` when it has none."""
    path = folder / MANIFEST_FILE
    if not path.is_file():
        return None
    return manifest_from_data(read_json_file(path, "manifest"), str(path))


def write_manifest(folder: Path, manifest: Manifest) -> Path:
    """Write ``manifest`` beside the documents, whole or not at all."""
    path = folder / MANIFEST_FILE
    write_json_atomic(path, manifest_data(manifest))
    return path


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
    where = str(folder / MANIFEST_FILE)
    chosen = chosen_versions(manifest, list_versions(folder), versions, where)
    rule = manifest.versions if manifest is not None else default
    return with_access_of(load_versions(folder, chosen, default=rule), manifest)


def load_grammar(path: Path) -> FactGrammar:
    """The fact grammar in the file ``path`` (a dossier's ``grammar.json``)."""
    return grammar_from_data(read_json_file(path, "grammar"), str(path))


def events_from_file(path: Path) -> tuple[Mutation, ...]:
    """Events from a JSON file: a list of ``{"event": NAME, "doc_id": DOC, "version": N}``
    (or an object with that list under ``events``)."""
    return events_from_data(read_json_file(path, "events"), str(path))


def load_mapping(path: Path) -> tuple[LabelRule, ...]:
    """A user's concept mapping file (JSON, the format of ``memo/data/concepts.json``)."""
    return parse_mapping(read_json_file(path, "mapping file"), str(path))


@functools.cache
def load_cues(path: Path) -> CueSet:
    """The bundled risk cues with a user's file's (JSON, the format of
    ``memo/data/cues.json``) tried first."""
    return parse_cues(read_json_file(path, "cues file"), str(path), bundled_cues())


def read_lexicon_extension(path: Path) -> dict[str, Any]:
    """A lexicon extension file (TOML), checked by building the extended lexicon once; a
    malformed one is an :class:`InputError` naming the file."""
    data = read_toml_file(path, "the lexicon")
    try:
        return checked_extension(data)
    except InputError as error:
        raise InputError(f"{path}: {error}") from None


def load_lexicon(extra: Sequence[Path] = ()) -> Lexicon:
    """The bundled workflow-2 lexicon extended by each file of ``extra``, in order."""
    extensions = [read_toml_file(path, "the lexicon") for path in extra]
    try:
        return lexicon_with(extensions)
    except InputError as error:
        raise InputError(f"{', '.join(map(str, extra))}: {error}") from None
