"""Source types, their reliability ranks, and the ordered rule that arbitrates contradictions.

The types, their aliases (the seed documents write ``benchmark-interne``,
``note-fournisseur``, ``annonce-officielle``, ``bulletin-securite``, ``compte-rendu``,
``devis``, ``note-technique``) and their ranks are data: the ``[source_types]`` table of the
lexicon, replaced by a dossier's own table when it ships one (:class:`RankTable`). Default
ranks (higher is more reliable)::

    internal benchmark 3   audit 3
    official announcement 2   changelog 2   security bulletin 2   quote/estimate 2
    meeting minutes 2   ticket 2
    technical note 1   vendor note 1   unknown 1
    blog 0

The ordered rule, applied by :func:`arbitrate` as three successive filters over the
candidate values (each value carries the documents that state it):

A cited rule is accepted when its own condition holds (:func:`rules_that_hold`), not only
when it is the one that decided first.

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

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType
from typing import ClassVar

from preuve.synthesis.lexicon import default_lexicon, normalize_type_name

__all__ = [
    "RANKS",
    "Arbitration",
    "Candidate",
    "RankTable",
    "SourceInfo",
    "SourceType",
    "arbitrate",
    "default_rank_table",
    "parse_source_type",
    "rank_of",
    "rule_three_holds",
    "rules_that_hold",
]


class _DefaultTypes(type):
    """Iterating over :class:`SourceType` gives the default table's types, in order."""

    def __iter__(cls) -> Iterator[SourceType]:
        return iter(_DEFAULTS)

    def __len__(cls) -> int:
        return len(_DEFAULTS)


class SourceType(str, metaclass=_DefaultTypes):
    """The type of a document: its canonical name (``internal benchmark``), a plain string.

    The known types and their ranks are data (:data:`RANKS`, from the lexicon, or a
    dossier's own :class:`RankTable`); the constants below name the default ones."""

    __slots__ = ()

    INTERNAL_BENCHMARK: ClassVar[SourceType]
    AUDIT: ClassVar[SourceType]
    OFFICIAL_ANNOUNCEMENT: ClassVar[SourceType]
    CHANGELOG: ClassVar[SourceType]
    SECURITY_BULLETIN: ClassVar[SourceType]
    QUOTE_ESTIMATE: ClassVar[SourceType]
    MEETING_MINUTES: ClassVar[SourceType]
    TICKET: ClassVar[SourceType]
    TECHNICAL_NOTE: ClassVar[SourceType]
    VENDOR_NOTE: ClassVar[SourceType]
    BLOG: ClassVar[SourceType]
    UNKNOWN: ClassVar[SourceType]

    @property
    def value(self) -> str:
        return str(self)

    @classmethod
    def named(cls, name: str) -> SourceType:
        """The type called ``name``: the default table's own object when it is one of its
        types (so ``is`` compares them), else a new one."""
        return _INTERNED.get(name) or cls(name)


for _name, _text in (
    ("INTERNAL_BENCHMARK", "internal benchmark"), ("AUDIT", "audit"),
    ("OFFICIAL_ANNOUNCEMENT", "official announcement"), ("CHANGELOG", "changelog"),
    ("SECURITY_BULLETIN", "security bulletin"), ("QUOTE_ESTIMATE", "quote/estimate"),
    ("MEETING_MINUTES", "meeting minutes"), ("TICKET", "ticket"),
    ("TECHNICAL_NOTE", "technical note"), ("VENDOR_NOTE", "vendor note"), ("BLOG", "blog"),
    ("UNKNOWN", "unknown"),
):  # fmt: skip
    setattr(SourceType, _name, SourceType(_text))
_INTERNED: dict[str, SourceType] = {
    str(getattr(SourceType, n)): getattr(SourceType, n) for n in SourceType.__annotations__
}
_DEFAULTS: tuple[SourceType, ...] = tuple(
    SourceType.named(t) for t in default_lexicon().source_ranks
)


@dataclass(frozen=True, slots=True)
class RankTable:
    """Source types, their ranks, and the aliases that name them (case, accents, ``-``,
    ``_`` and spaces ignored). The default table is the lexicon's; a dossier may ship its
    own (``ranks.toml`` or a "Source ranks" section of ``question.md``), which replaces it."""

    ranks: Mapping[str, int]
    aliases: Mapping[str, str]
    origin: str = "default"

    def parse(self, text: str) -> SourceType | None:
        """The canonical type written as ``text``, or None when the table does not know it."""
        name = normalize_type_name(text)
        for canonical in self.ranks:
            if normalize_type_name(canonical) == name:
                return SourceType.named(canonical)
        alias = self.aliases.get(name)
        return SourceType.named(alias) if alias is not None and alias in self.ranks else None

    def rank(self, source_type: str) -> int:
        return self.ranks.get(str(source_type), self.ranks.get("unknown", 1))

    def known(self) -> tuple[str, ...]:
        return tuple(self.ranks)


def default_rank_table() -> RankTable:
    lexicon = default_lexicon()
    return RankTable(dict(lexicon.source_ranks), dict(lexicon.source_aliases))


RANKS: Mapping[str, int] = MappingProxyType(dict(default_lexicon().source_ranks))

_MEASUREMENT_RANK = 3


def parse_source_type(text: str, table: RankTable | None = None) -> SourceType | None:
    """The source type written as ``text`` (an English name, or an alias such as the French
    ``benchmark-interne``), or None when the rank table does not know it."""
    return (table or default_rank_table()).parse(text)


def rank_of(source_type: str, table: RankTable | None = None) -> int:
    """Reliability rank of a source type (0 to 3 in the default table)."""
    return (table or default_rank_table()).rank(source_type)


@dataclass(frozen=True, slots=True)
class SourceInfo:
    """What arbitration knows of a document: its id, date (None if unknown) and type."""

    doc_id: str
    date: date | None
    source_type: SourceType
    declared_rank: int | None = None  # from the dossier's own rank table, when it has one

    @property
    def rank(self) -> int:
        if self.declared_rank is not None:
            return self.declared_rank
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


def rules_that_hold(retained: Candidate, rejected: Sequence[Candidate]) -> frozenset[int]:
    """The rules whose own condition justifies retaining ``retained`` over every rejected
    value: 1 when it alone rests on an internal measurement (rank 3 and above) and they do
    not; 2 when it is strictly more reliable than each; 3 when it is at least as reliable
    as and strictly more recent than each. A citation of any of them is a valid reason
    (the deciding rule is always among them)."""
    holds = set()
    if retained.rank >= _MEASUREMENT_RANK and all(o.rank < _MEASUREMENT_RANK for o in rejected):
        holds.add(1)
    if not holds and all(retained.rank > o.rank for o in rejected):
        holds.add(2)  # the ordered rule: a measurement case is rule 1's, not rule 2's
    if all(retained.rank >= o.rank and _newer(retained.latest, o.latest) for o in rejected):
        holds.add(3)
    return frozenset(holds)


def rule_three_holds(retained: Candidate, rejected: Sequence[Candidate]) -> bool:
    """True when rule 3 justifies the retained value (see :func:`rules_that_hold`)."""
    return 3 in rules_that_hold(retained, rejected)


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
