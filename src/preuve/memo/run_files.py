"""The files of a workflow 1 run folder, as types: ``run.json`` and ``dashboard.json``.

``preuve memo`` writes them (``run.json`` from these types: :mod:`preuve.memo.run_record`;
:meth:`Dashboard.to_dict`); the
viewer and any other reader get them back through
:meth:`preuve.io.runfolder.RunFolder.read` as these dataclasses, never as untyped dicts.
Each type lists exactly the keys of its JSON object, in the order they are written, and
forbids any other key: a file that drifted from its type is refused with a one-line error
naming the file and the place.

Old run folders: the defects of ``run.json`` were written in two partial shapes before
(``{code, detail, paragraph}`` for the memo, ``{code, detail, path}`` for the reader); a
:class:`~preuve.core.defects.Defect`'s ``paragraph`` and ``path`` have defaults, so those
still read back, as the same defects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from preuve.core.defects import Defect
from preuve.io.records import STRICT, SpanEntry
from preuve.memo.dashboard import DashboardFile, SummaryEntry
from preuve.models.base import ModelIdentity
from preuve.models.journal import CallRecord

__all__ = [
    "DASHBOARD_FILE",
    "MEMO_RUN_FILE",
    "AlertEntry",
    "ApartCellEntry",
    "ApartRowEntry",
    "ClaimEntry",
    "CompanyEntry",
    "CompanyName",
    "DashboardFile",
    "DiagnosticEntry",
    "FactEntry",
    "FieldEntry",
    "IdentitiesEntry",
    "MemoEntry",
    "MemoRunFile",
    "ParagraphEntry",
    "RatioEntry",
    "RatioValueEntry",
    "ReadingEntry",
    "RejectedSignalEntry",
    "SpanEntry",
    "StatementsEntry",
    "SummaryEntry",
    "TableCellEntry",
    "TableEntry",
    "TableRowEntry",
    "UnmappedEntry",
    "VerifiedSignalEntry",
]

MEMO_RUN_FILE = "run.json"
DASHBOARD_FILE = "dashboard.json"

# pydantic reads this class attribute (no import needed): an unknown key is an error.


@dataclass(frozen=True, slots=True, kw_only=True)
class CompanyName:
    name: str
    slug: str
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class TableCellEntry:
    value: str
    raw: str
    page: int
    span: tuple[int, int]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRowEntry:
    label: str
    concept: str | None
    total: bool
    page: int
    values: dict[str, TableCellEntry]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ApartCellEntry:
    period: str
    value: str
    raw: str
    page: int
    span: tuple[int, int]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ApartRowEntry:
    """A row's values kept out of the statement: the parent company's columns, or columns
    no cue attributes to an entity (in printed order: a period may come twice)."""

    label: str
    page: int
    values: tuple[ApartCellEntry, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class TableEntry:
    """A statement table as read, every row, each value with its span on its page."""

    statement: str
    heading: str
    pages: tuple[int, ...]
    unit: str
    periods: tuple[str, ...]
    rows: tuple[TableRowEntry, ...]
    company_rows: tuple[ApartRowEntry, ...] = ()
    unattributed_rows: tuple[ApartRowEntry, ...] = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldEntry:
    key: str
    label: str
    statement: str
    year: int
    value: str
    raw: str
    unit: str
    page: int
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class UnmappedEntry:
    label: str
    statement: str
    page: int
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class StatementsEntry:
    locale: str
    years: tuple[int, ...]
    fields: tuple[FieldEntry, ...]
    unmapped: tuple[UnmappedEntry, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class IdentitiesEntry:
    checked: int
    structural_checked: int
    ok: bool
    violations: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class RatioValueEntry:
    year: int
    value: str
    numerator: str
    denominator: str
    inputs: tuple[str, ...] = ()  # each statement field used: concept, label, period, page
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class RatioEntry:
    id: str
    name: str
    formula: str
    unit: str
    values: tuple[RatioValueEntry, ...]
    fact: str
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class AlertEntry:
    id: str
    rule: str
    year: int
    fact: str
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class VerifiedSignalEntry:
    """A verified signal: its quote and the span the quote check located on its page."""

    category: str
    quote: str
    page: int
    start: int | None = None  # absent: the viewer locates the quote again
    end: int | None = None
    matched: str = ""
    verdict: str = ""
    span: SpanEntry | None = None  # the one evidence span (run folders of this version on)
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class DiagnosticEntry:
    passage: str
    start: int
    end: int
    similarity: float
    differences: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class RejectedSignalEntry:
    """A signal the quote check refused, with its verdict (never shown as evidence)."""

    category: str
    quote: str
    page: int
    verified: bool = False
    verdict: str = ""
    start: int | None = None
    end: int | None = None
    matched: str | None = None
    reason: str = ""
    other_page: int | None = None
    diagnostic: DiagnosticEntry | None = None
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadingEntry:
    signals_verified: tuple[VerifiedSignalEntry, ...]
    signals_rejected: int
    rejected: tuple[RejectedSignalEntry, ...]
    first_attempt_rejected: int = 0
    attempts: int = 0
    defects: tuple[Defect, ...] = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class FactEntry:
    id: str
    text: str
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimEntry:
    """One claim of a paragraph and the status of each of its dimensions."""

    claim: str
    subject: str
    period: str
    direction: str
    polarity: str
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class ParagraphEntry:
    text: str
    sources: tuple[str, ...]
    claims: tuple[ClaimEntry, ...] = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoEntry:
    status: str
    paragraphs: tuple[ParagraphEntry, ...]
    defects: tuple[Defect, ...]
    first_attempt_defects: tuple[Defect, ...] = ()
    attempts: int = 0
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class CompanyEntry:
    """One report's results (:func:`preuve.memo.run_record.company_entry`)."""

    report: str
    company: CompanyName
    n_pages: int
    language: str = "fr"
    statement_tables: tuple[TableEntry, ...] = ()
    statements: StatementsEntry | None = None
    identities: IdentitiesEntry | None = None
    ratios: tuple[RatioEntry, ...] = ()
    ratios_not_computed: tuple[str, ...] = ()
    alerts: tuple[AlertEntry, ...] = ()
    signals: ReadingEntry
    facts: tuple[FactEntry, ...]
    memo: MemoEntry
    seconds: float = 0.0
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoRunFile:
    """``run.json``: one ``preuve memo`` run, every company and every model call."""

    run_id: str
    engine: str
    model: ModelIdentity
    status: str
    signals_rejected: int
    seconds: float
    companies: tuple[CompanyEntry, ...]
    calls: tuple[CallRecord, ...]  # as the journal keeps them
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT
