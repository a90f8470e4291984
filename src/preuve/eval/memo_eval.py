"""Evaluating workflow 1 against its gold: the only place where memo gold labels are read.

Per company (a report is matched to its gold entry by file name):

- field accuracy: a gold field is correct when the extracted field of the same key and year
  has the same value *and* the same page;
- ratio deviation: the max relative deviation of the computed ratios from the gold ratios
  (a gold ratio that was not computed counts as 100 %);
- signal recall: a gold signal is recalled when a verified signal's span overlaps the gold
  sentence on the same page (the gold sentence is located on its page by the quote check);
- memo verified: the memo's status.

Model variance is large, so :func:`evaluate_memo` runs N times and reports the mean and the
worst case of each figure. Each run's monitored rates are appended to a rates file
(:mod:`preuve.eval.memo_rates`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Any, ClassVar

from preuve.core.errors import InputError
from preuve.core.quotes import QuoteChecker
from preuve.eval.memo_rates import MemoRates, append_rates, rates_of
from preuve.io.documents import load_documents
from preuve.io.jsonfile import read_json_file
from preuve.io.records import STRICT, dump_record
from preuve.memo.dashboard import CompanyScore
from preuve.memo.pipeline import CompanyMemo, MemoRun, run_memo
from preuve.models.base import Model
from preuve.models.journal import Journal
from preuve.models.usage import CallFigures, call_figures, costs_of_records, spread

__all__ = [
    "EvalFigures",
    "EvaluationEntry",
    "GoldCompany",
    "GoldSignal",
    "RepeatedEvaluation",
    "RunEvaluation",
    "RunEvaluationEntry",
    "evaluate_memo",
    "evaluate_run",
    "read_memo_gold",
    "score_company",
]

_MISSING_RATIO = 1.0  # a ratio the run did not compute is as wrong as can be


@dataclass(frozen=True, slots=True)
class GoldSignal:
    category: str
    sentence: str
    page: int


@dataclass(frozen=True, slots=True)
class GoldCompany:
    """The gold of one report: fields by (key, year) → (value, page), ratios by
    (id suffix, year) → value, and the planted signals."""

    slug: str
    name: str
    file: str
    fields: Mapping[tuple[str, int], tuple[Decimal, int]]
    ratios: Mapping[tuple[str, int], Decimal]
    signals: tuple[GoldSignal, ...]


def _gold_company(entry: Mapping[str, Any]) -> GoldCompany:
    fields = {
        (str(f["key"]), int(f["year"])): (Decimal(str(f["value"])), int(f["page"]))
        for f in entry["fields"]
    }
    ratios = {
        (str(r["id"]).rsplit("-", 1)[-1], int(year)): Decimal(str(value))
        for r in entry["ratios"]
        for year, value in r["values"].items()
    }
    signals = tuple(
        GoldSignal(str(s["category"]), str(s["sentence"]), int(s["page"])) for s in entry["signals"]
    )
    return GoldCompany(
        str(entry["slug"]), str(entry["name"]), str(entry["file"]), fields, ratios, signals
    )


def read_memo_gold(path: Path) -> tuple[GoldCompany, ...]:
    """Read a memo gold file (``{"companies": [...]}``) or raise a one-line InputError."""
    if not path.is_file():
        raise InputError(f"{path}: no such gold file", fix="generate the bundled corpus first")
    data = read_json_file(path, "gold file")
    try:
        return tuple(_gold_company(entry) for entry in data["companies"])
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise InputError(f"{path}: not a memo gold file ({type(err).__name__}: {err})") from None


# --- Scoring one company -------------------------------------------------------------------


def _fields_correct(company: CompanyMemo, gold: GoldCompany) -> int:
    correct = 0
    for (key, year), (value, page) in gold.fields.items():
        extracted = company.statements.get(key, year)
        correct += extracted is not None and extracted.value == value and extracted.page == page
    return correct


def _ratio_deviation(company: CompanyMemo, gold: GoldCompany) -> float:
    computed = {r.id.rsplit("-", 1)[-1]: r for r in company.ratios}
    worst = 0.0
    for (suffix, year), expected in gold.ratios.items():
        ratio = computed.get(suffix)
        value = ratio.value(year) if ratio is not None else None
        if value is None:
            worst = max(worst, _MISSING_RATIO)
            continue
        scale = abs(expected) if expected else Decimal(1)
        worst = max(worst, float(abs(value - expected) / scale))
    return worst


def _signals_recalled(company: CompanyMemo, gold: GoldCompany) -> int:
    checker = QuoteChecker.of(company.document)
    recalled = 0
    for signal in gold.signals:
        span = checker.verify(signal.page, signal.sentence).span
        if span is None:
            continue  # a gold sentence not on its page cannot be recalled
        recalled += any(
            s.span.start < span.end and span.start < s.span.end for s in company.reading.verified
        )
    return recalled


def score_company(company: CompanyMemo, gold: GoldCompany) -> CompanyScore:
    return CompanyScore(
        fields_correct=_fields_correct(company, gold),
        fields_total=len(gold.fields),
        ratio_deviation=_ratio_deviation(company, gold),
        signals_recalled=_signals_recalled(company, gold),
        signals_total=len(gold.signals),
    )


# --- Runs ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EvalFigures:
    """The headline figures of one run (or their mean or worst case over runs)."""

    field_accuracy: float
    max_ratio_deviation: float
    signal_recall: float
    memo_verified: float  # 1.0 when every memo is verified (a share over repeated runs)
    rejected_quotes_per_report: float
    memos_refused_after_rewrite: float


# Which way is worse, per figure: the worst case is the min of the first, the max of the rest.
_HIGHER_IS_BETTER = frozenset({"field_accuracy", "signal_recall", "memo_verified"})


@dataclass(frozen=True, slots=True)
class RunEvaluation:
    """One run, its per-report scores (keyed by report path) and its figures."""

    run: MemoRun
    scores: Mapping[str, CompanyScore]
    figures: EvalFigures
    rates: MemoRates
    unmatched: tuple[str, ...] = ()
    cost: CallFigures = field(default_factory=lambda: call_figures(()))

    def cost_row(self) -> dict[str, Any]:
        """The run's model calls and its wall time (seconds of the whole run)."""
        return {**dump_record(self.cost), "wall_seconds": round(self.run.seconds, 3)}


