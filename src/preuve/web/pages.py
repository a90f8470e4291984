"""Documents of a run folder, looked up by id, and their pages: text, image, highlight boxes.

A run folder lists its documents in registries (``documents.json``, in the folder or one
level below)::

    {"format": "preuve-documents/1",
     "documents": [{"id": "ferlac", "title": "Maison Ferlac SAS - rapport 2025",
                    "path": "reports/ferlac.pdf"}]}

The viewer only ever receives a document *id* from a request; the id is looked up in the
registry, and a registered path must resolve (symlinks followed) inside the run folder, so
no request and no registry can make the viewer read another file; a registered file that
is a hard link (another name of a file that may live anywhere) is refused too. A bad entry
(a NUL byte, an over-long path, a symlink loop) is skipped and reported; the others stay
browsable. Registries are read again only when one of them changes (size, mtime, inode),
and one over :data:`MAX_REGISTRY_BYTES` is refused. Page text comes from
:func:`preuve.io.pdf.load_pages`, the very text every span was verified against, so
``text[start:end]`` is the quote.

For a PDF the page is also rendered as a PNG by pypdfium2 with the span's characters
boxed: a page-text index maps to pdfium's text index (pdfium writes ``\\r\\n`` where the
reference text has ``\\n``), then to its char index, then to its box. When the extracted
text does not match the reference text exactly, no box is drawn (the text highlight
remains the reference). A page is rendered at twice its size, scaled down so that the
bitmap never exceeds :data:`MAX_RENDER_PIXELS` (a 14 400 pt page would otherwise be a
3 GB bitmap), on one render thread per library (one render at a time, whatever the
number of server threads). pypdfium2 is not thread-safe: every call holds the same
process-wide lock as :mod:`preuve.io.pdf`.
"""

from __future__ import annotations

import io
import json
import math
import re
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, ImageDraw

from preuve.core.documents import PAGE_SEPARATOR
from preuve.core.errors import DocumentError
from preuve.core.evidence import Span
from preuve.io.files import read_capped
from preuve.io.pdf import PDFIUM_LOCK, load_page, load_pages
from preuve.io.registry import REGISTRY_NAME

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_REGISTRY_BYTES",
    "MAX_RENDER_PIXELS",
    "REGISTRY_NAME",
    "Box",
    "DocumentLibrary",
    "RegisteredDocument",
    "Registry",
    "load_registry",
    "merge_line_boxes",
    "reference_index_map",
    "render_scale",
    "span_on_page",
]


RENDER_SCALE = 2.0
# An A4 page at twice its size is 2 megapixels; 4 keeps a bitmap (and its copies) small.
MAX_RENDER_PIXELS = 4_000_000
MAX_RENDER_SIDE = 6_000
MAX_REGISTRY_BYTES = 4 * 1024 * 1024
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
# Ids are names, not paths: no slash, no backslash, no leading dot.
_DOC_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@:+-]{0,199}")
_PAGE_CACHE_SIZE = 32
_HIGHLIGHT_FILL = (255, 208, 0, 96)
_HIGHLIGHT_LINE = (214, 140, 0, 255)

Box = tuple[float, float, float, float]  # left, bottom, right, top in PDF units


@dataclass(frozen=True, slots=True)
class RegisteredDocument:
    id: str
    title: str
    path: Path

    @property
    def is_pdf(self) -> bool:
        try:
            with self.path.open("rb") as handle:
                return b"%PDF-" in handle.read(1024)
        except OSError:
            return False  # gone since it was registered: its pages say so


@dataclass(frozen=True, slots=True)
class Registry:
    documents: Mapping[str, RegisteredDocument]
    problems: tuple[str, ...] = ()

    def get(self, doc_id: str) -> RegisteredDocument | None:
        return self.documents.get(doc_id)

    def by_path(self, path: Path) -> RegisteredDocument | None:
        """The registered document stored at ``path`` (as a run recorded it), if any."""
        try:
            wanted = path.resolve()
        except OSError:
            return None
        return next((d for d in self.documents.values() if d.path == wanted), None)


def span_on_page(pages: Sequence[str], span: Span) -> tuple[int, int, int] | None:
    """``(page, start, end)`` of ``span`` on its page of the registered text ``pages``
    (offsets of a span index the pages joined by form feeds), or None when that text does
    not hold the span's quote there: the viewer then highlights nothing rather than the
    wrong characters."""
    if span.page is None or not 1 <= span.page <= len(pages):
        return None
    offset = sum(len(page) + len(PAGE_SEPARATOR) for page in pages[: span.page - 1])
    start, end = span.start - offset, span.end - offset
    text = pages[span.page - 1]
    if not 0 <= start < end <= len(text) or text[start:end] != span.quote:
        return None
    return span.page, start, end


def _entries(path: Path) -> tuple[list[object], str | None]:
    try:
        raw = read_capped(path, MAX_REGISTRY_BYTES, cap="viewer's limit")
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError) as err:
        why = "a symbolic link" if isinstance(err, OSError) and path.is_symlink() else err
        return [], f"{path.name}: unreadable registry ({why})"
    if not isinstance(data, dict) or not isinstance(data.get("documents"), list):
        return [], f"{path.name}: expected {{'documents': [...]}}"
    return list(data["documents"]), None


