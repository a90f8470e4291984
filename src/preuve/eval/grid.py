"""Deterministic grading of a synthesis against a grid data file, with the breakdown.

Score out of 100 (the points are read from the grid file; defaults shown)::

    facts           50 x found / expected          a fact is found when its regex pattern
                                                   matches the paragraphs' text
    contradictions  30 x right / planted           see below
    citations       20 x valid / all               valid = the id is a dossier document
    off-topic       -5 per off-topic document cited (anywhere in the synthesis)

The total is clamped to [0, 100] and shown rounded to one decimal (80.8).

Text is matched case-insensitively after NFKC (NBSP and narrow NBSP become spaces) and
folding whitespace runs to one space. A planted contradiction is *right* when the
synthesis lists a contradiction whose subject (with its attribute) matches the grid's
subject pattern, whose
retained value matches the retained pattern and one of whose rejected values matches the
rejected pattern, and lists none on that subject the other way round (swapped). A
citation is one (place, doc id) pair: each paragraph and each listed contradiction counts
each id it cites once.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from preuve.core.errors import InputError
from preuve.io.jsonfile import read_json_file
from preuve.io.records import STRICT
from preuve.synthesis.types import Contradiction, Synthesis

__all__ = [
    "ContradictionSpec",
    "FactSpec",
    "Grid",
    "GridScore",
    "ScoreEntry",
    "grade",
    "grid_from_dict",
    "load_grid",
    "unplanned_contradictions",
]


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


@dataclass(frozen=True, slots=True)
class FactSpec:
    id: str
    description: str
    pattern: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class ContradictionSpec:
    id: str
    description: str
    subject: re.Pattern[str]
    retained: re.Pattern[str]
    rejected: re.Pattern[str]
    # a contradiction with several losers: every pattern must match one dropped value
    rejected_all: tuple[re.Pattern[str], ...] = ()


@dataclass(frozen=True, slots=True)
class Grid:
    facts: tuple[FactSpec, ...]
    contradictions: tuple[ContradictionSpec, ...]
    documents: frozenset[str]
    off_topic: frozenset[str]
    facts_points: float = 50
    contradictions_points: float = 30
    citations_points: float = 20
    off_topic_penalty: float = 5


@dataclass(frozen=True, slots=True)
class GridScore:
    """The breakdown: what was found, what was missed, and the points."""

    facts_found: tuple[str, ...]
    facts_missed: tuple[str, ...]
    contradictions_right: tuple[str, ...]
    contradictions_missed: tuple[str, ...]
    citations_valid: int
    citations_total: int
    off_topic_cited: tuple[str, ...]
    facts_points: float
    contradictions_points: float
    citations_points: float
    penalty: float
    total: float

    @property
    def rounded(self) -> float:
        return round(self.total, 1)

    def lines(self) -> tuple[str, ...]:
        n_facts = len(self.facts_found) + len(self.facts_missed)
        n_contra = len(self.contradictions_right) + len(self.contradictions_missed)
        return (
            f"score: {self.rounded:.1f}/100",
            f"facts: {len(self.facts_found)}/{n_facts} ({self.facts_points:.1f} points)"
            + (f", missed {', '.join(self.facts_missed)}" if self.facts_missed else ""),
            f"contradictions: {len(self.contradictions_right)}/{n_contra} in the right "
            f"direction ({self.contradictions_points:.1f} points)"
            + (
                f", missed {', '.join(self.contradictions_missed)}"
                if self.contradictions_missed
                else ""
            ),
            f"citations: {self.citations_valid}/{self.citations_total} valid "
            f"({self.citations_points:.1f} points)",
            f"off-topic documents cited: {len(self.off_topic_cited)} (-{self.penalty:g} points)"
            + (f": {', '.join(self.off_topic_cited)}" if self.off_topic_cited else ""),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class FactsScore:
    found: tuple[str, ...]
    missed: tuple[str, ...]
    points: float
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ContradictionsScore:
    right: tuple[str, ...]
    missed: tuple[str, ...]
    points: float
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class CitationsScore:
    valid: int
    total: int
    points: float
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class OffTopicScore:
    cited: tuple[str, ...]
    penalty: float
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreEntry:
    """A :class:`GridScore` as ``score.json`` and ``grade --json`` write it: the total to
    one decimal, each part's points to two."""

    total: float
    facts: FactsScore
    contradictions: ContradictionsScore
    citations: CitationsScore
    off_topic: OffTopicScore
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, score: GridScore) -> ScoreEntry:
        return cls(
            total=score.rounded,
            facts=FactsScore(
                found=score.facts_found,
                missed=score.facts_missed,
                points=round(score.facts_points, 2),
            ),
            contradictions=ContradictionsScore(
                right=score.contradictions_right,
                missed=score.contradictions_missed,
                points=round(score.contradictions_points, 2),
            ),
            citations=CitationsScore(
                valid=score.citations_valid,
                total=score.citations_total,
                points=round(score.citations_points, 2),
            ),
            off_topic=OffTopicScore(cited=score.off_topic_cited, penalty=score.penalty),
        )


def _pattern(data: Mapping[str, Any], key: str, where: str) -> re.Pattern[str]:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise InputError(f"{where}: {key!r} must be a non-empty regex string")
    try:
        return re.compile(value, re.IGNORECASE)
    except re.error as err:
        raise InputError(f"{where}: {key!r} is not a valid regex ({err})") from None


