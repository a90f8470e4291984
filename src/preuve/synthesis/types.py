"""The data of workflow 2, filled by the planner, the sub-agents and the synthesizer.

    Plan ── SubTask(id, question, scope)            planner
    Finding(subtask_id, status, statements, gaps,   sub-agent, one per sub-task
            docs_read, error)
      ├── Statement(subject, attribute, value, text, sources)
      │     └── StatementSource(doc_id, value,      the value as read in *that* document,
      │                         quote, span)        and the Span of it that states it
      └── RefusedStatement(statement, defects)  a statement whose quote failed the check
    Contradiction(subject, attribute, retained,     code (contradictions.py) and synthesizer
                  rejected, rule, reason)
    Synthesis(paragraphs, contradictions, numbers)  synthesizer (numbers: computed by code)

A statement cites its sources one by one, and each source may carry the value read in that
document. When two sources of one statement carry different values, the statement is
*merged*: a sub-agent folded a contradiction into one line (the reference lost its Orvet
advisory contradiction that way). :func:`is_merged` flags it, and contradiction detection
reads the per-source values, so the contradiction is still found.

Values are compared by :func:`values_agree`, by meaning (:mod:`preuve.synthesis.matcher`):
``2 400 tok/s`` agrees with ``2400 tok/s``, ``1 200 € par mois`` with ``1200 euros/mois``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any

from preuve.core.defects import Defect, render_defects
from preuve.core.errors import InputError
from preuve.core.evidence import Span
from preuve.core.jsonout import validate_schema
from preuve.core.numbers import Locale
from preuve.io.records import load_data
from preuve.synthesis.matcher import same_value

__all__ = [
    "SYNTHESIS_SCHEMA",
    "ComputedValue",
    "Contradiction",
    "Finding",
    "FindingStatus",
    "Paragraph",
    "Plan",
    "RefusedStatement",
    "SourcedValue",
    "Statement",
    "StatementSource",
    "SubTask",
    "Synthesis",
    "distinct_values",
    "is_merged",
    "normalize_key",
    "sources_by_value",
    "synthesis_from_dict",
    "values_agree",
]

_EDGE_PUNCTUATION = " .;:,«»\"'"


def normalize_key(text: str) -> str:
    """A subject or attribute as a grouping key: NFKC, no accents, casefolded, every run of
    non-alphanumerics as one space (``Latence p95`` and ``latence_P95`` are one key)."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.split(r"[^0-9a-z]+", bare)).strip()


def values_agree(a: str, b: str, locale: Locale = Locale.FR) -> bool:
    """True when two written values mean the same thing (``2 400 tok/s`` = ``2400 tok/s``,
    ``0,8 s`` = ``800 ms``, ``30 juin 2027`` = ``2027-06-30``): see
    :mod:`preuve.synthesis.matcher`. ``locale`` is kept for callers; values carry their own."""
    return same_value(a, b)


def distinct_values(values: Iterable[str], locale: Locale = Locale.FR) -> tuple[str, ...]:
    """The values that disagree with each other, first spelling kept, in order."""
    kept: list[str] = []
    for value in values:
        if not any(values_agree(value, other, locale) for other in kept):
            kept.append(value)
    return tuple(kept)


@dataclass(frozen=True, slots=True)
class SubTask:
    """One question of the plan, and the documents (ids) its sub-agent must read."""

    id: str
    question: str
    scope: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Plan:
    """The planner's output: the committee's question split into sub-tasks."""

    question: str
    subtasks: tuple[SubTask, ...]
    coverage: tuple[tuple[str, str], ...] = ()  # (doc id, what code did or why left out)

    @property
    def covered(self) -> frozenset[str]:
        """Every document id that at least one sub-task reads."""
        return frozenset(doc_id for task in self.subtasks for doc_id in task.scope)

    def uncovered(self, doc_ids: Iterable[str]) -> tuple[str, ...]:
        """The documents of the dossier no sub-task covers (the reference lost C4 so)."""
        covered = self.covered
        return tuple(doc_id for doc_id in doc_ids if doc_id not in covered)


