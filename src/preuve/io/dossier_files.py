"""The reader of a workflow-2 dossier folder: ``question.md``, ``documents/*.md``, and the
optional ``ranks.toml`` and ``lexicon.toml`` beside the question (the format is described in
:mod:`preuve.synthesis.dossier`). It reads those files and nothing else (a grading grid kept
in the folder is never opened); what they say is checked by the workflow, from the texts."""

from __future__ import annotations

from pathlib import Path

from preuve.core.dossier_files import (
    LEXICON_FILE,
    QUESTION_FILE,
    RANKS_FILE,
    DossierFiles,
    TextFile,
)
from preuve.core.errors import InputError
from preuve.io.documents import read_text
from preuve.io.tomlfile import read_toml_file

__all__ = ["read_dossier_files"]


def read_dossier_files(folder: Path, *, fix: str | None = None) -> DossierFiles:
    """The files of the dossier ``folder``; a missing folder or question, or an unreadable
    file, raises :class:`InputError` naming it (with ``fix``)."""
    if not folder.is_dir():
        raise InputError(f"{folder}: is not a folder", fix=fix)
    question_path = folder / QUESTION_FILE
    if not question_path.is_file():
        raise InputError(f"{question_path}: missing: the dossier needs its question", fix=fix)
    question = TextFile(str(question_path), read_text(question_path, fix=fix))
    documents_dir = folder / "documents"
    paths = sorted(documents_dir.glob("*.md")) if documents_dir.is_dir() else []
    documents = tuple(TextFile(str(path), read_text(path, fix=fix)) for path in paths)
    ranks, lexicon = folder / RANKS_FILE, folder / LEXICON_FILE
    return DossierFiles(
        folder=str(folder),
        question=question,
        documents_dir=str(documents_dir),
        documents=documents,
        ranks_name=str(ranks),
        ranks=read_toml_file(ranks, "the rank table") if ranks.is_file() else None,
        lexicon=read_toml_file(lexicon, "the lexicon") if lexicon.is_file() else None,
    )
