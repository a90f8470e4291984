"""The workflows' input parsers read no file; :mod:`preuve.loaders` is where paths are read.

Each parser is given the texts and data a loader read (a dossier's files, a manifest's,
a grammar's and an events file's JSON, the versions a mutation needs), under an audit hook
that records every file opened: none may be. The loaders, given the same folder, read
exactly the files of its format (a grid beside them is never opened)."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

import pytest

from preuve import loaders
from preuve.core.documents import Document, Snapshot
from preuve.core.dossier_files import DossierFiles, TextFile
from preuve.core.errors import InputError
from preuve.digest.grammar import default_grammar, grammar_from_data
from preuve.digest.manifest import (
    Manifest,
    apply_event,
    chosen_versions,
    manifest_data,
    manifest_from_data,
    with_access_of,
)
from preuve.digest.mutations import Mutation, MutationKind, apply_mutation, events_from_data
from preuve.io.dossier_files import read_dossier_files
from preuve.memo.lexicon import parse_mapping
from preuve.memo.risk_cues import bundled_cues, parse_cues
from preuve.synthesis.dossier import DOSSIER_FIX, dossier_from_files
from preuve.synthesis.lexicon import checked_extension, default_lexicon, lexicon_with
from tests.opened_files import opened as opened_files

# Code and package data (a module imported lazily, a bundled table) are not a user's files.
_INSTALLED = tuple(
    Path(p).resolve() for p in (sys.prefix, sys.base_prefix, os.path.dirname(loaders.__file__))
)


@contextmanager
def opened() -> Iterator[list[Path]]:
    """The user's files opened inside the block, filled when it ends (code and package
    data left out)."""
    kept: list[Path] = []
    with opened_files() as paths:
        try:
            yield kept
        finally:
            kept.extend(
                p
                for p in paths
                if p.suffix not in {".py", ".pyc"}
                and not any(p.is_relative_to(root) for root in _INSTALLED)
            )


HEADER = "---\nid: {id}\ntitle: Note {id}\ndate: 2026-03-0{day}\nsource_type: {kind}\n---\n"
QUESTION = "Which supplier should the committee keep?\n"
DOCUMENTS = {
    "b.md": HEADER.format(id="doc-10", day=2, kind="audit") + "The audit found two faults.\n",
    "a.md": HEADER.format(id="doc-2", day=1, kind="rumour") + "A rumour says otherwise.\n",
}
RANKS = {"ranks": {"audit": 3, "rumour": 0}}


def _folder(root: Path) -> Path:
    (root / "documents").mkdir(parents=True)
    (root / "question.md").write_text(QUESTION, encoding="utf-8")
    for name, text in DOCUMENTS.items():
        (root / "documents" / name).write_text(text, encoding="utf-8")
    (root / "ranks.toml").write_text("[ranks]\naudit = 3\nrumour = 0\n", encoding="utf-8")
    (root / "grid.json").write_text("{}", encoding="utf-8")  # gold: never to be opened
    return root


def test_a_dossier_is_parsed_from_its_texts_without_opening_a_file() -> None:
    files = DossierFiles(
        folder="mine",
        question=TextFile("mine/question.md", QUESTION),
        documents_dir="mine/documents",
        documents=tuple(TextFile(f"mine/documents/{n}", t) for n, t in sorted(DOCUMENTS.items())),
        ranks_name="mine/ranks.toml",
        ranks=RANKS,
    )
    with opened() as paths:
        dossier = dossier_from_files(files)
        empty = DossierFiles("mine", files.question, "mine/documents", (), "mine/ranks.toml")
        with pytest.raises(InputError, match=r"mine/documents: no document \(\*\.md\) found"):
            dossier_from_files(empty)
    assert paths == []
    assert dossier.ids == ("doc-2", "doc-10")
    assert dossier.ranks is not None and dossier.ranks.rank(dossier.ranks.parse("rumour")) == 0  # type: ignore[arg-type]
    assert dossier.get("doc-10") is not None and dossier.get("doc-10").path == "mine/documents/b.md"  # type: ignore[union-attr]


def test_the_dossier_loader_reads_the_formats_files_and_nothing_else(tmp_path: Path) -> None:
    folder = _folder(tmp_path / "dossier")
    with opened() as paths:
        dossier = loaders.load_dossier(folder)
    read = {p.relative_to(folder.resolve()).as_posix() for p in paths}
    assert read == {"question.md", "documents/a.md", "documents/b.md", "ranks.toml"}
    assert dossier == dossier_from_files(read_dossier_files(folder, fix=DOSSIER_FIX))


def _doc(doc_id: str, version: int, text: str) -> Document:
    return Document(doc_id, version, doc_id, "", "unknown", (text,))


class _Versions:
    """Versions held in memory (a folder's, as :class:`VersionedFolder` would read them)."""

    where = "memory"
    texts: ClassVar[dict[tuple[str, int], str]] = {
        ("doc-00", 1): "Lot LT-7 site: Lyon.",
        ("doc-00", 2): "Lot LT-7 site: Nantes.",
    }

    def snapshot(self) -> Snapshot:
        return Snapshot.of([_doc("doc-00", 1, self.texts["doc-00", 1])])

    def present(self, doc_id: str) -> tuple[int, ...]:
        return tuple(sorted(v for d, v in self.texts if d == doc_id))

    def load(self, doc_id: str, version: int) -> Document:
        return _doc(doc_id, version, self.texts[doc_id, version])


def test_the_digest_parsers_open_no_file() -> None:
    grammar_data = json.loads(json.dumps(default_grammar().data))
    versions = _Versions()
    with opened() as paths:
        manifest = apply_event(Manifest(), "withdraw", "doc-00", {"doc-00": (1, 2)}, at="t")
        again = manifest_from_data(manifest_data(manifest))
        chosen = chosen_versions(again, {"doc-00": (1, 2)}, {"doc-00": 2}, "manifest.json")
        with pytest.raises(InputError, match="names 'doc-09', which has no document folder"):
            chosen_versions(
                apply_event(Manifest(), "revoke", "doc-09", {"doc-09": (1,)}, at="t"),
                {"doc-00": (1,)}, None, "manifest.json",
            )  # fmt: skip
        grammar = grammar_from_data(grammar_data, "grammar.json")
        events = events_from_data([{"event": "new-version", "doc_id": "doc-00", "version": 2}], "e")
        moved = apply_mutation(versions.snapshot(), events[0], versions, grammar)
        withdrawn = with_access_of(moved, again)
        bumped = apply_mutation(moved, Mutation(MutationKind.REUPLOAD, "doc-00"), versions)
    assert paths == []
    assert chosen == {"doc-00": 2}
    assert moved.documents["doc-00"].text == "Lot LT-7 site: Nantes."
    assert withdrawn.documents["doc-00"].access.active is False
    assert bumped.documents["doc-00"].version == 3  # the next after the versions present


# The vocabulary a user extends (workflow 1's mapping and cues, workflow 2's lexicon).
MAPPING = {
    "rules": [
        {"concept": "order_backlog", "statements": ["income"], "labels": ["carnet de commandes"]}
    ],
}
CUES = {"categories": [{"category": "dependency", "cues": [r"\bone single yard\b"]}]}
LEXICON = (
    '[[concepts]]\nid = "uptime"\nlabel = { en = "uptime" }\nterms = ["uptime", "availability"]\n'
)


def test_the_vocabulary_parsers_open_no_file() -> None:
    bundled_cues()  # package data, read once (and left out of the files recorded anyway)
    with opened() as paths:
        rules = parse_mapping(MAPPING, "mine.json")
        cues = parse_cues(CUES, "cues.json", bundled_cues())
        extension = checked_extension(tomllib.loads(LEXICON))
        lexicon = lexicon_with([extension])
    assert paths == []
    assert [r.key for r in rules] == ["order_backlog"]
    assert cues.classify("The group relies on one single yard for its hulls.") == ("dependency", 1)
    assert lexicon.concept("uptime") is not None and default_lexicon().concept("uptime") is None


def test_the_vocabulary_loaders_read_the_file_given_and_nothing_else(tmp_path: Path) -> None:
    files = {"mine.json": json.dumps(MAPPING), "cues.json": json.dumps(CUES), "l.toml": LEXICON}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "grid.json").write_text("{}", encoding="utf-8")  # gold: never to be opened
    with opened() as paths:
        rules = loaders.load_mapping(tmp_path / "mine.json")
        cues = loaders.load_cues(tmp_path / "cues.json")
        extension = loaders.read_lexicon_extension(tmp_path / "l.toml")
        lexicon = loaders.load_lexicon([tmp_path / "l.toml"])
    assert sorted(p.name for p in paths) == ["cues.json", "l.toml", "l.toml", "mine.json"]
    assert rules == parse_mapping(MAPPING, str(tmp_path / "mine.json"))
    assert cues.classify("It relies on one single yard.") == ("dependency", 1)
    assert extension == tomllib.loads(LEXICON)
    assert lexicon.concept("uptime") is not None
    with pytest.raises(InputError, match=r"l\.toml"):
        (tmp_path / "l.toml").write_text("[[concepts]]\nlabel = 3\n", encoding="utf-8")
        loaders.read_lexicon_extension(tmp_path / "l.toml")
