"""preuve's Python API: the checks and the three workflows as small, stable functions.

``import preuve`` re-exports everything in ``__all__`` here (lazily: importing a submodule
such as ``preuve.core.quotes`` does not load the workflows). The functions wrap the
internals with plain inputs and defaults a caller would expect:

- the checks take what a user has at hand: pages as strings, a memo as its JSON data or as
  :class:`Paragraph` objects, facts as ``[ID] text`` lines or as :class:`Fact` objects;
- every workflow runs with its offline ``rules`` engine unless ``model=`` names another
  :class:`Model` (any object with ``identity`` and ``complete(request)``), and journals its
  calls in memory unless ``journal=`` is given.

This module reads documents, never gold labels: grading lives in :mod:`preuve.eval`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Literal

from preuve.core.claim_lexicon import DEFAULT_LEXICON, ClaimLexicon
from preuve.core.defects import Defect
from preuve.core.documents import AccessState, Document, Snapshot
from preuve.core.errors import InputError, PreuveError, RefusedError
from preuve.core.evidence import Span
from preuve.core.facts import Fact, parse_facts
from preuve.core.memocheck import Paragraph, parse_memo
from preuve.core.memocheck import check_memo as _check_memo
from preuve.core.numbers import Locale, extract_numbers
from preuve.core.quotes import QuoteChecker, QuoteResult, Verdict, verify_quote
from preuve.digest.build import build_digest as _build_digest
from preuve.digest.outcomes import BuildReport
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.serve import ServeResult, ServeStatus
from preuve.digest.serve import serve_digest as _serve_digest
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import load_documents as _load_documents
from preuve.io.documents import load_snapshot as _load_snapshot
from preuve.io.pdf import load_pages
from preuve.io.stores import SqliteStore as DigestStore
from preuve.loaders import load_dossier as _load_synthesis_folder
from preuve.memo.pipeline import MemoRun
from preuve.memo.pipeline import run_memo as _run_memo
from preuve.memo.rules_engine import memo_rules_model
from preuve.models.base import Completion, Model, Request
from preuve.models.journal import Journal
from preuve.models.loop import LoopStatus
from preuve.models.scripted import FunctionModel
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.pipeline import SynthesisRun, synthesis_rules_model
from preuve.synthesis.pipeline import synthesize as _synthesize
from preuve.synthesis.synthesizer import check_candidate
from preuve.synthesis.types import Synthesis, synthesis_from_dict

__all__ = [
    "AccessState",
    "BuildReport",
    "Completion",
    "Defect",
    "DigestSettings",
    "DigestStore",
    "Document",
    "Dossier",
    "Fact",
    "FunctionModel",
    "InputError",
    "Journal",
    "Locale",
    "LoopStatus",
    "MemoRun",
    "Model",
    "Paragraph",
    "PreuveError",
    "QuoteChecker",
    "QuoteResult",
    "RefusedError",
    "Request",
    "ServeResult",
    "ServeStatus",
    "Snapshot",
    "Span",
    "Synthesis",
    "SynthesisRun",
    "Verdict",
    "build_digest",
    "check_memo",
    "check_quotes",
    "check_synthesis",
    "load_dossier",
    "load_snapshot",
    "parse_facts",
    "read_pages",
    "run_memo",
    "serve_digest",
    "synthesize",
    "verify_quote",
]

MemoInput = Mapping[str, object] | Sequence[Paragraph]
FactsInput = str | Sequence[Fact]


def read_pages(path: str | Path) -> list[str]:
    """The pages of a document: a PDF (through pypdfium2), or a UTF-8 text file whose pages
    are separated by form feeds (``\\f``). A bad file raises :class:`InputError`."""
    return load_pages(Path(path))


def check_quotes(
    pages: Sequence[str], quotes: Iterable[tuple[int, str]], *, lenient: bool = True
) -> list[QuoteResult]:
    """Verify many ``(page, quote)`` pairs against one document's pages, in order."""
    checker = QuoteChecker(pages, lenient=lenient)
    return [checker.verify(page, quote) for page, quote in quotes]


def _facts(facts: FactsInput) -> list[Fact]:
    return parse_facts(facts, source="facts") if isinstance(facts, str) else list(facts)


def _paragraphs(memo: MemoInput) -> list[Paragraph]:
    if isinstance(memo, Mapping):
        return parse_memo(dict(memo), source="memo")
    return list(memo)