@dataclass(frozen=True, slots=True)
class StatementSource:
    """A document cited by a statement; ``value`` is the value read in it (None: the
    statement's own value); ``quote`` the passage of that document it rests on, as the
    sub-agent wrote it; ``span`` that passage located by the quote check
    (:mod:`preuve.synthesis.sources`): every source of an accepted statement has one, and
    its value is read inside it."""

    doc_id: str
    value: str | None = None
    quote: str | None = None
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class Statement:
    """One fact found by a sub-agent: ``subject`` (a product), ``attribute`` (latency p95,
    licence, ...), ``value`` as written, the sentence ``text``, its sources, and the
    ``context`` the sentence states (a period, a target rather than a measurement, the source
    it reports from): statements are compared only within one context."""

    subject: str
    attribute: str
    value: str
    text: str
    sources: tuple[StatementSource, ...]
    context: str = ""

    @classmethod
    def of(cls, subject: str, attribute: str, value: str, text: str, *doc_ids: str) -> Statement:
        """A statement whose every source carries its own value."""
        return cls(subject, attribute, value, text, tuple(StatementSource(d) for d in doc_ids))

    @property
    def doc_ids(self) -> tuple[str, ...]:
        return tuple(source.doc_id for source in self.sources)

    def values_by_source(self) -> tuple[tuple[str, str], ...]:
        """(doc id, value read in it) for every source."""
        return tuple(
            (s.doc_id, s.value if s.value is not None else self.value) for s in self.sources
        )


def is_merged(statement: Statement, locale: Locale = Locale.FR) -> bool:
    """True when the sources of ``statement`` carry different values for its attribute."""
    return len(distinct_values((v for _, v in statement.values_by_source()), locale)) > 1


@dataclass(frozen=True, slots=True)
class RefusedStatement:
    """A statement a sub-agent made whose sources failed the quote check after the re-ask:
    dropped from the finding, kept here with its defects and counted."""

    statement: Statement
    defects: tuple[Defect, ...]

    @property
    def reason(self) -> str:
        """The first defect, on one line."""
        return self.defects[0].render().replace("\n", " ") if self.defects else ""


class FindingStatus(StrEnum):
    OK = "ok"
    NOT_INVESTIGATED = "NOT INVESTIGATED"


@dataclass(frozen=True, slots=True)
class Finding:
    """What one sub-agent returned for one sub-task. A failed sub-task is kept as
    NOT INVESTIGATED with its error (and no statement), never dropped."""

    subtask_id: str
    statements: tuple[Statement, ...] = ()
    gaps: tuple[str, ...] = ()
    docs_read: tuple[str, ...] = ()
    status: FindingStatus = FindingStatus.OK
    error: str = ""
    refused: tuple[RefusedStatement, ...] = ()  # dropped: their quotes failed the check

    def __post_init__(self) -> None:
        if self.status is FindingStatus.NOT_INVESTIGATED and (
            self.statements or self.refused or not self.error
        ):
            raise ValueError("a NOT INVESTIGATED finding has an error and no statement")
        if self.status is FindingStatus.OK and self.error:
            raise ValueError("an ok finding carries no error")

    @classmethod
    def not_investigated(
        cls, subtask_id: str, error: str, docs_read: tuple[str, ...] = ()
    ) -> Finding:
        return cls(
            subtask_id,
            docs_read=docs_read,
            status=FindingStatus.NOT_INVESTIGATED,
            error=" ".join(error.split()) or "unknown error",
        )

    @property
    def cited(self) -> frozenset[str]:
        return frozenset(doc_id for s in self.statements for doc_id in s.doc_ids)

    @property
    def read_but_not_used(self) -> tuple[str, ...]:
        """Documents read for this sub-task that no statement cites, in reading order."""
        cited = self.cited
        return tuple(dict.fromkeys(d for d in self.docs_read if d not in cited))

    def merged_statements(self, locale: Locale = Locale.FR) -> tuple[Statement, ...]:
        return tuple(s for s in self.statements if is_merged(s, locale))