def _printable(value: object) -> str:
    return repr(str(value)[:60])


def _located(base: Path, rel: str, root: Path) -> Path | str:
    """The registered file, or why it is refused (never an exception: a NUL byte, an
    over-long name or a symlink loop makes ``resolve`` raise)."""
    try:
        resolved = (base / rel).resolve()
        if not resolved.is_relative_to(root) or not resolved.is_file():
            return "is not a file inside the run folder"
        info = resolved.stat()
    except (OSError, ValueError, RuntimeError) as err:
        return f"cannot be resolved ({type(err).__name__})"
    if info.st_nlink > 1:
        return "is a hard link (the same file may live outside the run folder): refused"
    if info.st_size > MAX_DOCUMENT_BYTES:
        return f"is {info.st_size} bytes, over the viewer's limit of {MAX_DOCUMENT_BYTES}"
    return resolved


def _checked(entry: object, base: Path, root: Path) -> RegisteredDocument | str:
    if not isinstance(entry, dict):
        return "a registry entry is not an object"
    doc_id, rel, title = entry.get("id"), entry.get("path"), entry.get("title", "")
    if not isinstance(doc_id, str) or not _DOC_ID.fullmatch(doc_id):
        return f"document id {_printable(doc_id)} refused (letters, digits, . _ @ : + - only)"
    if not isinstance(rel, str) or not rel:
        return f"document {doc_id}: no path"
    located = _located(base, rel, root)
    if isinstance(located, str):
        return f"document {doc_id}: {_printable(rel)} {located}"
    return RegisteredDocument(doc_id, str(title) or doc_id, located)


def load_registry(root: Path, files: Sequence[Path]) -> Registry:
    """Every document registered in ``files``; an id registered twice is refused, and so
    is each bad entry (reported in ``problems``), the others kept."""
    root = root.resolve()
    found: dict[str, RegisteredDocument] = {}
    problems: list[str] = []
    twice: set[str] = set()
    for path in files:
        entries, problem = _entries(path)
        if problem:
            problems.append(problem)
        for entry in entries:
            checked = _checked(entry, path.parent, root)
            if isinstance(checked, str):
                problems.append(checked)
            elif checked.id in found:
                twice.add(checked.id)
            else:
                found[checked.id] = checked
    for doc_id in sorted(twice):
        problems.append(f"document {doc_id} is registered twice: not shown")
        del found[doc_id]
    return Registry(found, tuple(problems))


def render_scale(width: float, height: float) -> float:
    """The scale a page of ``width`` × ``height`` points is rendered at: twice its size,
    less when that would exceed :data:`MAX_RENDER_PIXELS` or :data:`MAX_RENDER_SIDE`."""
    if not (width > 0 and height > 0 and math.isfinite(width * height)):
        return 0.0
    by_area = math.sqrt(MAX_RENDER_PIXELS / (width * height))
    return min(RENDER_SCALE, by_area, MAX_RENDER_SIDE / width, MAX_RENDER_SIDE / height)


def reference_index_map(raw: str) -> tuple[str, list[int]]:
    """pdfium's text → the reference text (``\\r\\n`` and ``\\r`` as ``\\n``, as in
    :func:`preuve.io.pdf.read_pdf_pages`), and for each reference index its raw index."""
    chars: list[str] = []
    indices: list[int] = []
    index = 0
    while index < len(raw):
        if raw.startswith("\r\n", index):
            chars.append("\n")
            indices.append(index + 1)
            index += 2
            continue
        chars.append("\n" if raw[index] == "\r" else raw[index])
        indices.append(index)
        index += 1
    return "".join(chars), indices


def merge_line_boxes(boxes: Sequence[Box]) -> list[Box]:
    """Character boxes, in reading order, merged into one box per line."""
    lines: list[Box] = []
    for left, bottom, right, top in boxes:
        if right - left <= 0 or top - bottom <= 0:
            continue  # generated characters (line ends) have no extent
        if lines:
            l0, b0, r0, t0 = lines[-1]
            middle = (bottom + top) / 2
            if b0 <= middle <= t0 and left >= l0 - 1:
                lines[-1] = (min(l0, left), min(b0, bottom), max(r0, right), max(t0, top))
                continue
        lines.append((left, bottom, right, top))
    return lines


def _span_boxes(textpage: pdfium.PdfTextPage, reference: str, start: int, end: int) -> list[Box]:
    raw = textpage.get_text_range()
    text, indices = reference_index_map(raw)
    if text != reference:
        return []  # pdfium's view differs from the reference text: do not guess
    boxes: list[Box] = []
    for index in range(start, end):
        if reference[index].isspace():
            continue
        char = int(pdfium_c.FPDFText_GetCharIndexFromTextIndex(textpage.raw, indices[index]))
        if char >= 0:
            left, bottom, right, top = textpage.get_charbox(char, loose=True)
            boxes.append((float(left), float(bottom), float(right), float(top)))
    return merge_line_boxes(boxes)


