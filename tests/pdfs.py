"""Real PDFs built by the tests themselves (reportlab), read back through pypdfium2."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

__all__ = ["write_image_only_pdf", "write_text_pdf"]


def write_text_pdf(path: Path, pages: Sequence[Sequence[str]], *, password: str = "") -> Path:
    """One PDF page per item, each a list of lines drawn top to bottom in Helvetica."""
    canvas = Canvas(str(path), pagesize=A4, invariant=True, encrypt=password or None)
    for lines in pages:
        text = canvas.beginText(50, 800)
        text.setFont("Helvetica", 11)
        for line in lines:
            text.textLine(line)
        canvas.drawText(text)
        canvas.showPage()
    canvas.save()
    return path


def write_image_only_pdf(path: Path, n_pages: int = 2) -> Path:
    """A 'scanned' PDF: drawings only, no text layer."""
    canvas = Canvas(str(path), pagesize=A4, invariant=True)
    for _ in range(n_pages):
        canvas.rect(50, 400, 400, 300, fill=1)
        canvas.showPage()
    canvas.save()
    return path
