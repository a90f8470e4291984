"""The two monitored rates of workflow 1, kept across runs in a JSON-lines file.

- rejected quotes per report: quotes the reader's *first* answers got refused by the quote
  check (before the re-ask), divided by the number of reports;
- memos refused after rewrite: the share of memos still REFUSED after their one rewrite (a
  memo in ERROR, which got no answer from the model, is not a refusal).

Neither needs gold, so ``preuve memo`` records them too. A rise over past runs signals a
model or a document-format change. One JSON object per line, appended, never rewritten.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from preuve.io.records import STRICT, dump_record, load_record
from preuve.memo.pipeline import MemoRun
from preuve.memo.writer import MemoStatus

__all__ = [
    "RATES_FILE",
    "MemoRates",
    "RatesEntry",
    "append_rates",
    "rates_of",
    "rates_overview",
    "read_rates",
]

RATES_FILE = "memo_rates.jsonl"
_DAMAGED = "the file is appended by preuve memo: remove or fix the damaged line"


@dataclass(frozen=True, slots=True)
class MemoRates:
    """One run's counts and its two monitored rates."""

    recorded_at: str
    run_id: str
    engine: str
    source: str  # "memo" or "eval"
    reports: int
    quotes_rejected_first_attempt: int
    signals_dropped: int
    memos_refused: int

    @property
    def rejected_quotes_per_report(self) -> float:
        return self.quotes_rejected_first_attempt / self.reports if self.reports else 0.0

    @property
    def memos_refused_after_rewrite(self) -> float:
        return self.memos_refused / self.reports if self.reports else 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class RatesEntry:
    """One line of the rates file: a run's counts and, for a reader of the file, its two
    rates (recomputed from the counts when read)."""

    recorded_at: str
    run_id: str
    engine: str
    source: str
    reports: int
    quotes_rejected_first_attempt: int
    signals_dropped: int
    memos_refused: int
    rejected_quotes_per_report: float
    memos_refused_after_rewrite: float
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, rates: MemoRates) -> RatesEntry:
        counts = {f.name: getattr(rates, f.name) for f in fields(MemoRates)}
        return cls(
            **counts,
            rejected_quotes_per_report=rates.rejected_quotes_per_report,
            memos_refused_after_rewrite=rates.memos_refused_after_rewrite,
        )

    def rates(self) -> MemoRates:
        return MemoRates(**{f.name: getattr(self, f.name) for f in fields(MemoRates)})


def rates_of(run: MemoRun, *, source: str) -> MemoRates:
    """The counts of one run (no gold needed)."""
    return MemoRates(
        recorded_at=datetime.now(UTC).isoformat(timespec="seconds"),
        run_id=run.run_id,
        engine=run.engine,
        source=source,
        reports=len(run.companies),
        quotes_rejected_first_attempt=sum(c.reading.first_rejected for c in run.companies),
        signals_dropped=run.signals_rejected,
        memos_refused=sum(c.memo.status is MemoStatus.REFUSED for c in run.companies),
    )


def append_rates(path: Path, rates: MemoRates) -> None:
    """Append one line to the rates file (created with its folder if needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        data = dump_record(RatesEntry.of(rates))
        handle.write(json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n")


def read_rates(path: Path) -> list[MemoRates]:
    """Every recorded run, oldest first; none when the file does not exist yet."""
    if not path.is_file():
        return []
    rows: list[MemoRates] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        rows.append(load_record(RatesEntry, line, f"{path}:{number}", _DAMAGED).rates())
    return rows


def rates_overview(rows: Sequence[MemoRates]) -> dict[str, Any]:
    """The mean of each rate over all runs and the last run's, so a rise stands out."""
    if not rows:
        return {"runs": 0}
    last = rows[-1]
    return {
        "runs": len(rows),
        "mean_rejected_quotes_per_report": statistics.fmean(
            r.rejected_quotes_per_report for r in rows
        ),
        "mean_memos_refused_after_rewrite": statistics.fmean(
            r.memos_refused_after_rewrite for r in rows
        ),
        "last_rejected_quotes_per_report": last.rejected_quotes_per_report,
        "last_memos_refused_after_rewrite": last.memos_refused_after_rewrite,
    }
