"""A workflow 1 run as its run file's types: :class:`~preuve.memo.run_files.MemoRunFile`.

``run.json`` has one description, the dataclasses of :mod:`preuve.memo.run_files`: the
run is converted into them here (typed, so mypy checks every field), written by the one
dataclass/JSON mechanism (:func:`preuve.io.records.dump_record`) and read back by it
(:meth:`preuve.io.runfolder.RunFolder.read`). Nothing here builds a dict by hand; the keys
and their order are the types' fields.

A verified signal's ``start``/``end`` are page-relative in the file (the viewer highlights
them on their page): they are computed here from the signal's span and its report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from preuve.core.claim_state import DIMENSIONS, ClaimRecord
from preuve.core.documents import Document
from preuve.core.quotes import Diagnostic
from preuve.io.records import load_records_data
from preuve.memo.ratio_facts import describe_input
from preuve.memo.ratios import Alert, Ratio, ratios_not_computed
from preuve.memo.reader import Reading, RejectedSignal, VerifiedSignal
from preuve.memo.run_files import (
    AlertEntry,
    ClaimEntry,
    CompanyEntry,
    CompanyName,
    DiagnosticEntry,
    FactEntry,
    FieldEntry,
    IdentitiesEntry,
    MemoEntry,
    MemoRunFile,
    ParagraphEntry,
    RatioEntry,
    RatioValueEntry,
    ReadingEntry,
    RejectedSignalEntry,
    SpanEntry,
    StatementsEntry,
    TableEntry,
    UnmappedEntry,
    VerifiedSignalEntry,
)
from preuve.memo.statements import Statements
from preuve.memo.writer import MemoOutcome

if TYPE_CHECKING:  # the pipeline's types (it imports this module)
    from preuve.memo.pipeline import CompanyMemo, MemoRun

__all__ = ["company_entry", "memo_entry", "memo_run_file", "signal_entry"]


def memo_run_file(run: MemoRun) -> MemoRunFile:
    """``run.json`` of ``run``: every company and every model call."""
    return MemoRunFile(
        run_id=run.run_id,
        engine=run.engine,
        model=run.model,
        status=run.status.value,
        signals_rejected=run.signals_rejected,
        seconds=round(run.seconds, 4),
        companies=tuple(company_entry(c) for c in run.companies),
        calls=tuple(run.calls),
    )


def company_entry(company: CompanyMemo) -> CompanyEntry:
    """One report's results, as ``run.json`` keeps them (its pages are not kept)."""
    identities = company.identities
    return CompanyEntry(
        report=company.report,
        company=CompanyName(name=company.company.name, slug=company.company.slug),
        n_pages=len(company.pages),
        language=company.language.value,
        statement_tables=load_records_data(
            TableEntry, list(company.statement_tables), "statement tables"
        ),
        statements=_statements(company.statements),
        identities=IdentitiesEntry(
            checked=identities.checked,
            structural_checked=identities.structural,
            ok=identities.ok,
            violations=tuple(d.render() for d in identities.defects()),
        ),
        ratios=tuple(_ratio(r) for r in company.ratios),
        ratios_not_computed=ratios_not_computed(company.statements, company.language),
        alerts=tuple(_alert(a) for a in company.alerts),
        signals=_reading(company.reading, company.document),
        facts=tuple(FactEntry(id=f.id, text=f.text) for f in company.facts),
        memo=memo_entry(company.memo),
        seconds=round(company.seconds, 4),
    )


def _statements(statements: Statements) -> StatementsEntry:
    return StatementsEntry(
        locale=statements.locale.value,
        years=tuple(statements.years),
        fields=tuple(
            FieldEntry(
                key=f.key,
                label=f.label,
                statement=f.statement.value,
                year=f.year,
                value=str(f.value),
                raw=f.raw,
                unit=f.unit,
                page=f.page,
            )
            for f in statements.fields
        ),
        unmapped=tuple(
            UnmappedEntry(label=r.label, statement=r.statement.value, page=r.page)
            for r in statements.unmapped
        ),
    )


def _ratio(ratio: Ratio) -> RatioEntry:
    return RatioEntry(
        id=ratio.id,
        name=ratio.name,
        formula=ratio.formula,
        unit=ratio.unit,
        values=tuple(
            RatioValueEntry(
                year=v.year,
                value=str(v.value),
                numerator=str(v.numerator),
                denominator=str(v.denominator),
                inputs=tuple(describe_input(f) for f in v.inputs),
            )
            for v in ratio.values
        ),
        fact=ratio.text(),
    )


def _alert(alert: Alert) -> AlertEntry:
    return AlertEntry(id=alert.id, rule=alert.rule, year=alert.year, fact=alert.text())


def signal_entry(signal: VerifiedSignal, report: Document) -> VerifiedSignalEntry:
    """A verified signal of ``report``: its span, and its offsets on its page."""
    offset = report.page_offset(signal.page)  # the file's start/end are on the page
    return VerifiedSignalEntry(
        category=signal.category,
        quote=signal.quote,
        page=signal.page,
        start=signal.span.start - offset,
        end=signal.span.end - offset,
        matched=signal.matched,
        verdict=signal.verdict,
        span=SpanEntry.of(signal.span),
    )


def _diagnostic(diagnostic: Diagnostic | None) -> DiagnosticEntry | None:
    if diagnostic is None:
        return None
    return DiagnosticEntry(
        passage=diagnostic.passage,
        start=diagnostic.start,
        end=diagnostic.end,
        similarity=diagnostic.similarity,
        differences=tuple(diagnostic.differences),
    )


def _rejected(signal: RejectedSignal) -> RejectedSignalEntry:
    result = signal.result
    return RejectedSignalEntry(
        category=signal.category,
        quote=signal.quote,
        page=signal.page,
        verified=result.verified,
        verdict=result.verdict.value,
        start=result.start,
        end=result.end,
        matched=result.matched,
        reason=result.reason,
        other_page=result.other_page,
        diagnostic=_diagnostic(result.diagnostic),
    )


def _reading(reading: Reading, report: Document) -> ReadingEntry:
    return ReadingEntry(
        signals_verified=tuple(signal_entry(s, report) for s in reading.verified),
        signals_rejected=reading.signals_rejected,
        rejected=tuple(_rejected(s) for s in reading.rejected),
        first_attempt_rejected=reading.first_rejected,
        attempts=reading.attempts,
        defects=reading.defects,
    )


def _claim(claim: ClaimRecord) -> ClaimEntry:
    subject, period, direction, polarity = (claim.status(d) for d in DIMENSIONS)
    return ClaimEntry(
        claim=claim.claim, subject=subject, period=period, direction=direction, polarity=polarity
    )


def memo_entry(memo: MemoOutcome) -> MemoEntry:
    """The writer's outcome: the paragraphs, their claims' status, the defects."""
    claims = memo.claims or tuple(() for _ in memo.paragraphs)
    return MemoEntry(
        status=memo.status.value,
        paragraphs=tuple(
            ParagraphEntry(
                text=p.text,
                sources=tuple(p.sources),
                claims=tuple(_claim(c) for c in records),
            )
            for p, records in zip(memo.paragraphs, claims, strict=False)
        ),
        defects=memo.defects,
        first_attempt_defects=memo.first_defects,
        attempts=memo.attempts,
    )
