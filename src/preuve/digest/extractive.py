"""The extractive baseline: every fact line of the current, usable documents, with its span.

A fact line is a whole line in the fact grammar, and nothing else::

    Product P-03-07 delivery: 23 October 2026.
    Product P-03-07 status: awaiting inspection.
    Product P-03-07 quantity: 1,240 units.
    Product P-03-07 site: Harwick depot.

The line must match from its first to its last character, and each field's value has its
own shape (a date, a count of units, lower-case status words, a capitalised place). So a
line that *mentions* a fact is not one: a quoted instruction (``"... Product P-03-07
status: cancelled."``), a negated older plan (``The earlier plan of 18 October 2026 no
longer holds.``) or a value carrying a negation cue (``status: not shipped``) are refused.

The baseline reads documents only; gold labels are never opened. It reports each fact
with the span of its line, so every extracted fact is checkable against the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from preuve.core.documents import Document, Snapshot
from preuve.core.evidence import Span
from preuve.digest.lines import document_lines

__all__ = [
    "FIELDS",
    "ExtractedFact",
    "FactTuple",
    "extract_document_facts",
    "extract_facts",
    "format_fact_line",
    "parse_fact_line",
]

FIELDS: tuple[str, ...] = ("delivery", "status", "quantity", "site")

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_VALUE_SHAPES = {
    "delivery": rf"(?:[1-9]|[12][0-9]|3[01]) (?:{_MONTHS}) [0-9]{{4}}",
    "quantity": r"(?:0|[1-9][0-9]{0,2}(?:,[0-9]{3})*) units?",
    "status": r"[a-z]+(?: [a-z]+){0,3}",
    "site": r"[A-Z][A-Za-z]*(?: [A-Za-z][A-Za-z]*){0,4}",
}
_FACT_LINE = re.compile(
    r"Product (?P<subject>P-[0-9]{2}-[0-9]{2}) (?P<field>"
    + "|".join(FIELDS)
    + r"): (?P<value>[^.]+)\."
)
_SHAPES = {name: re.compile(shape) for name, shape in _VALUE_SHAPES.items()}
# Words that turn a statement into its negation; a status such as "not shipped" is refused.
_NEGATION_CUE = re.compile(r"\b(?:not|no|never|none|nor|longer|without)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class FactTuple:
    """What a fact line asserts: ``(subject, field, value)``, e.g. ``("P-03-07", ...)``."""

    subject: str
    field: str
    value: str

    def as_dict(self) -> dict[str, str]:
        return {"subject": self.subject, "field": self.field, "value": self.value}


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    """One fact line found in a document, with the span of that line as its source."""

    fact: FactTuple
    span: Span


def parse_fact_line(line: str) -> FactTuple | None:
    """The fact a whole line asserts, or ``None`` when the line is not a fact line.

    Surrounding whitespace is ignored; anything else outside the grammar (a quote mark, a
    prefix, a negation cue, a value of the wrong shape) makes the line not a fact.
    """
    match = _FACT_LINE.fullmatch(line.strip())
    if match is None:
        return None
    field_name, value = match.group("field"), match.group("value")
    if not _SHAPES[field_name].fullmatch(value) or _NEGATION_CUE.search(value):
        return None
    return FactTuple(match.group("subject"), field_name, value)


def format_fact_line(fact: FactTuple) -> str:
    """The one line that asserts ``fact`` (the inverse of :func:`parse_fact_line`)."""
    return f"Product {fact.subject} {fact.field}: {fact.value}."


def extract_document_facts(doc: Document) -> tuple[ExtractedFact, ...]:
    """Every fact line of ``doc``, in text order, whatever its access state."""
    found: list[ExtractedFact] = []
    for span in document_lines(doc):
        fact = parse_fact_line(span.quote)
        if fact is not None:
            found.append(ExtractedFact(fact, span))
    return tuple(found)


def extract_facts(documents: Snapshot | Iterable[Document]) -> tuple[ExtractedFact, ...]:
    """Every fact line of the usable documents (active and eligible), in document order.

    A withdrawn or revoked document contributes nothing: its content is not current.
    """
    return tuple(
        fact for doc in documents if doc.access.usable for fact in extract_document_facts(doc)
    )
