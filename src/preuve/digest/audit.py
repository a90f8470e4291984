"""Audit summary claims: reference validity, support by exact tuple, precision and recall.

- **Reference validity**: every evidence id of a claim resolves, in the current snapshot,
  to a current line of an active, eligible document.
- **Support**: at least one cited line *is* a fact line stating the claim's exact
  ``(subject, field, value)`` (:func:`~preuve.digest.extractive.parse_fact_line`). A real
  line saying 18 October does not support a claim of 23 October, and a line that merely
  mentions the value (a negated older date, a quoted message) supports nothing.
- **Fact precision and recall** on unique tuples, against gold tuples the *caller* passes
  (the gold of currently eligible sources): this module never opens gold labels;
  :mod:`preuve.eval.digest_eval` does.
- **Duplicates**: claims repeating a tuple already claimed in the same summary.

:func:`review_sample` exports claims for human review with status PENDING: the program
never claims that a human read them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from preuve.core.documents import Snapshot
from preuve.core.evidence import resolve_span_id
from preuve.digest.extractive import FactTuple, parse_fact_line
from preuve.digest.schema import Claim

__all__ = [
    "REVIEW_PENDING",
    "ClaimAudit",
    "PooledAudit",
    "ReviewEntry",
    "RootAudit",
    "audit_claim",
    "audit_claims",
    "pool_audits",
    "review_sample",
]

REVIEW_PENDING = "PENDING"


@dataclass(frozen=True, slots=True)
class ClaimAudit:
    claim: Claim
    reference_problems: tuple[str, ...]
    supported: bool
    duplicate: bool = False

    @property
    def references_valid(self) -> bool:
        return not self.reference_problems


def audit_claim(claim: Claim, snapshot: Snapshot) -> ClaimAudit:
    """Check one claim's references and support against ``snapshot``."""
    problems: list[str] = []
    supported = False
    for evidence_id in claim.evidence:
        check = resolve_span_id(evidence_id, snapshot)
        if not check.ok or check.span is None:
            problems.append(f"{evidence_id}: {check.detail}")
            continue
        if parse_fact_line(check.span.quote) == claim.fact:
            supported = True
    return ClaimAudit(claim, tuple(problems), supported)


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


@dataclass(frozen=True, slots=True)
class RootAudit:
    """The audit of one summary's claims; ``gold`` is ``None`` when none was given."""

    claims: tuple[ClaimAudit, ...]
    gold: frozenset[FactTuple] | None

    @property
    def predicted(self) -> frozenset[FactTuple]:
        return frozenset(audit.claim.fact for audit in self.claims)

    @property
    def true_positives(self) -> int:
        return len(self.predicted & self.gold) if self.gold is not None else 0

    @property
    def precision(self) -> float | None:
        return _ratio(self.true_positives, len(self.predicted)) if self.gold is not None else None

    @property
    def recall(self) -> float | None:
        return _ratio(self.true_positives, len(self.gold)) if self.gold is not None else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "claims": len(self.claims),
            "references_valid": sum(a.references_valid for a in self.claims),
            "supported": sum(a.supported for a in self.claims),
            "duplicates": sum(a.duplicate for a in self.claims),
            "unique_tuples": len(self.predicted),
            "gold_tuples": None if self.gold is None else len(self.gold),
            "true_positives": self.true_positives if self.gold is not None else None,
            "precision": self.precision,
            "recall": self.recall,
        }


def audit_claims(
    claims: Sequence[Claim], snapshot: Snapshot, gold: Collection[FactTuple] | None = None
) -> RootAudit:
    """Audit a summary's claims; ``gold``: the tuples of the currently eligible sources."""
    seen: set[FactTuple] = set()
    audits: list[ClaimAudit] = []
    for claim in claims:
        audit = audit_claim(claim, snapshot)
        audits.append(
            ClaimAudit(audit.claim, audit.reference_problems, audit.supported, claim.fact in seen)
        )
        seen.add(claim.fact)
    return RootAudit(tuple(audits), None if gold is None else frozenset(gold))


@dataclass(frozen=True, slots=True)
class PooledAudit:
    """Audits of several summaries added up (micro precision and recall)."""

    summaries: int
    claims: int
    references_valid: int
    supported: int
    duplicates: int
    unique_tuples: int
    true_positives: int
    gold_tuples: int

    @property
    def precision(self) -> float | None:
        return _ratio(self.true_positives, self.unique_tuples)

    @property
    def recall(self) -> float | None:
        return _ratio(self.true_positives, self.gold_tuples)

    def as_dict(self) -> dict[str, Any]:
        return {
            "summaries": self.summaries,
            "claims": self.claims,
            "references_valid": self.references_valid,
            "supported": self.supported,
            "duplicates": self.duplicates,
            "unique_tuples": self.unique_tuples,
            "true_positives": self.true_positives,
            "gold_tuples": self.gold_tuples,
            "precision": self.precision,
            "recall": self.recall,
        }


def pool_audits(audits: Sequence[RootAudit]) -> PooledAudit:
    return PooledAudit(
        summaries=len(audits),
        claims=sum(len(a.claims) for a in audits),
        references_valid=sum(c.references_valid for a in audits for c in a.claims),
        supported=sum(c.supported for a in audits for c in a.claims),
        duplicates=sum(c.duplicate for a in audits for c in a.claims),
        unique_tuples=sum(len(a.predicted) for a in audits),
        true_positives=sum(a.true_positives for a in audits),
        gold_tuples=sum(len(a.gold) for a in audits if a.gold is not None),
    )


@dataclass(frozen=True, slots=True)
class ReviewEntry:
    """One summary to put before a human: which event, which run, its claims."""

    label: str
    run_id: str
    snapshot: Snapshot
    claims: tuple[Claim, ...]


def _evidence(claim: Claim, snapshot: Snapshot) -> list[dict[str, str]]:
    rows = []
    for evidence_id in claim.evidence:
        check = resolve_span_id(evidence_id, snapshot)
        quote = check.span.quote if check.ok and check.span is not None else ""
        rows.append({"id": evidence_id, "line": quote, "check": check.status.value})
    return rows


def review_sample(entries: Sequence[ReviewEntry]) -> dict[str, Any]:
    """Every claim of ``entries``, with its cited lines and automatic verdicts, PENDING review."""
    items = []
    for entry in entries:
        audit = audit_claims(entry.claims, entry.snapshot)
        items.append(
            {
                "event": entry.label,
                "run_id": entry.run_id,
                "claims": [
                    {
                        **a.claim.as_dict(),
                        "evidence": _evidence(a.claim, entry.snapshot),
                        "references_valid": a.references_valid,
                        "supported": a.supported,
                        "review_status": REVIEW_PENDING,
                        "reviewer": None,
                    }
                    for a in audit.claims
                ],
            }
        )
    return {
        "review_status": REVIEW_PENDING,
        "note": "exported for human review; no human has read these claims yet",
        "claims": sum(len(item["claims"]) for item in items),
        "items": items,
    }
