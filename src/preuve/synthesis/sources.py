"""Each source of a sub-agent statement, resolved to the span of its document it rests on.

A sub-agent answer cites, for every source of a statement, the verbatim passage of that
document the statement rests on (``quote``). Code resolves it with the quote check of the
core (:class:`~preuve.core.quotes.QuoteChecker`, the same three tiers as workflow 1: exact,
normalized, lenient; never inside a word or a number) to a
:class:`~preuve.core.evidence.Span`, then reads the value *inside that span* with the
check workflow 3 uses for its claims (:func:`preuve.core.stated.value_outside`, the
lexicon's yes/no words and cues as its data): every word of the value is a word of the
passage and every number a number of it (or the value is written there as such). A value
found elsewhere in the document does not count.

:func:`screen_answer` sorts the defects of a parsed answer in two kinds:

- *answer* defects (a source outside the sub-task's scope, a link no cited document holds):
  the whole answer is refused, and after the re-ask the sub-task is NOT INVESTIGATED;
- *statement* defects (no quote, a quote the check refuses, a value not read in its quote):
  the answer is re-asked with them once; a statement still failing after the re-ask is
  dropped and counted (:class:`~preuve.synthesis.types.RefusedStatement`), like a
  rejected signal of workflow 1, and the verified statements are kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from preuve.core.defects import Defect
from preuve.core.documents import Document
from preuve.core.links import unsupported_links
from preuve.core.quotes import QuoteChecker
from preuve.core.stated import YesNoCues, value_outside
from preuve.synthesis.lexicon import Lexicon, default_lexicon
from preuve.synthesis.types import RefusedStatement, Statement, StatementSource

__all__ = ["Screened", "checkers_of", "screen_answer", "yes_no_cues"]

_SHOWN = 160
COPY_FIX = (
    "copy, for each source, one passage of that document exactly as written (whole words,"
    " no summary, no two passages glued together) that states the value"
)


@dataclass(frozen=True, slots=True)
class Screened:
    """A parsed answer, screened: the verified statements (every source with its span),
    the refused ones with their defects, and the defects that refuse the whole answer."""

    statements: tuple[Statement, ...]
    refused: tuple[RefusedStatement, ...]
    answer_defects: tuple[Defect, ...]

    @property
    def defects(self) -> tuple[Defect, ...]:
        """Every defect, for the re-ask: the answer's, then each refused statement's."""
        return (*self.answer_defects, *(d for r in self.refused for d in r.defects))


def checkers_of(documents: Sequence[Document]) -> dict[str, QuoteChecker]:
    """One quote checker per document of a scope, keyed by id (each page normalized once)."""
    return {d.doc_id: QuoteChecker.of(d) for d in documents}


def _short(text: str, limit: int = _SHOWN) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else f"{flat[: limit - 1]}…"


def yes_no_cues(lexicon: Lexicon) -> YesNoCues:
    """The lexicon's yes/no words and the cues of each answer, as the core check takes them
    (:func:`preuve.core.stated.value_outside`)."""
    answers = tuple((lexicon.yes_no or {}).values())
    return YesNoCues(
        yes=tuple(yes for yes, _ in answers),
        no=tuple(no for _, no in answers),
        affirm=(*lexicon.affirm_cues, *lexicon.passive_cues),
        deny=lexicon.deny_cues,
    )


def _full_text(document: Document | None) -> str:
    return f"{document.title}\n{document.text}" if document is not None else ""


def _resolve(
    statement: Statement,
    where: str,
    checkers: Mapping[str, QuoteChecker],
    documents: Mapping[str, Document],
    lexicon: Lexicon,
) -> tuple[Statement, list[Defect]]:
    """The statement with a span on each source, or the defects of the sources that fail."""
    label = f"{statement.subject} / {statement.attribute}"
    sources: list[StatementSource] = []
    defects: list[Defect] = []
    for index, source in enumerate(statement.sources):
        path = f"{where}.sources[{index}]"
        value = source.value if source.value is not None else statement.value
        if not source.quote or not source.quote.strip():
            detail = f"{label}: the source {source.doc_id} has no quote; {COPY_FIX}"
            defects.append(Defect("quote_missing", detail, path=f"{path}.quote"))
            continue
        result = checkers[source.doc_id].find(source.quote)
        if not result.verified or result.span is None:
            detail = f"{label}: «{_short(source.quote)}» ({source.doc_id}): {result.reason}"
            passage = result.diagnostic.passage if result.diagnostic is not None else ""
            if passage:
                detail += f"; closest passage of {source.doc_id}: «{_short(passage, 240)}»"
            code = f"quote_{result.verdict.value}"
            defects.append(Defect(code, f"{detail}; {COPY_FIX}", path=f"{path}.quote"))
            continue
        missing = value_outside(
            value,
            [result.span.quote],
            context=[_full_text(documents.get(source.doc_id))],
            attribute=statement.attribute,
            yes_no=yes_no_cues(lexicon),
        )
        if missing:
            detail = (
                f"{label}: {', '.join(missing)} of the value {value!r} is not in the passage"
                f" quoted from {source.doc_id} («{_short(result.span.quote)}»); quote the"
                " passage that states this value, and copy the value as written there"
            )
            defects.append(Defect("value_not_in_source", detail, path=path))
            continue
        sources.append(replace(source, span=result.span))
    return replace(statement, sources=tuple(sources)), defects


def _scope_defects(statement: Statement, where: str, by_id: Mapping[str, Document]) -> list[Defect]:
    defects = []
    for doc_id in dict.fromkeys(statement.doc_ids):
        if doc_id not in by_id:
            detail = (
                f"{doc_id} is not a document of this sub-task "
                f"({', '.join(by_id) or 'none'}): cite only the documents given"
            )
            defects.append(Defect("source_not_in_scope", detail, path=f"{where}.sources"))
    texts = [f"{d.title}\n{d.text}" for d in (by_id.get(i) for i in statement.doc_ids) if d]
    written = " ".join(
        [statement.value, statement.text, *(v for _, v in statement.values_by_source())]
    )
    defects += [
        Defect(
            "link_not_in_source", f"{link} is in none of the documents cited; remove it", path=where
        )
        for link in unsupported_links(written, texts)
    ]
    return defects


def screen_answer(
    statements: Sequence[Statement],
    documents: Sequence[Document],
    checkers: Mapping[str, QuoteChecker] | None = None,
    lexicon: Lexicon | None = None,
) -> Screened:
    """Screen the statements of a parsed answer against the sub-task's ``documents``
    (``lexicon``: the words of yes/no values and their cues; the bundled one by default)."""
    lexicon = lexicon or default_lexicon()
    by_id = {d.doc_id: d for d in documents}
    checkers = checkers if checkers is not None else checkers_of(documents)
    kept: list[Statement] = []
    refused: list[RefusedStatement] = []
    answer_defects: list[Defect] = []
    for index, statement in enumerate(statements):
        where = f"statements[{index}]"
        scope = _scope_defects(statement, where, by_id)
        if scope:
            answer_defects += scope
            continue
        resolved, defects = _resolve(statement, where, checkers, by_id, lexicon)
        if defects:
            refused.append(RefusedStatement(statement, tuple(defects)))
        else:
            kept.append(resolved)
    return Screened(tuple(kept), tuple(refused), tuple(answer_defects))
