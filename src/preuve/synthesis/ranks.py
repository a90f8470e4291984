"""Source types, their reliability ranks, and the ordered rule that arbitrates contradictions.

Ranks (higher is more reliable)::

    internal benchmark 3   audit 3
    official announcement 2   changelog 2   security bulletin 2   quote/estimate 2
    meeting minutes 2   ticket 2
    technical note 1   vendor note 1   unknown 1
    blog 0

The ordered rule, applied by :func:`arbitrate` as three successive filters over the
candidate values (each value carries the documents that state it):

1. *An internal measurement under the common protocol beats vendor data or a blog.* If some
   values are backed by a rank-3 source (internal benchmark, audit), only those stay. When
   exactly one value stays, rule 1 decided.
2. *An official announcement or a published fix beats a third-party article.* Among the
   values left, only those backed by the highest rank stay (an official announcement,
   changelog or security bulletin, rank 2, beats a vendor note or technical note, rank 1,
   and a blog, rank 0; rank 1 beats rank 0 the same way). When exactly one value stays and
   rule 1 did not decide, rule 2 decided.
3. *At equal reliability, the most recent document wins.* Among the values left (all of the
   same rank), the one whose most recent source *of that rank* is strictly the latest stays:
   rule 3 decided. A blog post written after an official announcement does not make the
   announcement's value older, because only sources of the deciding rank are dated.

A value whose sources of that rank are all undated loses rule 3 to a dated one (nothing
shows it is recent). If several values are still left (same rank, same date, or no date),
the contradiction is unresolved: nothing is retained and the committee must decide. The
rank of a value is the best rank among its sources; its date is the latest date among its
sources of that rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from types import MappingProxyType

__all__ = [
    "RANKS",
    "Arbitration",
    "Candidate",
    "SourceInfo",
    "SourceType",
    "arbitrate",
    "parse_source_type",
    "rank_of",
    "rule_three_holds",
]


class SourceType(StrEnum):
    """The type of a document, as written in its header."""

    INTERNAL_BENCHMARK = "internal benchmark"
    AUDIT = "audit"
    OFFICIAL_ANNOUNCEMENT = "official announcement"
    CHANGELOG = "changelog"
    SECURITY_BULLETIN = "security bulletin"
    QUOTE_ESTIMATE = "quote/estimate"
    MEETING_MINUTES = "meeting minutes"
    TICKET = "ticket"
    TECHNICAL_NOTE = "technical note"
    VENDOR_NOTE = "vendor note"
    BLOG = "blog"
    UNKNOWN = "unknown"


RANKS: MappingProxyType[SourceType, int] = MappingProxyType(
    {
        SourceType.INTERNAL_BENCHMARK: 3,
        SourceType.AUDIT: 3,
        SourceType.OFFICIAL_ANNOUNCEMENT: 2,
        SourceType.CHANGELOG: 2,
        SourceType.SECURITY_BULLETIN: 2,
        SourceType.QUOTE_ESTIMATE: 2,
        SourceType.MEETING_MINUTES: 2,
        SourceType.TICKET: 2,
        SourceType.TECHNICAL_NOTE: 1,
        SourceType.VENDOR_NOTE: 1,
        SourceType.BLOG: 0,
        SourceType.UNKNOWN: 1,
    }
)

_MEASUREMENT_RANK = 3


def parse_source_type(text: str) -> SourceType | None:
    """The source type written as ``text`` (case, ``_`` and ``-`` and extra spaces ignored;
    ``quote`` and ``estimate`` alone are accepted), or None when it is not one of them."""
    words = " ".join(text.replace("_", " ").replace("-", " ").split()).lower()
    if words in {"quote", "estimate", "quote / estimate"}:
        return SourceType.QUOTE_ESTIMATE
    try:
        return SourceType(words)
    except ValueError:
        return None


def rank_of(source_type: SourceType) -> int:
    """Reliability rank of a source type (0 to 3)."""
    return RANKS[source_type]


@dataclass(frozen=True, slots=True)
class SourceInfo:
    """What arbitration knows of a document: its id, date (None if unknown) and type."""

    doc_id: str
    date: date | None
    source_type: SourceType

    @property
    def rank(self) -> int:
        return rank_of(self.source_type)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One of the values in contradiction, with every document that states it."""

    value: str
    sources: tuple[SourceInfo, ...]

    def __post_init__(self) -> None:
        if not self.sources:
            raise ValueError(f"candidate value {self.value!r} has no source")

    @property
    def rank(self) -> int:
        """The best rank among the sources."""
        return max(source.rank for source in self.sources)

    @property
    def latest(self) -> date | None:
        """The latest date among the sources of the best rank (None if none is dated)."""
        dates = [s.date for s in self.sources if s.rank == self.rank and s.date is not None]
        return max(dates) if dates else None

    @property
    def doc_ids(self) -> tuple[str, ...]:
        return tuple(source.doc_id for source in self.sources)


