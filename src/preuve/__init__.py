"""preuve: make LLM document synthesis checkable.

The checks and the three workflows as functions and types (see :mod:`preuve.api` and the
README's "Use it from Python")::

    import preuve

    result = preuve.verify_quote(["Le levier atteint 5,5x fin 2025."], 1, "levier atteint 5,5x")
    assert result.verified and (result.start, result.end) == (3, 22)

Names are loaded on first use, so ``import preuve.core.quotes`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from preuve.api import (
        AccessState,
        BuildReport,
        Completion,
        Defect,
        DigestSettings,
        DigestStore,
        Document,
        Dossier,
        Fact,
        FunctionModel,
        InputError,
        Journal,
        Locale,
        LoopStatus,
        MemoRun,
        Model,
        Paragraph,
        PreuveError,
        QuoteChecker,
        QuoteResult,
        RefusedError,
        Request,
        ServeResult,
        ServeStatus,
        Snapshot,
        Span,
        Synthesis,
        SynthesisRun,
        Verdict,
        build_digest,
        check_memo,
        check_quotes,
        check_synthesis,
        load_dossier,
        load_snapshot,
        parse_facts,
        read_pages,
        run_memo,
        serve_digest,
        synthesize,
        verify_quote,
    )

__version__ = "0.1.0"

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


def __getattr__(name: str) -> Any:
    if name in __all__:
        value = getattr(importlib.import_module("preuve.api"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'preuve' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
