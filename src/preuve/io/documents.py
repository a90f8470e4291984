"""One loader from files to the core :class:`~preuve.core.documents.Document`/``Snapshot``.

- a PDF (by its magic bytes): its extracted page texts (:mod:`preuve.io.pdf`);
- a UTF-8 text file: pages separated by form feeds (``\\f``);
- a Markdown file opening with a front-matter header (:mod:`preuve.core.frontmatter`):
  ``id``, ``title``, ``date``, ``source_type``, ``version`` (all optional here), the text
  after it one page (or several, split on form feeds).

- a versioned folder: one sub-folder per document, named by its
  id, holding ``v<N>.txt`` / ``v<N>.pdf`` (version N, read as above) and an optional
  ``meta.json`` (title, date, source type; common to all versions, with per-version
  overrides under ``"versions"``)::

      <folder>/<doc_id>/v1.txt
      <folder>/<doc_id>/v2.pdf
      <folder>/<doc_id>/meta.json   {"title": ..., "date": ..., "source_type": ...,
                                     "versions": {"2": {"date": ...}}}

  Every meta field is optional (title defaults to the id, date to unknown, source type to
  ``"unknown"``); hidden files are skipped and any other entry is an error naming it, so a
  typo (``v01.txt``, ``meta.jsn``) is never silently dropped.

A document's id is its header's ``id``, else the file name without its extension
(:func:`~preuve.core.documents.document_id`); its ``path`` is the file it was read from.
:func:`load_snapshot` is the one loader to a snapshot: one file, a versioned folder (each
document at a chosen or default version), or a folder of document files (a workflow 2
dossier's ``documents/`` when the folder has one); two files with one id are an error
naming both. Workflow 2's dossier (:mod:`preuve.synthesis.dossier`) reads its documents with
:func:`read_markdown` (its four keys required, each error naming the line); workflow 3 reads
a versioned folder, with its manifest beside it (:func:`preuve.loaders.load_state`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal

from preuve.core.documents import (
    Document,
    Snapshot,
)
from preuve.core.errors import DocumentError, InputError
from preuve.core.frontmatter import HEADER_KEYS, has_front_matter, read_markdown
from preuve.io.jsonfile import read_json_file
from preuve.io.pdf import load_pages, pdf_positions

__all__ = [
    "DOCUMENT_SUFFIXES",
    "HEADER_KEYS",
    "META_FILE",
    "SIDE_FILES",
    "MetaFile",
    "VersionedFolder",
    "list_versions",
    "load_document",
    "load_documents",
    "load_snapshot",
    "load_version",
    "load_versions",
    "read_markdown",
    "read_meta",
    "read_text",
]

DOCUMENT_SUFFIXES = (".pdf", ".txt", ".md", ".markdown")
_FIX = "write a PDF, a UTF-8 text file (pages split by form feeds) or Markdown with a header"


def read_text(path: Path, *, fix: str | None = None) -> str:
    """The UTF-8 text of ``path`` (a byte-order mark dropped); an unreadable file raises
    :class:`InputError` naming it."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        message = f"{path}: not UTF-8 text ({err.reason} at byte {err.start})"
        raise InputError(message, fix=fix or _FIX) from None
    except OSError as err:
        raise InputError(f"{path}: cannot be read ({err.strerror})", fix=fix) from None


def load_document(path: Path) -> Document:
    """The document in file ``path`` (see the module docstring); a bad file raises
    :class:`InputError` (a :class:`DocumentError` when its text cannot be extracted)
    naming it, and its line for a header."""
    if path.suffix.lower() in (".md", ".markdown"):
        text = read_text(path)
        if has_front_matter(text):
            return read_markdown(text, str(path))
    try:  # load_pages names the file in its own errors (a DocumentError, an InputError)
        pages = load_pages(path)
        # x-positions read from the same file, lazily: only a table's page asks for them
        return Document.from_pages(
            str(path), pages, title=path.name, positions=pdf_positions(path, pages)
        )
    except OSError as err:
        raise InputError(f"{path}: cannot be read ({err.strerror})") from None


def load_documents(paths: Sequence[Path]) -> list[Document]:
    """Each file as a document, in order; an unreadable one raises before any is used."""
    return [load_document(path) for path in paths]


