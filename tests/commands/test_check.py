"""The check-* commands end to end: real files in, exit codes and JSON out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.cli import app
from tests.pdfs import write_image_only_pdf, write_text_pdf

PAGE_1 = [
    "Maison Ferlac SAS - Rapport de gestion 2025",
    "Le premier client du groupe represente 38 % du chiffre",
    "d'affaires consolide ; sa perte aurait un effet significatif.",
]
PAGE_2 = [
    "Note 9 - Emprunt syndique",
    "Au 31 decembre 2025, ce ratio s'etablit a 3,4x selon la definition contractuelle.",
]
FACTS = (
    "[R-ferlac-levier] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; "
    "formule : dette nette / EBITDA\n"
    "[A-ferlac-1] Maison Ferlac SAS - Free cash-flow 2025 : -14 930 k€ ; marge nette : -0,5 %\n"
)

runner = CliRunner()


@pytest.fixture
def report(tmp_path: Path) -> Path:
    return write_text_pdf(tmp_path / "report.pdf", [PAGE_1, PAGE_2])


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_check_quote_verifies_across_a_line_break(report: Path) -> None:
    quote = "Le premier client du groupe represente 38 % du chiffre d'affaires consolide."
    code, out, _ = invoke("check-quote", str(report), "--page", "1", "--quote", quote, "--json")
    assert code == 0
    result = json.loads(out)
    assert result["verified"] is True
    assert result["page"] == 1
    assert result["matched"].startswith("Le premier client")
    assert "\n" in result["matched"] or "\r" in result["matched"]


def test_check_quote_rejects_a_paraphrase_with_exit_1(report: Path) -> None:
    quote = "Le principal client pese 38 % du chiffre d'affaires consolide"
    code, out, _ = invoke("check-quote", str(report), "--page", "1", "--quote", quote, "--json")
    assert code == 1
    result = json.loads(out)
    assert result["verified"] is False
    assert result["reason"]
    assert result["verdict"] == "not_found"


def test_check_quote_names_the_other_page(report: Path) -> None:
    quote = "ce ratio s'etablit a 3,4x selon la definition contractuelle"
    code, out, _ = invoke("check-quote", str(report), "--page", "1", "--quote", quote, "--json")
    assert code == 1
    assert json.loads(out)["verdict"] == "found_on_other_page"
    assert json.loads(out)["other_page"] == 2


def test_check_quotes_keeps_input_order(report: Path, tmp_path: Path) -> None:
    rows = [
        {"page": 2, "quote": "ce ratio s'etablit a 3,4x selon la definition contractuelle"},
        {"page": 9, "quote": "anything at all on a page that does not exist"},
        {"page": 1, "quote": "tiny"},
        {"page": 1, "quote": "Le premier client du groupe represente 39 % du chiffre"},
    ]
    quotes = tmp_path / "q.jsonl"
    quotes.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    code, out, _ = invoke("check-quotes", str(report), "--input", str(quotes), "--json")
    assert code == 1
    results = json.loads(out)
    assert [r["verdict"] for r in results] == [
        "exact",
        "page_out_of_range",
        "too_short",
        "not_found",
    ]
    for r in results:
        assert {"verified", "verdict", "page", "start", "end", "matched", "reason"} <= r.keys()


def test_check_quotes_names_the_bad_line(report: Path, tmp_path: Path) -> None:
    quotes = tmp_path / "q.jsonl"
    quotes.write_text('{"page": 1, "quote": "abc def ghi jkl"}\n{"page": "one"}\n', "utf-8")
    code, _, err = invoke("check-quotes", str(report), "--input", str(quotes))
    assert code == 2
    assert f"{quotes}:2:" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("memo", "codes"),
    [
        pytest.param(
            [{"text": "Le levier atteint 5,50x en 2025.", "sources": ["R-ferlac-levier"]}],
            [],
            id="value-compared-not-string",
        ),
        pytest.param(
            [{"text": "Le levier a gagné 1,9 point.", "sources": ["R-ferlac-levier"]}],
            ["number_not_in_facts"],
            id="computed-by-the-writer",
        ),
        pytest.param(
            [{"text": "Un free cash-flow négatif de 14 930 k€.", "sources": ["A-ferlac-1"]}],
            [],
            id="sign-given-by-its-clause",
        ),
        pytest.param(
            [{"text": "Le levier atteint 5,5x.", "sources": ["R-ferlac-9"]}],
            ["unknown_source", "number_not_in_facts"],
            id="unknown-source-grounds-nothing",
        ),
        pytest.param([{"text": "Rien à signaler.", "sources": []}], ["no_source"], id="no-source"),
    ],
)
def test_check_memo_defect_codes(tmp_path: Path, memo: list[object], codes: list[str]) -> None:
    facts = tmp_path / "facts.txt"
    facts.write_text(FACTS, encoding="utf-8")
    memo_file = tmp_path / "memo.json"
    memo_file.write_text(json.dumps({"paragraphs": memo}), encoding="utf-8")
    code, out, _ = invoke("check-memo", "--facts", str(facts), "--memo", str(memo_file), "--json")
    result = json.loads(out)
    assert [d["code"] for d in result["defects"]] == codes
    assert code == (0 if not codes else 1)
    assert all(d["paragraph"] == 1 for d in result["defects"])


def test_check_memo_lost_sign_names_the_number(tmp_path: Path) -> None:
    facts = tmp_path / "facts.txt"
    facts.write_text(FACTS, encoding="utf-8")
    memo_file = tmp_path / "memo.json"
    memo = {"paragraphs": [{"text": "Une marge nette de 0,5 %.", "sources": ["A-ferlac-1"]}]}
    memo_file.write_text(json.dumps(memo), encoding="utf-8")
    code, out, _ = invoke("check-memo", "--facts", str(facts), "--memo", str(memo_file), "--json")
    assert code == 1
    (defect,) = json.loads(out)["defects"]
    assert "0,5" in defect["detail"]


@pytest.mark.parametrize(("declared", "exit_code"), [((), 1), (("--currency", "SGD"), 0)])
def test_check_memo_currency_says_what_a_bare_dollar_is(
    tmp_path: Path, declared: tuple[str, ...], exit_code: int
) -> None:
    facts = tmp_path / "facts.txt"
    facts.write_text("[A-tj-1] Tanjong Harbour Ltd - Revenue 2025: S$318.4m\n", encoding="utf-8")
    memo_file = tmp_path / "memo.json"
    memo = {"paragraphs": [{"text": "Revenue reached $318.4m in 2025.", "sources": ["A-tj-1"]}]}
    memo_file.write_text(json.dumps(memo), encoding="utf-8")
    args = ["check-memo", "--facts", str(facts), "--memo", str(memo_file), "--locale", "en"]
    code, out, _ = invoke(*args, *declared, "--json")
    assert code == exit_code
    assert [d["code"] for d in json.loads(out)["defects"]] == (
        [] if exit_code == 0 else ["unit_mismatch"]
    )
    code, _, err = invoke(*args, "--currency", "doubloons")
    assert code == 2
    assert "unknown currency" in err


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("missing document", ["check-quote", "{tmp}/nope.pdf", "--page", "1", "--quote", "x" * 20]),
        ("corrupt pdf", ["check-quote", "{tmp}/corrupt.pdf", "--page", "1", "--quote", "x" * 20]),
        ("scanned pdf", ["check-quote", "{tmp}/scan.pdf", "--page", "1", "--quote", "x" * 20]),
        ("missing facts", ["check-memo", "--facts", "{tmp}/none.txt", "--memo", "{tmp}/m.json"]),
        (
            "malformed memo",
            ["check-memo", "--facts", "{tmp}/facts.txt", "--memo", "{tmp}/bad.json"],
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, name: str, args: list[str]) -> None:
    (tmp_path / "corrupt.pdf").write_bytes(b"%PDF-1.4\n\x00garbage")
    write_image_only_pdf(tmp_path / "scan.pdf")
    (tmp_path / "facts.txt").write_text(FACTS, encoding="utf-8")
    (tmp_path / "bad.json").write_text('{"paragraphs": [', encoding="utf-8")
    code, out, err = invoke(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 2, name
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("preuve: error: ")
    assert "Traceback" not in err


def test_installed_entry_point_exit_codes(report: Path) -> None:
    """The real console script, in a subprocess: no traceback, the documented exit codes."""
    preuve = Path(sys.executable).parent / "preuve"
    ok = subprocess.run(
        [
            str(preuve),
            "check-quote",
            str(report),
            "--page",
            "2",
            "--quote",
            "ce ratio s'etablit a 3,4x selon la definition contractuelle",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run(
        [str(preuve), "check-quote", str(report) + ".missing", "--page", "1", "--quote", "x" * 20],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
