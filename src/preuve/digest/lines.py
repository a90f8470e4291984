"""Leaves cite lines: each non-empty line of a document is one evidence span.

A leaf summarizer is shown a *catalogue*: every non-empty line of the document with its
evidence id. The model answers with ids only; the program resolves each id back to the
span it listed, and an id it did not list resolves to nothing. No offset is ever guessed
from a quote, and no text is normalized: a line span is the line exactly as it stands in
:attr:`Document.text`, without its surrounding whitespace.

**Evidence ids rest on content**, not on positions: ``{doc_id}#{h}`` where ``h`` is the
first 10 hex digits of the SHA-256 of the line, and ``{doc_id}#{h}.{n}`` for its ``n``-th
occurrence (n ≥ 2) in the document. So an edit of one line, even one that changes its
length and shifts every later offset, leaves the ids of the other lines unchanged, and a
byte-identical re-upload as a new version has exactly the same ids. Each id still
resolves to exact ``start:end`` offsets in the exact version at hand (its
:attr:`LineSpan.span`, whose :attr:`~preuve.core.evidence.Span.id` is
``doc@version:start:end``), and it is re-resolved against the current text every time it
is reused or served.

Lines end at ``\\n``, ``\\r`` and the form feed that separates pages, so a line never
crosses a page. A line records whether a blank line (or a page break) came before it:
the structure that tells a block apart, shown to models and read by
:mod:`preuve.digest.affirm`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from preuve.core.documents import Document, Snapshot
from preuve.core.evidence import Span, SpanCheck, SpanStatus, make_span
from preuve.io.records import STRICT, SpanEntry

__all__ = [
    "LineCatalogue",
    "LineResolver",
    "LineSpan",
    "LineSpanEntry",
    "document_lines",
    "line_catalogue",
    "line_id",
    "parse_line_id",
    "resolve_evidence",
    "resolve_evidence_ids",
]

_LINE = re.compile(r"[^\n\r\f]+")
_BREAK = re.compile(r"\r\n|\n|\r")
_HASH_DIGITS = 10
_LINE_ID = re.compile(r"(\S+)#([0-9a-f]{10})(?:\.([2-9]|[1-9][0-9]+))?")


def line_id(doc_id: str, line: str, occurrence: int = 1) -> str:
    """The evidence id of the ``occurrence``-th line of ``doc_id`` whose text is ``line``."""
    digest = hashlib.sha256(line.encode("utf-8")).hexdigest()[:_HASH_DIGITS]
    return f"{doc_id}#{digest}" if occurrence == 1 else f"{doc_id}#{digest}.{occurrence}"


def parse_line_id(evidence_id: object) -> tuple[str, str, int] | None:
    """``(doc_id, line hash, occurrence)`` of an evidence id, or ``None`` if malformed."""
    match = _LINE_ID.fullmatch(evidence_id) if isinstance(evidence_id, str) else None
    if match is None:
        return None
    doc_id, digest, occurrence = match.groups()
    return doc_id, digest, int(occurrence or 1)


@dataclass(frozen=True, slots=True)
class LineSpan:
    """One line of one version: its content-based evidence id and its exact span."""

    id: str
    span: Span
    after_blank: bool = False

    @property
    def doc_id(self) -> str:
        return self.span.doc_id

    @property
    def version(self) -> int:
        return self.span.version

    @property
    def start(self) -> int:
        return self.span.start

    @property
    def end(self) -> int:
        return self.span.end

    @property
    def quote(self) -> str:
        return self.span.quote

    @property
    def page(self) -> int | None:
        return self.span.page

    @property
    def text_sha256(self) -> str:
        return self.span.text_sha256

    @property
    def location(self) -> str:
        """The exact location id, ``doc@version:start:end``."""
        return self.span.id


@dataclass(frozen=True, slots=True, kw_only=True)
class LineSpanEntry(SpanEntry):
    """A line of evidence as the store keeps it: the span's fields under the line's own
    evidence ``id``, then the exact ``location`` (the span id) and ``after_blank``."""

    location: str
    after_blank: bool
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of_line(cls, line: LineSpan) -> LineSpanEntry:
        span = SpanEntry.of(line.span)
        kept = {f.name: getattr(span, f.name) for f in dataclasses.fields(SpanEntry)}
        kept |= {"id": line.id, "location": line.location, "after_blank": line.after_blank}
        return cls(**kept)


def document_lines(doc: Document) -> tuple[LineSpan, ...]:
    """Every non-empty line of ``doc`` as a span (surrounding whitespace left out)."""
    lines: list[LineSpan] = []
    seen: dict[str, int] = {}
    previous_end = 0
    for match in _LINE.finditer(doc.text):
        raw = match.group()
        stripped = raw.strip()
        if not stripped:
            continue
        start = match.start() + (len(raw) - len(raw.lstrip()))
        gap = doc.text[previous_end:start]
        # A blank line, or a page break, separates this line from the one before.
        breaks = len(_BREAK.findall(gap))
        after_blank = bool(lines) and (breaks >= 2 or "\f" in gap)
        seen[stripped] = seen.get(stripped, 0) + 1
        evidence_id = line_id(doc.doc_id, stripped, seen[stripped])
        lines.append(
            LineSpan(evidence_id, make_span(doc, start, start + len(stripped)), after_blank)
        )
        previous_end = start + len(stripped)
    return tuple(lines)


@dataclass(frozen=True, slots=True)
class LineCatalogue:
    """Evidence a node may cite, in the order it was shown, looked up by evidence id."""

    spans: tuple[LineSpan, ...]
    _by_id: Mapping[str, LineSpan] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[str, LineSpan] = {}
        for span in self.spans:
            # One id, one span: a catalogue listing an id twice would make citing ambiguous.
            if span.id in by_id:
                raise ValueError(f"evidence id {span.id} appears twice in one catalogue")
            by_id[span.id] = span
        object.__setattr__(self, "_by_id", MappingProxyType(by_id))

    def __len__(self) -> int:
        return len(self.spans)

    def __iter__(self) -> Iterator[LineSpan]:
        return iter(self.spans)

    def __contains__(self, evidence_id: object) -> bool:
        return evidence_id in self._by_id

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(span.id for span in self.spans)

    def get(self, evidence_id: str) -> LineSpan | None:
        """The span listed under ``evidence_id``, or ``None``."""
        return self._by_id.get(evidence_id)

    def render(self) -> str:
        """One ``[id] line`` per span, a blank line where the document has one."""
        rows: list[str] = []
        for span in self.spans:
            if span.after_blank:
                rows.append("")
            rows.append(f"[{span.id}] {span.quote}")
        return "\n".join(rows)


def line_catalogue(documents: Iterable[Document]) -> LineCatalogue:
    """The catalogue of every non-empty line of ``documents``, in document order."""
    return LineCatalogue(tuple(span for doc in documents for span in document_lines(doc)))


def resolve_evidence(catalogue: LineCatalogue, evidence_id: object) -> LineSpan | None:
    """The span ``evidence_id`` names in ``catalogue``; ``None`` for anything else.

    Untrusted input (a model's answer) may hold any JSON type; only an exact listed id
    resolves. Nothing is matched loosely: a near-miss id is a miss.
    """
    if not isinstance(evidence_id, str):
        return None
    return catalogue.get(evidence_id)


def resolve_evidence_ids(
    catalogue: LineCatalogue, evidence_ids: Sequence[object]
) -> tuple[tuple[LineSpan, ...], tuple[object, ...]]:
    """``(resolved spans, ids that resolve to nothing)``, each in the order given."""
    resolved: list[LineSpan] = []
    missing: list[object] = []
    for evidence_id in evidence_ids:
        span = resolve_evidence(catalogue, evidence_id)
        if span is None:
            missing.append(evidence_id)
        else:
            resolved.append(span)
    return tuple(resolved), tuple(missing)


def _is_whole_line(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` is a line, give or take surrounding blanks."""
    before = max(text.rfind(mark, 0, start) for mark in "\n\r\f") + 1
    after = min((i for i in (text.find(m, end) for m in "\n\r\f") if i >= 0), default=len(text))
    return not text[before:start].strip() and not text[end:after].strip()


@dataclass(frozen=True, slots=True)
class LineCheck:
    """The verdict on one evidence id against a snapshot; ``line`` set when VALID."""

    status: SpanStatus
    detail: str
    line: LineSpan | None = None

    @property
    def ok(self) -> bool:
        return self.status is SpanStatus.VALID

    def as_span_check(self) -> SpanCheck:
        return SpanCheck(self.status, self.detail, self.line.span if self.line else None)


class LineResolver:
    """Resolve evidence ids against one snapshot (each document's lines read once)."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self._catalogues: dict[str, LineCatalogue] = {}

    def know(self, doc: Document, catalogue: LineCatalogue) -> None:
        """Take ``catalogue`` (``line_catalogue([doc])``, read already) as the lines of
        ``doc`` when ``doc`` is the snapshot's version of it (else they are read when
        needed, from the snapshot's)."""
        if self.snapshot.get(doc.doc_id) == doc:
            self._catalogues.setdefault(doc.doc_id, catalogue)

    def catalogue(self, doc: Document) -> LineCatalogue:
        found = self._catalogues.get(doc.doc_id)
        if found is None:
            found = self._catalogues[doc.doc_id] = line_catalogue([doc])
        return found

    def resolve_stored(self, data: Mapping[str, object]) -> LineCheck:
        """A stored span (a :class:`LineSpanEntry`'s data) resolved against the snapshot.

        When the document's text is the one the span was cut from (same hash), the id is
        the first occurrence of its line, and the stored offsets hold that first occurrence,
        they are exact as they are (the version may differ: a re-upload). Anything else is
        resolved by content (:meth:`resolve`), which is always exact.
        """
        evidence_id = data.get("id")
        parsed = parse_line_id(evidence_id)
        doc = self.snapshot.get(parsed[0]) if parsed is not None else None
        start, end, quote = data.get("start"), data.get("end"), data.get("quote")
        same_text = doc is not None and data.get("text_sha256") == doc.text_sha256
        if (
            same_text
            and doc is not None
            and doc.access.usable
            and isinstance(start, int)
            and isinstance(end, int)
            and isinstance(quote, str)
            and 0 <= start < end <= len(doc.text)
            and doc.text[start:end] == quote
            and quote == quote.strip()
            and evidence_id == line_id(doc.doc_id, quote)
            and doc.text.find(quote) == start  # the first occurrence, as the id says
            and _is_whole_line(doc.text, start, end)
        ):
            line = LineSpan(
                str(evidence_id), make_span(doc, start, end), data.get("after_blank") is True
            )
            return LineCheck(SpanStatus.VALID, f"{evidence_id} is {line.location}", line)
        return self.resolve(evidence_id)

    def resolve(self, evidence_id: object) -> LineCheck:
        """The current line ``evidence_id`` names, or why it does not resolve."""
        parsed = parse_line_id(evidence_id)
        if parsed is None:
            shown = repr(evidence_id)[:60]
            return LineCheck(
                SpanStatus.MALFORMED, f"{shown} is not an evidence id of the form doc#hash"
            )
        doc_id = parsed[0]
        where = f"document {doc_id!r}"
        doc = self.snapshot.get(doc_id)
        if doc is None:
            return LineCheck(SpanStatus.DOCUMENT_ABSENT, f"{where} is not in the snapshot")
        if not doc.access.active:
            return LineCheck(SpanStatus.WITHDRAWN, f"{where} has been withdrawn")
        if not doc.access.eligible:
            return LineCheck(SpanStatus.NOT_ELIGIBLE, f"{where} is not accessible")
        line = self.catalogue(doc).get(str(evidence_id))
        if line is None:
            return LineCheck(
                SpanStatus.STALE_HASH,
                f"{evidence_id}: no such line in {doc_id}@{doc.version} (the line changed)",
            )
        return LineCheck(SpanStatus.VALID, f"{evidence_id} is {line.location}", line)
