"""Generate the bundled memo corpus: three French annual reports as PDFs, and their gold.

``generate_memo_corpus(out_dir)`` writes ``reports/<slug>.pdf`` for Maison Ferlac SAS,
Solvéa Énergies SA and Helvane, and the gold apart in ``gold/memo_gold.json``: every
statement field (key, label, year, value, page), the three reference ratios with their
values, and the six planted risk signals (category, exact sentence, page). Gold is for
evaluation only; inference never opens it. Output is deterministic: same bytes every run.
"""

from __future__ import annotations

import json
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path
from typing import Any

from preuve.corpora.memo_data import COMPANIES, CompanySpec
from preuve.corpora.memo_layout import layout_report
from preuve.corpora.memo_model import LINES, derive_years
from preuve.corpora.memo_prose import Signal, signals_of

__all__ = [
    "GOLD_RELATIVE",
    "REPORTS_DIR",
    "generate_memo_corpus",
    "gold_ratios",
]

REPORTS_DIR = "reports"
GOLD_RELATIVE = Path("gold") / "memo_gold.json"
_RATIO_QUANTUM = Decimal("0.000001")

# (id suffix, name, formula, numerator key, denominator key, scale): the reference ratios.
_RATIOS: tuple[tuple[str, str, str, str, str, int], ...] = (
    ("levier", "Levier", "dette nette / EBITDA", "net_debt", "ebitda", 1),
    ("marge", "Marge nette", "résultat net / chiffre d'affaires", "net_income", "revenue", 100),
    ("gearing", "Gearing", "dette nette / capitaux propres", "net_debt", "equity", 1),
)


def gold_ratios(spec: CompanySpec, figures: dict[int, dict[str, int]]) -> list[dict[str, Any]]:
    """The reference ratios of one company, from its generated figures (not from extraction)."""
    ratios: list[dict[str, Any]] = []
    for suffix, name, formula, numerator, denominator, scale in _RATIOS:
        values = {
            str(year): str(
                (
                    Decimal(figures[year][numerator]) * scale / Decimal(figures[year][denominator])
                ).quantize(_RATIO_QUANTUM, rounding=ROUND_HALF_EVEN)
            )
            for year in (spec.year, spec.year - 1)
        }
        ratios.append(
            {
                "id": f"R-{spec.slug}-{suffix}",
                "name": name,
                "formula": formula,
                "unit": "%" if scale == 100 else "x",
                "values": values,
            }
        )
    return ratios


def _gold_company(
    spec: CompanySpec,
    figures: dict[int, dict[str, int]],
    pages: dict[str, int],
    signals: list[Signal],
) -> dict[str, Any]:
    fields = [
        {
            "key": line.key,
            "label": spec.label(line.key, line.label),
            "statement": line.kind.value,
            "year": year,
            "value": figures[year][line.key],
            "page": pages[f"statement:{line.kind.value}"],
        }
        for year in (spec.year, spec.year - 1)
        for line in LINES
    ]
    return {
        "slug": spec.slug,
        "name": spec.name,
        "file": f"{REPORTS_DIR}/{spec.slug}.pdf",
        "unit": "k€",
        "years": [spec.year, spec.year - 1],
        "fields": fields,
        "ratios": gold_ratios(spec, figures),
        "signals": [
            {
                "id": f"S-{spec.slug}-{number}",
                "category": signal.category,
                "sentence": signal.text,
                "page": pages[f"signal:{number}"],
            }
            for number, signal in enumerate(signals, start=1)
        ],
    }


def generate_memo_corpus(out_dir: Path) -> list[Path]:
    """Write the three reports and the gold under ``out_dir``; return the report paths."""
    reports_dir = out_dir / REPORTS_DIR
    reports_dir.mkdir(parents=True, exist_ok=True)
    gold: list[dict[str, Any]] = []
    paths: list[Path] = []
    for spec in COMPANIES:
        figures = derive_years(spec.opening, spec.flows)
        signals = [signal for _, signal in signals_of(spec.report + spec.notes)]
        signal_ids = {signal: f"signal:{n}" for n, signal in enumerate(signals, start=1)}
        layout = layout_report(spec, figures, signal_ids)
        path = reports_dir / f"{spec.slug}.pdf"
        path.write_bytes(layout.pdf)
        paths.append(path)
        gold.append(_gold_company(spec, figures, layout.pages, signals))
    gold_path = out_dir / GOLD_RELATIVE
    gold_path.parent.mkdir(parents=True, exist_ok=True)
    gold_path.write_text(
        json.dumps({"companies": gold}, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    return paths