def _stat_key(path: Path) -> tuple[str, int, int, int] | None:
    try:
        info = path.lstat()
    except OSError:
        return None
    return (str(path), info.st_mtime_ns, info.st_size, info.st_ino)


class DocumentLibrary:
    """Pages of the documents registered in a run folder (one per app: no global state)."""

    def __init__(self, root: Path, registry_files: Sequence[Path]) -> None:
        self.root = root.resolve()
        self._files = tuple(registry_files)
        self._cache: dict[tuple[str, int, int], list[str]] = {}
        self._cache_lock = threading.Lock()
        self._registry: tuple[object, Registry] | None = None
        # Renders run one at a time on one thread: a bitmap of up to MAX_RENDER_PIXELS and
        # its copies are then allocated (and freed) in one malloc arena, not in one per
        # server thread, each of which would keep its freed bitmaps mapped.
        self._renderer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="preuve-render")
        self.registry_loads = 0  # how many times the registries were read (for tests)

    def registry(self) -> Registry:
        """The registry, read again only when a ``documents.json`` changed."""
        key = tuple(_stat_key(path) for path in self._files)
        with self._cache_lock:
            if self._registry is not None and self._registry[0] == key:
                return self._registry[1]
        registry = load_registry(self.root, self._files)
        with self._cache_lock:
            self._registry = (key, registry)
            self.registry_loads += 1
        return registry

    def pages(self, document: RegisteredDocument) -> list[str]:
        """The reference text of every page (cached while the file is unchanged); a
        DocumentError when the file is gone or unreadable."""
        try:
            stat = document.path.stat()
        except OSError as err:
            raise DocumentError(f"{document.id}: unreadable ({err.strerror})") from None
        key = (str(document.path), stat.st_mtime_ns, stat.st_size)
        with self._cache_lock:
            cached = self._cache.get(key)
        if cached is not None:
            return cached
        pages = load_pages(document.path)
        with self._cache_lock:
            if len(self._cache) >= _PAGE_CACHE_SIZE:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = pages
        return pages

    def boxes(
        self, document: RegisteredDocument, page: int, span: tuple[int, int] | None
    ) -> list[Box]:
        """Line boxes (PDF units) around ``span`` of ``page`` (from 1); [] when unmappable."""
        if span is None or not document.is_pdf:
            return []
        reference = self.pages(document)[page - 1]
        with PDFIUM_LOCK:
            pdf = _open(document.path)
            try:
                pdf_page = load_page(pdf, page - 1, Path(document.id))
                textpage = pdf_page.get_textpage()
                try:
                    return _span_boxes(textpage, reference, *span)
                finally:
                    textpage.close()
                    pdf_page.close()
            finally:
                pdf.close()

    def png(self, document: RegisteredDocument, page: int, span: tuple[int, int] | None) -> bytes:
        """The page rendered as a PNG (at most :data:`MAX_RENDER_PIXELS`), the span's lines
        boxed in yellow."""
        return self._renderer.submit(self._png, document, page, span).result()

    def _png(self, document: RegisteredDocument, page: int, span: tuple[int, int] | None) -> bytes:
        boxes = self.boxes(document, page, span)
        with PDFIUM_LOCK:
            pdf = _open(document.path)
            try:
                pdf_page = load_page(pdf, page - 1, Path(document.id))
                try:
                    scale = render_scale(*pdf_page.get_size())
                    if scale <= 0:
                        raise DocumentError(f"{document.id}: page {page} has no size")
                    bitmap = pdf_page.render(scale=scale)
                    convert = bitmap.get_posconv(pdf_page)
                    corners = [
                        (convert.to_bitmap(left, top), convert.to_bitmap(right, bottom))
                        for left, bottom, right, top in boxes
                    ]
                    image = bitmap.to_pil()
                    image = image.convert("RGBA") if corners else image.convert("RGB")
                    bitmap.close()
                finally:
                    pdf_page.close()
            finally:
                pdf.close()
        return _highlighted_png(image, corners, scale)


def _open(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as err:
        raise DocumentError(f"{path.name}: not a readable PDF ({err})") from None


def _highlighted_png(
    image: Image.Image,
    corners: Sequence[tuple[tuple[float, float], tuple[float, float]]],
    scale: float,
) -> bytes:
    out = io.BytesIO()
    if not corners:  # nothing to box: no overlay, no composite (two bitmaps fewer)
        image.save(out, format="PNG", compress_level=6)
        return out.getvalue()
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    # Loose glyph boxes already span the line height: pad sideways only, so lines don't overlap.
    pad = 1.5 * scale
    for (x0, y0), (x1, y1) in corners:
        left, right = sorted((x0, x1))
        top, bottom = sorted((y0, y1))
        draw.rectangle(
            (left - pad, top, right + pad, bottom),
            fill=_HIGHLIGHT_FILL,
            outline=_HIGHLIGHT_LINE,
            width=2,
        )
    Image.alpha_composite(image, overlay).convert("RGB").save(out, format="PNG", compress_level=6)
    return out.getvalue()
