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

Each document is read by the one document loader (:func:`preuve.core.frontmatter.read_markdown`)
into the core :class:`~preuve.core.documents.Document` (version 1, pages split on form
feeds), its ``source_type`` written as the rank table's canonical name. What arbitration
knows of it (its date, its :class:`SourceType`, its rank) is derived from those fields by
:func:`source_info`, not kept in a second document type.

Anything wrong raises :class:`InputError` naming the file and the line. This module reads
no file: :func:`preuve.io.dossier_files.read_dossier_files` reads the folder (``question.md``,
``documents/*.md``, ``ranks.toml``, ``lexicon.toml`` and nothing else: a grading grid kept in
it is never opened), :func:`dossier_from_files` checks and parses those texts, and
:func:`preuve.loaders.load_dossier` is the two in a row.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType
from typing import Any

from preuve.core.documents import Document, Snapshot
from preuve.core.dossier_files import DossierFiles
from preuve.core.errors import InputError
from preuve.core.frontmatter import read_markdown
from preuve.synthesis.lexicon import checked_extension
from preuve.synthesis.rank_files import dossier_rank_table, split_rank_section
from preuve.synthesis.ranks import RankTable, SourceInfo, SourceType, default_rank_table

__all__ = ["DOSSIER_FIX", "Dossier", "dossier_from_files", "parse_document", "source_info"]

_KEYS = ("id", "title", "date", "source_type")
DOSSIER_FIX = "see the dossier format in preuve.synthesis.dossier"


def source_info(document: Document, ranks: RankTable | None = None) -> SourceInfo:
    """What arbitration knows of ``document``: its date (None if unknown), its source type
    read with ``ranks`` (the default table when None; ``unknown`` when the table does not
    know it) and the rank ``ranks`` gives that type (None with the default table)."""
    table = ranks or default_rank_table()
    source_type = table.parse(document.source_type) or SourceType.UNKNOWN
    day = date.fromisoformat(document.date) if document.date else None
    return SourceInfo(document.doc_id, day, source_type, table.rank(source_type) if ranks else None)


@dataclass(frozen=True, slots=True)
class Dossier:
    """The committee's question and its documents, sorted by id."""

    question: str
    documents: tuple[Document, ...]
    ranks: RankTable | None = None  # the dossier's own rank table, when it ships one
    # its lexicon.toml, an extension of the rules engine's lexicon (plain data)
    lexicon: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(document.doc_id for document in self.documents)

    def get(self, doc_id: str) -> Document | None:
        return next((d for d in self.documents if d.doc_id == doc_id), None)

    def source_infos(self) -> Mapping[str, SourceInfo]:
        """Doc id → what arbitration knows of it (date, source type, rank)."""
        return MappingProxyType({d.doc_id: source_info(d, self.ranks) for d in self.documents})

    def snapshot(self) -> Snapshot:
        """The documents as the core :class:`~preuve.core.documents.Snapshot` every span
        of the run is valid against."""
        return Snapshot.of(self.documents)


def _error(name: str, line: int | None, message: str) -> InputError:
    where = f"{name}:{line}" if line is not None else name
    return InputError(f"{where}: {message}", fix=DOSSIER_FIX)


def parse_document(text: str, name: str, table: RankTable | None = None) -> Document:
    """Parse one document file's text; ``name`` is the file (in error messages, and the
    document's ``path``). Its source type is read with ``table`` (the default rank table
    when None) and kept as the table's canonical name."""
    ranks = table or default_rank_table()

    def canonical(value: str, line: int) -> str:
        parsed = ranks.parse(value)
        if parsed is None:
            known = ", ".join(ranks.known())
            raise _error(
                name,
                line,
                f"unknown source_type {value!r} (one of: {known}; or declare it with its rank "
                "in the dossier's ranks.toml)",
            )
        return parsed.value

    return read_markdown(
        text, name, keys=_KEYS, required=_KEYS, fix=DOSSIER_FIX, source_type=canonical
    )


def _id_line(text: str) -> int:
    return next(
        (n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith("id")), 1
    )


def _natural_key(doc_id: str) -> tuple[tuple[int, int | str], ...]:
    """``doc-2`` before ``doc-10``."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", doc_id)
    )


def dossier_from_files(files: DossierFiles) -> Dossier:
    """The dossier the folder's files hold (see the module docstring for the format)."""
    question_path = files.question.name
    question, section = split_rank_section(files.question.text)
    question = question.strip()
    if not question:
        raise _error(question_path, 1, "the question is empty")
    ranks = (files.ranks_name, files.ranks) if files.ranks is not None else None
    table = dossier_rank_table(files.folder, ranks, section, question_path)
    if not files.documents:
        raise _error(files.documents_dir, None, "no document (*.md) found")
    documents: list[Document] = []
    seen: dict[str, str] = {}
    for file in files.documents:
        name, text = file.name, file.text
        document = parse_document(text, name, table)
        if document.doc_id in seen:
            raise _error(
                name,
                _id_line(text),
                f"duplicate id {document.doc_id!r} (already used by {seen[document.doc_id]})",
            )
        seen[document.doc_id] = name
        documents.append(document)
    documents.sort(key=lambda d: _natural_key(d.doc_id))
    lexicon = checked_extension(files.lexicon) if files.lexicon is not None else {}
    return Dossier(question, tuple(documents), table, MappingProxyType(lexicon))
