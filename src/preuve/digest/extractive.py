"""The extractive baseline: every affirmed fact line of the current, usable documents.

A fact line is a whole line in the fact grammar (:mod:`preuve.digest.grammar`), for the
default grammar::

    Product P-03-07 delivery: 23 October 2026.
    Product P-03-07 status: awaiting inspection.
    Product P-03-07 quantity: 1,240 units.
    Product P-03-07 site: Harwick depot.

A line that *mentions* a fact is not one: a quoted instruction (``"... Product P-03-07
status: cancelled."``), a negated older plan (``The earlier plan of 18 October 2026 no
longer holds.``) or a value carrying a negation cue (``status: not shipped``). And a fact
line counts only when it is affirmed in its document (:mod:`preuve.digest.affirm`): not
inside a quoted block, a struck entry, a hypothetical or a reported claim.

The baseline reads documents only; gold labels are never opened. It reports each fact
with the span of its line, so every extracted fact is checkable against the text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from preuve.core.documents import Document, Snapshot
from preuve.digest.affirm import DEFAULT_CUES, AffirmationCues, LineContext, line_contexts
from preuve.digest.grammar import DEFAULT_GRAMMAR, FactGrammar, FactTuple
from preuve.digest.lines import LineSpan, document_lines

__all__ = [
    "FIELDS",
    "ExtractedFact",
    "FactTuple",
    "document_contexts",
    "extract_document_facts",
    "extract_facts",
    "format_fact_line",
    "parse_fact_line",
]

FIELDS: tuple[str, ...] = DEFAULT_GRAMMAR.fields


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    """One fact line found in a document, with the span of that line as its source."""

    fact: FactTuple
    span: LineSpan


def parse_fact_line(line: str, grammar: FactGrammar = DEFAULT_GRAMMAR) -> FactTuple | None:
    """The fact a whole line asserts, or ``None`` when the line is not a fact line.

    Surrounding whitespace and a list marker are ignored; anything else outside the
    grammar (a quote mark, a prefix, a negation cue, a value of the wrong shape) makes the
    line not a fact. Whether the line is affirmed in its document is :func:`document_contexts`.
    """
    return grammar.parse(line)


def format_fact_line(fact: FactTuple, grammar: FactGrammar = DEFAULT_GRAMMAR) -> str:
    """The canonical line that asserts ``fact`` (its inverse is :func:`parse_fact_line`)."""
    return grammar.format(fact)


def document_contexts(
    doc: Document, grammar: FactGrammar = DEFAULT_GRAMMAR, cues: AffirmationCues = DEFAULT_CUES
) -> tuple[tuple[LineSpan, LineContext], ...]:
    """Every line of ``doc`` with its context: the fact it states and whether it is affirmed."""
    spans = document_lines(doc)
    contexts = line_contexts([(s.quote, s.after_blank) for s in spans], grammar, cues)
    return tuple(zip(spans, contexts, strict=True))


def extract_document_facts(
    doc: Document, grammar: FactGrammar = DEFAULT_GRAMMAR, cues: AffirmationCues = DEFAULT_CUES
) -> tuple[ExtractedFact, ...]:
    """Every affirmed fact line of ``doc``, in text order, whatever its access state."""
    return tuple(
        ExtractedFact(context.fact, span)
        for span, context in document_contexts(doc, grammar, cues)
        if context.affirmed and context.fact is not None
    )


def extract_facts(
    documents: Snapshot | Iterable[Document], grammar: FactGrammar = DEFAULT_GRAMMAR
) -> tuple[ExtractedFact, ...]:
    """Every affirmed fact line of the usable documents (active and eligible), in order.

    A withdrawn or revoked document contributes nothing: its content is not current.
    """
    return tuple(
        fact
        for doc in documents
        if doc.access.usable
        for fact in extract_document_facts(doc, grammar)
    )
