"""Adapters for workflow 1: the memo of each company and the dashboard.

They read what ``preuve memo`` writes (:func:`preuve.commands.memo.write_memo_run`):
``run.json`` (:meth:`MemoRun.to_dict`) and ``dashboard.json`` (:meth:`Dashboard.to_dict`).
A company's report is the registered document whose id is the company slug, or whose file
is the report the run read. A Q- fact is located on its page from the verified signal the
run recorded (page, start, end); failing that, the core quote check locates its quote.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from preuve.core.errors import PreuveError
from preuve.core.quotes import QuoteChecker
from preuve.memo.writer import KNOWN_LIMITS
from preuve.web.layout import MEMO_RUN, RunLayout, defect_line, read_json, run_entries, scalar
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


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _document(data: Mapping[str, Any], registry: Registry) -> RegisteredDocument | None:
    """The company's report: registered under its slug, or the file the run read."""
    slug = _dict(data.get("company")).get("slug") or data.get("document")
    found = registry.get(str(slug)) if slug else None
    report = data.get("report")
    if found is None and isinstance(report, str) and report:
        found = registry.by_path(Path(report))
    return found


def _signal_span(
    quote: str, page: int, signals: Sequence[Mapping[str, Any]]
) -> tuple[int, int] | None:
    """The recorded span of the verified signal this quote fact was made from."""
    for signal in signals:
        matched = signal.get("matched")
        start, end = signal.get("start"), signal.get("end")
        if (
            signal.get("page") == page
            and isinstance(matched, str)
            and isinstance(start, int)
            and isinstance(end, int)
            and _folded(matched) == _folded(quote)
        ):
            return start, end
    return None


def _quote_link(
    text: str,
    document: RegisteredDocument | None,
    signals: Sequence[Mapping[str, Any]],
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
    data: Mapping[str, Any], document: RegisteredDocument | None, library: DocumentLibrary
) -> tuple[FactView, ...]:
    signals = [s for s in _list(_dict(data.get("signals")).get("signals_verified")) if _dict(s)]
    views = []
    for fact in _list(data.get("facts")):
        fact_id, text = str(_dict(fact).get("id", "")), str(_dict(fact).get("text", ""))
        kind = fact_id.split("-", 1)[0] if "-" in fact_id else ""
        if kind == "Q":
            views.append(
                FactView(fact_id, kind, text, *_quote_link(text, document, signals, library))
            )
        else:
            views.append(FactView(fact_id, kind, text))
    return tuple(views)