def load_snapshot(
    path: Path,
    versions: Mapping[str, int] | None = None,
    *,
    default: Literal["first", "latest"] = "first",
) -> Snapshot:
    """The documents at ``path`` as a snapshot, every document active and eligible: one
    file; a versioned folder (one sub-folder per document holding ``v<N>.txt|pdf``, read by
    :func:`load_versions`); or a folder of document files (its ``documents/`` if it has one;
    hidden files skipped).

    In a versioned folder ``versions`` picks the version of some documents; the others take
    their ``default`` version: ``"first"`` (so a future version is shown only once it is
    activated, as in the bundled corpus) or ``"latest"`` (the current state of a user's
    folder). Any other path has one version per document: ``versions`` is refused there.
    """
    if path.is_dir() and _is_versioned(path):
        return load_versions(path, versions, default=default)
    if versions:
        raise InputError(f"{path}: versions are chosen in a versioned folder only", fix=_FIX_LAYOUT)
    if path.is_file():
        return Snapshot.of([load_document(path)])
    if not path.is_dir():
        raise InputError(f"{path}: no such file or folder")
    folder = path / "documents" if (path / "documents").is_dir() else path
    files = sorted(
        p
        for p in folder.iterdir()
        if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in DOCUMENT_SUFFIXES
    )
    if not files:
        raise InputError(f"{folder}: no document file ({', '.join(DOCUMENT_SUFFIXES)})")
    seen: dict[str, tuple[Path, Document]] = {}
    for file in files:
        document = load_document(file)
        if document.doc_id in seen:
            first = seen[document.doc_id][0]
            raise InputError(f"{file}: id {document.doc_id!r} is already the id of {first}")
        seen[document.doc_id] = (file, document)
    return Snapshot.of(document for _, document in seen.values())


# --- Versioned folders --------------------------------------------------------------------

META_FILE = "meta.json"
_VERSION_FILE = re.compile(r"v([1-9][0-9]*)\.(txt|pdf)")
_META_FIELDS = ("title", "date", "source_type")
_FIX_LAYOUT = "expected <dossier>/<doc_id>/v<N>.txt or v<N>.pdf, and an optional meta.json"

MetaFile = dict[int, dict[str, str]]  # a meta.json: version -> the fields it gives

# Files a versioned folder may hold beside its document folders: workflow 3's manifest
# (``preuve.digest.manifest``) and fact grammar (``preuve.digest.grammar``), read by those
# modules, never as documents. Any other file is an error naming it.
SIDE_FILES = ("manifest.json", "grammar.json")


def _visible(path: Path) -> bool:
    return not path.name.startswith(".")


def _is_versioned(folder: Path) -> bool:
    """Document sub-folders (any visible one but a workflow 2 dossier's ``documents/``): the
    folder is laid out by document and version, and read (and refused) as such."""
    return any(
        sub.is_dir() and _visible(sub) and sub.name != "documents" for sub in folder.iterdir()
    )


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
    """``doc_id -> available versions`` (ascending) of the versioned folder ``folder``."""
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder", fix="give the folder of one dossier")
    found: dict[str, tuple[int, ...]] = {}
    for path in sorted(folder.iterdir()):
        if not _visible(path) or (path.name in SIDE_FILES and path.is_file()):
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
    data = read_json_file(path, "versions' metadata")
    common = _fields(path, "the top level", data, (*_META_FIELDS, "versions"))
    overrides = data.get("versions", {}) if isinstance(data, dict) else {}  # _fields checked it
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


def load_version(folder: Path, doc_id: str, version: int) -> Document:
    """Version ``version`` of document ``doc_id`` of the versioned folder ``folder``."""
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


def load_versions(
    folder: Path,
    versions: Mapping[str, int] | None = None,
    *,
    default: Literal["first", "latest"] = "first",
) -> Snapshot:
    """The snapshot of the versioned folder ``folder``, every document active and eligible,
    each document at its ``versions`` entry, else its ``default`` version (see
    :func:`load_snapshot`); anything in the folder that is not of its layout is an error
    naming it."""
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
        documents.append(load_version(folder, doc_id, chosen.get(doc_id, fallback)))
    return Snapshot.of(documents)


@dataclass(frozen=True, slots=True)
class VersionedFolder:
    """A versioned folder as a workflow reads versions from it without opening a file
    itself (:mod:`preuve.digest.mutations` takes one): its latest snapshot, the versions
    present of a document, and one version."""

    folder: Path

    @property
    def where(self) -> str:
        return str(self.folder)

    def snapshot(self) -> Snapshot:
        """Every document at its first version (:func:`load_versions`)."""
        return load_versions(self.folder)

    def present(self, doc_id: str) -> tuple[int, ...]:
        """The versions of ``doc_id`` in the folder (none when the folder is not there)."""
        return list_versions(self.folder).get(doc_id, ()) if self.folder.is_dir() else ()

    def load(self, doc_id: str, version: int) -> Document:
        return load_version(self.folder, doc_id, version)