@dataclass(frozen=True, slots=True, kw_only=True)
class RunEvaluationEntry:
    """One evaluated run as ``eval.json`` writes it."""

    run_id: str
    engine: str
    figures: EvalFigures
    cost: dict[str, Any]
    companies: dict[str, CompanyScore]  # report path → its scores
    unmatched_reports: tuple[str, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, run: RunEvaluation) -> RunEvaluationEntry:
        return cls(
            run_id=run.run.run_id,
            engine=run.run.engine,
            figures=run.figures,
            cost=run.cost_row(),
            companies=dict(run.scores),
            unmatched_reports=run.unmatched,
        )


def _matching(company: CompanyMemo, gold: Sequence[GoldCompany]) -> GoldCompany | None:
    name = Path(company.report).name
    return next((g for g in gold if Path(g.file).name == name), None)


def evaluate_run(
    run: MemoRun, gold: Sequence[GoldCompany], *, source: str = "eval"
) -> RunEvaluation:
    """Score each report of ``run`` that has a gold entry."""
    scores: dict[str, CompanyScore] = {}
    unmatched: list[str] = []
    for company in run.companies:
        entry = _matching(company, gold)
        if entry is None:
            unmatched.append(company.report)
        else:
            scores[company.report] = score_company(company, entry)
    graded = list(scores.values())
    fields_total = sum(s.fields_total for s in graded)
    signals_total = sum(s.signals_total for s in graded)
    rates = rates_of(run, source=source)
    figures = EvalFigures(
        field_accuracy=sum(s.fields_correct for s in graded) / fields_total
        if fields_total
        else 0.0,
        max_ratio_deviation=max((s.ratio_deviation for s in graded), default=_MISSING_RATIO),
        signal_recall=(
            sum(s.signals_recalled for s in graded) / signals_total if signals_total else 0.0
        ),
        memo_verified=float(run.status.value == "VERIFIED"),
        rejected_quotes_per_report=rates.rejected_quotes_per_report,
        memos_refused_after_rewrite=rates.memos_refused_after_rewrite,
    )
    return RunEvaluation(run, scores, figures, rates, tuple(unmatched))


@dataclass(frozen=True, slots=True)
class RepeatedEvaluation:
    """N runs of the same evaluation: each run, and the mean and worst case of each figure."""

    runs: tuple[RunEvaluation, ...]
    mean: EvalFigures
    worst: EvalFigures


@dataclass(frozen=True, slots=True, kw_only=True)
class EvaluationEntry:
    """``eval.json`` of ``preuve eval memo``: mean and worst case, cost, every run."""

    repeat: int
    mean: EvalFigures
    worst: EvalFigures
    cost: dict[str, dict[str, float]]
    runs: tuple[RunEvaluationEntry, ...]
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, evaluation: RepeatedEvaluation) -> EvaluationEntry:
        runs = evaluation.runs
        return cls(
            repeat=len(runs),
            mean=evaluation.mean,
            worst=evaluation.worst,
            cost=spread([r.cost_row() for r in runs]),
            runs=tuple(RunEvaluationEntry.of(r) for r in runs),
        )


def _aggregate(runs: Sequence[RunEvaluation]) -> tuple[EvalFigures, EvalFigures]:
    both = spread([dump_record(r.figures) for r in runs], higher_is_better=_HIGHER_IS_BETTER)
    return EvalFigures(**both["mean"]), EvalFigures(**both["worst"])


def evaluate_memo(
    report_paths: Sequence[Path],
    gold_path: Path,
    model: Model,
    *,
    journal: Journal,
    repeat: int = 1,
    rates_path: Path | None = None,
    quotes: str = "copy",
) -> RepeatedEvaluation:
    """Run workflow 1 ``repeat`` times on the reports (reader mode ``quotes``) and grade each
    run against the gold; each run's monitored rates are appended to ``rates_path`` when
    given."""
    if repeat < 1:
        raise InputError(f"--repeat must be at least 1, got {repeat}")
    gold = read_memo_gold(gold_path)
    reports = load_documents(report_paths)  # read once: every run is on the same documents
    base = uuid.uuid4().hex[:12]
    runs: list[RunEvaluation] = []
    for number in range(1, repeat + 1):
        run = run_memo(reports, model, journal=journal, run_id=f"{base}-{number}", quotes=quotes)
        evaluation = replace(
            evaluate_run(run, gold), cost=call_figures(costs_of_records(journal.calls(run.run_id)))
        )
        if rates_path is not None:
            append_rates(rates_path, evaluation.rates)
        runs.append(evaluation)
    mean, worst = _aggregate(runs)
    return RepeatedEvaluation(tuple(runs), mean, worst)
