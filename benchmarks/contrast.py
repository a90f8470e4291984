"""The memo check on contrast sets: false-supported rate per class, faithful acceptance.

Two sets, measured apart and printed side by side:

* own: preuve's contrast set, generated from fact templates (``tests/memo/contrast_set.py``);
* held-out: ``tests/heldout/memo/contrast.jsonl``, written by someone who never saw the code
  (measured; no phrasing of it is in the engine: after a first measure, only general
  mechanisms were added, and preuve's own set was extended to cover each of them).

Each row gives its facts (``[ID] text`` lines), one paragraph with its sources, its class
(faithful, subject_swap, period_swap, direction_flip, negation_flip) and whether it should
be accepted. A contrasted row is *false-supported* when the whole memo check (numbers and
claims) accepts it. Goals: 0 % on subject, period and direction, ≤ 2 % on negation, ≥ 98 %
of faithful rows accepted.

Run from the repository root: ``.venv/bin/python -m benchmarks.contrast [--show-misses]``
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.memo.contrast_set import CLASSES, ContrastRow, contrast_rows

from preuve.core.defects import Defect
from preuve.core.facts import parse_facts
from preuve.core.memocheck import Paragraph, check_memo
from preuve.core.numbers import Locale, extract_numbers

__all__ = ["Rates", "check_row", "load_heldout", "main", "rates_of"]

HELDOUT = Path(__file__).resolve().parent.parent / "tests" / "heldout" / "memo" / "contrast.jsonl"


def load_heldout(path: Path = HELDOUT) -> list[ContrastRow]:
    """The held-out rows, in the same shape as preuve's own."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        data = json.loads(line)
        paragraph = data["paragraph"]
        rows.append(
            ContrastRow(
                id=str(data["id"]),
                lang=str(data["lang"]),
                facts=tuple(str(f) for f in data["facts"]),
                text=str(paragraph["text"]),
                sources=tuple(str(s) for s in paragraph["sources"]),
                cls=str(data["class"]),
            )
        )
    return rows


def check_row(row: ContrastRow) -> list[Defect]:
    """The memo check of one row, as ``preuve check-memo`` runs it (years from the facts)."""
    locale = Locale.EN if row.lang == "en" else Locale.FR
    facts = parse_facts("\n".join(row.facts), source=row.id)
    years = {int(m.value) for f in facts for m in extract_numbers(f.text, locale) if m.is_year}
    return check_memo([Paragraph(row.text, row.sources)], facts, locale=locale, years=years)


@dataclass(frozen=True, slots=True)
class Rates:
    """Per class: rows, and rows accepted by the check."""

    total: dict[str, int]
    accepted: dict[str, int]
    misses: tuple[tuple[ContrastRow, tuple[Defect, ...]], ...]

    def rate(self, cls: str) -> float | None:
        total = self.total.get(cls, 0)
        return None if not total else self.accepted.get(cls, 0) / total


def rates_of(rows: Sequence[ContrastRow]) -> Rates:
    total: dict[str, int] = {}
    accepted: dict[str, int] = {}
    misses = []
    for row in rows:
        defects = check_row(row)
        total[row.cls] = total.get(row.cls, 0) + 1
        ok = not defects
        accepted[row.cls] = accepted.get(row.cls, 0) + ok
        if ok != (row.expected == "accept"):
            misses.append((row, tuple(defects)))
    return Rates(total, accepted, tuple(misses))


def _cell(rates: Rates, cls: str) -> str:
    rate = rates.rate(cls)
    if rate is None:
        return "—"
    accepted, total = rates.accepted.get(cls, 0), rates.total[cls]
    return f"{rate * 100:5.1f} % ({accepted}/{total})"


def main(argv: Sequence[str] = ()) -> int:
    sets = {"own": rates_of(contrast_rows())}
    if HELDOUT.is_file():
        sets["held-out"] = rates_of(load_heldout())
    names = list(sets)
    print(f"{'class':<34}" + "".join(f"{name:>24}" for name in names))
    for cls in CLASSES:
        label = "faithful accepted" if cls == "faithful" else f"{cls} false-supported"
        print(f"{label:<34}" + "".join(f"{_cell(sets[n], cls):>24}" for n in names))
    print(f"{'rows':<34}" + "".join(f"{sum(sets[n].total.values()):>24}" for n in names))
    if "--show-misses" in argv:
        for name in names:
            for row, defects in sets[name].misses:
                codes = ", ".join(d.code for d in defects) or "accepted"
                print(f"[{name}] {row.id} ({row.cls}): {codes}\n    {row.text}")
                for defect in defects:
                    print(f"      - {defect.detail}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
