"""The document registry of a run folder (``documents.json``): which files a run verified.

A run folder is self-contained: a workflow copies (or points to, inside the folder) the
documents it read, and lists them here by id, so the viewer can show a page by id and never
takes a path from a request::

    {"format": "preuve-documents/1",
     "documents": [{"id": "ferlac", "title": "Maison Ferlac SAS", "path": "reports/ferlac.pdf"}]}

Paths are written relative to the registry's folder.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from preuve.io.files import copy_file_atomic, write_json_atomic

__all__ = [
    "REGISTRY_FORMAT",
    "REGISTRY_NAME",
    "RegistryEntry",
    "copy_into",
    "registry_data",
    "write_registry",
]

REGISTRY_NAME = "documents.json"
REGISTRY_FORMAT = "preuve-documents/1"


@dataclass(frozen=True, slots=True)
class RegistryEntry:
    id: str
    title: str
    path: Path


def copy_into(source: Path, folder: Path, name: str) -> Path:
    """Copy a document into the run folder (the exact bytes that were verified), atomically."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    if source.resolve() != target.resolve():
        copy_file_atomic(source, target)
    return target


def registry_data(folder: Path, entries: Sequence[RegistryEntry]) -> dict[str, object]:
    """The content of ``folder/documents.json``, paths relative to ``folder``."""
    base = folder.resolve()
    documents = [
        {
            "id": entry.id,
            "title": entry.title,
            "path": Path(os.path.relpath(entry.path.resolve(), base)).as_posix(),
        }
        for entry in entries
    ]
    return {"format": REGISTRY_FORMAT, "documents": documents}


def write_registry(folder: Path, entries: Sequence[RegistryEntry]) -> Path:
    """Write ``folder/documents.json`` atomically, paths relative to ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / REGISTRY_NAME
    write_json_atomic(target, registry_data(folder, entries))
    return target
