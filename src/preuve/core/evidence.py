"""Spans (evidence): exact pieces of a document version's text, and their validation.

One :class:`Span` type is the evidence of every workflow: a quote of workflow 1 resolved by
the quote check (``QuoteResult.span``, a memo signal's ``span``), the passage each source of
a workflow 2 statement rests on, and the lines a digest claim cites.

A span is ``doc_id, version, page (optional), start, end, quote, text_sha256``; ``start``
and ``end`` are half-open Python ``str`` indices into :attr:`Document.text` (pages joined
by a form feed), and its id is ``"{doc_id}@{version}:{start}:{end}"``.

Spans coming back from a model or a stored run are untrusted data: :func:`validate_span`
accepts a :class:`Span` or any mapping, never raises on odd types, and says precisely why a
span is not usable against a :class:`~preuve.core.documents.Snapshot`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from preuve.core.documents import Document, Snapshot

__all__ = [
    "Span",
    "SpanCheck",
    "SpanStatus",
    "make_span",
    "parse_span_id",
    "resolve_span_id",
    "span_from_mapping",
    "span_id",
    "validate_span",
]

# ASCII digits only (``\d`` would accept other scripts' digits) and no leading zeros, so
# that one span has exactly one id. The doc id is greedy: it may itself contain "@" or ":".
_SPAN_ID = re.compile(r"(\S+)@(0|[1-9][0-9]*):(0|[1-9][0-9]*):(0|[1-9][0-9]*)")
_QUOTE_PREVIEW = 60


def _is_int(value: object) -> bool:
    # bool is a subclass of int; True is not an offset.
    return isinstance(value, int) and not isinstance(value, bool)


def span_id(doc_id: str, version: int, start: int, end: int) -> str:
    """The id of a span: ``"{doc_id}@{version}:{start}:{end}"``."""
    return f"{doc_id}@{version}:{start}:{end}"


def parse_span_id(span_id: str) -> tuple[str, int, int, int]:
    """``(doc_id, version, start, end)`` from a span id; ``ValueError`` if malformed."""
    match = _SPAN_ID.fullmatch(span_id) if isinstance(span_id, str) else None
    if match is None:
        raise ValueError(f"{span_id!r} is not a span id of the form doc@version:start:end")
    doc_id, version, start, end = match.groups()
    return doc_id, int(version), int(start), int(end)


@dataclass(frozen=True, slots=True)
class Span:
    """A located, exact piece of one version's text: ``text[start:end] == quote``."""

    doc_id: str
    version: int
    start: int
    end: int
    quote: str
    text_sha256: str
    page: int | None = None

    @property
    def id(self) -> str:
        return span_id(self.doc_id, self.version, self.start, self.end)

    @property
    def text(self) -> str:
        """The exact text of the span (``quote``: the document's characters, not a model's)."""
        return self.quote

    def as_dict(self) -> dict[str, object]:
        """Plain JSON-ready form, with its id (read back by :func:`span_from_mapping`)."""
        return {
            "id": self.id,
            "doc_id": self.doc_id,
            "version": self.version,
            "page": self.page,
            "start": self.start,
            "end": self.end,
            "quote": self.quote,
            "text_sha256": self.text_sha256,
        }


def make_span(doc: Document, start: int, end: int) -> Span:
    """The span ``doc.text[start:end]``, with its page; ``ValueError`` on bad offsets."""
    text = doc.text
    if not (_is_int(start) and _is_int(end) and 0 <= start < end <= len(text)):
        raise ValueError(
            f"document {doc.doc_id}@{doc.version}: offsets {start!r}:{end!r} are not "
            f"0 <= start < end <= {len(text)}"
        )
    return Span(
        doc_id=doc.doc_id,
        version=doc.version,
        start=start,
        end=end,
        quote=text[start:end],
        text_sha256=doc.text_sha256,
        page=doc.page_of(start),
    )


