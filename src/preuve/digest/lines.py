"""Leaves cite lines: each non-empty line of a document is one evidence span.

A leaf summarizer is shown a *catalogue*: every non-empty line of the document with its
span id (``doc@version:start:end``). The model answers with ids only; the program resolves
each id back to the span it listed, and an id it did not list resolves to nothing. No
offset is ever guessed from a quote, and no text is normalized: a line span is the line
exactly as it stands in :attr:`Document.text`, without its surrounding whitespace.

Lines end at ``\\n``, ``\\r`` and the form feed that separates pages, so a line never
crosses a page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from preuve.core.documents import Document
from preuve.core.evidence import Span, make_span

__all__ = [
    "LineCatalogue",
    "document_lines",
    "line_catalogue",
    "resolve_evidence",
    "resolve_evidence_ids",
]

_LINE = re.compile(r"[^\n\r\f]+")


def document_lines(doc: Document) -> tuple[Span, ...]:
    """Every non-empty line of ``doc`` as a span (surrounding whitespace left out)."""
    spans: list[Span] = []
    for match in _LINE.finditer(doc.text):
        raw = match.group()
        stripped = raw.strip()
        if not stripped:
            continue
        start = match.start() + (len(raw) - len(raw.lstrip()))
        spans.append(make_span(doc, start, start + len(stripped)))
    return tuple(spans)


@dataclass(frozen=True, slots=True)
class LineCatalogue:
    """Evidence a node may cite, in the order it was shown, looked up by span id."""

    spans: tuple[Span, ...]
    _by_id: Mapping[str, Span] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[str, Span] = {}
        for span in self.spans:
            # One id, one span: a catalogue listing an id twice would make citing ambiguous.
            if span.id in by_id:
                raise ValueError(f"evidence id {span.id} appears twice in one catalogue")
            by_id[span.id] = span
        object.__setattr__(self, "_by_id", MappingProxyType(by_id))

    def __len__(self) -> int:
        return len(self.spans)

    def __iter__(self) -> Iterator[Span]:
        return iter(self.spans)

    def __contains__(self, evidence_id: object) -> bool:
        return evidence_id in self._by_id

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(span.id for span in self.spans)

    def get(self, evidence_id: str) -> Span | None:
        """The span listed under ``evidence_id``, or ``None``."""
        return self._by_id.get(evidence_id)

    def render(self) -> str:
        """One ``[id] line`` per span: the text a model reads and cites from."""
        return "\n".join(f"[{span.id}] {span.quote}" for span in self.spans)


def line_catalogue(documents: Iterable[Document]) -> LineCatalogue:
    """The catalogue of every non-empty line of ``documents``, in document order."""
    return LineCatalogue(tuple(span for doc in documents for span in document_lines(doc)))


def resolve_evidence(catalogue: LineCatalogue, evidence_id: object) -> Span | None:
    """The span ``evidence_id`` names in ``catalogue``; ``None`` for anything else.

    Untrusted input (a model's answer) may hold any JSON type; only an exact listed id
    resolves. Nothing is matched loosely: a near-miss id is a miss.
    """
    if not isinstance(evidence_id, str):
        return None
    return catalogue.get(evidence_id)


def resolve_evidence_ids(
    catalogue: LineCatalogue, evidence_ids: Sequence[object]
) -> tuple[tuple[Span, ...], tuple[object, ...]]:
    """``(resolved spans, ids that resolve to nothing)``, each in the order given."""
    resolved: list[Span] = []
    missing: list[object] = []
    for evidence_id in evidence_ids:
        span = resolve_evidence(catalogue, evidence_id)
        if span is None:
            missing.append(evidence_id)
        else:
            resolved.append(span)
    return tuple(resolved), tuple(missing)
