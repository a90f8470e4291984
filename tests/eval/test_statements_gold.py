"""The held-out gold loader: a period a row has no value for (``null``) is no gold value.

A parent company's report prints rows only the company has (``Investments in subsidiaries``
beside the group's blank cells): the gold writes ``null`` for the group's periods, which
must be skipped, never read as a number nor crash the loader.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from preuve.eval.statements_eval import ExtractedRow, load_gold_rows, score_rows


def test_null_values_of_a_report_gold_are_skipped(tmp_path: Path) -> None:
    gold = {
        "decimals": 0,
        "statements": {
            "balance": [
                {"label": "Total assets", "page": 3, "values": {"2025": 345085, "2024": 319145}},
                {"label": "Goodwill", "page": 3, "values": {"2025": 1200, "2024": None}},
                {
                    "label": "Investments in subsidiaries",
                    "page": 3,
                    "values": {"2025": None, "2024": None},
                },
            ]
        },
    }
    path = tmp_path / "report.gold.json"
    path.write_text(json.dumps(gold), encoding="utf-8")
    rows = load_gold_rows(path)
    assert [(r.label, r.values) for r in rows] == [
        ("Total assets", {(0, 2025, ""): Decimal(345085), (0, 2024, ""): Decimal(319145)}),
        ("Goodwill", {(0, 2025, ""): Decimal(1200)}),
    ]
    found = [
        ExtractedRow("Goodwill", 3, {(0, 2025, ""): Decimal(1200), (0, 2024, ""): Decimal(900)})
    ]
    score = score_rows(rows, found)
    assert (score.values, score.right, score.wrong) == (3, 1, 0)


def test_null_values_of_a_filing_gold_are_skipped(tmp_path: Path) -> None:
    gold = {
        "statements": [
            {
                "periods": [
                    {"key": "fy25", "type": "year", "end": "2025-12-31"},
                    {"key": "fy24", "type": "year", "end": "2024-12-31"},
                ],
                "rows": [{"label": "Revenue", "page": 4, "values": {"fy25": 10.5, "fy24": None}}],
            }
        ]
    }
    path = tmp_path / "filing.gold.json"
    path.write_text(json.dumps(gold), encoding="utf-8")
    assert [r.values for r in load_gold_rows(path)] == [{(12, 2025, "2025-12-31"): Decimal("10.5")}]
