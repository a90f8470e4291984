"""Audit: reference validity, support by exact tuple, precision/recall, duplicates, review."""

from __future__ import annotations

import pytest

from preuve.core.documents import Document, Snapshot
from preuve.digest import audit as audit_module
from preuve.digest.audit import (
    REVIEW_PENDING,
    ReviewEntry,
    audit_claim,
    audit_claims,
    pool_audits,
    review_sample,
)
from preuve.digest.extractive import FactTuple
from preuve.digest.lines import document_lines, line_id
from preuve.digest.schema import Claim
from preuve.io.records import dump_record

TEXT = (
    "Product P-01-02 delivery: 23 October 2026.\n"
    "The earlier plan of 18 October 2026 no longer holds.\n"
    "Product P-01-02 delivery: 18 October 2026 was the old plan.\n"
    'Archived: "Product P-01-02 status: cancelled."\n'
    "Product P-01-02 status: packed.\n"
)
DOC = Document("d1", 1, "t", "", "note", (TEXT,))
SNAPSHOT = Snapshot.of([DOC])
ID = {span.quote: span.id for span in document_lines(DOC)}
CURRENT = ID["Product P-01-02 delivery: 23 October 2026."]
NEGATED = ID["The earlier plan of 18 October 2026 no longer holds."]
MENTION = ID["Product P-01-02 delivery: 18 October 2026 was the old plan."]
QUOTED = ID['Archived: "Product P-01-02 status: cancelled."']
STATUS = ID["Product P-01-02 status: packed."]


def claim(field: str, value: str, *evidence: str) -> Claim:
    return Claim("P-01-02", field, value, evidence)


def test_public_surface_is_pinned() -> None:
    assert audit_module.__all__ == [
        "REVIEW_PENDING",
        "AuditFigures",
        "ClaimAudit",
        "PooledAudit",
        "ReviewEntry",
        "RootAudit",
        "audit_claim",
        "audit_claims",
        "pool_audits",
        "review_sample",
    ]


@pytest.mark.parametrize(
    ("claimed", "supported"),
    [
        (claim("delivery", "23 October 2026", CURRENT), True),
        (claim("delivery", "18 October 2026", CURRENT), False),
        (claim("delivery", "18 October 2026", NEGATED), False),
        (claim("delivery", "18 October 2026", MENTION), False),
        (claim("status", "cancelled", QUOTED), False),
        (claim("status", "packed", STATUS), True),
        (claim("status", "packed", CURRENT, STATUS), True),
        (claim("status", "Packed", STATUS), False),
        (Claim("P-01-03", "status", "packed", (STATUS,)), False),
    ],
    ids=[
        "exact-line",
        "real-line-other-date",
        "negated-older-date",
        "mention-not-a-fact-line",
        "quoted-instruction",
        "status",
        "one-of-two-lines-supports",
        "case-differs",
        "other-subject",
    ],
)
def test_support_needs_the_exact_tuple_on_a_cited_fact_line(
    claimed: Claim, supported: bool
) -> None:
    result = audit_claim(claimed, SNAPSHOT)
    assert result.references_valid
    assert result.supported is supported


@pytest.mark.parametrize(
    ("snapshot", "evidence", "problem"),
    [
        (SNAPSHOT.with_access("d1", DOC.access.withdrawn()), CURRENT, "withdrawn"),
        (SNAPSHOT.with_access("d1", DOC.access.revoked()), CURRENT, "not accessible"),
        (SNAPSHOT, line_id("d1", "Product P-01-02 delivery: 24 October 2026."), "line changed"),
        (SNAPSHOT, "d2#0123456789", "not in the snapshot"),
        (SNAPSHOT, "not an id", "not an evidence id"),
        # Evidence ids rest on content: a location id (doc@version:start:end) is not one.
        (SNAPSHOT, "d1@1:0:42", "not an evidence id"),
    ],
    ids=["withdrawn", "revoked", "changed-line", "absent-document", "malformed", "location-id"],
)
def test_references_must_be_current_and_eligible(
    snapshot: Snapshot, evidence: str, problem: str
) -> None:
    result = audit_claim(claim("delivery", "23 October 2026", evidence), snapshot)
    assert not result.references_valid and not result.supported
    assert problem in result.reference_problems[0]


def test_precision_recall_on_unique_tuples_and_duplicates() -> None:
    claims = [
        claim("delivery", "23 October 2026", CURRENT),
        claim("delivery", "23 October 2026", CURRENT),  # duplicate
        claim("status", "cancelled", QUOTED),  # wrong
    ]
    gold = {
        FactTuple("P-01-02", "delivery", "23 October 2026"),
        FactTuple("P-01-02", "status", "packed"),
        FactTuple("P-01-05", "site", "Kesby depot"),
        FactTuple("P-01-05", "quantity", "40 units"),
    }
    audit = audit_claims(claims, SNAPSHOT, gold)
    assert [a.duplicate for a in audit.claims] == [False, True, False]
    assert audit.true_positives == 1
    assert audit.precision == 0.5 and audit.recall == 0.25
    figures = dump_record(audit.figures())
    assert (figures["claims"], figures["supported"], figures["duplicates"]) == (3, 2, 1)
    assert audit_claims(claims, SNAPSHOT).precision is None
    empty = audit_claims([], SNAPSHOT, gold)
    assert empty.precision is None and empty.recall == 0.0
    pooled = pool_audits([audit, empty])
    assert (pooled.summaries, pooled.claims, pooled.true_positives, pooled.gold_tuples) == (
        2,
        3,
        1,
        8,
    )
    assert pooled.precision == 0.5 and pooled.recall == 1 / 8


def test_review_sample_is_pending_for_every_claim() -> None:
    claims = (claim("delivery", "23 October 2026", CURRENT), claim("status", "packed", STATUS))
    entries = [
        ReviewEntry("initial", "run-1", SNAPSHOT, claims),
        ReviewEntry("after", "run-2", SNAPSHOT, claims[:1]),
    ]
    sample = review_sample(entries)
    assert sample["review_status"] == REVIEW_PENDING == "PENDING"
    assert sample["claims"] == 3
    rows = [c for item in sample["items"] for c in item["claims"]]
    assert {c["review_status"] for c in rows} == {"PENDING"} and {c["reviewer"] for c in rows} == {
        None
    }
    assert rows[0]["evidence"] == [
        {
            "id": CURRENT,
            "location": "d1@1:0:42",
            "line": "Product P-01-02 delivery: 23 October 2026.",
            "check": "valid",
        }
    ]
