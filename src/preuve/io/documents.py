"""One loader from files to the core :class:`~preuve.core.documents.Document`/``Snapshot``.

- a PDF (by its magic bytes): its extracted page texts (:mod:`preuve.io.pdf`);
- a UTF-8 text file: pages separated by form feeds (``\\f``);
- a Markdown file opening with a front-matter header (:mod:`preuve.core.frontmatter`):
  ``id``, ``title``, ``date``, ``source_type``, ``version`` (all optional here), the text
  after it one page (or several, split on form feeds).

A document's id is its header's ``id``, else the file name without its extension
(:func:`~preuve.core.documents.document_id`). :func:`load_snapshot` reads one file, or a
folder of such files (a workflow 2 dossier's ``documents/`` when the folder has one), into
a snapshot; two files with one id are an error naming both. Versioned folders
(``<doc_id>/v<N>.txt``) are read by :func:`preuve.digest.dossier.load_state`, which builds
the same types.
"""

from __future__ import annotations

from pathlib import Path

from preuve.core.documents import PAGE_SEPARATOR, Document, Snapshot, document_id
from preuve.core.errors import DocumentError, InputError
from preuve.core.frontmatter import has_front_matter, read_front_matter
from preuve.io.pdf import load_pages

__all__ = ["DOCUMENT_SUFFIXES", "load_document", "load_snapshot"]

DOCUMENT_SUFFIXES = (".pdf", ".txt", ".md", ".markdown")
_HEADER_KEYS = ("id", "title", "date", "source_type", "version")
_FIX = "write a PDF, a UTF-8 text file (pages split by form feeds) or Markdown with a header"


def _markdown(path: Path, text: str) -> Document:
    header = read_front_matter(
        text, _HEADER_KEYS, error=lambda line, message: InputError(f"{path}:{line}: {message}")
    )
    version = header.get("version", "1")
    if not version.isdigit() or int(version) < 1:
        line = header.values["version"][1]
        raise InputError(f"{path}:{line}: version {version!r} is not an integer >= 1")
    if not header.body:
        raise InputError(f"{path}:{header.end}: the document has no text after its header")
    return Document(
        header.get("id") or document_id(path.name),
        int(version),
        header.get("title", path.name),
        header.get("date"),
        header.get("source_type"),
        tuple(header.body.split(PAGE_SEPARATOR)),
    )


def load_document(path: Path) -> Document:
    """The document in file ``path`` (see the module docstring); a bad file raises
    :class:`InputError` naming it (and its line for a header)."""
    try:
        if path.suffix.lower() in (".md", ".markdown"):
            text = path.read_text(encoding="utf-8-sig")
            if has_front_matter(text):
                return _markdown(path, text)
        return Document.from_pages(path.name, load_pages(path))
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})", fix=_FIX) from None
    except OSError as err:
        raise InputError(f"{path}: cannot be read ({err.strerror})") from None
    except DocumentError as err:
        raise InputError(f"{path}: {err.message}", fix=err.fix or _FIX) from None


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
