"""Each source of a sub-agent statement, resolved to the span of its document it rests on.

A sub-agent answer cites, for every source of a statement, the verbatim passage of that
document the statement rests on (``quote``). Code resolves it with the quote check of the
core (:class:`~preuve.core.quotes.QuoteChecker`, the same three tiers as workflow 1: exact,
normalized, lenient; never inside a word or a number) to a
:class:`~preuve.core.evidence.Span`, then reads the value *inside that span*: every number
of the value is a number of the passage, and a value without numbers has each of its words
in the passage. A value found elsewhere in the document does not count.

:func:`screen_answer` sorts the defects of a parsed answer in two kinds:

- *answer* defects (a source outside the sub-task's scope, a link no cited document holds):
  the whole answer is refused, and after the re-ask the sub-task is NOT INVESTIGATED;
- *statement* defects (no quote, a quote the check refuses, a value not read in its quote):
  the answer is re-asked with them once; a statement still failing after the re-ask is
  dropped and counted (:class:`~preuve.synthesis.findings.RefusedStatement`), like a
  rejected signal of workflow 1, and the verified statements are kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from preuve.core.defects import Defect
from preuve.core.links import unsupported_links
from preuve.core.numbers import detect_locale, extract_numbers
from preuve.core.quotes import QuoteChecker
from preuve.synthesis.dossier import DossierDocument
from preuve.synthesis.findings import RefusedStatement, Statement, StatementSource
from preuve.synthesis.lexicon import Lexicon, default_lexicon, fold

__all__ = ["Screened", "checkers_of", "screen_answer", "value_outside"]

_SHOWN = 160
_WORD = re.compile(r"[^\W_]+")
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


def checkers_of(documents: Sequence[DossierDocument]) -> dict[str, QuoteChecker]:
    """One quote checker per document of a scope, keyed by id (each page normalized once)."""
    return {d.id: QuoteChecker.of(d.document) for d in documents}


def _short(text: str, limit: int = _SHOWN) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else f"{flat[: limit - 1]}…"


def _words(text: str) -> list[str]:
    """The words and digit groups of ``text``, folded (case and accents aside)."""
    return _WORD.findall(fold(text))


def _contains_as_written(passage: str, value: str) -> bool:
    """True when the words and digit groups of ``value`` follow each other in ``passage``
    (punctuation and spacing aside: ``Apache 2.0`` is in ``Apache-2.0``; ``20 ms`` is not
    in ``120 ms``)."""
    needle, words = _words(value), _words(passage)
    size = len(needle)
    return bool(needle) and any(words[i : i + size] == needle for i in range(len(words) - size + 1))


def _has_cue(folded: str, cues: Sequence[str]) -> bool:
    return any(re.search(rf"(?<![a-z0-9]){re.escape(cue)}(?![a-z0-9])", folded) for cue in cues)


def _yes_no_outside(value: str, attribute: str, passage: str, lexicon: Lexicon) -> list[str] | None:
    """For a yes/no value (the lexicon's words for them): what the passage does not hold —
    a cue of that answer (the lexicon's affirm or passive cues for yes, its deny cues for
    no) and a word of the attribute. None when the value is no yes/no word."""
    answers = (lexicon.yes_no or {}).values()
    key = fold(value).strip()
    if key in {fold(yes) for yes, _ in answers}:
        cues: tuple[str, ...] = (*lexicon.affirm_cues, *lexicon.passive_cues)
    elif key in {fold(no) for _, no in answers}:
        cues = lexicon.deny_cues
    else:
        return None
    words = _words(passage)
    if key in words:
        return []  # written as such (a cell of a table row)
    missing = [] if _has_cue(" ".join(fold(passage).split()), cues) else [f"no cue of {value!r}"]
    named = [w for w in _words(attribute) if len(w) > 2]
    if named and not any(w in words for w in named):
        missing.append(f"nothing of {attribute!r}")
    return missing


def value_outside(
    value: str, passage: str, lexicon: Lexicon | None = None, attribute: str = ""
) -> list[str]:
    """The parts of ``value`` not read in ``passage`` (empty: the value is read there).

    A value is read in a passage when its words follow each other there
    (:func:`_contains_as_written`),
    or when each of its numbers is a number of the passage (compared by value, in the
    passage's locale: ``2 400 tok/s`` in ``2400 tok/s``), or, for a value without numbers,
    each of its words is a word of the passage (case and accents aside). A yes/no value
    is read from the passage's cue of that answer and a word of its ``attribute``."""
    lexicon = lexicon or default_lexicon()
    yes_no = _yes_no_outside(value, attribute, passage, lexicon)
    if yes_no is not None:
        return yes_no
    if _contains_as_written(passage, value):
        return []
    locale = detect_locale(passage)
    numbers = extract_numbers(value, locale)
    if numbers:
        present = {m.value for m in extract_numbers(passage, locale)}
        return [m.raw for m in numbers if m.value not in present]
    words = set(_words(passage))
    return [w for w in _words(value) if w not in words]


def _resolve(
    statement: Statement, where: str, checkers: Mapping[str, QuoteChecker], lexicon: Lexicon
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
        missing = value_outside(value, result.span.quote, lexicon, statement.attribute)
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


def _scope_defects(
    statement: Statement, where: str, by_id: Mapping[str, DossierDocument]
) -> list[Defect]:
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
    documents: Sequence[DossierDocument],
    checkers: Mapping[str, QuoteChecker] | None = None,
    lexicon: Lexicon | None = None,
) -> Screened:
    """Screen the statements of a parsed answer against the sub-task's ``documents``
    (``lexicon``: the words of yes/no values and their cues; the bundled one by default)."""
    lexicon = lexicon or default_lexicon()
    by_id = {d.id: d for d in documents}
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
        resolved, defects = _resolve(statement, where, checkers, lexicon)
        if defects:
            refused.append(RefusedStatement(statement, tuple(defects)))
        else:
            kept.append(resolved)
    return Screened(tuple(kept), tuple(refused), tuple(answer_defects))
