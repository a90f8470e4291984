"""The input of workflow 2: a dossier folder that users fill with their own documents.

Format (UTF-8 text files)::

    my-dossier/
      question.md              the committee's question (any Markdown, not empty)
      documents/
        doc-01.md              one file per document, any name ending in .md
        doc-02.md
        ...

Each document starts with a front-matter header between two ``---`` lines, one
``key: value`` per line, then its text::

    ---
    id: doc-01
    title: Banc d'essai interne, juillet 2026
    date: 2026-07-09
    source_type: internal benchmark
    ---
    Text of the document...

All four keys are required, each once, and no other key is accepted (a typo must not
silently drop a date). ``id`` is one token without spaces (``doc-NN`` by convention) and
unique in the dossier; ``date`` is an ISO date ``YYYY-MM-DD``; ``source_type`` is one of
the types of the rank table (by default ``internal benchmark``, ``audit``,
``official announcement``, ``changelog``, ``security bulletin``, ``quote/estimate``,
``meeting minutes``, ``ticket``, ``technical note``, ``vendor note``, ``blog``,
``unknown``) or one of their aliases (``benchmark-interne``, ``note-fournisseur``,
``annonce officielle``, ...: see the lexicon). The text after the header must not be empty.

A dossier may ship its own rank table, which replaces the default one: ``ranks.toml``
beside ``question.md``, or a ``## Source ranks`` (``## Rangs des sources``) section at the
end of ``question.md`` (see :mod:`preuve.synthesis.rank_files`). A type that no table
knows is refused with the file and line, never silently ranked. A ``lexicon.toml`` beside
``question.md`` extends the rules engine's lexicon for this dossier (synonyms, units, status
words of its domain: see :mod:`preuve.synthesis.lexicon`).

Anything wrong raises :class:`InputError` naming the file and the line. The loader reads
``question.md`` and ``documents/*.md`` only: a grading grid kept elsewhere is never opened.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from types import MappingProxyType
from typing import Any

from preuve.core.documents import PAGE_SEPARATOR, Document, Snapshot
from preuve.core.errors import InputError
from preuve.core.frontmatter import read_front_matter
from preuve.synthesis.lexicon import read_extension
from preuve.synthesis.rank_files import load_rank_table, split_rank_section
from preuve.synthesis.ranks import RankTable, SourceInfo, SourceType, default_rank_table

__all__ = ["Dossier", "DossierDocument", "load_dossier", "parse_document"]

_KEYS = ("id", "title", "date", "source_type")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_FIX = "see the dossier format in preuve.synthesis.dossier"
LEXICON_FILE = "lexicon.toml"


@dataclass(frozen=True, slots=True)
class DossierDocument:
    """One document of a dossier, with the metadata arbitration uses."""

    id: str
    title: str
    date: date
    source_type: SourceType
    text: str
    rank: int | None = None  # the rank the dossier's table gives its type (None: default)

    @property
    def source_info(self) -> SourceInfo:
        return SourceInfo(self.id, self.date, self.source_type, self.rank)

    @property
    def document(self) -> Document:
        """This document as the core :class:`~preuve.core.documents.Document` every span
        indexes (version 1; pages split on form feeds, one page without any)."""
        return Document(
            self.id,
            1,
            self.title,
            self.date.isoformat(),
            self.source_type.value,
            tuple(self.text.split(PAGE_SEPARATOR)),
        )


@dataclass(frozen=True, slots=True)
class Dossier:
    """The committee's question and its documents, sorted by id."""

    question: str
    documents: tuple[DossierDocument, ...]
    ranks: RankTable | None = None  # the dossier's own rank table, when it ships one
    # its lexicon.toml, an extension of the rules engine's lexicon (plain data)
    lexicon: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(document.id for document in self.documents)

    def get(self, doc_id: str) -> DossierDocument | None:
        return next((d for d in self.documents if d.id == doc_id), None)

    def source_infos(self) -> Mapping[str, SourceInfo]:
        """Doc id → what arbitration knows of it (date, source type)."""
        return MappingProxyType({d.id: d.source_info for d in self.documents})

    def snapshot(self) -> Snapshot:
        """The documents as the core :class:`~preuve.core.documents.Snapshot` every span
        of the run is valid against."""
        return Snapshot.of(d.document for d in self.documents)


