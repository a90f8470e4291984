"""One loader from files to the core :class:`~preuve.core.documents.Document`/``Snapshot``.

- a PDF (by its magic bytes): its extracted page texts (:mod:`preuve.io.pdf`);
- a UTF-8 text file: pages separated by form feeds (``\\f``);
- a Markdown file opening with a front-matter header (:mod:`preuve.core.frontmatter`):
  ``id``, ``title``, ``date``, ``source_type``, ``version`` (all optional here), the text
  after it one page (or several, split on form feeds).

A document's id is its header's ``id``, else the file name without its extension
(:func:`~preuve.core.documents.document_id`); its ``path`` is the file it was read from.
:func:`load_snapshot` reads one file, or a folder of such files (a workflow 2 dossier's
``documents/`` when the folder has one), into a snapshot; two files with one id are an error
naming both. Workflow 2's dossier (:mod:`preuve.synthesis.dossier`) reads its documents with
:func:`read_markdown` (its four keys required, each error naming the line); versioned
folders (``<doc_id>/v<N>.txt``) are read by :func:`preuve.digest.dossier.load_state`, which
builds the same types.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path

from preuve.core.documents import (
    PAGE_SEPARATOR,
    Document,
    Snapshot,
    document_id,
    is_document_id,
)
from preuve.core.errors import DocumentError, InputError
from preuve.core.frontmatter import has_front_matter, read_front_matter
from preuve.io.pdf import load_pages

__all__ = [
    "DOCUMENT_SUFFIXES",
    "HEADER_KEYS",
    "load_document",
    "load_snapshot",
    "read_markdown",
    "read_text",
]

DOCUMENT_SUFFIXES = (".pdf", ".txt", ".md", ".markdown")
HEADER_KEYS = ("id", "title", "date", "source_type", "version")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
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


def _checked_date(value: str, line: int, fail: Callable[[int, str], InputError]) -> str:
    if not value:
        return ""
    if _ISO_DATE.fullmatch(value) is None:
        raise fail(line, f"date {value!r} is not an ISO date YYYY-MM-DD")
    try:
        date.fromisoformat(value)
    except ValueError:
        raise fail(line, f"date {value!r} does not exist") from None
    return value


def read_markdown(
    text: str,
    name: str,
    *,
    keys: Sequence[str] = HEADER_KEYS,
    required: Sequence[str] = (),
    fix: str | None = None,
    source_type: Callable[[str, int], str] | None = None,
) -> Document:
    """The document of a front-matter Markdown text; ``name`` (the file) is its ``path``,
    named in errors with the line, and its title when the header has none. Only ``keys``
    are accepted, every one of ``required`` must be given. ``source_type(value, line)``
    gives the name kept for the header's source type (a caller's vocabulary: it raises the
    caller's error for an unknown one); without it the value is kept as written."""

    def fail(line: int, message: str) -> InputError:
        return InputError(f"{name}:{line}: {message}", fix=fix)

    header = read_front_matter(text, keys, required, error=fail)
    entry = dict(header.values)
    doc_id, id_line = entry.get("id", (document_id(name), 1))
    if not is_document_id(doc_id):
        raise fail(id_line, f"id {doc_id!r} must be one token such as doc-01")
    version = header.get("version", "1")
    if not version.isdigit() or int(version) < 1:
        raise fail(entry["version"][1], f"version {version!r} is not an integer >= 1")
    day = _checked_date(*entry.get("date", ("", 1)), fail)
    kind = header.get("source_type")
    if source_type is not None and "source_type" in entry:
        kind = source_type(*entry["source_type"])
    if not header.body:
        raise fail(header.end, "the document has no text after its header")
    title = header.get("title", Path(name).name)
    pages = tuple(header.body.split(PAGE_SEPARATOR))
    try:
        return Document(doc_id, int(version), title, day, kind, pages, path=name)
    except DocumentError as err:
        raise InputError(f"{name}: {err.message}", fix=err.fix or fix) from None


def load_document(path: Path) -> Document:
    """The document in file ``path`` (see the module docstring); a bad file raises
    :class:`InputError` (a :class:`DocumentError` when its text cannot be extracted)
    naming it, and its line for a header."""
    if path.suffix.lower() in (".md", ".markdown"):
        text = read_text(path)
        if has_front_matter(text):
            return read_markdown(text, str(path))
    try:  # load_pages names the file in its own errors (a DocumentError, an InputError)
        return Document.from_pages(str(path), load_pages(path), title=path.name)
    except OSError as err:
        raise InputError(f"{path}: cannot be read ({err.strerror})") from None


def load_snapshot(path: Path) -> Snapshot:
    """One file, or every document file of a folder (its ``documents/`` if it has one;
    hidden files skipped), as a snapshot."""
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
