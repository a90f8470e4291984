"""Contradictions found in code: grouping by (subject, attribute), per-source values, rules."""

from __future__ import annotations

from datetime import date

import pytest

from preuve.synthesis.contradictions import find_contradictions, group_values
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.types import Finding, Statement, StatementSource
from tests.synthesis import reference

T = SourceType
SOURCES = {
    "doc-02": SourceInfo("doc-02", date(2026, 2, 10), T.VENDOR_NOTE),
    "doc-04": SourceInfo("doc-04", date(2026, 3, 5), T.BLOG),
    "doc-05": SourceInfo("doc-05", date(2026, 5, 19), T.OFFICIAL_ANNOUNCEMENT),
    "doc-06": SourceInfo("doc-06", date(2026, 7, 9), T.INTERNAL_BENCHMARK),
    "doc-09": SourceInfo("doc-09", date(2026, 3, 12), T.MEETING_MINUTES),
    "doc-13": SourceInfo("doc-13", date(2026, 6, 26), T.CHANGELOG),
    "doc-16": SourceInfo("doc-16", date(2026, 4, 8), T.SECURITY_BULLETIN),
    "doc-17": SourceInfo("doc-17", date(2026, 6, 24), T.SECURITY_BULLETIN),
    "doc-30": SourceInfo("doc-30", date(2026, 5, 12), T.MEETING_MINUTES),
    "doc-31": SourceInfo("doc-31", date(2026, 9, 15), T.OFFICIAL_ANNOUNCEMENT),
}
S = Statement.of


def test_latency_gap_is_a_contradiction_even_when_conditions_explain_it() -> None:
    vendor = S(
        "Kestrel Serve",
        "latence p95",
        "120 ms",
        "120 ms sur un seul GPU, lots de 8 requêtes, invites de 200 tokens",
        "doc-02",
    )
    internal = S(
        "Kestrel Serve",
        "latence p95",
        "340 ms",
        "340 ms selon le protocole commun : deux GPU, 32 requêtes, invites de 1 000 tokens",
        "doc-06",
    )
    [found] = find_contradictions([Finding("perf", (vendor, internal))], SOURCES)
    assert found.retained is not None
    assert (found.retained.value, found.retained.sources) == ("340 ms", ("doc-06",))
    assert [(v.value, v.sources) for v in found.rejected] == [("120 ms", ("doc-02",))]
    assert found.rule == 1
    assert "rule 1" in found.reason


def test_found_across_sub_tasks_and_spellings() -> None:
    a = Finding("vendor", (S("Kestrel Serve", "Latence P95", "120 ms", "", "doc-02"),))
    b = Finding("bench", (S("kestrel  serve", "latence_p95", "340 ms", "", "doc-06"),))
    [found] = find_contradictions([a, b], SOURCES)
    assert (found.subject, found.attribute) == ("Kestrel Serve", "Latence P95")


def test_merged_statement_still_yields_its_contradiction() -> None:
    [found] = find_contradictions([reference.merged_security_finding()], SOURCES)
    assert found.retained is not None
    assert found.retained.value == reference.FIXED
    assert found.retained.sources == ("doc-17",)
    assert [v.sources for v in found.rejected] == [("doc-16",)]
    assert found.rule == 3


@pytest.mark.parametrize(
    "statements",
    [
        pytest.param(
            (
                S("K", "débit", "2 400 tok/s", "", "doc-02"),
                S("K", "débit", "2400 tok/s", "", "doc-06"),
            ),
            id="same-value-other-spelling",
        ),
        pytest.param(
            (
                S("K", "latence p95", "120 ms", "", "doc-02"),
                S("K", "débit", "1 900 tok/s", "", "doc-06"),
            ),
            id="other-attribute",
        ),
        pytest.param(
            (
                S("K", "latence p95", "120 ms", "", "doc-02"),
                S("T", "latence p95", "280 ms", "", "doc-06"),
            ),
            id="other-subject",
        ),
        pytest.param(
            (
                S("Parc GPU", "parc 2026", "6 GPU en 2026", "", "doc-09"),
                S("Parc GPU", "parc 2027", "12 GPU en 2027", "", "doc-09"),
            ),
            id="yearly-fleets-are-not-one-quantity",
        ),
    ],
)
def test_no_contradiction(statements: tuple[Statement, ...]) -> None:
    assert find_contradictions([Finding("t", statements)], SOURCES) == ()


def test_not_investigated_findings_are_ignored() -> None:
    ok = Finding("a", (S("K", "latence p95", "120 ms", "", "doc-02"),))
    failed = Finding.not_investigated("b", "timeout")
    assert find_contradictions([ok, failed], SOURCES) == ()


def test_unknown_document_is_undated_and_of_unknown_type() -> None:
    statements = (
        S("K", "latence p95", "120 ms", "", "doc-77"),
        S("K", "latence p95", "340 ms", "", "doc-02"),
    )
    [found] = find_contradictions([Finding("t", statements)], SOURCES)
    # Same rank (vendor note and unknown are both 1): the dated document wins by rule 3.
    assert found.retained is not None and found.retained.sources == ("doc-02",)
    assert found.rule == 3


def test_group_values_merges_documents_of_one_value() -> None:
    finding = Finding(
        "sec",
        (
            Statement(
                "Orvet",
                "ORV-SA-2026-004",
                "3.4.2",
                "",
                (StatementSource("doc-17"), StatementSource("doc-16", "sans correctif")),
            ),
            S("Orvet", "ORV-SA-2026-004", "3.4.2", "", "doc-13", "doc-17"),
        ),
    )
    [group] = group_values([finding])
    assert [(v.value, v.sources) for v in group.values] == [
        ("3.4.2", ("doc-17", "doc-13")),
        ("sans correctif", ("doc-16",)),
    ]


def test_bundled_findings_give_the_planted_contradictions() -> None:
    found = find_contradictions(reference.findings(), SOURCES)
    summary = [
        (c.subject, c.attribute, c.retained.value if c.retained else None, c.rule) for c in found
    ]
    assert summary == [
        ("Kestrel Serve", "latence p95", "340 ms", 1),
        ("Kestrel Serve", "débit", "1 900 tok/s", 1),
        ("Tamaris Inference", "licence", "TSL", 2),
        ("Orvet", "ORV-SA-2026-004", reference.FIXED, 3),
        ("Kestrel Serve 2.x", "fin de support", "30 juin 2027", 3),
    ]
