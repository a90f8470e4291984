"""`preuve statements` on a parent company's report: the group's columns are the statement,
the company's are shown apart, columns nothing attributes are flagged (exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from preuve.cli import app
from tests.pdfs import write_text_pdf

runner = CliRunner()

HEADING = [
    "Kinabalu Tiles Berhad",
    "Statements of financial position",
    "As at 31 December 2025",
]
ROWS = [
    "Inventories 58,905 61,440 - -",
    "Cash and cash equivalents 27,340 19,560 1,204 876",
    "Total current assets 86,245 81,000 1,204 876",
    "Total assets 86,245 81,000 1,204 876",
    "Total equity 50,245 45,000 1,204 876",
    "Trade and other payables 36,000 36,000 - -",
    "Total equity and liabilities 86,245 81,000 1,204 876",
]


def test_the_company_columns_are_shown_apart(tmp_path: Path) -> None:
    lines = [*HEADING, "Group Company", "2025 2024 2025 2024", *ROWS]
    path = write_text_pdf(tmp_path / "kinabalu.pdf", [lines])
    result = runner.invoke(app, ["statements", str(path), "--json"])
    assert result.exit_code == 0, result.stdout
    (table,) = json.loads(result.stdout)["statements"]
    rows = {row["label"]: row["values"] for row in table["rows"]}
    assert rows["Total assets"]["at 2025-12-31"]["value"] == "86245"
    company = {row["label"]: row["values"] for row in table["company_rows"]}
    assert [v["value"] for v in company["Total assets"]] == ["1204", "876"]
    assert table["unattributed_rows"] == []
    shown = runner.invoke(app, ["statements", str(path)])
    assert "parent company, not used" in shown.stdout


def test_two_years_twice_without_labels_exit_1(tmp_path: Path) -> None:
    lines = [*HEADING, "2025 2024 2025 2024", *ROWS]
    path = write_text_pdf(tmp_path / "unlabelled.pdf", [lines])
    result = runner.invoke(app, ["statements", str(path), "--json"])
    assert result.exit_code == 1
    (table,) = json.loads(result.stdout)["statements"]
    assert table["rows"] == [] and table["company_rows"] == []
    doubtful = {row["label"]: row["values"] for row in table["unattributed_rows"]}
    assert [v["value"] for v in doubtful["Total assets"]] == ["86245", "81000", "1204", "876"]
    shown = runner.invoke(app, ["statements", str(path)])
    assert "DOUBTFUL" in shown.stdout