def check_memo(
    memo: MemoInput,
    facts: FactsInput,
    *,
    locale: Locale | str = Locale.FR,
    years: Iterable[int] | None = None,
    lexicon: ClaimLexicon = DEFAULT_LEXICON,
    currency: str | None = None,
) -> list[Defect]:
    """The number check of a written text: every defect of ``memo`` against ``facts``.

    ``memo`` is ``{"paragraphs": [{"text": ..., "sources": [ids]}]}`` or a sequence of
    :class:`Paragraph`; ``facts`` is ``[ID] text`` lines or a sequence of :class:`Fact`.
    Each paragraph's numbers are checked, by value, against the facts *it cites*, plus the
    report's ``years`` (default: the years the facts mention). ``currency`` declares the
    report's currency (``S$``, ``SGD``...): what a bare ``$`` stands for (default: the US
    dollar, so a bare ``$`` never grounds an ``S$`` fact). An empty list: verified.
    """
    try:
        chosen = Locale(locale)
    except ValueError:
        raise InputError(f"locale {locale!r} is not one of fr, en") from None
    fact_list = _facts(facts)
    if years is None:
        years = {
            int(mention.value)
            for fact in fact_list
            for mention in extract_numbers(fact.text, chosen)
            if mention.is_year
        }
    return _check_memo(
        _paragraphs(memo), fact_list, locale=chosen, years=years, lexicon=lexicon, currency=currency
    )


def run_memo(
    reports: Sequence[str | Path],
    *,
    model: Model | None = None,
    journal: Journal | None = None,
    concurrency: int = 1,
) -> MemoRun:
    """Workflow 1 on annual reports (PDF or ``\\f``-separated text): cited risk signals, the
    ratios computed in code, and a memo whose every number is checked."""
    chosen = model if model is not None else memo_rules_model()
    documents = _load_documents([Path(p) for p in reports])
    return _run_memo(documents, chosen, journal=journal, concurrency=concurrency)


def load_dossier(folder: str | Path) -> Dossier:
    """A workflow 2 dossier folder: ``question.md`` and ``documents/*.md`` (nothing else is
    opened, so a grading grid kept beside them is never read)."""
    return _load_synthesis_folder(Path(folder))


def synthesize(
    dossier: str | Path | Dossier,
    *,
    model: Model | None = None,
    journal: Journal | None = None,
    concurrency: int = 4,
) -> SynthesisRun:
    """Workflow 2 on a dossier (a folder, or one already loaded): planner, sub-agents,
    contradictions arbitrated by rule, and a synthesis checked in code (VALID or REFUSED)."""
    loaded = dossier if isinstance(dossier, Dossier) else load_dossier(dossier)
    chosen = model if model is not None else synthesis_rules_model()
    return _synthesize(loaded, chosen, journal=journal, concurrency=concurrency)


def check_synthesis(synthesis: Synthesis | Mapping[str, object], run: SynthesisRun) -> list[Defect]:
    """Every check in code on a (possibly edited) synthesis, against what ``run`` found:
    citations, arbitrations, listed contradictions, numbers and computations."""
    candidate = synthesis if isinstance(synthesis, Synthesis) else synthesis_from_dict(synthesis)
    return list(check_candidate(candidate, run.context))


def load_snapshot(
    path: str | Path,
    versions: Mapping[str, int] | None = None,
    *,
    default: Literal["first", "latest"] = "latest",
) -> Snapshot:
    """Documents as a :class:`Snapshot`: a workflow 3 dossier folder (``DOC/meta.json`` and
    ``DOC/vN.txt``), each document at its ``versions`` entry, else its ``default``; or one
    file (PDF, ``\\f``-text, front-matter Markdown), or a folder of such files."""
    return _load_snapshot(Path(path), versions, default=default)


def build_digest(
    snapshot: Snapshot,
    store: DigestStore,
    *,
    model: Model | None = None,
    settings: DigestSettings | None = None,
    principal: str = "default",
    dossier: str = "",
    full: bool = False,
) -> BuildReport:
    """Workflow 3: build (incrementally, unless ``full``) the summary tree of ``snapshot``
    and record it in ``store``; unchanged nodes are reused from the store."""
    return _build_digest(
        snapshot,
        model if model is not None else rules_summarizer(),
        store,
        settings if settings is not None else DigestSettings(),
        principal=principal,
        mode="full" if full else "incremental",
        dossier=dossier,
    )


def serve_digest(
    snapshot: Snapshot,
    store: DigestStore,
    *,
    model: Model | None = None,
    settings: DigestSettings | None = None,
    principal: str = "default",
    dossier: str = "",
) -> ServeResult:
    """The root claims of the latest build if, and only if, that build is current for
    ``snapshot`` (same texts, access and settings); otherwise STALE or MISSING, no claims."""
    chosen = model if model is not None else rules_summarizer()
    return _serve_digest(
        snapshot,
        store,
        settings if settings is not None else DigestSettings(),
        principal,
        identity=chosen.identity,
        dossier=dossier,
    )
