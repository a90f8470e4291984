"""Loading a folder of versioned documents (preuve.digest.dossier)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from preuve import loaders
from preuve.core.documents import AccessState
from preuve.core.errors import InputError
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest import manifest
from preuve.digest.grammar import GRAMMAR_FILE
from preuve.digest.manifest import MANIFEST_FILE
from preuve.io import documents
from preuve.io.documents import list_versions, load_version, load_versions


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest"))


def write(path: Path, content: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A small user dossier: two documents, one with two versions and a meta.json."""
    root = tmp_path / "mine"
    write(root / "alpha" / "v1.txt", "First line.\nProduct P-01-02 site: Kesby depot.\n")
    write(root / "alpha" / "v2.txt", "Second version.\fPage two.\n")
    write(
        root / "alpha" / "meta.json",
        json.dumps(
            {"title": "Alpha", "source_type": "audit", "versions": {"2": {"date": "2026-03-04"}}}
        ),
    )
    write(root / "beta" / "v1.txt", "Beta text.\n")
    write(root / ".DS_Store", b"\x00junk")
    return root


def test_public_surface_is_pinned() -> None:
    # the folder format is read by the one document loader (preuve.io.documents); the
    # digest adds only the manifest's state (loaders.load_state, from digest.manifest's
    # chosen_versions and with_access_of)
    assert {
        "META_FILE",
        "SIDE_FILES",
        "MetaFile",
        "list_versions",
        "load_snapshot",
        "load_version",
        "load_versions",
        "read_meta",
    } <= set(documents.__all__)
    assert {MANIFEST_FILE, GRAMMAR_FILE} == set(documents.SIDE_FILES)
    assert {"chosen_versions", "with_access_of"} <= set(manifest.__all__)
    assert "load_state" in loaders.__all__


def test_corpus_dossier_loads_version_1_of_all_12_documents(corpus: CorpusInfo) -> None:
    snapshot = load_versions(corpus.dossier_dir("test-00"))
    assert [doc.doc_id for doc in snapshot] == [f"doc-{i:02d}" for i in range(12)]
    assert {doc.version for doc in snapshot} == {1}
    assert all(doc.access == AccessState() for doc in snapshot)
    doc = snapshot.documents["doc-11"]
    path = corpus.dossier_dir("test-00") / "doc-11" / "v1.txt"
    assert doc.text == path.read_text(encoding="utf-8")
    meta = json.loads((path.parent / "meta.json").read_text(encoding="utf-8"))
    assert (doc.title, doc.source_type) == (meta["title"], meta["source_type"])
    assert doc.date == meta["versions"]["1"]["date"]


def test_a_version_is_shown_only_once_activated(corpus: CorpusInfo) -> None:
    folder = corpus.dossier_dir("test-00")
    snapshot = load_versions(folder, {"doc-00": 2})
    assert snapshot.documents["doc-00"].version == 2
    assert {d.version for d in snapshot if d.doc_id != "doc-00"} == {1}
    latest = load_versions(folder, default="latest")
    assert {d.version for d in latest} == {2}
    v2 = (folder / "doc-00" / "v2.txt").read_text(encoding="utf-8")
    assert latest.documents["doc-00"].text == snapshot.documents["doc-00"].text == v2
    assert latest.documents["doc-00"].date > load_versions(folder).documents["doc-00"].date


def test_user_folder_with_defaults_pages_and_hidden_files(folder: Path) -> None:
    assert list_versions(folder) == {"alpha": (1, 2), "beta": (1,)}
    first = load_versions(folder)
    alpha, beta = first.documents["alpha"], first.documents["beta"]
    assert (alpha.version, alpha.title, alpha.date, alpha.source_type) == (1, "Alpha", "", "audit")
    assert (beta.title, beta.date, beta.source_type) == ("beta", "", "unknown")
    second = load_version(folder, "alpha", 2)
    assert second.pages == ("Second version.", "Page two.\n")
    assert second.date == "2026-03-04"


def write_twice(root: Path) -> None:
    write(root / "alpha" / "v1.txt", "x")
    write(root / "alpha" / "v1.pdf", "x")


def bad_json(root: Path) -> None:
    write(root / "alpha" / "meta.json", '{\n  "title": "A",\n  "date": \n}')


CASES: list[tuple[str, Callable[[Path], None], list[str]]] = [
    ("missing-folder", lambda r: None, ["not a folder"]),
    ("empty-dossier", lambda r: r.mkdir(), ["no document folder"]),
    ("loose-file", lambda r: write(r / "README.md", "hi"), ["README.md", "unexpected file"]),
    ("no-version", lambda r: (r / "alpha").mkdir(parents=True), ["alpha", "no version file"]),
    ("zero-padded", lambda r: write(r / "alpha" / "v01.txt", "x"), ["v01.txt", "unexpected"]),
    ("twice", write_twice, ["v1", "given twice"]),
    ("bad-json", bad_json, ["meta.json:4:1: invalid JSON"]),
    (
        "duplicate-key",
        lambda r: write(r / "alpha" / "meta.json", '{"title": "a", "title": "b"}'),
        ["meta.json", '"title" appears more than once'],
    ),
    (
        "unknown-key",
        lambda r: write(r / "alpha" / "meta.json", '{"titel": "a"}'),
        ["meta.json", "unknown key 'titel'"],
    ),
    (
        "non-string",
        lambda r: write(r / "alpha" / "meta.json", '{"title": 3}'),
        ["meta.json", "'title' must be a string"],
    ),
    (
        "bad-date",
        lambda r: write(r / "alpha" / "meta.json", '{"date": "2026-02-30"}'),
        ["meta.json", "not an ISO date"],
    ),
    (
        "unknown-version",
        lambda r: write(r / "alpha" / "meta.json", '{"versions": {"3": {"date": "2026-01-01"}}}'),
        ["meta.json", "'3'", "no version file"],
    ),
    (
        "not-an-object",
        lambda r: write(r / "alpha" / "meta.json", "[1, 2]"),
        ["meta.json", "JSON object"],
    ),
    (
        "meta-not-utf8",
        lambda r: write(r / "alpha" / "meta.json", b'{"title": "\xff"}'),
        ["meta.json", "not UTF-8"],
    ),
    ("text-not-utf8", lambda r: write(r / "alpha" / "v1.txt", b"caf\xe9"), ["v1.txt", "UTF-8"]),
    ("empty-text", lambda r: write(r / "alpha" / "v1.txt", "  \n"), ["v1.txt", "empty"]),
    ("bad-doc-id", lambda r: write(r / "a b" / "v1.txt", "x"), ["a b", "not valid"]),
]


@pytest.mark.parametrize(("make", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_folders_raise_input_error_naming_the_file(
    tmp_path: Path, make: Callable[[Path], None], expected: list[str]
) -> None:
    root = tmp_path / "dossier"
    make(root)
    # meta.json cases need a version file beside them, so the meta is what fails.
    if (root / "alpha" / "meta.json").exists() and not (root / "alpha" / "v1.txt").exists():
        write(root / "alpha" / "v1.txt", "Text.\n")
    with pytest.raises(InputError) as caught:
        load_versions(root)
    message = str(caught.value)
    assert "\n" not in message
    for part in expected:
        assert part in message


@pytest.mark.parametrize(
    ("versions", "expected"),
    [({"gamma": 1}, "no document 'gamma'"), ({"alpha": 3}, "no version 3")],
    ids=["unknown-document", "unknown-version"],
)
def test_requested_versions_must_exist(
    folder: Path, versions: dict[str, int], expected: str
) -> None:
    with pytest.raises(InputError, match=expected):
        load_versions(folder, versions)
