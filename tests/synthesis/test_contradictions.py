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


def _quoted(subject: str, attribute: str, value: str, quote: str, doc_id: str) -> Statement:
    return Statement(subject, attribute, value, quote, (StatementSource(doc_id, quote=quote),))


def test_a_revised_quote_s_totals_follow_from_its_unit_price() -> None:
    """Two revisions of a quote for cold-room panels: the unit price changed, so did the
    line total, the subtotal and the tax; the unit price is the contradiction, the totals
    its consequence (a total of other documents is still compared)."""
    rev_a, rev_b = "doc-09", "doc-30"  # meeting minutes' rank for both: rule 3 decides
    statements = (
        _quoted("Frostline panel", "price", "€412.00", "| Panel FP-80 | 40 | €412.00 |", rev_a),
        _quoted("Frostline panel", "price", "€389.00", "| Panel FP-80 | 40 | €389.00 |", rev_b),
        _quoted("Frostline panel", "line total", "€16,480.00", "| €16,480.00 |", rev_a),
        _quoted("Frostline panel", "line total", "€15,560.00", "| €15,560.00 |", rev_b),
        _quoted("Frostline", "subtotal", "€18,200.00", "**Subtotal: €18,200.00**", rev_a),
        _quoted("Frostline", "subtotal", "€17,280.00", "**Subtotal: €17,280.00**", rev_b),
        _quoted("Frostline", "total TTC", "€21,840.00", "Total TTC : €21,840.00", rev_a),
        _quoted("Frostline", "total TTC", "€20,736.00", "Total TTC : €20,736.00", rev_b),
        _quoted("Frostline", "subtotal", "€9,000.00", "Subtotal: €9,000.00", "doc-02"),
    )
    found = find_contradictions([Finding("cost", statements)], SOURCES)
    assert [(c.subject, c.attribute, c.retained.value if c.retained else None) for c in found] == [
        ("Frostline panel", "price", "€389.00"),
        ("Frostline", "subtotal", "€17,280.00"),
    ]
    assert [v.sources for v in found[1].rejected] == [("doc-09",), ("doc-02",)]


def test_a_revision_repeating_an_item_row_opposes_its_rows_item_by_item() -> None:
    """Revision B of a rail signalling quote keeps the commissioning line of revision A
    and adds a licence line, both priced under the same subject: the licence row is B's
    own, the commissioning row the same item as A's (same price): no contradiction."""
    rev_a, rev_b = "doc-09", "doc-30"
    commissioning = "| Veltra commissioning and training | $1,200.00 |"
    licence = "| Veltra licence, 12 months per axle counter | $54.00 |"
    statements = (
        _quoted("Veltra", "price", "$1,200.00", commissioning, rev_a),
        _quoted("Veltra", "price", "$1,200.00", commissioning, rev_b),
        _quoted("Veltra", "price", "$54.00", licence, rev_b),
    )
    assert find_contradictions([Finding("cost", statements)], SOURCES) == ()
