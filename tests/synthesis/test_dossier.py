"""The dossier input format: loading, and one-line errors naming the file and the line."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from preuve.core.errors import InputError
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.loaders import load_dossier
from preuve.synthesis.dossier import Dossier, parse_document
from preuve.synthesis.ranks import SourceType

GOOD_HEADER = "---\nid: doc-01\ntitle: Un titre\ndate: 2026-07-09\nsource_type: audit\n---\n"


def make_dossier(root: Path, documents: dict[str, str], question: str = "Quoi ?") -> Path:
    (root / "documents").mkdir(parents=True)
    (root / "question.md").write_text(question, encoding="utf-8")
    for name, text in documents.items():
        (root / "documents" / name).write_text(text, encoding="utf-8")
    return root


def test_loads_a_minimal_dossier(tmp_path: Path) -> None:
    folder = make_dossier(
        tmp_path,
        {
            "b.md": GOOD_HEADER.replace("doc-01", "doc-10") + "Texte dix.\n",
            "a.md": GOOD_HEADER.replace("doc-01", "doc-2") + "\nTexte deux.\n\n",
        },
        question="\n# Question\nLequel ?\n",
    )
    dossier = load_dossier(folder)
    assert dossier.question == "# Question\nLequel ?"
    assert dossier.ids == ("doc-2", "doc-10")  # natural order, not file order
    second = dossier.get("doc-2")
    assert second is not None
    info = dossier.source_infos()["doc-2"]
    assert (second.title, info.date, info.source_type, second.text) == (
        "Un titre",
        date(2026, 7, 9),
        SourceType.AUDIT,
        "Texte deux.",
    )
    assert dossier.get("doc-77") is None
    assert dossier.source_infos()["doc-10"].date == date(2026, 7, 9)


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> Dossier:
    info = generate_synthesis_dossier(tmp_path_factory.mktemp("synthesis"))
    return load_dossier(info.dossier)


def test_loads_the_bundled_dossier(bundled: Dossier) -> None:
    assert len(bundled.documents) == 32
    assert bundled.ids[0] == "doc-01" and bundled.ids[-1] == "doc-32"
    benchmark = bundled.get("doc-06")
    assert benchmark is not None
    info = bundled.source_infos()["doc-06"]
    assert info.source_type is SourceType.INTERNAL_BENCHMARK
    assert info.date == date(2026, 7, 9)
    assert "latence p95 de 340 ms" in benchmark.text
    assert "Kestrel Serve" in bundled.question


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        pytest.param("id: doc-01\n---\nTexte", 1, "must start with a '---'", id="no-fence"),
        pytest.param("", 1, "must start with a '---'", id="empty-file"),
        pytest.param("---\nid: doc-01\ntitle: T\n", 3, "not closed", id="unclosed"),
        pytest.param(
            GOOD_HEADER.replace("title: Un titre", "auteur: X"),
            3,
            "unknown header key 'auteur'",
            id="unknown-key",
        ),
        pytest.param(
            GOOD_HEADER.replace("title: Un titre", "title: A\ntitle: B"),
            4,
            "appears twice",
            id="duplicate-key",
        ),
        pytest.param(
            GOOD_HEADER.replace("title: Un titre", "title Un titre"),
            3,
            "is not 'key: value'",
            id="no-colon",
        ),
        pytest.param(
            GOOD_HEADER.replace("2026-07-09", "09/07/2026"), 4, "not an ISO date", id="date-fr"
        ),
        pytest.param(
            GOOD_HEADER.replace("2026-07-09", "2026-7-9"), 4, "not an ISO date", id="date-short"
        ),
        pytest.param(
            GOOD_HEADER.replace("2026-07-09", "2026-02-30"), 4, "does not exist", id="date-30-feb"
        ),
        pytest.param(
            GOOD_HEADER.replace("audit", "rumour"),
            5,
            "unknown source_type 'rumour'",
            id="bad-type",
        ),
        pytest.param(GOOD_HEADER.replace("doc-01", "doc 01"), 2, "must be one token", id="bad-id"),
        pytest.param(GOOD_HEADER.replace("Un titre", ""), 3, "empty value", id="empty-title"),
        pytest.param(
            GOOD_HEADER.replace("date: 2026-07-09\n", ""), 5, "misses date", id="missing-date"
        ),
        pytest.param(GOOD_HEADER + "\n  \n", 6, "no text after its header", id="empty-body"),
    ],
)
def test_malformed_document_names_file_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_document(text, "documents/x.md")
    rendered = str(caught.value)
    assert f"documents/x.md:{line}: " in rendered
    assert message in rendered
    assert "\n" not in rendered


def test_duplicate_id_names_the_second_file_and_the_first(tmp_path: Path) -> None:
    folder = make_dossier(
        tmp_path, {"a.md": GOOD_HEADER + "Un.\n", "b.md": GOOD_HEADER + "Deux.\n"}
    )
    with pytest.raises(InputError) as caught:
        load_dossier(folder)
    rendered = str(caught.value)
    assert f"{folder / 'documents' / 'b.md'}:2: duplicate id 'doc-01'" in rendered
    assert str(folder / "documents" / "a.md") in rendered


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        pytest.param("no-question", "question.md: missing", id="no-question"),
        pytest.param("empty-question", "question.md:1: the question is empty", id="empty-q"),
        pytest.param("no-documents", "no document (*.md) found", id="no-documents"),
        pytest.param("not-utf8", "not UTF-8 text", id="not-utf8"),
    ],
)
def test_malformed_dossier(tmp_path: Path, layout: str, message: str) -> None:
    folder = make_dossier(tmp_path, {"a.md": GOOD_HEADER + "Un.\n"})
    if layout == "no-question":
        (folder / "question.md").unlink()
    elif layout == "empty-question":
        (folder / "question.md").write_text("  \n", encoding="utf-8")
    elif layout == "no-documents":
        (folder / "documents" / "a.md").unlink()
    else:
        (folder / "documents" / "a.md").write_bytes(GOOD_HEADER.encode() + b"caf\xe9\n")
    with pytest.raises(InputError, match=r"\(see the dossier format"):
        load_dossier(folder)
    with pytest.raises(InputError) as caught:
        load_dossier(folder)
    assert message in str(caught.value)


def test_not_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is not a folder"):
        load_dossier(tmp_path / "absent")


def test_accepts_crlf_and_bom(tmp_path: Path) -> None:
    text = "\ufeff" + (GOOD_HEADER + "Texte.\n").replace("\n", "\r\n")
    folder = make_dossier(tmp_path, {})
    (folder / "documents" / "a.md").write_bytes(text.encode("utf-8"))
    assert load_dossier(folder).documents[0].text == "Texte."


def test_never_reads_the_gold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = generate_synthesis_dossier(tmp_path)
    opened: list[Path] = []
    original = Path.read_text

    def spy(self: Path, *args: object, **kwargs: object) -> str:
        opened.append(self)
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", spy)
    load_dossier(info.dossier)
    assert len(opened) == 33  # question.md and the 32 documents
    assert all(info.dossier in path.parents for path in opened)
    assert not any("gold" in path.parts for path in opened)
