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
typo (``v01.txt``, ``meta.jsn``) is never silently dropped.

Only the document folders are read: gold labels, which the corpus keeps elsewhere, are
never opened here. A future version is never loaded unless the caller asks for it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Literal

from preuve.core.documents import Document, Snapshot
from preuve.core.errors import DocumentError, InputError
from preuve.core.jsonout import loads_unique_keys
from preuve.digest.grammar import GRAMMAR_FILE
from preuve.digest.manifest import MANIFEST_FILE, Manifest
from preuve.io.pdf import load_pages

__all__ = [
    "META_FILE",
    "MetaFile",
    "list_versions",
    "load_document",
    "load_dossier",
    "load_state",
    "read_meta",
]

META_FILE = "meta.json"
_VERSION_FILE = re.compile(r"v([1-9][0-9]*)\.(txt|pdf)")
_META_FIELDS = ("title", "date", "source_type")
_FIX_LAYOUT = "expected <dossier>/<doc_id>/v<N>.txt or v<N>.pdf, and an optional meta.json"
# Files a dossier folder may hold beside its document folders.
_DOSSIER_FILES = (MANIFEST_FILE, GRAMMAR_FILE)

MetaFile = dict[int, dict[str, str]]


def _visible(path: Path) -> bool:
    return not path.name.startswith(".")


def _version_files(doc_dir: Path) -> dict[int, Path]:
    files: dict[int, Path] = {}
    for path in sorted(doc_dir.iterdir()):
        if not _visible(path) or path.name == META_FILE:
            continue
        match = _VERSION_FILE.fullmatch(path.name) if path.is_file() else None
        if match is None:
            raise InputError(f"{path}: unexpected entry in a document folder", fix=_FIX_LAYOUT)
        version = int(match.group(1))
        if version in files:
            raise InputError(f"{path}: version {version} is given twice ({files[version].name})")
        files[version] = path
    if not files:
        raise InputError(f"{doc_dir}: document folder has no version file", fix=_FIX_LAYOUT)
    return files


def list_versions(folder: Path) -> dict[str, tuple[int, ...]]:
    """``doc_id -> available versions`` (ascending) of the dossier ``folder``."""
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder", fix="give the folder of one dossier")
    found: dict[str, tuple[int, ...]] = {}
    for path in sorted(folder.iterdir()):
        if not _visible(path) or (path.name in _DOSSIER_FILES and path.is_file()):
            continue
        if not path.is_dir():
            raise InputError(f"{path}: unexpected file in a dossier folder", fix=_FIX_LAYOUT)
        found[path.name] = tuple(sorted(_version_files(path)))
    if not found:
        raise InputError(f"{folder}: the dossier has no document folder", fix=_FIX_LAYOUT)
    return found


def _is_iso_date(value: str) -> bool:
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _fields(path: Path, where: str, data: object, allowed: tuple[str, ...]) -> dict[str, str]:
    if not isinstance(data, dict):
        raise InputError(f"{path}: {where} must be a JSON object")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise InputError(f"{path}: {where}: unknown key {unknown[0]!r}", fix=f"use {allowed}")
    out: dict[str, str] = {}
    for name in _META_FIELDS:
        if name in data:
            if not isinstance(data[name], str):
                raise InputError(f"{path}: {where}: {name!r} must be a string")
            out[name] = data[name]
    if out.get("date") and not _is_iso_date(out["date"]):
        raise InputError(
            f"{path}: {where}: date {out['date']!r} is not an ISO date",
            fix="write yyyy-mm-dd, or leave the date out when unknown",
        )
    return out


def read_meta(path: Path, versions: tuple[int, ...]) -> MetaFile:
    """``version -> {title, date, source_type}`` (only the fields given) from ``meta.json``."""
    try:
        raw = path.read_bytes().decode("utf-8")
        data = loads_unique_keys(raw)
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})") from None
    except json.JSONDecodeError as err:
        raise InputError(f"{path}: line {err.lineno}, column {err.colno}: {err.msg}") from None
    except ValueError as err:
        raise InputError(f"{path}: {err}") from None
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply") from None
    common = _fields(path, "the top level", data, (*_META_FIELDS, "versions"))
    overrides = data.get("versions", {})
    if not isinstance(overrides, dict):
        raise InputError(f"{path}: 'versions' must be an object keyed by version number")
    meta: MetaFile = {version: dict(common) for version in versions}
    for key, value in overrides.items():
        version = int(key) if re.fullmatch(r"[1-9][0-9]*", key) else None
        if version not in meta:
            raise InputError(
                f"{path}: 'versions' names {key!r}, which has no version file",
                fix=f"available versions: {', '.join(map(str, versions))}",
            )
        meta[version].update(_fields(path, f"versions[{key!r}]", value, _META_FIELDS))
    return meta


def load_document(folder: Path, doc_id: str, version: int) -> Document:
    """Version ``version`` of document ``doc_id`` of the dossier ``folder``."""
    doc_dir = folder / doc_id
    if not doc_dir.is_dir():
        raise InputError(f"{doc_dir}: no such document folder")
    files = _version_files(doc_dir)
    if version not in files:
        raise InputError(
            f"{doc_dir}: no version {version}",
            fix=f"available versions: {', '.join(map(str, sorted(files)))}",
        )
    meta_path = doc_dir / META_FILE
    meta = read_meta(meta_path, tuple(sorted(files))) if meta_path.is_file() else {}
    fields = meta.get(version, {})
    pages = load_pages(files[version])
    try:
        return Document(
            doc_id=doc_id,
            version=version,
            title=fields.get("title", doc_id),
            date=fields.get("date", ""),
            source_type=fields.get("source_type", "unknown"),
            pages=tuple(pages),
        )
    except DocumentError as err:
        raise InputError(f"{doc_dir}: {err.message}", fix=err.fix) from None


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
    available = list_versions(folder)
    chosen = dict(versions or {})
    for doc_id, version in chosen.items():
        if doc_id not in available:
            raise InputError(f"{folder}: no document {doc_id!r} in this dossier")
        if version not in available[doc_id]:
            raise InputError(
                f"{folder / doc_id}: no version {version!r}",
                fix=f"available versions: {', '.join(map(str, available[doc_id]))}",
            )
    documents = []
    for doc_id, present in available.items():
        fallback = present[0] if default == "first" else present[-1]
        documents.append(load_document(folder, doc_id, chosen.get(doc_id, fallback)))
    return Snapshot.of(documents)


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
