"""Workflow 1 end to end: annual reports → verified signals and a checked credit memo.

Per company: page texts → statement fields (code) → accounting identities (code) → ratios
and alerts (code) → risk reader (model) → quote check, one re-ask → facts → writer (model)
→ memo check, one rewrite. Every model call goes through the
:class:`~preuve.models.runtime.Runtime` (its budget and its journal included); the run
carries them all. Gold labels are never read here (evaluation lives in
``preuve.eval``).

Each report is one core :class:`~preuve.core.documents.Document`, read before the pipeline
by the one loader (:func:`preuve.io.documents.load_documents`: a PDF, a form-feed text file
or front-matter Markdown; a PDF's character positions come with it, read when a table
asks): this module does no I/O of its own. The per-company analysis can run
``concurrency`` companies at a time, since model calls mostly wait.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from preuve.cluster.executor import Executor, LocalExecutor
from preuve.core.documents import Document
from preuve.core.facts import Fact
from preuve.core.numbers import Locale
from preuve.memo.covenant import covenant_ratio
from preuve.memo.doubtful import without_doubtful
from preuve.memo.facts_builder import build_facts
from preuve.memo.identities import IdentityReport, check_identities
from preuve.memo.lexicon import LabelRule
from preuve.memo.ratios import (
    Alert,
    Company,
    Ratio,
    compute_alerts,
    compute_ratios,
    detect_company,
)
from preuve.memo.reader import Reading, read_signals
from preuve.memo.risk_cues import CueSet
from preuve.memo.rules_engine import memo_rules_model
from preuve.memo.statement_report import tables_json
from preuve.memo.statements import Statements, extract_statements
from preuve.memo.table_fields import merged_statements, table_identities, with_table_identities
from preuve.memo.tables import read_tables
from preuve.memo.writer import MemoOutcome, MemoStatus, write_memo
from preuve.models.base import Model, ModelIdentity
from preuve.models.journal import CallJournal, CallRecord, Journal
from preuve.models.progress import step
from preuve.models.runtime import Runtime, as_runtime

__all__ = [
    "CompanyMemo",
    "MemoRun",
    "analyse_report",
    "engine_label",
    "run_memo",
]


def engine_label(model: Model) -> str:
    """``rules`` for the rules engine (never passed off as an LLM), else ``backend:name``."""
    return model.identity.engine()


@dataclass(frozen=True, slots=True)
class CompanyMemo:
    """Everything workflow 1 produced for one report. ``document`` is the report, whose
    pages are the reference texts (kept for evaluation and the viewer; only its path and
    page count are serialized)."""

    document: Document
    company: Company
    statements: Statements
    identities: IdentityReport
    ratios: tuple[Ratio, ...]
    alerts: tuple[Alert, ...]
    reading: Reading
    facts: tuple[Fact, ...]
    memo: MemoOutcome
    seconds: float
    language: Locale = Locale.FR  # of the facts and memo: the report's, or --lang
    statement_tables: tuple[dict[str, Any], ...] = ()  # every row, value spans (JSON-ready)

    @property
    def report(self) -> str:
        """The report as the run names it: the file it was read from (else its title)."""
        return self.document.path or self.document.title

    @property
    def pages(self) -> tuple[str, ...]:
        return self.document.pages


@dataclass(frozen=True, slots=True)
class MemoRun:
    """One run over one or more reports, with every model call of the run."""

    run_id: str
    engine: str
    model: ModelIdentity
    companies: tuple[CompanyMemo, ...]
    calls: tuple[CallRecord, ...]
    seconds: float

    @property
    def status(self) -> MemoStatus:
        """VERIFIED when every company's memo is verified; else REFUSED when a memo was
        refused, else ERROR (a memo got no answer from the model)."""
        ok = self.companies and all(c.memo.verified for c in self.companies)
        if ok:
            return MemoStatus.VERIFIED
        statuses = {c.memo.status for c in self.companies}
        return MemoStatus.ERROR if statuses == {MemoStatus.ERROR} else MemoStatus.REFUSED

    @property
    def signals_rejected(self) -> int:
        return sum(c.reading.signals_rejected for c in self.companies)


def analyse_report(
    report: Document,
    runtime: Runtime | Model,
    mapping: tuple[LabelRule, ...] = (),
    language: Locale | None = None,
    *,
    quotes: str = "copy",
    cues: CueSet | None = None,
) -> CompanyMemo:
    """The whole workflow for one report (its page texts already extracted);
    ``mapping``: a user's concept rules, tried before the bundled ones; ``language``: of
    the facts and memo (default: the report's own, French or English); ``quotes``: the
    reader's mode, ``copy`` (the model copies each quote) or ``select`` (it picks sentence
    ids and code resolves the text); ``cues``: the rules engine's risk cues (a user's; the
    bundled ones when None). Every call goes through the runtime's budget."""
    started = time.perf_counter()
    model = as_runtime(runtime).model(partial(memo_rules_model, cues))
    pages = report.pages
    company = detect_company(pages)
    # blank cells by x-position, when the loader knows them (a PDF)
    tables = read_tables(pages, report.positions)
    statements = merged_statements(pages, extract_statements(pages), mapping, tables)
    found = table_identities(pages, mapping, tables)
    identities = with_table_identities(check_identities(statements), found)
    lang = language or statements.locale
    statements = without_doubtful(statements, identities)  # no ratio from a doubtful value
    ratios = compute_ratios(statements, company, lang)
    latest = statements.years[0] if statements.years else None
    covenant = covenant_ratio(pages, company, latest, lang, cues)  # as the report publishes it
    ratios = ratios if covenant is None else (*ratios, covenant)
    alerts = compute_alerts(statements, ratios, company, lang)
    reading = read_signals(model, company.name, report, quotes=quotes)  # (category, Span)
    facts = build_facts(company, ratios, alerts, reading.verified, lang)
    memo = write_memo(model, company.name, facts, statements.years, lang)
    return CompanyMemo(
        document=report,
        company=company,
        statements=statements,
        identities=identities,
        ratios=ratios,
        alerts=alerts,
        reading=reading,
        facts=facts,
        memo=memo,
        seconds=time.perf_counter() - started,
        language=lang,
        statement_tables=tuple(tables_json(tables, mapping)),
    )