@dataclass(frozen=True, slots=True)
class Arbitration:
    """The outcome of the ordered rule: the retained value (None when unresolved), the
    rejected ones, the number of the rule that decided (None when unresolved), and why."""

    retained: Candidate | None
    rejected: tuple[Candidate, ...]
    rule: int | None
    reason: str


def _describe(candidate: Candidate) -> str:
    sources = ", ".join(
        f"{s.doc_id} ({s.source_type}, {s.date.isoformat() if s.date else 'undated'})"
        for s in candidate.sources
    )
    return f"{candidate.value!r} [{sources}]"


def _newer(a: date | None, b: date | None) -> bool:
    return a is not None and (b is None or a > b)


def rule_three_holds(retained: Candidate, rejected: Sequence[Candidate]) -> bool:
    """True when the retained value is at least as reliable as, and strictly more recent
    than, every rejected value: rule 3 justifies it (also when rule 1 or 2 decided)."""
    return all(
        retained.rank >= other.rank and _newer(retained.latest, other.latest) for other in rejected
    )


def _decided(
    winner: Candidate, candidates: Sequence[Candidate], rule: int, why: str
) -> Arbitration:
    rejected = tuple(c for c in candidates if c is not winner)
    losers = "; ".join(_describe(c) for c in rejected)
    reason = f"rule {rule}: {why}: retained {_describe(winner)} over {losers}"
    return Arbitration(retained=winner, rejected=rejected, rule=rule, reason=reason)


def arbitrate(candidates: Sequence[Candidate]) -> Arbitration:
    """Apply the ordered rule (see the module docstring) to two or more distinct values."""
    if len(candidates) < 2:
        raise ValueError("arbitration needs at least two values in contradiction")
    measured = [c for c in candidates if c.rank >= _MEASUREMENT_RANK]
    if len(measured) == 1:
        return _decided(
            measured[0],
            candidates,
            1,
            "an internal measurement under the common protocol beats vendor data or a blog",
        )
    left = measured or list(candidates)
    best = max(c.rank for c in left)
    left = [c for c in left if c.rank == best]
    if len(left) == 1:
        return _decided(
            left[0],
            candidates,
            2,
            "an official announcement or a published fix beats a less reliable source",
        )
    dated = [c for c in left if c.latest is not None]
    if dated:
        latest = max(c.latest for c in dated if c.latest is not None)
        newest = [c for c in dated if c.latest == latest]
        if len(newest) == 1:
            return _decided(
                newest[0],
                candidates,
                3,
                f"at equal reliability (rank {best}) the most recent document wins",
            )
    reason = (
        f"unresolved: {len(left)} values have the same reliability (rank {best}) and no "
        "single most recent source; the committee must decide between "
        + "; ".join(_describe(c) for c in left)
    )
    return Arbitration(retained=None, rejected=tuple(candidates), rule=None, reason=reason)
