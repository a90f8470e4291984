"""The dashboard of a memo run: one row per company and a summary line, as a table or JSON.

Columns: fields (correct/total when evaluation figures are given, else the number
extracted), ratios (latest year), memo status, signals rejected, ratio deviation, signals
cited (distinct quote facts the memo cites / verified signals), signal recall and claims
unchecked (memo claims whose subject, period, direction or polarity the check could not
decide / claims stating one). The summary line gives field accuracy, max ratio deviation,
signal recall, whether every memo is verified and the unchecked-claim rate.

Evaluation figures are an optional argument (:class:`CompanyScore`, computed by
``preuve.eval.memo_eval``); this module never opens gold labels itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.table import Table

from preuve.io.records import STRICT, dump_record
from preuve.memo.claims_view import unchecked_share
from preuve.memo.pipeline import CompanyMemo, MemoRun

__all__ = [
    "CompanyScore",
    "Dashboard",
    "DashboardFile",
    "DashboardRow",
    "Summary",
    "SummaryEntry",
    "build_dashboard",
    "dashboard_table",
    "format_percent",
]

_NONE = "—"


@dataclass(frozen=True, slots=True)
class CompanyScore:
    """Evaluation figures of one company against its gold (``ratio_deviation`` is the max
    relative deviation from the gold ratios, 0.0 meaning exact)."""

    fields_correct: int
    fields_total: int
    ratio_deviation: float
    signals_recalled: int
    signals_total: int


@dataclass(frozen=True, slots=True)
class DashboardRow:
    company: str
    slug: str
    fields: str
    ratios: str
    memo_status: str
    signals_rejected: int
    ratio_deviation: str
    signals_cited: str
    signal_recall: str
    claims_unchecked: str = _NONE
    identities: str = _NONE  # "47 checked, 0 violated": a violated identity is a defect
    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}


@dataclass(frozen=True, slots=True)
class Summary:
    """Figures over all companies; evaluation ones are None without gold."""

    field_accuracy: float | None
    max_ratio_deviation: float | None
    signal_recall: float | None
    memo_verified: bool
    claims_unchecked: float | None = None

    def line(self) -> str:
        verified = "yes" if self.memo_verified else "no"
        return (
            f"field accuracy: {format_percent(self.field_accuracy, 1)} · "
            f"max ratio deviation: {format_percent(self.max_ratio_deviation, 2)} · "
            f"signal recall: {format_percent(self.signal_recall, 0)} · "
            f"memo verified: {verified} · "
            f"claims unchecked: {format_percent(self.claims_unchecked, 0)}"
        )


@dataclass(frozen=True, slots=True)
class Dashboard:
    engine: str
    rows: tuple[DashboardRow, ...]
    summary: Summary

    def file(self) -> DashboardFile:
        """The record written as ``dashboard.json`` (with the summary line as printed)."""
        summary = self.summary
        return DashboardFile(
            engine=self.engine,
            rows=self.rows,
            summary=SummaryEntry(
                field_accuracy=summary.field_accuracy,
                max_ratio_deviation=summary.max_ratio_deviation,
                signal_recall=summary.signal_recall,
                memo_verified=summary.memo_verified,
                claims_unchecked=summary.claims_unchecked,
                line=summary.line(),
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        """``dashboard.json`` as JSON data."""
        data: dict[str, Any] = dump_record(self.file())
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class SummaryEntry:
    """The dashboard's figures over all companies (None: no gold to grade against)."""

    field_accuracy: float | None
    max_ratio_deviation: float | None
    signal_recall: float | None
    memo_verified: bool
    claims_unchecked: float | None
    line: str
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


@dataclass(frozen=True, slots=True, kw_only=True)
class DashboardFile:
    """``dashboard.json``: one row per company and the summary line the CLI prints."""

    engine: str
    rows: tuple[DashboardRow, ...] = ()
    summary: SummaryEntry | None = None
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT


