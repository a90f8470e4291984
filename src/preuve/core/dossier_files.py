"""A workflow-2 dossier folder as its files' contents: what :mod:`preuve.io.dossier_files`
reads and :func:`preuve.synthesis.dossier.dossier_from_files` turns into a dossier, so that
the workflow module receives texts and opens no file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["LEXICON_FILE", "QUESTION_FILE", "RANKS_FILE", "DossierFiles", "TextFile"]

QUESTION_FILE = "question.md"
RANKS_FILE = "ranks.toml"  # the dossier's own rank table (preuve.synthesis.rank_files)
LEXICON_FILE = "lexicon.toml"  # its extension of the rules engine's lexicon


@dataclass(frozen=True, slots=True)
class TextFile:
    """One text file: its name (the path, for messages and a document's ``path``) and its
    UTF-8 text."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class DossierFiles:
    """The files of one dossier folder: its question, its ``documents/*.md`` (by path; none
    when the folder has none, which the dossier refuses), and the parsed tables of its
    optional ``ranks.toml`` and ``lexicon.toml`` (None when absent)."""

    folder: str
    question: TextFile
    documents_dir: str
    documents: tuple[TextFile, ...]
    ranks_name: str
    ranks: Mapping[str, Any] | None = None
    lexicon: Mapping[str, Any] | None = None
