"""Audit summary claims: reference validity, support by exact tuple, precision and recall.

- **Reference validity**: every evidence id of a claim resolves, in the current snapshot,
  to a current line of an active, eligible document.
- **Support**: at least one cited line *is* a fact line stating the claim's exact
  ``(subject, field, value)`` in the grammar, *and* that line is affirmed in its document
  (:mod:`preuve.digest.affirm`). A real line saying 18 October does not support a claim of
  23 October; a line that merely mentions the value (a negated older date, a quoted
  message) supports nothing; and a well-formed fact line inside a quoted block, a struck
  entry, a hypothetical, a reported claim or an archived instruction is reported
  ``unsupported: not affirmed`` with its reason.
- **Fact precision and recall** on unique tuples, against gold tuples the *caller* passes
  (the gold of currently eligible sources): this module never opens gold labels;
  :mod:`preuve.eval.digest_eval` does.
- **Duplicates**: claims repeating a tuple already claimed in the same summary.

:func:`review_sample` exports claims for human review with status PENDING: the program
never claims that a human read them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from preuve.core.documents import Snapshot
from preuve.digest.affirm import DEFAULT_CUES, LineContext
from preuve.digest.extractive import document_contexts
from preuve.digest.grammar import DEFAULT_GRAMMAR, FactGrammar, FactTuple
from preuve.digest.lines import LineResolver
from preuve.digest.schema import Claim
from preuve.io.records import dump_record

__all__ = [
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

REVIEW_PENDING = "PENDING"


@dataclass(frozen=True, slots=True)
class ClaimAudit:
    """One claim's verdict; ``support`` says why it is or is not supported."""

    claim: Claim
    reference_problems: tuple[str, ...]
    supported: bool
    duplicate: bool = False
    support: str = ""

    @property
    def references_valid(self) -> bool:
        return not self.reference_problems

    @property
    def not_affirmed(self) -> bool:
        """True when a cited line states the tuple but is not affirmed in its document."""
        return self.support.startswith("unsupported: not affirmed")


class _Contexts:
    """Each cited document's lines read in context, once per audit."""

    def __init__(self, snapshot: Snapshot, grammar: FactGrammar) -> None:
        self.resolver = LineResolver(snapshot)
        self.grammar = grammar
        self._by_doc: dict[str, dict[str, LineContext]] = {}

    def of(self, doc_id: str, evidence_id: str) -> LineContext:
        found = self._by_doc.get(doc_id)
        if found is None:
            doc = self.resolver.snapshot.documents[doc_id]
            found = {span.id: context for span, context in document_contexts(doc, self.grammar)}
            self._by_doc[doc_id] = found
        return found[evidence_id]


def _audit(claim: Claim, contexts: _Contexts) -> ClaimAudit:
    problems: list[str] = []
    supported = False
    reasons: list[str] = []
    for evidence_id in claim.evidence:
        check = contexts.resolver.resolve(evidence_id)
        if not check.ok or check.line is None:
            problems.append(f"{evidence_id}: {check.detail}")
            continue
        context = contexts.of(check.line.doc_id, evidence_id)
        if context.fact != claim.fact and claim.fact in contexts.grammar.embedded(check.line.quote):
            # The line mentions the tuple inside something else: a quote, a sentence.
            why = context.context or DEFAULT_CUES.context_of(check.line.quote) or "embedded"
            reasons.append(
                f"not affirmed: {evidence_id} is {why} (the tuple is inside the line "
                f"{check.line.quote[:70]!r}, not stated by it)"
            )
        elif context.fact != claim.fact:
            reasons.append(f"{evidence_id} does not state this tuple")
        elif not context.affirmed:
            reasons.append(f"not affirmed: {evidence_id} is {context.context} ({context.reason})")
        else:
            supported = True
    if supported:
        return ClaimAudit(claim, tuple(problems), True, support="supported")
    affirmation = [r for r in reasons if r.startswith("not affirmed")]
    why = (affirmation or reasons or ["no cited line resolves"])[0]
    return ClaimAudit(claim, tuple(problems), False, support=f"unsupported: {why}")