def format_percent(value: float | None, places: int) -> str:
    """``0.5`` → ``50.0%`` with ``places`` decimals; None (no gold) → ``n/a``."""
    return "n/a" if value is None else f"{value * 100:.{places}f}%"


def _ratios_cell(company: CompanyMemo) -> str:
    shown = [f"{r.name} {r.display(r.values[0].value)}" for r in company.ratios if r.values]
    return " · ".join(shown) or _NONE


def _row(company: CompanyMemo, score: CompanyScore | None) -> DashboardRow:
    quote_ids = {f.id for f in company.facts if f.id.startswith("Q-")}
    cited = len(quote_ids & set(company.memo.cited()))
    if score is None:
        fields, deviation, recall = f"{len(company.statements.fields)} extracted", _NONE, _NONE
    else:
        fields = f"{score.fields_correct}/{score.fields_total}"
        deviation = format_percent(score.ratio_deviation, 2)
        share = score.signals_recalled / score.signals_total if score.signals_total else None
        recall = f"{score.signals_recalled}/{score.signals_total} ({format_percent(share, 0)})"
    return DashboardRow(
        company=company.company.name,
        slug=company.company.slug,
        fields=fields,
        ratios=_ratios_cell(company),
        memo_status=company.memo.status.value,
        signals_rejected=company.reading.signals_rejected,
        ratio_deviation=deviation,
        signals_cited=f"{cited}/{len(quote_ids)}",
        signal_recall=recall,
        claims_unchecked=_unchecked_cell(company),
        identities=(
            f"{company.identities.total_checked} checked,"
            f" {company.identities.total_violated} violated"
        ),
    )


def _unchecked_cell(company: CompanyMemo) -> str:
    unchecked, stated = unchecked_share(company.memo.claims)
    share = unchecked / stated if stated else None
    return f"{unchecked}/{stated} ({format_percent(share, 0)})"


def _unchecked_rate(run: MemoRun) -> float | None:
    unchecked, stated = unchecked_share([p for c in run.companies for p in c.memo.claims])
    return unchecked / stated if stated else None


def _summary(run: MemoRun, scores: Mapping[str, CompanyScore] | None) -> Summary:
    verified = bool(run.companies) and all(c.memo.verified for c in run.companies)
    graded = [scores[c.report] for c in run.companies if scores and c.report in scores]
    if not graded:
        return Summary(None, None, None, verified, _unchecked_rate(run))
    fields_total = sum(s.fields_total for s in graded)
    signals_total = sum(s.signals_total for s in graded)
    return Summary(
        field_accuracy=sum(s.fields_correct for s in graded) / fields_total
        if fields_total
        else None,
        max_ratio_deviation=max(s.ratio_deviation for s in graded),
        signal_recall=(
            sum(s.signals_recalled for s in graded) / signals_total if signals_total else None
        ),
        memo_verified=verified,
        claims_unchecked=_unchecked_rate(run),
    )


def build_dashboard(run: MemoRun, scores: Mapping[str, CompanyScore] | None = None) -> Dashboard:
    """The dashboard of a run; ``scores`` maps a report path (as in the run) to its
    evaluation figures, when an evaluation computed them."""
    rows = tuple(
        _row(company, scores.get(company.report) if scores else None) for company in run.companies
    )
    return Dashboard(run.engine, rows, _summary(run, scores))


def dashboard_table(dashboard: Dashboard) -> Table:
    """The dashboard as a rich table (print ``dashboard.summary.line()`` below it)."""
    table = Table(title=f"Workflow 1 dashboard (engine: {dashboard.engine})")
    for column in (
        "company", "fields", "ratios", "memo", "signals rejected", "ratio deviation",
        "signals cited", "signal recall", "claims unchecked", "identities",
    ):  # fmt: skip
        table.add_column(column)
    for row in dashboard.rows:
        table.add_row(
            row.company, row.fields, row.ratios, row.memo_status, str(row.signals_rejected),
            row.ratio_deviation, row.signals_cited, row.signal_recall, row.claims_unchecked,
            row.identities,
        )  # fmt: skip
    return table
