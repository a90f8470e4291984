"""One loader: PDF, form-feed text and front-matter Markdown files, or a folder of them, into
the core Document and Snapshot (real files, real PDFs through pypdfium2)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from preuve.core.errors import InputError
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.io.documents import load_document, load_snapshot, load_versions
from preuve.loaders import load_dossier
from tests.pdfs import write_text_pdf

MARKDOWN = (
    "---\nid: note-7\ntitle: Note de test\ndate: 2026-03-01\nversion: 2\n---\n"
    "Page un.\fPage deux.\n"
)


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        pytest.param("Rapport 2025.txt", "Un.\fDeux.\fTrois.", ("Rapport-2025", 1, "", 3),
                     id="form-feed-text"),
        pytest.param("note.md", MARKDOWN, ("note-7", 2, "2026-03-01", 2), id="front-matter"),
        pytest.param("plain.md", "# Titre\n\nTexte.", ("plain", 1, "", 1),
                     id="markdown-without-header"),
    ],
)  # fmt: skip
def test_a_text_file_becomes_one_document(
    tmp_path: Path, name: str, content: str, expected: tuple[str, int, str, int]
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    document = load_document(path)
    assert (document.doc_id, document.version, document.date, document.page_count) == expected


def test_a_pdf_becomes_its_extracted_pages(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    write_text_pdf(path, [["Premiere page du rapport."], ["Seconde page du rapport."]])
    document = load_document(path)
    assert (document.doc_id, document.page_count) == ("report", 2)
    assert "Seconde page" in document.pages[1]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param("---\nid: a\nlang: fr\n---\nTexte.", "unknown header key 'lang'", id="key"),
        pytest.param("---\nid: a\n---\n", "no text after its header", id="empty-body"),
        pytest.param("---\nversion: 0\n---\nTexte.", "version '0'", id="version"),
        pytest.param("---\nid: a\n", "not closed", id="unclosed"),
    ],
)
def test_a_bad_header_is_a_one_line_error_naming_the_file(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.md"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        load_document(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_a_synthesis_dossier_is_the_same_snapshot_as_its_own_loader_s(tmp_path: Path) -> None:
    folder = generate_synthesis_dossier(tmp_path).dossier
    snapshot = load_snapshot(folder)
    dossier = load_dossier(folder)
    assert [d.doc_id for d in snapshot] == sorted(dossier.ids)
    ours = dossier.snapshot()
    assert [(d.doc_id, d.title, d.date, d.text) for d in snapshot] == [
        (d.doc_id, d.title, d.date, d.text) for d in ours
    ]


def test_two_files_with_one_id_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("---\nid: same\n---\nUn.", encoding="utf-8")
    (tmp_path / "b.md").write_text("---\nid: same\n---\nDeux.", encoding="utf-8")
    with pytest.raises(InputError, match="already the id of"):
        load_snapshot(tmp_path)


def _versioned(root: Path) -> Path:
    for doc_id, versions in (("alpha", ("Un.", "Deux.")), ("beta", ("Trois.",))):
        for number, text in enumerate(versions, start=1):
            (root / doc_id).mkdir(parents=True, exist_ok=True)
            (root / doc_id / f"v{number}.txt").write_text(text, encoding="utf-8")
    (root / "manifest.json").write_text("{}", encoding="utf-8")  # a side file, not read
    return root


@pytest.mark.parametrize(
    ("versions", "default", "expected"),
    [
        pytest.param(None, "first", {"alpha": 1, "beta": 1}, id="first-versions"),
        pytest.param(None, "latest", {"alpha": 2, "beta": 1}, id="latest-versions"),
        pytest.param({"alpha": 2}, "first", {"alpha": 2, "beta": 1}, id="one-chosen"),
    ],
)
def test_a_versioned_folder_is_read_by_the_same_loader(
    tmp_path: Path, versions: dict[str, int] | None, default: Literal["first", "latest"],
    expected: dict[str, int],
) -> None:  # fmt: skip
    folder = _versioned(tmp_path / "dossier")
    snapshot = load_snapshot(folder, versions, default=default)
    assert {d.doc_id: d.version for d in snapshot} == expected
    assert snapshot == load_versions(folder, versions, default=default)


def test_versions_are_refused_outside_a_versioned_folder(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Un.", encoding="utf-8")
    with pytest.raises(InputError, match="versions are chosen in a versioned folder only"):
        load_snapshot(tmp_path, {"a": 2})