def _details(data: Mapping[str, Any], memo: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    signals = _dict(data.get("signals"))
    identities = _dict(data.get("identities"))
    details = [
        ("report pages", scalar(data.get("n_pages"))),
        ("signals verified", str(len(_list(signals.get("signals_verified"))))),
        ("signals rejected", scalar(signals.get("signals_rejected"))),
        ("identities checked", scalar(identities.get("checked"))),
        ("writer attempts", scalar(memo.get("attempts"))),
    ]
    return tuple((k, v) for k, v in details if v != "—")


def _rejected(data: Mapping[str, Any]) -> tuple[str, ...]:
    """Signals the quote check refused: shown as refused, never as evidence."""
    lines = []
    for item in _list(_dict(data.get("signals")).get("rejected")):
        signal = _dict(item)
        lines.append(
            f"{scalar(signal.get('category'))}, p. {scalar(signal.get('page'))}: "
            f"« {scalar(signal.get('quote'))} » — {scalar(signal.get('reason'))}"
        )
    violations = _list(_dict(data.get("identities")).get("violations"))
    return tuple(lines) + tuple(f"identity violated: {scalar(v)}" for v in violations)


def _statement_cell(value: object, doc: str) -> StatementCell | None:
    cell = _dict(value)
    raw, page, span = cell.get("raw"), cell.get("page"), _list(cell.get("span"))
    if not isinstance(raw, str):
        return None
    if doc and isinstance(page, int) and len(span) == 2 and all(isinstance(x, int) for x in span):
        return StatementCell(raw, PageLink(doc, page, int(span[0]), int(span[1])))
    return StatementCell(raw)


def _statements(data: Mapping[str, Any], doc: str) -> tuple[StatementTableView, ...]:
    """The statement tables the run read (every row, each value linked to its span)."""
    views = []
    for item in _list(data.get("statement_tables")):
        table = _dict(item)
        periods = tuple(str(p) for p in _list(table.get("periods")))
        rows = []
        for row in _list(table.get("rows")):
            values = _dict(_dict(row).get("values"))
            cells = tuple(_statement_cell(values.get(p), doc) for p in periods)
            label = str(_dict(row).get("label") or "(total)")
            rows.append(StatementRowView(label, str(_dict(row).get("concept") or "—"), cells))
        pages = ", ".join(str(p) for p in _list(table.get("pages")))
        unit = str(table.get("unit") or "")
        views.append(
            StatementTableView(str(table.get("statement", "")), pages, unit, periods, tuple(rows))
        )
    return tuple(views)


def _company(data: Mapping[str, Any], library: DocumentLibrary, registry: Registry) -> CompanyMemo:
    memo = _dict(data.get("memo"))
    document = _document(data, registry)
    facts = _facts(data, document, library)
    known = {f.id for f in facts}
    paragraphs = []
    for item in _list(memo.get("paragraphs")):
        sources = tuple(str(s) for s in _list(_dict(item).get("sources")))
        text = str(_dict(item).get("text", ""))
        paragraphs.append(MemoParagraph(text, sources, tuple(s in known for s in sources)))
    company = data.get("company")
    name = _dict(company).get("name") if isinstance(company, dict) else company
    return CompanyMemo(
        company=str(name or "company"),
        status=str(memo.get("status") or "UNKNOWN"),
        defects=tuple(defect_line(d) for d in _list(memo.get("defects"))),
        paragraphs=tuple(paragraphs),
        facts=facts,
        details=_details(data, memo),
        rejected=_rejected(data),
        document=document.id if document is not None else "",
        statements=_statements(data, document.id if document is not None else ""),
    )


def load_memo(layout: RunLayout, key: str, library: DocumentLibrary) -> MemoView:
    """The memos of one ``preuve memo`` run (``run.json``), one per company."""
    runs = run_entries("memo", layout.memo)
    data, problem = read_json(layout.memo[key] / MEMO_RUN)
    if not isinstance(data, dict):
        return MemoView(key, "", (), (), runs, (problem or f"{MEMO_RUN}: not an object",))
    registry = library.registry()
    companies = tuple(
        _company(c, library, registry) for c in _list(data.get("companies")) if isinstance(c, dict)
    )
    limits = tuple(str(line) for line in _list(data.get("limits"))) or KNOWN_LIMITS
    return MemoView(
        run=key,
        engine=str(data.get("engine", "")),
        companies=companies,
        limits=limits,
        runs=runs,
        problems=registry.problems,
        status=str(data.get("status", "")),
    )


# --- dashboard ------------------------------------------------------------------------------


def _table(title: str, rows: object, summary: object) -> DashboardTable:
    records = [r for r in _list(rows) if isinstance(r, dict)]
    columns = tuple(dict.fromkeys(str(k) for r in records for k in r))
    cells = tuple(tuple(scalar(r.get(c)) for c in columns) for r in records)
    if isinstance(summary, dict) and isinstance(summary.get("line"), str):
        lines: tuple[str, ...] = (summary["line"],)  # the summary line as the CLI prints it
    elif isinstance(summary, dict):
        lines = tuple(f"{k.replace('_', ' ')}: {scalar(v)}" for k, v in summary.items())
    elif isinstance(summary, list):
        lines = tuple(scalar(s) for s in summary)
    else:
        lines = (scalar(summary),) if summary is not None else ()
    return DashboardTable(title, columns, cells, lines)


def load_dashboard(layout: RunLayout, key: str) -> DashboardView:
    """``dashboard.json``: ``{"engine", "rows": [{column: value}], "summary": {..., "line"}}``;
    every row's keys become columns, in order of first appearance."""
    runs = run_entries("dashboard", layout.memo)
    data, problem = read_json(layout.memo[key] / "dashboard.json")
    if isinstance(data, list):
        data = {"rows": data}
    if not isinstance(data, dict):
        return DashboardView(key, "", (), runs, (problem or "dashboard.json: not an object",))
    table = _table("One row per company", data.get("rows"), data.get("summary"))
    return DashboardView(key, scalar(data.get("engine", "")), (table,), runs)