@dataclass(frozen=True, slots=True)
class _RemoteReport:
    """One report analysed where a remote executor runs it: its calls are journaled in a
    journal of the worker's own (in memory), and come back with the memo for the run's
    journal."""

    model: Model
    run_id: str
    mapping: tuple[LabelRule, ...]
    language: Locale | None
    quotes: str

    def __call__(self, report: Document) -> tuple[CompanyMemo, list[CallRecord]]:
        with Journal(":memory:") as journal:
            worker = as_runtime(self.model).journaling(journal, self.run_id)
            company = analyse_report(
                report, worker, self.mapping, self.language, quotes=self.quotes
            )
            return company, journal.calls(self.run_id)


def run_memo(
    reports: Sequence[Document],
    runtime: Runtime | Model,
    *,
    journal: CallJournal | None = None,
    run_id: str | None = None,
    concurrency: int = 1,
    mapping: tuple[LabelRule, ...] = (),
    language: Locale | None = None,
    quotes: str = "copy",
    executor: Executor | None = None,
    cues: CueSet | None = None,
) -> MemoRun:
    """Run workflow 1 on each report (loaded by :func:`preuve.io.documents.load_documents`);
    every model call goes through the runtime (budget, endpoint
    limit, recorder, progress) and is journaled under ``run_id``: in ``journal``, else in
    the runtime's own (:meth:`Runtime.journaling`, under its run id unless ``run_id`` is
    given), else in memory.

    The reports are analysed by ``executor`` (default: ``concurrency`` threads, one by
    default: the journal then reads in report order); on a remote one (Ray: one task per
    report) each worker journals its calls apart and this process appends them to
    ``journal``, report by report. ``cues`` are the rules engine's risk cues (a user's,
    ``preuve memo --cues``; the bundled ones when None): the run's own, not the process's."""
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    started = time.perf_counter()
    given = as_runtime(runtime)
    journal = journal or given.journal or Journal(":memory:")
    run_id = run_id or given.run_id or uuid.uuid4().hex
    runner = executor or LocalExecutor(concurrency)
    # journaled here, or (shipped unjournaled) in each remote worker's journal
    given = given.journaling(journal, run_id)
    model = given.model(partial(memo_rules_model, cues), journaled=not runner.remote)
    documents = list(reports)
    with step(model, "memo", len(documents), "reports") as bar:
        if runner.remote:
            task = _RemoteReport(model, run_id, mapping, language, quotes)
            companies = []
            for company, calls in runner.map(task, documents):
                for call in calls:
                    journal.record(call)
                companies.append(company)
                bar.advance()
        else:

            def analyse(document: Document) -> CompanyMemo:
                company = analyse_report(document, model, mapping, language, quotes=quotes)
                bar.advance()
                return company

            companies = runner.map(analyse, documents)
    return MemoRun(
        run_id=run_id,
        engine=engine_label(model),
        model=model.identity,
        companies=tuple(companies),
        calls=tuple(journal.calls(run_id)),
        seconds=time.perf_counter() - started,
    )
