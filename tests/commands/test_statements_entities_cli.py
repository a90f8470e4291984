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


PARENT_REPORT = [  # the company's columns first: a reader keyed by year takes them
    "Kinabalu Tiles Berhad Annual Report 2025",
    "Statements of Profit or Loss",
    "(In thousands)",
    "Company Group",
    "2025 2024 2025 2024",
    "Revenues 40 30 1,000 900",
    "Operating income 12 9 120 100",
    "Net income 10 6 80 70",
    "Statements of Financial Position",
    "Company Group",
    "2025 2024 2025 2024",
    "Cash and cash equivalents 5 4 50 60",
    "Total current assets 20 15 400 380",
    "Total assets 300 290 900 850",
    "Total current liabilities 100 95 200 190",
    "Total equity 150 150 500 480",
    "Total liabilities and equity 300 290 900 850",
]


def test_the_memo_computes_ratios_on_the_group_columns(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "kinabalu.pdf", [PARENT_REPORT])
    out = tmp_path / "out"
    result = runner.invoke(app, ["memo", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.stdout
    facts = (out / "facts.txt").read_text(encoding="utf-8")
    assert "Net margin 2025: 8.0 % (2024: 7.8 %)" in facts  # the company's would be 25 %
    assert "Current ratio 2025: 2.00x (2024: 2.00x)" in facts  # the company's: 0.20x
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    (company,) = run["companies"]
    tables = {t["statement"]: t for t in company["statement_tables"]}
    kept = {r["label"]: [v["value"] for v in r["values"]] for r in tables["income"]["company_rows"]}
    assert kept["Net income"] == ["10", "6"]


def test_the_memo_says_why_unattributed_columns_give_no_ratio(tmp_path: Path) -> None:
    lines = [line for line in PARENT_REPORT if line != "Company Group"]
    path = write_text_pdf(tmp_path / "unlabelled.pdf", [lines])
    out = tmp_path / "out"
    runner.invoke(app, ["memo", str(path), "--out", str(out)])
    facts = (out / "facts.txt").read_text(encoding="utf-8")
    assert "Net margin" not in facts and "Current ratio" not in facts
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    (company,) = run["companies"]
    reasons = company["ratios_not_computed"]
    assert any("not attributed to the group or the company" in r for r in reasons)
