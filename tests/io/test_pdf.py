"""io.pdf: real PDFs through pypdfium2; every unreadable input is one DocumentError line."""

from __future__ import annotations

from pathlib import Path

import pytest

from preuve.core.errors import DocumentError
from preuve.io.pdf import load_pages
from tests.pdfs import write_image_only_pdf, write_text_pdf


def test_pages_come_back_in_order(tmp_path: Path) -> None:
    pdf = write_text_pdf(tmp_path / "r.pdf", [["First page line"], ["Second page", "more"]])
    pages = load_pages(pdf)
    assert len(pages) == 2
    assert "First page line" in pages[0]
    assert "Second page" in pages[1] and "more" in pages[1]


def test_text_file_pages_split_on_form_feed(tmp_path: Path) -> None:
    doc = tmp_path / "r.txt"
    doc.write_text("page one\fpage two\fpage three", encoding="utf-8")
    assert load_pages(doc) == ["page one", "page two", "page three"]


@pytest.mark.parametrize(
    ("name", "make", "message"),
    [
        ("missing", lambda p: p / "nope.pdf", "no such file"),
        (
            "corrupt",
            lambda p: _write(p / "c.pdf", b"%PDF-1.7\n garbage \x00\x01"),
            "not a readable PDF",
        ),
        (
            "truncated",
            lambda p: _truncate(write_text_pdf(p / "t.pdf", [["some text here"]] * 3)),
            "not a readable PDF",
        ),
        ("image-only", lambda p: write_image_only_pdf(p / "scan.pdf"), "no text layer"),
        (
            "encrypted",
            lambda p: write_text_pdf(p / "e.pdf", [["secret"]], password="pw"),
            "encrypted",
        ),
        ("not a pdf", lambda p: _write(p / "x.pdf", b"hello"), "not a PDF"),
        ("not utf-8", lambda p: _write(p / "x.txt", b"caf\xe9"), "not UTF-8"),
        ("empty text", lambda p: _write(p / "x.txt", b"  \f \n"), "empty"),
    ],
)
def test_unreadable_documents_are_one_line_errors(
    tmp_path: Path, name: str, make: object, message: str
) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(DocumentError) as caught:
        load_pages(path)
    text = str(caught.value)
    assert message in text, name
    assert "\n" not in text
    assert str(path) in text


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _truncate(path: Path) -> Path:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    return path
