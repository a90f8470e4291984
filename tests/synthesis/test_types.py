"""Findings data: value agreement, merged statements, read-but-unused, serialization."""

from __future__ import annotations

import importlib
import json
from decimal import Decimal
from typing import Any

import pytest

from preuve.core.errors import InputError
from preuve.io.records import dump_record
from preuve.synthesis.entries import synthesis_entry
from preuve.synthesis.types import (
    Finding,
    FindingStatus,
    Plan,
    Statement,
    StatementSource,
    SubTask,
    Synthesis,
    distinct_values,
    is_merged,
    normalize_key,
    sources_by_value,
    synthesis_from_dict,
    values_agree,
)
from tests.synthesis import reference


@pytest.mark.parametrize(
    ("a", "b", "agree"),
    [
        ("2 400 tok/s", "2400 tok/s", True),
        ("2\u202f400 tok/s", "2 400 tok/s", True),
        ("340 ms", "340 MS", True),
        ("corrigée dans Orvet 3.4.2", "Corrigee dans Orvet 3.4.2.", True),
        ("5,5x", "5,50x", True),
        ("120 ms", "340 ms", False),
        ("2 400 tok/s", "2 400 ms", False),
        ("Apache 2.0", "TSL", False),
        ("30 juin 2027", "31 décembre 2028", False),
        ("3.4.2", "3.4.1", False),
    ],
    ids=["grouping", "narrow-nbsp", "case", "accents-final-period", "trailing-zero",
         "other-number", "other-unit", "other-word", "other-date", "other-version"],
)  # fmt: skip
def test_values_agree(a: str, b: str, agree: bool) -> None:
    assert values_agree(a, b) is agree
    assert values_agree(b, a) is agree


def test_normalize_key() -> None:
    assert normalize_key("Latence  P95") == normalize_key("latence_p95") == "latence p95"
    assert normalize_key("Débit") == "debit"


def test_distinct_values_keeps_first_spelling() -> None:
    assert distinct_values(["2 400 tok/s", "2400 tok/s", "1 900 tok/s"]) == (
        "2 400 tok/s",
        "1 900 tok/s",
    )


def test_merged_statement_is_flagged() -> None:
    merged = reference.merged_security_finding()
    assert is_merged(merged.statements[0])
    assert merged.merged_statements() == merged.statements
    plain = Statement.of("Orvet", "licence", "MIT", "Orvet : licence MIT.", "doc-14", "doc-23")
    assert not is_merged(plain)
    same_value = Statement(
        "Kestrel Serve", "débit", "2 400 tok/s", "", (StatementSource("doc-02", "2400 tok/s"),)
    )
    assert not is_merged(same_value)


def test_sources_by_value_groups_per_document_values() -> None:
    grouped = sources_by_value({"doc-16": "sans correctif", "doc-17": "3.4.2", "doc-13": "3.4.2"})
    assert [(v.value, v.sources) for v in grouped] == [
        ("sans correctif", ("doc-16",)),
        ("3.4.2", ("doc-17", "doc-13")),
    ]


def test_read_but_not_used() -> None:
    perf = reference.findings()[0]
    assert perf.read_but_not_used == ("doc-01", "doc-20")
    assert perf.cited == frozenset({"doc-02", "doc-06"})


def test_not_investigated_keeps_the_error() -> None:
    failed = Finding.not_investigated("security", "  model timed out\n after 30 s ", ("doc-16",))
    assert failed.status is FindingStatus.NOT_INVESTIGATED
    assert failed.error == "model timed out after 30 s"
    assert failed.read_but_not_used == ("doc-16",)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"status": FindingStatus.NOT_INVESTIGATED},
        {"status": FindingStatus.NOT_INVESTIGATED, "error": "x", "statements": (
            Statement.of("a", "b", "c", "d", "doc-1"),)},
        {"error": "an ok finding with an error"},
    ],
    ids=["no-error", "with-statements", "ok-with-error"],
)  # fmt: skip
def test_finding_invariants(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="finding"):
        Finding("t", **kwargs)  # type: ignore[arg-type]


def test_plan_reports_uncovered_documents() -> None:
    plan = Plan("q", (SubTask("a", "?", ("doc-01", "doc-02")), SubTask("b", "?", ("doc-02",))))
    assert plan.covered == frozenset({"doc-01", "doc-02"})
    assert plan.uncovered(["doc-01", "doc-02", "doc-30", "doc-31"]) == ("doc-30", "doc-31")


def _synthesis_data(synthesis: Synthesis) -> dict[str, Any]:
    """A synthesis as ``synthesis.json`` holds it (its run-file entry)."""
    data: dict[str, Any] = dump_record(synthesis_entry(synthesis))
    return data


def test_synthesis_round_trips_through_json() -> None:
    synthesis = reference.good_synthesis()
    data = json.loads(json.dumps(_synthesis_data(synthesis)))
    assert synthesis_from_dict(data) == synthesis
    assert data["numbers"][0]["value"] == "331200"


def test_unresolved_contradiction_round_trips() -> None:
    data = _synthesis_data(reference.good_synthesis())
    data["contradictions"][0]["retained"] = None
    data["contradictions"][0]["rule"] = None
    rebuilt = synthesis_from_dict(data)
    assert not rebuilt.contradictions[0].resolved


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d.pop("paragraphs"), "paragraphs"),
        (lambda d: d["paragraphs"][0].update(sources="doc-06"), "sources"),
        (lambda d: d["contradictions"][0].update(rule=4), "rule"),
        (lambda d: d["numbers"][0].update(value="331 200"), "value"),
        (lambda d: d.update(extra=1), "extra"),
    ],
    ids=["no-paragraphs", "sources-not-list", "rule-4", "value-not-decimal", "unknown-key"],
)
def test_malformed_synthesis_is_an_input_error(mutate: object, where: str) -> None:
    data = _synthesis_data(reference.good_synthesis())
    assert callable(mutate)
    mutate(data)
    with pytest.raises(InputError, match=where):
        synthesis_from_dict(data, "out/synthesis.json")


def test_computed_value_keeps_decimal() -> None:
    assert reference.GPU_COST_2027.value == Decimal("331200")


@pytest.mark.parametrize(
    ("module", "names"),
    [
        ("types", {
            "SYNTHESIS_SCHEMA", "ComputedValue", "Contradiction", "Finding", "FindingStatus",
            "Paragraph", "Plan", "RefusedStatement", "SourcedValue", "Statement",
            "StatementSource", "SubTask", "Synthesis", "distinct_values", "is_merged",
            "normalize_key", "sources_by_value", "synthesis_from_dict",
            "values_agree",
        }),
        ("dossier", {
            "DOSSIER_FIX", "Dossier", "dossier_from_files", "parse_document", "source_info",
        }),
        ("contradictions", {
            "ValueGroup", "between_documents", "candidates_of", "contradiction_from",
            "find_contradictions", "group_values",
        }),
        ("checks", {
            "DossierLimits", "QuantityKind", "check_arbitrations", "check_citations",
            "check_computations", "check_missing_contradictions", "check_numbers",
            "check_synthesis", "dossier_limits", "product", "read_documents",
            "total_over_periods",
        }),
    ],
    ids=["types", "dossier", "contradictions", "checks"],
)  # fmt: skip
def test_public_surfaces_are_pinned(module: str, names: set[str]) -> None:
    loaded = importlib.import_module(f"preuve.synthesis.{module}")
    assert set(loaded.__all__) == names
    assert all(hasattr(loaded, name) for name in names)