class SpanStatus(StrEnum):
    """Why a span is, or is not, usable against a snapshot."""

    VALID = "valid"
    MALFORMED = "malformed"
    DOCUMENT_ABSENT = "document_absent"
    WITHDRAWN = "withdrawn"
    NOT_ELIGIBLE = "not_eligible"
    STALE_VERSION = "stale_version"
    STALE_HASH = "stale_hash"
    BAD_OFFSETS = "bad_offsets"
    PAGE_MISMATCH = "page_mismatch"
    QUOTE_MISMATCH = "quote_mismatch"
    ID_MISMATCH = "id_mismatch"


@dataclass(frozen=True, slots=True)
class SpanCheck:
    """The verdict on one span; ``span`` is the span read from the input, when readable."""

    status: SpanStatus
    detail: str
    span: Span | None = None

    @property
    def ok(self) -> bool:
        return self.status is SpanStatus.VALID


def span_from_mapping(data: Mapping[str, object]) -> Span:
    """A :class:`Span` from untrusted data; ``ValueError`` naming the first bad field.

    Offsets are not checked against any text here (see :func:`validate_span`), only typed.
    """
    candidate: object = data  # untrusted: the annotation is what callers should pass
    if not isinstance(candidate, Mapping):
        raise ValueError(f"a span must be an object, not {type(candidate).__name__}")
    for name in ("doc_id", "quote", "text_sha256"):
        if not isinstance(data.get(name), str):
            raise ValueError(f"span field {name!r} must be a string")
    for name in ("version", "start", "end"):
        if not _is_int(data.get(name)):
            raise ValueError(f"span field {name!r} must be an integer, not {data.get(name)!r}")
    page = data.get("page")
    if page is not None and not _is_int(page):
        raise ValueError(f"span field 'page' must be an integer or null, not {page!r}")
    return Span(
        doc_id=str(data["doc_id"]),
        version=_as_int(data["version"]),
        start=_as_int(data["start"]),
        end=_as_int(data["end"]),
        quote=str(data["quote"]),
        text_sha256=str(data["text_sha256"]),
        page=None if page is None else _as_int(page),
    )


def _as_int(value: object) -> int:
    assert isinstance(value, int)  # callers have checked _is_int
    return value


def validate_span(
    span: Span | Mapping[str, object], snapshot: Snapshot, *, claimed_id: str | None = None
) -> SpanCheck:
    """Check a span against ``snapshot``; the first failing rule gives the status.

    Order: readable, document present, active, eligible, same version, same text hash,
    offsets ``0 <= start < end <= len(text)``, page (when given) holds ``start``, quote
    equals ``text[start:end]``, id (``claimed_id``, or a mapping's ``"id"``) matches.
    """
    candidate: object = span  # untrusted: the annotation is what callers should pass
    if isinstance(candidate, Span):
        parsed = _typed_span(candidate)
        id_claims: list[object] = []
    elif isinstance(candidate, Mapping):
        parsed = _mapping_span(candidate)
        id_claims = [candidate["id"]] if "id" in candidate else []
    else:
        return SpanCheck(
            SpanStatus.MALFORMED, f"a span must be an object, not {type(candidate).__name__}"
        )
    if isinstance(parsed, SpanCheck):
        return parsed
    if claimed_id is not None:
        id_claims.append(claimed_id)
    doc_check = _check_document(parsed, snapshot.get(parsed.doc_id))
    if doc_check is not None:
        return doc_check
    doc = snapshot.documents[parsed.doc_id]
    text_check = _check_text(parsed, doc)
    if text_check is not None:
        return text_check
    for claim in id_claims:
        if claim != parsed.id:
            return SpanCheck(
                SpanStatus.ID_MISMATCH,
                f"id {_preview(claim)} does not match the span, whose id is {parsed.id}",
                parsed,
            )
    return SpanCheck(SpanStatus.VALID, f"{parsed.id} is current and exact", parsed)


