"""Adapters for workflow 1: the memo of each company and the dashboard.

They read what ``preuve memo`` writes, typed, through
:meth:`preuve.io.runfolder.RunFolder.read`: ``run.json`` as a
:class:`~preuve.memo.run_files.MemoRunFile` and ``dashboard.json`` as a
:class:`~preuve.memo.run_files.DashboardFile`. A company's report is the registered
document whose id is the company slug, or whose file is the report the run read. A Q- fact
is located on its page from the verified signal the run recorded (page, start, end);
failing that, the core quote check locates its quote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path

from preuve.core.errors import PreuveError
from preuve.core.quotes import QuoteChecker
from preuve.memo.dashboard import DashboardRow
from preuve.memo.run_files import (
    DASHBOARD_FILE,
    MEMO_RUN_FILE,
    CompanyEntry,
    DashboardFile,
    MemoRunFile,
    SummaryEntry,
    TableCellEntry,
    TableEntry,
    VerifiedSignalEntry,
)
from preuve.memo.writer import KNOWN_LIMITS
from preuve.web.layout import RunLayout, read_run_file, run_entries, scalar
from preuve.web.pages import DocumentLibrary, RegisteredDocument, Registry
from preuve.web.views import (
    CompanyMemo,
    DashboardTable,
    DashboardView,
    FactView,
    MemoParagraph,
    MemoView,
    PageLink,
    StatementCell,
    StatementRowView,
    StatementTableView,
)

__all__ = ["load_dashboard", "load_memo"]

_QUOTE_FACT = re.compile(
    r"(?:«\s*(?P<quote>.+?)\s*»|“(?P<quote_en>.+?)”)\s*\(p\.\s*(?P<page>\d+)\)\s*$"
)


def _folded(text: str) -> str:
    return " ".join(text.split())


def _document(company: CompanyEntry, registry: Registry) -> RegisteredDocument | None:
    """The company's report: registered under its slug, or the file the run read."""
    found = registry.get(company.company.slug) if company.company.slug else None
    if found is None and company.report:
        found = registry.by_path(Path(company.report))
    return found


def _signal_span(
    quote: str, page: int, signals: Sequence[VerifiedSignalEntry]
) -> tuple[int, int] | None:
    """The recorded span of the verified signal this quote fact was made from."""
    for signal in signals:
        if (
            signal.page == page
            and signal.start is not None
            and signal.end is not None
            and _folded(signal.matched) == _folded(quote)
        ):
            return signal.start, signal.end
    return None


def _quote_link(
    text: str,
    document: RegisteredDocument | None,
    signals: Sequence[VerifiedSignalEntry],
    library: DocumentLibrary,
) -> tuple[PageLink | None, str]:
    match = _QUOTE_FACT.search(text)
    if match is None:
        return None, "no « quote » (p. N) in this fact"
    if document is None:
        return None, "the report is not registered in this run folder (documents.json)"
    quote = match.group("quote") or match.group("quote_en")
    page = int(match.group("page"))
    try:
        pages = library.pages(document)
    except PreuveError as err:
        return None, str(err)
    if not 1 <= page <= len(pages):
        return None, f"page {page} is not in {document.id}"
    span = _signal_span(quote, page, signals)
    on_page = pages[page - 1]
    if (
        span is not None
        and 0 <= span[0] < span[1] <= len(on_page)
        and _folded(on_page[span[0] : span[1]]) == _folded(quote)
    ):
        return PageLink(document.id, page, *span), ""
    result = QuoteChecker(pages).verify(page, quote)  # the recorded span is missing or stale
    if not result.verified or result.start is None or result.end is None:
        return PageLink(document.id, page), f"quote not found on page {page}: {result.reason}"
    return PageLink(document.id, page, result.start, result.end), ""


def _facts(
    company: CompanyEntry, document: RegisteredDocument | None, library: DocumentLibrary
) -> tuple[FactView, ...]:
    signals = company.signals.signals_verified
    views = []
    for fact in company.facts:
        kind = fact.id.split("-", 1)[0] if "-" in fact.id else ""
        if kind == "Q":
            link = _quote_link(fact.text, document, signals, library)
            views.append(FactView(fact.id, kind, fact.text, *link))
        else:
            views.append(FactView(fact.id, kind, fact.text))
    return tuple(views)