@dataclass(frozen=True, slots=True)
class SourcedValue:
    """One value of a contradiction and the documents (ids) that state it."""

    value: str
    sources: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Contradiction:
    """Two or more values for the same quantity or status of the same subject.

    ``rule`` is the number (1, 2, 3) of the ordered rule that decided; an unresolved
    contradiction has ``retained`` None, ``rule`` None and every value in ``rejected``.
    """

    subject: str
    attribute: str
    retained: SourcedValue | None
    rejected: tuple[SourcedValue, ...]
    rule: int | None
    reason: str
    context: str = ""

    @property
    def values(self) -> tuple[SourcedValue, ...]:
        head = (self.retained,) if self.retained is not None else ()
        return head + self.rejected

    @property
    def resolved(self) -> bool:
        return self.retained is not None


@dataclass(frozen=True, slots=True)
class Paragraph:
    """One paragraph of a synthesis and the documents (ids) it cites."""

    text: str
    sources: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ComputedValue:
    """A number computed by code, never by the writer, with its declared formula
    (e.g. ``12 GPU x 2 300 €/mois x 12 mois``) and the documents its operands come from."""

    label: str
    value: Decimal
    unit: str
    formula: str
    sources: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Synthesis:
    """The synthesizer's output. ``numbers`` are the values computed by code that the
    synthesis phrases; ``engine`` says what wrote it (``rules`` or a model name)."""

    paragraphs: tuple[Paragraph, ...]
    contradictions: tuple[Contradiction, ...]
    numbers: tuple[ComputedValue, ...] = ()
    engine: str = ""

    @property
    def cited(self) -> tuple[str, ...]:
        """Every cited doc id, paragraphs then contradictions, first occurrence order."""
        ids = [d for p in self.paragraphs for d in p.sources]
        ids += [d for c in self.contradictions for v in c.values for d in v.sources]
        return tuple(dict.fromkeys(ids))


def sources_by_value(
    per_document: Mapping[str, str], locale: Locale = Locale.FR
) -> tuple[SourcedValue, ...]:
    """Group per-document values (doc id → value) into the distinct values with their
    sources; more than one result means the documents disagree (a merged statement)."""
    groups: list[tuple[str, list[str]]] = []
    for doc_id, value in per_document.items():
        group = next((g for g in groups if values_agree(g[0], value, locale)), None)
        if group is None:
            groups.append((value, [doc_id]))
        else:
            group[1].append(doc_id)
    return tuple(SourcedValue(value, tuple(ids)) for value, ids in groups)


_IDS: dict[str, Any] = {"type": "array", "items": {"type": "string", "minLength": 1}}
_VALUE: dict[str, Any] = {
    "type": "object",
    "properties": {"value": {"type": "string"}, "sources": _IDS},
    "required": ["value", "sources"],
    "additionalProperties": False,
}
SYNTHESIS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "engine": {"type": "string"},
        "paragraphs": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"text": {"type": "string"}, "sources": _IDS},
                "required": ["text", "sources"],
                "additionalProperties": False,
            },
        },
        "contradictions": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "subject": {"type": "string"},
                    "attribute": {"type": "string"},
                    "retained": {**_VALUE, "type": ["object", "null"]},
                    "rejected": {"type": "array", "items": _VALUE},
                    "rule": {"type": ["integer", "null"], "minimum": 1, "maximum": 3},
                    "reason": {"type": "string"},
                    "context": {"type": "string"},
                },
                "required": ["subject", "attribute", "retained", "rejected", "rule", "reason"],
                "additionalProperties": False,
            },
        },
        "numbers": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "value": {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$"},
                    "unit": {"type": "string"},
                    "formula": {"type": "string"},
                    "sources": _IDS,
                },
                "required": ["label", "value", "unit", "formula", "sources"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["paragraphs", "contradictions"],
    "additionalProperties": False,
}


def synthesis_from_dict(data: object, where: str = "synthesis") -> Synthesis:
    """A :class:`Synthesis` from data that follows :data:`SYNTHESIS_SCHEMA` (a synthesizer's
    answer, or a ``synthesis.json`` given to check); anything else raises
    :class:`InputError` listing what is wrong (``where`` names the input). The schema is the
    answer's contract (its defects are what a re-ask shows the model); the value is then read
    by the one typed mechanism of every run file (:mod:`preuve.io.records`)."""
    defects = validate_schema(data, SYNTHESIS_SCHEMA)
    if defects or not isinstance(data, dict):
        raise InputError(f"{where}: not a synthesis: {render_defects(defects[:5])}")
    return load_data(Synthesis, data, where)
