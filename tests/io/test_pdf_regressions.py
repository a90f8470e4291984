"""Regressions of preuve.io.pdf found by the reliability matrix.

pdfium's error code is process-wide: a zero-page PDF fails to load without setting one,
so after an encrypted PDF it read as "the PDF is encrypted"; alone, as "PDFium: Success";
after a corrupt one, as "Data format error" (seen in a full run, by test order).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from preuve.core.errors import DocumentError
from preuve.eval.reliability_files import (
    REPORT_PAGES,
    write_encrypted_pdf,
    write_text_pdf,
    write_zero_page_pdf,
)
from preuve.io.pdf import load_pages


@pytest.mark.parametrize(
    "before", ["", "encrypted", "corrupt"], ids=["alone", "after-encrypted", "after-corrupt"]
)
def test_a_zero_page_pdf_is_unreadable_not_encrypted(tmp_path: Path, before: str) -> None:
    if before == "encrypted":
        with pytest.raises(DocumentError, match="encrypted"):
            load_pages(write_encrypted_pdf(tmp_path / "locked.pdf"))
    if before == "corrupt":
        corrupt = tmp_path / "corrupt.pdf"
        corrupt.write_bytes(b"%PDF-1.4\nnot a PDF body\n")
        with pytest.raises(DocumentError, match="Data format error"):
            load_pages(corrupt)
    with pytest.raises(DocumentError) as caught:
        load_pages(write_zero_page_pdf(tmp_path / "empty.pdf"))
    message = str(caught.value)
    assert message.endswith("empty.pdf: not a readable PDF (no page could be loaded)")


def test_a_good_pdf_still_loads_after_failures(tmp_path: Path) -> None:
    with pytest.raises(DocumentError):
        load_pages(write_zero_page_pdf(tmp_path / "empty.pdf"))
    pages = load_pages(write_text_pdf(tmp_path / "ok.pdf", REPORT_PAGES))
    assert len(pages) == 2 and "38 %" in pages[0]