def _details(company: CompanyEntry) -> tuple[tuple[str, str], ...]:
    signals, identities = company.signals, company.identities
    details = [
        ("report pages", scalar(company.n_pages)),
        ("signals verified", str(len(signals.signals_verified))),
        ("signals rejected", scalar(signals.signals_rejected)),
        ("identities checked", scalar(identities.checked if identities else None)),
        ("writer attempts", scalar(company.memo.attempts)),
    ]
    return tuple((k, v) for k, v in details if v != "—")


def _rejected(company: CompanyEntry) -> tuple[str, ...]:
    """Signals the quote check refused: shown as refused, never as evidence."""
    lines = tuple(
        f"{s.category}, p. {s.page}: « {s.quote} » — {s.reason}" for s in company.signals.rejected
    )
    violations = company.identities.violations if company.identities else ()
    return lines + tuple(f"identity violated: {v}" for v in violations)


def _statement_cell(cell: TableCellEntry | None, doc: str) -> StatementCell | None:
    if cell is None:
        return None
    if doc:
        return StatementCell(cell.raw, PageLink(doc, cell.page, *cell.span))
    return StatementCell(cell.raw)


def _statement_table(table: TableEntry, doc: str) -> StatementTableView:
    rows = tuple(
        StatementRowView(
            row.label or "(total)",
            row.concept or "—",
            tuple(_statement_cell(row.values.get(p), doc) for p in table.periods),
        )
        for row in table.rows
    )
    pages = ", ".join(str(p) for p in table.pages)
    return StatementTableView(table.statement, pages, table.unit, table.periods, rows)


def _company(company: CompanyEntry, library: DocumentLibrary, registry: Registry) -> CompanyMemo:
    memo = company.memo
    document = _document(company, registry)
    doc_id = document.id if document is not None else ""
    facts = _facts(company, document, library)
    known = {f.id for f in facts}
    return CompanyMemo(
        company=company.company.name or "company",
        status=memo.status or "UNKNOWN",
        defects=tuple(d.render() for d in memo.defects),
        paragraphs=tuple(
            MemoParagraph(p.text, p.sources, tuple(s in known for s in p.sources))
            for p in memo.paragraphs
        ),
        facts=facts,
        details=_details(company),
        rejected=_rejected(company),
        document=doc_id,
        statements=tuple(_statement_table(t, doc_id) for t in company.statement_tables),
    )


def load_memo(layout: RunLayout, key: str, library: DocumentLibrary) -> MemoView:
    """The memos of one ``preuve memo`` run (``run.json``), one per company."""
    runs = run_entries("memo", layout.memo)
    run, problem = read_run_file(layout.memo[key], MEMO_RUN_FILE, MemoRunFile)
    if run is None:
        return MemoView(key, "", (), (), runs, (problem,))
    registry = library.registry()
    return MemoView(
        run=key,
        engine=run.engine,
        companies=tuple(_company(c, library, registry) for c in run.companies),
        limits=KNOWN_LIMITS,
        runs=runs,
        problems=registry.problems,
        status=run.status,
    )


# --- dashboard ------------------------------------------------------------------------------


def _table(title: str, dashboard: DashboardFile) -> DashboardTable:
    columns = tuple(f.name for f in fields(DashboardRow))
    cells = tuple(tuple(scalar(getattr(r, c)) for c in columns) for r in dashboard.rows)
    summary: SummaryEntry | None = dashboard.summary
    lines = (summary.line,) if summary is not None else ()  # as the CLI prints it
    return DashboardTable(title, columns, cells, lines)


def load_dashboard(layout: RunLayout, key: str) -> DashboardView:
    """``dashboard.json``: the engine, one row per company (every field a column) and the
    summary line."""
    runs = run_entries("dashboard", layout.memo)
    dashboard, problem = read_run_file(layout.memo[key], DASHBOARD_FILE, DashboardFile)
    if dashboard is None:
        return DashboardView(key, "", (), runs, (problem,))
    table = _table("One row per company", dashboard)
    return DashboardView(key, dashboard.engine, (table,), runs)