def resolve_span_id(span_id: str, snapshot: Snapshot) -> SpanCheck:
    """Resolve a bare span id against ``snapshot`` (the quote is read from the text).

    Used when a model cites ids from a catalogue it was given: the program, not the model,
    supplies the quote. The text hash cannot be stale here, only the version.
    """
    try:
        doc_id, version, start, end = parse_span_id(span_id)
    except ValueError as err:
        return SpanCheck(SpanStatus.MALFORMED, str(err))
    doc = snapshot.get(doc_id)
    probe = Span(doc_id, version, start, end, "", doc.text_sha256 if doc else "", None)
    doc_check = _check_document(probe, doc)
    if doc_check is not None:
        return doc_check
    assert doc is not None  # _check_document reports an absent document
    if not end <= len(doc.text) or not start < end:
        return SpanCheck(
            SpanStatus.BAD_OFFSETS,
            f"{span_id}: offsets must satisfy 0 <= start < end <= {len(doc.text)}",
        )
    resolved = make_span(doc, start, end)
    return SpanCheck(SpanStatus.VALID, f"{span_id} is current and exact", resolved)


def _typed_span(span: Span) -> Span | SpanCheck:
    # A Span built by hand can still carry wrong types; treat it like a mapping.
    return _mapping_span(
        {
            "doc_id": span.doc_id,
            "version": span.version,
            "start": span.start,
            "end": span.end,
            "quote": span.quote,
            "text_sha256": span.text_sha256,
            "page": span.page,
        }
    )


def _mapping_span(data: Mapping[str, object]) -> Span | SpanCheck:
    for name in ("start", "end"):
        if not _is_int(data.get(name)):
            return SpanCheck(
                SpanStatus.BAD_OFFSETS,
                f"offset {name!r} must be an integer, not {_preview(data.get(name))}",
            )
    page = data.get("page")
    if page is not None and not _is_int(page):
        return SpanCheck(
            SpanStatus.PAGE_MISMATCH, f"page must be an integer or null, not {_preview(page)}"
        )
    try:
        return span_from_mapping(data)
    except ValueError as err:
        return SpanCheck(SpanStatus.MALFORMED, str(err))


def _check_document(span: Span, doc: Document | None) -> SpanCheck | None:
    where = f"document {span.doc_id!r}"
    if doc is None:
        return SpanCheck(SpanStatus.DOCUMENT_ABSENT, f"{where} is not in the snapshot", span)
    if not doc.access.active:
        return SpanCheck(SpanStatus.WITHDRAWN, f"{where} has been withdrawn", span)
    if not doc.access.eligible:
        return SpanCheck(SpanStatus.NOT_ELIGIBLE, f"{where} is not accessible", span)
    if span.version != doc.version:
        return SpanCheck(
            SpanStatus.STALE_VERSION,
            f"{where}: span cites version {span.version}, current version is {doc.version}",
            span,
        )
    if span.text_sha256 != doc.text_sha256:
        return SpanCheck(
            SpanStatus.STALE_HASH,
            f"{where}@{doc.version}: span text hash {_preview(span.text_sha256)} differs from "
            f"the current text hash {doc.text_sha256[:12]}...",
            span,
        )
    return None


def _check_text(span: Span, doc: Document) -> SpanCheck | None:
    text = doc.text
    if not 0 <= span.start < span.end <= len(text):
        return SpanCheck(
            SpanStatus.BAD_OFFSETS,
            f"{span.id}: offsets must satisfy 0 <= start < end <= {len(text)}",
            span,
        )
    if span.page is not None and span.page != doc.page_of(span.start):
        return SpanCheck(
            SpanStatus.PAGE_MISMATCH,
            f"{span.id}: span says page {span.page}, offset {span.start} is on page "
            f"{doc.page_of(span.start)}",
            span,
        )
    actual = text[span.start : span.end]
    if span.quote != actual:
        return SpanCheck(
            SpanStatus.QUOTE_MISMATCH,
            f"{span.id}: quote {_preview(span.quote)} differs from the text there, "
            f"{_preview(actual)}",
            span,
        )
    return None


def _preview(value: object) -> str:
    shown = repr(value)
    if len(shown) > _QUOTE_PREVIEW:
        shown = shown[: _QUOTE_PREVIEW - 3] + "..."
    return shown