def _error(name: str, line: int | None, message: str) -> InputError:
    where = f"{name}:{line}" if line is not None else name
    return InputError(f"{where}: {message}", fix=_FIX)


def _checked_id(entry: tuple[str, int], name: str) -> str:
    value, line = entry
    if _ID.fullmatch(value) is None:
        raise _error(name, line, f"id {value!r} must be one token such as doc-01")
    return value


def _checked_date(entry: tuple[str, int], name: str) -> date:
    value, line = entry
    if _ISO_DATE.fullmatch(value) is None:
        raise _error(name, line, f"date {value!r} is not an ISO date YYYY-MM-DD")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise _error(name, line, f"date {value!r} does not exist") from None


def _checked_type(entry: tuple[str, int], name: str, table: RankTable) -> SourceType:
    value, line = entry
    parsed = table.parse(value)
    if parsed is None:
        known = ", ".join(table.known())
        raise _error(
            name,
            line,
            f"unknown source_type {value!r} (one of: {known}; or declare it with its rank "
            "in the dossier's ranks.toml)",
        )
    return parsed


def parse_document(text: str, name: str, table: RankTable | None = None) -> DossierDocument:
    """Parse one document file's text; ``name`` is used in error messages only. Its source
    type is read with ``table`` (the default rank table when None)."""
    header = read_front_matter(
        text, _KEYS, _KEYS, error=lambda line, message: _error(name, line, message)
    )
    values, end = header.values, header.end
    doc_id = _checked_id(values["id"], name)
    doc_date = _checked_date(values["date"], name)
    ranks = table or default_rank_table()
    source_type = _checked_type(values["source_type"], name, ranks)
    body = header.body
    if not body:
        raise _error(name, end, "the document has no text after its header")
    rank = ranks.rank(source_type) if table is not None else None
    return DossierDocument(doc_id, values["title"][0], doc_date, source_type, body, rank)


def _read(path: Path, name: str) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise _error(name, None, f"not UTF-8 text ({err.reason} at byte {err.start})") from None
    except OSError as err:
        raise _error(name, None, f"cannot be read ({err.strerror})") from None


def _id_line(text: str) -> int:
    return next(
        (n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith("id")), 1
    )


def _natural_key(doc_id: str) -> tuple[tuple[int, int | str], ...]:
    """``doc-2`` before ``doc-10``."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", doc_id)
    )


def load_dossier(folder: Path) -> Dossier:
    """Load ``folder`` (see the module docstring for the format)."""
    if not folder.is_dir():
        raise _error(str(folder), None, "is not a folder")
    question_path = folder / "question.md"
    if not question_path.is_file():
        raise _error(str(question_path), None, "missing: the dossier needs its question")
    question, section = split_rank_section(_read(question_path, str(question_path)))
    question = question.strip()
    if not question:
        raise _error(str(question_path), 1, "the question is empty")
    table = load_rank_table(folder, section, str(question_path))
    documents_dir = folder / "documents"
    paths = sorted(documents_dir.glob("*.md")) if documents_dir.is_dir() else []
    if not paths:
        raise _error(str(documents_dir), None, "no document (*.md) found")
    documents: list[DossierDocument] = []
    seen: dict[str, str] = {}
    for path in paths:
        name = str(path)
        text = _read(path, name)
        document = parse_document(text, name, table)
        if document.id in seen:
            raise _error(
                name,
                _id_line(text),
                f"duplicate id {document.id!r} (already used by {seen[document.id]})",
            )
        seen[document.id] = name
        documents.append(document)
    documents.sort(key=lambda d: _natural_key(d.id))
    extension = folder / LEXICON_FILE
    lexicon = read_extension(extension) if extension.is_file() else {}
    return Dossier(question, tuple(documents), table, MappingProxyType(lexicon))
