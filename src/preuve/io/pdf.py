"""PDF (or form-feed text file) → one text per page: the reference text for every check.

pypdfium2 is not thread-safe: every call into it holds one process-wide lock.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from preuve.core.errors import DocumentError

__all__ = [
    "PDFIUM_LOCK",
    "char_lefts",
    "load_page",
    "load_pages",
    "pdf_positions",
    "read_pdf_pages",
    "read_text_pages",
]

# One process-wide lock: pdfium is not thread-safe (the viewer renders pages with it too).
PDFIUM_LOCK = threading.Lock()
_MIN_TEXT_CHARS = 1


def load_page(pdf: pdfium.PdfDocument, index: int, path: Path) -> pdfium.PdfPage:
    """Page ``index`` (from 0), or a one-line DocumentError: a page tree that loops, or
    names a missing or wrong object, leaves pdfium unable to load the page."""
    try:
        return pdf[index]
    except pdfium.PdfiumError as err:
        raise DocumentError(
            f"{path}: page {index + 1}: the page cannot be loaded ({err})",
            fix="the PDF's page tree is damaged; give a repaired copy",
        ) from None


def _fresh_load_error(path: Path) -> pdfium.PdfiumError | None:
    """pdfium's own reason for failing to open ``path``, or None when it fails without one.

    pdfium's error code is process-wide and a failed open does not always set it (a
    zero-page PDF leaves whatever an earlier file set: "password", "data format error").
    So the code is first set to "file not found", by opening a path below the file (which
    cannot exist), and the file is opened again: a code still at "file not found" is not
    this file's. Called with :data:`PDFIUM_LOCK` held, on the failure path only.
    """
    pdfium_c.FPDF_LoadDocument(str(path / "missing").encode(), None)  # NULL, sets the code
    try:
        pdfium.PdfDocument(str(path)).close()
    except pdfium.PdfiumError as err:
        return None if pdfium_c.FPDF_GetLastError() == pdfium_c.FPDF_ERR_FILE else err
    return None


def read_pdf_pages(path: Path) -> list[str]:
    """Extract the text of every page of a PDF, in order.

    Raises :class:`DocumentError` with a one-line message naming the file (and the page)
    for a missing, corrupt, encrypted, empty or image-only PDF.
    """
    if not path.is_file():
        raise DocumentError(f"{path}: no such file")
    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError:
            err = _fresh_load_error(path)
            reason = str(err).lower()
            # "password" counts only if the file has an /Encrypt entry.
            if "password" in reason and b"/Encrypt" in path.read_bytes():
                raise DocumentError(
                    f"{path}: the PDF is encrypted", fix="give a decrypted copy"
                ) from None
            if err is None or "password" in reason or "success" in reason:
                raise DocumentError(
                    f"{path}: not a readable PDF (no page could be loaded)"
                ) from None
            raise DocumentError(f"{path}: not a readable PDF ({err})") from None
        try:
            if len(pdf) == 0:
                raise DocumentError(f"{path}: the PDF has no pages")
            pages: list[str] = []
            for index in range(len(pdf)):
                page = load_page(pdf, index, path)
                try:
                    textpage = page.get_textpage()
                    try:
                        text = textpage.get_text_range()
                    finally:
                        textpage.close()
                except pdfium.PdfiumError as err:
                    raise DocumentError(
                        f"{path}: page {index + 1}: cannot extract text ({err})"
                    ) from None
                finally:
                    page.close()
                pages.append(text.replace("\r\n", "\n").replace("\r", "\n"))
        finally:
            pdf.close()
    if all(len(p.strip()) < _MIN_TEXT_CHARS for p in pages):
        raise DocumentError(
            f"{path}: page 1: no text layer (scanned or image-only PDF)",
            fix="run OCR first; preuve verifies against extracted text only",
        )
    return pages


def read_text_pages(path: Path) -> list[str]:
    """Read a UTF-8 text file whose pages are separated by form feeds (\\f)."""
    if not path.is_file():
        raise DocumentError(f"{path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise DocumentError(f"{path}: not UTF-8 text (byte {err.start})") from None
    pages = text.split("\f")
    if not any(p.strip() for p in pages):
        raise DocumentError(f"{path}: the document is empty")
    return pages


def load_pages(path: Path) -> list[str]:
    """Pages of a document: a PDF by its magic bytes, otherwise a form-feed text file."""
    if not path.is_file():
        raise DocumentError(f"{path}: no such file")
    with path.open("rb") as handle:
        head = handle.read(1024)
    if b"%PDF-" in head:
        return read_pdf_pages(path)
    if path.suffix.lower() == ".pdf":
        raise DocumentError(f"{path}: not a PDF (no %PDF- header)")
    return read_text_pages(path)


def char_lefts(path: Path, page_number: int, reference: str) -> list[float]:
    """The left x (PDF points) of each character of page ``page_number``'s (from 1)
    reference text, as :func:`read_pdf_pages` gives it; NaN for a character pdfium
    generated (a line break). Empty when the file is no PDF or pdfium's text of the page
    is not ``reference``: positions are never guessed."""
    try:
        with path.open("rb") as handle:
            if b"%PDF-" not in handle.read(1024):
                return []
    except OSError:
        return []
    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError:
            return []
        try:
            if not 0 < page_number <= len(pdf):
                return []
            page = pdf[page_number - 1]
            textpage = page.get_textpage()
            try:
                return _lefts(textpage, reference)
            finally:
                textpage.close()
                page.close()
        except pdfium.PdfiumError:
            return []
        finally:
            pdf.close()


def pdf_positions(path: str | Path, pages: Sequence[str]) -> Callable[[int], list[float]]:
    """Page N (from 1) → :func:`char_lefts` of the file at ``path`` for ``pages[N - 1]``
    (empty for a text file, a file not found here, or a page whose text differs)."""
    return lambda number: char_lefts(Path(path), number, pages[number - 1])


def _lefts(textpage: pdfium.PdfTextPage, reference: str) -> list[float]:
    raw = textpage.get_text_range()
    lefts: list[float] = []
    index = 0
    while index < len(raw):
        step = 2 if raw.startswith("\r\n", index) else 1
        char = int(pdfium_c.FPDFText_GetCharIndexFromTextIndex(textpage.raw, index))
        if step == 2 or raw[index] == "\r" or char < 0:
            lefts.append(math.nan)
        else:
            lefts.append(float(textpage.get_charbox(char)[0]))
        index += step
    if len(lefts) != len(reference):
        return []
    return lefts