def audit_claim(
    claim: Claim, snapshot: Snapshot, grammar: FactGrammar = DEFAULT_GRAMMAR
) -> ClaimAudit:
    """Check one claim's references and support against ``snapshot``."""
    return _audit(claim, _Contexts(snapshot, grammar))


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

    def figures(self) -> AuditFigures:
        """What the audit found, counted (gold's figures ``None`` without gold)."""
        with_gold = self.gold is not None
        return AuditFigures(
            claims=len(self.claims),
            references_valid=sum(a.references_valid for a in self.claims),
            supported=sum(a.supported for a in self.claims),
            not_affirmed=sum(a.not_affirmed for a in self.claims),
            duplicates=sum(a.duplicate for a in self.claims),
            unique_tuples=len(self.predicted),
            gold_tuples=len(self.gold) if self.gold is not None else None,
            true_positives=self.true_positives if with_gold else None,
            precision=self.precision,
            recall=self.recall,
        )


@dataclass(frozen=True, slots=True)
class AuditFigures:
    """One summary's audit as figures (``digest audit``'s ``audit``, an evaluation step's)."""

    claims: int
    references_valid: int
    supported: int
    not_affirmed: int
    duplicates: int
    unique_tuples: int
    gold_tuples: int | None
    true_positives: int | None
    precision: float | None
    recall: float | None


def audit_claims(
    claims: Sequence[Claim],
    snapshot: Snapshot,
    gold: Collection[FactTuple] | None = None,
    grammar: FactGrammar = DEFAULT_GRAMMAR,
) -> RootAudit:
    """Audit a summary's claims; ``gold``: the tuples of the currently eligible sources."""
    seen: set[FactTuple] = set()
    audits: list[ClaimAudit] = []
    contexts = _Contexts(snapshot, grammar)
    for claim in claims:
        audit = _audit(claim, contexts)
        audits.append(replace(audit, duplicate=claim.fact in seen))
        seen.add(claim.fact)
    return RootAudit(tuple(audits), None if gold is None else frozenset(gold))


@dataclass(frozen=True, slots=True)
class PooledAudit:
    """Audits of several summaries added up (micro precision and recall), as figures."""

    summaries: int
    claims: int
    references_valid: int
    supported: int
    not_affirmed: int
    duplicates: int
    unique_tuples: int
    true_positives: int
    gold_tuples: int

    precision: float | None
    recall: float | None


def pool_audits(audits: Sequence[RootAudit]) -> PooledAudit:
    unique = sum(len(a.predicted) for a in audits)
    true_positives = sum(a.true_positives for a in audits)
    gold = sum(len(a.gold) for a in audits if a.gold is not None)
    return PooledAudit(
        summaries=len(audits),
        claims=sum(len(a.claims) for a in audits),
        references_valid=sum(c.references_valid for a in audits for c in a.claims),
        supported=sum(c.supported for a in audits for c in a.claims),
        not_affirmed=sum(c.not_affirmed for a in audits for c in a.claims),
        duplicates=sum(c.duplicate for a in audits for c in a.claims),
        unique_tuples=unique,
        true_positives=true_positives,
        gold_tuples=gold,
        precision=_ratio(true_positives, unique),
        recall=_ratio(true_positives, gold),
    )


@dataclass(frozen=True, slots=True)
class ReviewEntry:
    """One summary to put before a human: which event, which run, its claims."""

    label: str
    run_id: str
    snapshot: Snapshot
    claims: tuple[Claim, ...]


def _evidence(claim: Claim, snapshot: Snapshot) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    resolver = LineResolver(snapshot)
    for evidence_id in claim.evidence:
        check = resolver.resolve(evidence_id)
        line = check.line if check.ok else None
        rows.append(
            {
                "id": evidence_id,
                "location": line.location if line is not None else "",
                "line": line.quote if line is not None else "",
                "check": check.status.value,
            }
        )
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
                        **dump_record(a.claim),
                        "evidence": _evidence(a.claim, entry.snapshot),
                        "references_valid": a.references_valid,
                        "supported": a.supported,
                        "support": a.support,
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
