"""Adapters from a run folder to the viewer's view models: one function per section.

Run files are read back typed through :class:`preuve.io.runfolder.RunFolder` (the types
are declared beside each workflow: ``memo/run_files.py``, ``synthesis/run_files.py``,
``digest/run_files.py``); one adapter per section turns them into view models:

=============  =========================================================================
section        adapter and files read (in the run folder or two levels below)
=============  =========================================================================
memo           :func:`load_memo`: ``run.json`` (``MemoRunFile``) beside ``memo.md``
dashboard      :func:`load_dashboard`: ``dashboard.json`` (``DashboardFile``)
synthesis      :func:`load_synthesis`: ``trajectory.json``, ``score.json`` if graded
digest         :func:`load_digest`: ``digest.sqlite`` (read-only) and ``serve.json``
journal        :func:`load_journal`: every ``journal.sqlite`` and the digest generations
index, page    :func:`load_index`, :func:`load_page`: every ``documents.json``
=============  =========================================================================

A missing or malformed file never breaks a page: the adapter returns the view with a
one-line problem, and the page says what is wrong (``preuve view`` itself first reads every
typed run file back and refuses to start on a malformed one, exit 2).
"""

from __future__ import annotations

from preuve.web.layout import RunLayout, run_entries
from preuve.web.memo_loaders import load_dashboard, load_memo
from preuve.web.pages import DocumentLibrary, Registry
from preuve.web.store_loaders import load_digest, load_journal
from preuve.web.synthesis_loaders import load_synthesis
from preuve.web.views import (
    IndexView,
    PageView,
    RunEntry,
    SectionEntry,
    image_href,
    page_href,
)

__all__ = [
    "MAX_SHOWN_CHARS",
    "load_dashboard",
    "load_digest",
    "load_index",
    "load_journal",
    "load_memo",
    "load_page",
    "load_synthesis",
]


# A page of 100 MB is shown around its span, not sent whole.
MAX_SHOWN_CHARS = 200_000


# --- index ----------------------------------------------------------------------------------


def load_index(layout: RunLayout, registry: Registry) -> IndexView:
    sections = (
        SectionEntry(
            "memo",
            "Credit memos",
            "/memo",
            "Each paragraph with its sources; each quote on its page.",
            run_entries("memo", layout.memo),
        ),
        SectionEntry(
            "dashboard",
            "Dashboards",
            "/dashboard",
            "One row per company: fields, ratios, memo status, signals.",
            run_entries("dashboard", layout.memo),
        ),
        SectionEntry(
            "synthesis",
            "Synthesis",
            "/synthesis",
            "Contradictions arbitrated by rule, the trajectory and the grid score.",
            run_entries("synthesis", layout.synthesis),
        ),
        SectionEntry(
            "digest",
            "Digest",
            "/digest",
            "The summary tree, cache hits, history, and refusals of stale output.",
            run_entries("digest", layout.digest),
        ),
        SectionEntry(
            "journal",
            "Model calls",
            "/journal",
            "Every call: task, model, finish reason, tokens, raw output.",
            tuple(RunEntry(key, key, "/journal") for key in (*layout.journals, *layout.digest)),
        ),
    )
    documents = tuple(
        (doc.id, doc.title, page_href(doc.id, 1)) for doc in registry.documents.values()
    )
    return IndexView(layout.root.name, sections, documents, layout.refused + registry.problems)


# --- one page -------------------------------------------------------------------------------


def load_page(
    library: DocumentLibrary, doc: str, page: int, span: tuple[int, int] | None
) -> PageView | None:
    """The page view, or None when the document or page does not exist. A span outside the
    page raises ValueError (the caller answers 400)."""
    document = library.registry().get(doc)
    if document is None:
        return None
    pages = library.pages(document)
    if not 1 <= page <= len(pages):
        return None
    text = pages[page - 1]
    start, end = span if span is not None else (0, 0)
    if span is not None and not 0 <= start < end <= len(text):
        raise ValueError(f"span {start}:{end} is outside page {page} ({len(text)} characters)")
    first, last = _window(len(text), start, end)
    boxes = library.boxes(document, page, span) if span is not None else []
    image = ""
    note = ""
    if document.is_pdf:
        image = image_href(doc, page, *span) if span is not None else image_href(doc, page)
        if span is not None and not boxes:
            note = "The span could not be mapped onto the page image: see the text."
    neighbours = tuple(
        (label, page_href(doc, number))
        for label, number in (("previous page", page - 1), ("next page", page + 1))
        if 1 <= number <= len(pages)
    )
    return PageView(
        doc=doc,
        title=document.title,
        page=page,
        n_pages=len(pages),
        before=text[first:start],
        marked=text[start : min(end, last)],
        after=text[min(end, last) : last],
        image_href=image,
        note=note,
        boxes=len(boxes),
        neighbours=neighbours,
        start=start,
        end=end,
        shown=(
            f"This page has {len(text)} characters: characters {first}–{last} are shown."
            if (first, last) != (0, len(text))
            else ""
        ),
    )


def _window(length: int, start: int, end: int) -> tuple[int, int]:
    """The part of a page to show: all of it, or :data:`MAX_SHOWN_CHARS` from a little
    before the span."""
    if length <= MAX_SHOWN_CHARS:
        return 0, length
    first = max(0, min(start - MAX_SHOWN_CHARS // 4, length - MAX_SHOWN_CHARS))
    return first, first + MAX_SHOWN_CHARS
