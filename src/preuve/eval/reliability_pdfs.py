"""Hand-built hostile PDFs: a memory bomb and damaged page trees.

Each is a few hundred bytes written object by object, with a correct cross-reference
table, so pdfium opens the file and meets the attack where a reader would:

- :func:`write_huge_page_pdf`: one page of 14 400 × 14 400 pt (the largest PDF allows):
  rendered at twice its size, that would be an 828-megapixel, 3.3 GB bitmap;
- :func:`write_page_loop_pdf`: the page tree lists itself as its own second kid;
- :func:`write_missing_page_pdf`: the page tree names an object that does not exist.

The first page of every file has a text layer (so only the damaged page is unreadable).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = [
    "HOSTILE_PDFS",
    "HUGE_PAGE_POINTS",
    "PAGE_TEXT",
    "write_huge_page_pdf",
    "write_missing_page_pdf",
    "write_page_loop_pdf",
]

HUGE_PAGE_POINTS = 14_400
PAGE_TEXT = "Le premier client du groupe represente 38 % du chiffre"
_CONTENT = f"BT /F1 12 Tf 72 720 Td ({PAGE_TEXT}) Tj ET".encode("ascii")
_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
_CATALOG = b"<< /Type /Catalog /Pages 2 0 R >>"


def _assemble(objects: Sequence[bytes]) -> bytes:
    out = b"%PDF-1.7\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("ascii")
    out += b"".join(f"{offset:010d} 00000 n \n".encode("ascii") for offset in offsets)
    trailer = f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return out + trailer.encode("ascii")


def _page(width: int, height: int) -> bytes:
    return (
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} {height}] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>"
    ).encode("ascii")


def _stream() -> bytes:
    return b"<< /Length %d >>\nstream\n" % len(_CONTENT) + _CONTENT + b"\nendstream"


def _write(path: Path, kids: str, count: int, page: bytes) -> Path:
    pages = f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode("ascii")
    path.write_bytes(_assemble((_CATALOG, pages, page, _stream(), _FONT)))
    return path


def write_huge_page_pdf(path: Path) -> Path:
    """One readable page of 14 400 × 14 400 pt (the file is about 600 bytes)."""
    return _write(path, "3 0 R", 1, _page(HUGE_PAGE_POINTS, HUGE_PAGE_POINTS))


def write_page_loop_pdf(path: Path) -> Path:
    """Two pages announced; the second kid of the page tree is the page tree itself."""
    return _write(path, "3 0 R 2 0 R", 2, _page(612, 792))


def write_missing_page_pdf(path: Path) -> Path:
    """Two pages announced; the second kid names object 9, which the file does not hold."""
    return _write(path, "3 0 R 9 0 R", 2, _page(612, 792))


# name → writer: the crafted PDFs the matrix and the viewer measurement go through.
HOSTILE_PDFS: dict[str, Callable[[Path], Path]] = {
    "huge-page": write_huge_page_pdf,
    "page-tree-loop": write_page_loop_pdf,
    "missing-page-object": write_missing_page_pdf,
}