def _ids(data: Mapping[str, Any], key: str, where: str) -> frozenset[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{where}: {key!r} must be a list of document ids")
    return frozenset(value)


def _entries(data: Mapping[str, Any], key: str, where: str) -> list[Mapping[str, Any]]:
    value = data.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        raise InputError(f"{where}: {key!r} must be a non-empty list of objects")
    return value


def grid_from_dict(data: object, where: str = "grid") -> Grid:
    """Build a grid from its data (see ``preuve.corpora.synthesis_dossier.grid_data``)."""
    if not isinstance(data, dict):
        raise InputError(f"{where}: a grid is a JSON object")
    facts = tuple(
        FactSpec(str(f.get("id", i)), str(f.get("description", "")), _pattern(f, "pattern", where))
        for i, f in enumerate(_entries(data, "facts", where), start=1)
    )
    contradictions = []
    for i, c in enumerate(_entries(data, "contradictions", where), start=1):
        retained, rejected = c.get("retained"), c.get("rejected")
        given = rejected if isinstance(rejected, list) and rejected else [rejected]
        losers = [r for r in given if isinstance(r, dict)]
        if not isinstance(retained, dict) or len(losers) != len(given):
            raise InputError(
                f"{where}: contradiction {i} needs 'retained' and 'rejected' objects"
                " ('rejected' may be a list of them, one per losing value)"
            )
        patterns = tuple(_pattern(r, "pattern", where) for r in losers)
        contradictions.append(
            ContradictionSpec(
                id=str(c.get("id", i)),
                description=str(c.get("description", "")),
                subject=_pattern(c, "subject_pattern", where),
                retained=_pattern(retained, "pattern", where),
                rejected=patterns[0],
                rejected_all=patterns if len(patterns) > 1 else (),
            )
        )
    points = data.get("points", {})
    if not isinstance(points, dict) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) and v >= 0 for v in points.values()
    ):
        raise InputError(f"{where}: 'points' must map names to non-negative numbers")
    return Grid(
        facts=facts,
        contradictions=tuple(contradictions),
        documents=_ids(data, "documents", where),
        off_topic=_ids(data, "off_topic", where),
        facts_points=float(points.get("facts", 50)),
        contradictions_points=float(points.get("contradictions", 30)),
        citations_points=float(points.get("citations", 20)),
        off_topic_penalty=float(points.get("off_topic_penalty", 5)),
    )


def load_grid(path: Path) -> Grid:
    """Read a grid data file (JSON); a malformed file raises :class:`InputError`."""
    return grid_from_dict(read_json_file(path, "grid"), str(path))


def _direction(spec: ContradictionSpec, listed: Contradiction) -> int:
    """+1 right direction, -1 swapped, 0 unrelated."""
    # The subject pattern names what the contradiction is about: the subject, or the subject
    # with its attribute ("brantwood" and "latency"): both fields are searched together.
    about = _fold(f"{listed.subject} {listed.attribute}")
    if listed.retained is None or not spec.subject.search(about):
        return 0
    kept = _fold(listed.retained.value)
    dropped = [_fold(v.value) for v in listed.rejected]
    losers = spec.rejected_all or (spec.rejected,)
    if spec.retained.search(kept) and all(any(p.search(v) for v in dropped) for p in losers):
        return 1
    if spec.rejected.search(kept) and any(spec.retained.search(v) for v in dropped):
        return -1
    return 0


def unplanned_contradictions(grid: Grid, synthesis: Synthesis) -> tuple[Contradiction, ...]:
    """The listed contradictions that are none of the grid's planted ones: their subject
    (with its attribute) and their values match no planted contradiction. A rules engine
    should list none (a trap reported as a contradiction shows up here)."""

    def planted(listed: Contradiction) -> bool:
        about = _fold(f"{listed.subject} {listed.attribute}")
        values = [_fold(v.value) for v in listed.values]
        return any(
            spec.subject.search(about)
            and any(spec.retained.search(v) or spec.rejected.search(v) for v in values)
            for spec in grid.contradictions
        )

    return tuple(c for c in synthesis.contradictions if not planted(c))


def _citations(synthesis: Synthesis) -> list[str]:
    places = [p.sources for p in synthesis.paragraphs]
    places += [tuple(d for v in c.values for d in v.sources) for c in synthesis.contradictions]
    return [doc_id for place in places for doc_id in dict.fromkeys(place)]


def grade(grid: Grid, synthesis: Synthesis) -> GridScore:
    """Score ``synthesis`` against ``grid`` (see the module docstring)."""
    text = "\n".join(_fold(p.text) for p in synthesis.paragraphs)
    found = tuple(f.id for f in grid.facts if f.pattern.search(text))
    missed = tuple(f.id for f in grid.facts if f.id not in found)
    right = tuple(
        spec.id
        for spec in grid.contradictions
        if {_direction(spec, c) for c in synthesis.contradictions} & {1, -1} == {1}
    )
    wrong = tuple(spec.id for spec in grid.contradictions if spec.id not in right)
    citations = _citations(synthesis)
    valid = sum(doc_id in grid.documents for doc_id in citations)
    off_topic = tuple(sorted(set(citations) & grid.off_topic))
    facts_points = grid.facts_points * len(found) / len(grid.facts)
    contra_points = grid.contradictions_points * len(right) / len(grid.contradictions)
    citation_points = grid.citations_points * valid / len(citations) if citations else 0.0
    penalty = grid.off_topic_penalty * len(off_topic)
    total = min(100.0, max(0.0, facts_points + contra_points + citation_points - penalty))
    return GridScore(
        facts_found=found,
        facts_missed=missed,
        contradictions_right=right,
        contradictions_missed=wrong,
        citations_valid=valid,
        citations_total=len(citations),
        off_topic_cited=off_topic,
        facts_points=facts_points,
        contradictions_points=contra_points,
        citations_points=citation_points,
        penalty=penalty,
        total=total,
    )
