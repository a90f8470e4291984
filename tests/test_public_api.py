"""The public surface is pinned: a change to an ``__all__`` is a deliberate, reviewed act."""

from __future__ import annotations

import importlib

import pytest

PUBLIC_API: dict[str, tuple[str, ...]] = {
    # ``import preuve``: the documented Python API (README "Use it from Python")
    "preuve": (
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
    ),
    # gold data: the grading grid of workflow 2 (moved from preuve.synthesis.grid)
    "preuve.eval.grid": (
        "ContradictionSpec",
        "FactSpec",
        "Grid",
        "GridScore",
        "ScoreEntry",
        "grade",
        "grid_from_dict",
        "load_grid",
        "unplanned_contradictions",
    ),
    "preuve.core.links": ("BARE_DOMAIN_TLDS", "find_links", "unsupported_links"),
    "preuve.core.markdown": ("escape_markdown", "markdown_quote"),
    "preuve.io.files": (
        "TEMP_PREFIX",
        "copy_file_atomic",
        "write_bytes_atomic",
        "write_json_atomic",
        "write_text_atomic",
    ),
    "preuve.io.registry": (
        "REGISTRY_FORMAT",
        "REGISTRY_NAME",
        "RegistryEntry",
        "copy_into",
        "registry_data",
        "write_registry",
    ),
    "preuve.io.records": (
        "OMITTED_IF_NONE",
        "STRICT",
        "QuoteEntry",
        "RecordError",
        "SpanEntry",
        "dump_record",
        "dump_records",
        "load_data",
        "load_record",
        "load_records",
        "load_records_data",
        "record_of",
    ),
    "preuve.io.runfolder": ("MAX_RUN_FILE_BYTES", "RunFileError", "RunFolder"),
    "preuve.core.text": (
        "Lenient",
        "Normalized",
        "lenient",
        "normalize",
        "normalize_quote",
    ),
    "preuve.core.quotes": (
        "DIAGNOSTIC_QUOTE_CHARS",
        "MIN_LENIENT_CHARS",
        "MIN_QUOTE_CHARS",
        "Diagnostic",
        "QuoteChecker",
        "QuoteResult",
        "Verdict",
        "verify_quote",
    ),
    "preuve.core.numbers": (
        "Locale",
        "NumberMention",
        "detect_locale",
        "extract_numbers",
        "french_number",
        "is_word_char",
        "number_extents",
        "parse_number",
        "reference_tokens",
        "same_dimensions",
        "same_magnitude",
        "same_value",
    ),
    "preuve.core.tokens": ("TokenCut", "TokenIndex"),
    "preuve.core.facts": (
        "Fact",
        "FactStructure",
        "FactValue",
        "parse_facts",
        "render_facts",
    ),
    "preuve.core.claims": (
        "DIMENSIONS",
        "NEGATION_FLIP",
        "WRONG_DIRECTION",
        "WRONG_PERIOD",
        "WRONG_SUBJECT",
        "CitedFact",
        "ClaimRecord",
        "ParagraphClaims",
        "check_claims",
        "review_claims",
    ),
    "preuve.core.claim_lexicon": ("DEFAULT_LEXICON", "LEXICON_KEYS", "ClaimLexicon"),
    "preuve.core.subjects": ("SubjectIndex", "SubjectMention", "subject_key"),
    "preuve.core.factlines": (
        "metric_key",
        "parse_fact_structure",
        "prose_structure",
        "structure_of",
    ),
    "preuve.core.polarity": ("Polarity", "align_polarity", "negations"),
    "preuve.core.memocheck": (
        "LINK_NOT_IN_FACTS",
        "MAX_SOURCES",
        "MIN_WORDS",
        "NO_SOURCE",
        "NO_STATEMENT",
        "NUMBER_NOT_IN_FACTS",
        "NUMBER_SIGN",
        "SCALE_MISMATCH",
        "TOO_MANY_SOURCES",
        "UNIT_MISMATCH",
        "UNKNOWN_SOURCE",
        "Paragraph",
        "check_memo",
        "ground_number",
        "has_negative_word",
        "parse_memo",
        "split_clauses",
    ),
    "preuve.core.documents": (
        "PAGE_SEPARATOR",
        "AccessState",
        "Document",
        "PagePositions",
        "Snapshot",
        "document_id",
        "is_document_id",
        "text_sha256",
    ),
    "preuve.core.evidence": (
        "Span",
        "SpanCheck",
        "SpanStatus",
        "make_span",
        "parse_span_id",
        "resolve_span_id",
        "span_from_mapping",
        "span_id",
        "validate_span",
    ),
    "preuve.core.jsonout": (
        "DuplicateKeyError",
        "JsonResult",
        "check_schema",
        "loads_unique_keys",
        "parse_model_json",
        "validate_schema",
    ),
    "preuve.core.defects": (
        "Defect",
        "render_defects",
    ),
    "preuve.core.errors": (
        "BudgetError",
        "ConfigError",
        "CorruptStoreError",
        "DocumentError",
        "InputError",
        "ModelError",
        "PreuveError",
        "RefusedError",
        "VerificationError",
    ),
    "preuve.errors": (
        "BudgetError",
        "ConfigError",
        "CorruptStoreError",
        "DocumentError",
        "InputError",
        "ModelError",
        "PreuveError",
        "RefusedError",
        "VerificationError",
    ),
    "preuve.io.pdf": (
        "PDFIUM_LOCK",
        "char_lefts",  # issue 14: characters' x-positions, to place blank table cells
        "load_page",
        "load_pages",
        "pdf_positions",
        "read_pdf_pages",
        "read_text_pages",
    ),
}


@pytest.mark.parametrize("module_name", sorted(PUBLIC_API))
def test_public_api_is_pinned(module_name: str) -> None:
    module = importlib.import_module(module_name)
    assert tuple(module.__all__) == PUBLIC_API[module_name]
    for name in module.__all__:
        assert hasattr(module, name), f"{module_name}.__all__ names a missing {name}"


def test_errors_are_one_hierarchy() -> None:
    from preuve.core import errors

    for name in errors.__all__:
        assert issubclass(getattr(errors, name), errors.PreuveError)
    assert errors.InputError.exit_code == 2
    assert errors.RefusedError.exit_code == 1
    assert str(errors.DocumentError("a.pdf: bad\n  thing", fix="give another")) == (
        "a.pdf: bad thing (give another)"
    )
