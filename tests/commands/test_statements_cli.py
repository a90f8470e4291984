"""`preuve statements` end to end: a real PDF in, the table, identities and exit codes out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.cli import app
from preuve.io.pdf import load_pages
from tests.pdfs import write_text_pdf

runner = CliRunner()

BALANCE = [
    "ACME SA - Bilan consolide",
    "(en milliers d'euros)",
    "31/12/2025 31/12/2024",
    "Stocks 1 200 1 000",
    "Clients 800 700",
    "Total actif courant 2 000 1 700",
    "Total actif 2 000 1 700",
    "Capital 500 500",
    "Dettes fournisseurs 1 500 1 200",
    "Total passif 2 000 1 700",
]


def _invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def report(tmp_path: Path) -> Path:
    return write_text_pdf(tmp_path / "report.pdf", [BALANCE])


def test_json_gives_each_value_its_period_page_and_span(report: Path) -> None:
    code, out, _ = _invoke("statements", str(report), "--json")
    assert code == 0
    data = json.loads(out)
    (table,) = data["statements"]
    assert (table["statement"], table["unit"], table["pages"]) == ("balance", "k€", [1])
    assert table["periods"] == ["at 2025-12-31", "at 2024-12-31"]
    rows = {row["label"]: row for row in table["rows"]}
    stocks = rows["Stocks"]["values"]["at 2025-12-31"]
    start, end = stocks["span"]
    page = load_pages(report)[0]
    assert (stocks["value"], page[start:end]) == ("1200", "1 200")
    assert rows["Stocks"]["concept"] == "inventories"
    assert rows["Capital"]["concept"] is None  # unmapped, still kept
    assert data["identities"]["checked"] >= 3
    assert data["identities"]["violated"] == 0


def test_a_violated_total_is_reported_and_exits_1(tmp_path: Path) -> None:
    broken = [*BALANCE[:-1], "Total passif 2 100 1 700"]
    path = write_text_pdf(tmp_path / "broken.pdf", [broken])
    code, out, _ = _invoke("statements", str(path))
    assert code == 1
    assert "VIOLATED total assets = total equity and liabilities" in out
    assert "1 violated" in out


def test_a_user_mapping_names_a_concept(report: Path, tmp_path: Path) -> None:
    mapping = tmp_path / "mine.json"
    rule = {"concept": "share_capital", "statements": ["balance"], "labels": ["capital"]}
    mapping.write_text(json.dumps({"rules": [rule]}), encoding="utf-8")
    code, out, _ = _invoke("statements", str(report), "--json", "--mapping", str(mapping))
    assert code == 0
    rows = {row["label"]: row for row in json.loads(out)["statements"][0]["rows"]}
    assert rows["Capital"]["concept"] == "share_capital"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "bad.json:1:2: invalid JSON"),
        ('{"rules": [{"concept": "x", "statements": ["notes"], "labels": ["a"]}]}', "statements"),
        ('{"rules": [{"concept": "x", "statements": ["balance"], "labels": ["("]}]}', "bad label"),
    ],
)
def test_a_bad_mapping_file_is_one_line_and_exit_2(
    report: Path, tmp_path: Path, content: str, message: str
) -> None:
    mapping = tmp_path / "bad.json"
    mapping.write_text(content, encoding="utf-8")
    code, _, err = _invoke("statements", str(report), "--mapping", str(mapping))
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_no_statement_exits_1(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "prose.pdf", [["A letter to shareholders.", "Thanks."]])
    code, out, _ = _invoke("statements", str(path))
    assert code == 1
    assert "no income statement" in out


def test_memo_uses_a_user_mapping_and_refuses_a_bad_one(report: Path, tmp_path: Path) -> None:
    mapping = tmp_path / "mine.json"
    rule = {"concept": "current_assets", "statements": ["balance"], "labels": ["clients"]}
    mapping.write_text(json.dumps({"rules": [rule]}), encoding="utf-8")
    out = tmp_path / "out"
    code, _, _ = _invoke("memo", str(report), "--out", str(out), "--mapping", str(mapping))
    assert code in (0, 1)  # the memo's own verdict; the mapping was read
    facts = (out / "facts.txt").read_text(encoding="utf-8")
    assert "Ratio de liquidité générale" not in facts  # no current liabilities: not invented
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    (company,) = run["companies"]
    assert any("no current liabilities" in r for r in company["ratios_not_computed"])
    assert not any("no current assets" in r for r in company["ratios_not_computed"])
    bad = tmp_path / "bad.json"
    bad.write_text("[]", encoding="utf-8")
    code, _, err = _invoke(
        "memo", str(report), "--out", str(tmp_path / "o2"), "--mapping", str(bad)
    )
    assert code == 2 and "a concept mapping needs a list of rules" in err
    assert not (tmp_path / "o2").exists()


ENGLISH = [
    "Acme Holdings Inc. Annual Report 2025",
    "Consolidated Statements of Operations",
    "(In thousands)",
    "2025 2024",
    "Revenues 1,000 900",
    "Operating income 120 100",
    "Net income 80 70",
    "Consolidated Balance Sheets",
    "2025 2024",
    "Cash and cash equivalents 50 60",
    "Total current assets 400 380",
    "Total assets 900 850",
    "Total current liabilities 200 190",
    "Total equity 500 480",
    "Total liabilities and equity 900 850",
]


def test_an_english_report_gets_english_facts_and_memo(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "acme.pdf", [ENGLISH])
    out = tmp_path / "out"
    code, stdout, _ = _invoke("memo", str(path), "--out", str(out))
    assert code == 0, stdout
    facts = (out / "facts.txt").read_text(encoding="utf-8")
    assert "Net margin 2025: 8.0 % (2024: 7.8 %); formula: net income / revenue" in facts
    assert "Current ratio 2025: 2.00x (2024: 2.00x)" in facts
    memo = (out / "memo.md").read_text(encoding="utf-8")
    assert memo.startswith("# Credit memo")
    assert "Net margin (net income / revenue): 8.0 % in 2025, against 7.8 % in 2024." in memo
    assert "## Known limits" in memo and "Limites connues" not in memo
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["companies"][0]["language"] == "en"


def test_lang_overrides_the_report_language(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "acme.pdf", [ENGLISH])
    out = tmp_path / "out"
    code, _, _ = _invoke("memo", str(path), "--out", str(out), "--lang", "fr")
    assert code == 0
    facts = (out / "facts.txt").read_text(encoding="utf-8")
    assert "Marge nette 2025 : 8,0 % (2024 : 7,8 %) ; formule : résultat net / chiffre" in facts
    code, _, err = _invoke("memo", str(path), "--out", str(tmp_path / "o2"), "--lang", "de")
    assert code == 2 and "use fr or en" in err
