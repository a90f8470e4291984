"""The viewer's view models: small, explicit records that the templates render.

Each section of the viewer (memo, dashboard, synthesis, digest, journal, page) renders from
one of these frozen dataclasses and nothing else, so the templates never read a run file
and the run files can change shape without touching a template: only the adapter in
:mod:`preuve.web.loaders` that fills the view changes. Views hold plain strings and
numbers, already formatted for display; links are built here from registered document
ids (never from a path), so a template has nothing to compute.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

__all__ = [
    "CallView",
    "CompanyMemo",
    "ContradictionView",
    "DashboardTable",
    "DashboardView",
    "DigestNode",
    "DigestRunRow",
    "DigestView",
    "FactView",
    "IndexView",
    "JournalRun",
    "JournalSource",
    "JournalView",
    "MemoParagraph",
    "MemoView",
    "PageLink",
    "PageView",
    "RefusedView",
    "RunEntry",
    "ScoreView",
    "SectionEntry",
    "ServeVerdict",
    "SourceRef",
    "StatementCell",
    "StatementRowView",
    "StatementTableView",
    "StatementView",
    "SubtaskView",
    "SynthesisView",
    "ValueView",
    "image_href",
    "page_href",
    "run_href",
]


def _spanned(base: str, start: int | None, end: int | None, anchor: str = "") -> str:
    if start is None or end is None:
        return base
    return f"{base}?{urlencode({'start': start, 'end': end})}{anchor}"


def page_href(doc: str, page: int, start: int | None = None, end: int | None = None) -> str:
    """The page view of a registered document; the id is percent-encoded, never a path."""
    return _spanned(f"/page/{quote(doc, safe='')}/{page}", start, end, "#hl")


def image_href(doc: str, page: int, start: int | None = None, end: int | None = None) -> str:
    """The PNG of a registered PDF page, the span boxed when given."""
    return _spanned(f"/page/{quote(doc, safe='')}/{page}.png", start, end)


def run_href(section: str, key: str) -> str:
    """The view of one run of a section (``key`` is looked up, never used as a path)."""
    return f"/{section}?{urlencode({'run': key})}"


@dataclass(frozen=True, slots=True)
class PageLink:
    """Where a quote sits: a registered document, a page (from 1), and a span on it."""

    doc: str
    page: int
    start: int | None = None
    end: int | None = None

    @property
    def href(self) -> str:
        return page_href(self.doc, self.page, self.start, self.end)

    @property
    def label(self) -> str:
        return f"{self.doc}, p. {self.page}"


@dataclass(frozen=True, slots=True)
class RunEntry:
    key: str
    label: str
    href: str
    status: str = ""


@dataclass(frozen=True, slots=True)
class SectionEntry:
    name: str
    title: str
    href: str
    description: str
    runs: tuple[RunEntry, ...]


@dataclass(frozen=True, slots=True)
class IndexView:
    folder: str
    sections: tuple[SectionEntry, ...]
    documents: tuple[tuple[str, str, str], ...]  # (id, title, href)
    problems: tuple[str, ...] = ()


# --- workflow 1: memo and dashboard --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StatementCell:
    """A statement value as printed, linked to its exact span on its page when registered."""

    raw: str
    link: PageLink | None = None


@dataclass(frozen=True, slots=True)
class StatementRowView:
    label: str
    concept: str
    cells: tuple[StatementCell | None, ...]  # one per period column; None: blank


@dataclass(frozen=True, slots=True)
class StatementTableView:
    statement: str
    pages: str
    unit: str
    periods: tuple[str, ...]
    rows: tuple[StatementRowView, ...]


@dataclass(frozen=True, slots=True)
class FactView:
    """An identified fact (R-, A-, Q-, ...); a verified quote links to its page."""

    id: str
    kind: str
    text: str
    link: PageLink | None = None
    note: str = ""

    @property
    def anchor(self) -> str:
        return f"fact-{self.id}"


@dataclass(frozen=True, slots=True)
class MemoParagraph:
    text: str
    sources: tuple[str, ...]
    known: tuple[bool, ...]  # per source: is it one of the company's facts?


@dataclass(frozen=True, slots=True)
class CompanyMemo:
    company: str
    status: str
    defects: tuple[str, ...]
    paragraphs: tuple[MemoParagraph, ...]
    facts: tuple[FactView, ...]
    details: tuple[tuple[str, str], ...] = ()
    rejected: tuple[str, ...] = ()  # signals refused by the quote check, identity violations
    document: str = ""  # the registered report, if any
    statements: tuple[StatementTableView, ...] = ()  # every row read from the tables

    @property
    def report_href(self) -> str:
        return page_href(self.document, 1) if self.document else ""


@dataclass(frozen=True, slots=True)
class MemoView:
    run: str
    engine: str
    companies: tuple[CompanyMemo, ...]
    limits: tuple[str, ...]
    runs: tuple[RunEntry, ...] = ()
    problems: tuple[str, ...] = ()
    status: str = ""


@dataclass(frozen=True, slots=True)
class DashboardTable:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    summary: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DashboardView:
    run: str
    engine: str
    tables: tuple[DashboardTable, ...]
    runs: tuple[RunEntry, ...] = ()
    problems: tuple[str, ...] = ()


# --- workflow 2: synthesis ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SourceRef:
    """A cited document with what arbitration reads of it: its date and source type."""

    id: str
    date: str
    source_type: str
    rank: str = ""
    title: str = ""
    href: str = ""
    quote: str = ""  # the evidence of a statement in this document (its span's text)
    located: bool = False  # href opens the page with the quote highlighted at its span


@dataclass(frozen=True, slots=True)
class ValueView:
    value: str
    sources: tuple[SourceRef, ...]


@dataclass(frozen=True, slots=True)
class ContradictionView:
    subject: str
    attribute: str
    retained: ValueView | None
    rejected: tuple[ValueView, ...]
    rule: str
    rule_text: str
    reason: str


@dataclass(frozen=True, slots=True)
class StatementView:
    subject: str
    attribute: str
    value: str
    text: str
    sources: tuple[SourceRef, ...]
    merged: bool = False


@dataclass(frozen=True, slots=True)
class SubtaskView:
    id: str
    question: str
    scope: tuple[str, ...]
    read: tuple[str, ...]
    status: str
    error: str
    statements: tuple[StatementView, ...]
    gaps: tuple[str, ...]
    unused: tuple[str, ...]
    refused: tuple[RefusedView, ...] = ()


@dataclass(frozen=True, slots=True)
class RefusedView:
    """A statement dropped because its quote failed the check, with the first defect."""

    subject: str
    attribute: str
    value: str
    sources: tuple[SourceRef, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class ScoreView:
    total: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SynthesisView:
    run: str
    question: str
    title: str
    engine: str
    status: str
    defects: tuple[str, ...]
    paragraphs: tuple[MemoParagraph, ...]
    contradictions: tuple[ContradictionView, ...]
    computed: tuple[tuple[str, str, str], ...]  # (label, value with unit, formula)
    subtasks: tuple[SubtaskView, ...]
    failures: tuple[tuple[str, str], ...]
    uncovered: tuple[SourceRef, ...]
    unused: tuple[SourceRef, ...]
    limits: tuple[str, ...]
    score: ScoreView | None
    calls: int
    runs: tuple[RunEntry, ...] = ()
    problems: tuple[str, ...] = ()
    statements_refused: int = 0  # dropped: their quotes failed the check


# --- workflow 3: digest ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ServeVerdict:
    """What serving answered: STALE and INVALID are refusals, shown as a banner."""

    status: str
    reason: str
    run_id: str

    @property
    def refused(self) -> bool:
        return self.status not in {"SERVED", "VALID"}


@dataclass(frozen=True, slots=True)
class DigestNode:
    node_id: str
    kind: str
    status: str
    outcome: str  # "cache hit" or "recomputed"
    claims: tuple[tuple[str, str, str, tuple[tuple[str, str], ...]], ...]
    diagnostic: tuple[str, ...]
    generations: tuple[CallView, ...]
    children: tuple[DigestNode, ...] = ()


@dataclass(frozen=True, slots=True)
class DigestRunRow:
    run_id: str
    created: str
    mode: str
    dossier: str
    root_status: str
    counters: str
    href: str
    selected: bool = False


@dataclass(frozen=True, slots=True)
class DigestView:
    run: str
    store: str
    history: tuple[DigestRunRow, ...]
    selected: str
    root: DigestNode | None
    verdicts: tuple[ServeVerdict, ...]
    counts: tuple[tuple[str, int], ...] = ()
    runs: tuple[RunEntry, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def verdict(self) -> ServeVerdict | None:
        """The last serve answer about the shown build, if serving was asked."""
        mine = [v for v in self.verdicts if v.run_id == self.selected]
        return mine[-1] if mine else None

    @property
    def refusal(self) -> ServeVerdict | None:
        """The serve answer about the shown build when it was a refusal (STALE, INVALID)."""
        verdict = self.verdict
        return verdict if verdict is not None and verdict.refused else None


# --- journal --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CallView:
    """One model call as the journal kept it; ``raw_output`` is shown collapsed."""

    task: str
    model: str
    finish_reason: str
    status: str
    prompt_tokens: str
    generated_tokens: str
    seconds: str
    raw_output: str
    error: str = ""
    attempt: str = ""
    truncated: int = 0
    generated: int = 0  # generated tokens as a number, for totals


@dataclass(frozen=True, slots=True)
class JournalRun:
    run_id: str
    calls: tuple[CallView, ...]

    @property
    def tokens(self) -> str:
        total = sum(c.generated for c in self.calls)
        estimated = any(c.generated_tokens.startswith("~") for c in self.calls)
        return f"~{total}" if estimated else str(total)


@dataclass(frozen=True, slots=True)
class JournalSource:
    label: str
    runs: tuple[JournalRun, ...]


@dataclass(frozen=True, slots=True)
class JournalView:
    sources: tuple[JournalSource, ...]
    problems: tuple[str, ...] = ()


# --- one page of a document -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PageView:
    """A whole page, its text split around the highlighted span, and its image if a PDF."""

    doc: str
    title: str
    page: int
    n_pages: int
    before: str
    marked: str
    after: str
    image_href: str = ""
    note: str = ""
    boxes: int = 0
    neighbours: tuple[tuple[str, str], ...] = field(default=())  # (label, href)
    start: int = 0  # the highlighted span on the whole page text
    end: int = 0
    shown: str = ""  # which part of a very long page is shown, when not all of it
