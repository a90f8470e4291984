"""check-memo end to end for the claim checks: defects, per-paragraph records, --lexicon."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.cli import app

FACTS = (
    "[R-ferlac-levier] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; "
    "formule : dette nette / EBITDA\n"
    "[A-solvea-1] Solvéa Énergies SA - Résultat net de 11 175 k€ mais free cash-flow de "
    "-47 225 k€ en 2025\n"
)
MEMO = [
    {"text": "Solvéa Énergies affiche un levier de 5,5x en 2025.", "sources": ["R-ferlac-levier"]},
    {"text": "Maison Ferlac dégage un résultat net de 11 175 k€ en 2025.",
     "sources": ["A-solvea-1"]},
    {"text": "Le levier de Maison Ferlac a baissé à 5,5x en 2025, contre 3,6x en 2024.",
     "sources": ["R-ferlac-levier"]},
]  # fmt: skip
runner = CliRunner()


def _files(tmp_path: Path, memo: Sequence[Mapping[str, object]]) -> list[str]:
    (tmp_path / "facts.txt").write_text(FACTS, encoding="utf-8")
    (tmp_path / "memo.json").write_text(json.dumps({"paragraphs": memo}), encoding="utf-8")
    return [
        "check-memo",
        "--facts",
        str(tmp_path / "facts.txt"),
        "--memo",
        str(tmp_path / "memo.json"),
    ]


def test_the_issue_paragraphs_are_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, [*_files(tmp_path, MEMO), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert [(d["paragraph"], d["code"]) for d in data["defects"]] == [
        (1, "wrong_subject"), (2, "wrong_subject"), (3, "wrong_direction"),
    ]  # fmt: skip
    second = data["claims"][1]["claims"][0]
    assert (second["claim"], second["subject"], second["period"]) == (
        "11 175",
        "defect",
        "unchecked",
    )


def test_text_output_lists_unchecked_claims(tmp_path: Path) -> None:
    result = runner.invoke(app, _files(tmp_path, MEMO[1:2]))
    assert result.exit_code == 1
    assert "1 defects, 1 claims unchecked" in result.output
    assert "? paragraph 1: '11 175' not checked for period" in result.output


def test_a_declared_alias_names_the_subject(tmp_path: Path) -> None:
    memo = [
        {
            "text": "MF affiche un levier de 5,5x en 2025.",
            "sources": ["A-solvea-1", "R-ferlac-levier"],
        }
    ]
    args = _files(tmp_path, memo)
    assert runner.invoke(app, [*args, "--json"]).exit_code == 0
    lexicon = tmp_path / "lexicon.json"
    lexicon.write_text(json.dumps({"aliases": {"Solvéa Énergies SA": ["MF"]}}), encoding="utf-8")
    result = runner.invoke(app, [*args, "--lexicon", str(lexicon), "--json"])
    assert result.exit_code == 1
    assert [d["code"] for d in json.loads(result.output)["defects"]] == ["wrong_subject"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"up": ["("]}', "up: '(' is not a valid pattern"),
        ('{"colours": ["red"]}', "unknown key(s) colours"),
        ('["up"]', "the lexicon must be a JSON object"),
        ('{"aliases": ["x"]}', "aliases must be an object"),
    ],
)
def test_a_bad_lexicon_is_one_line_and_exit_2(tmp_path: Path, content: str, message: str) -> None:
    lexicon = tmp_path / "lexicon.json"
    lexicon.write_text(content, encoding="utf-8")
    result = runner.invoke(app, [*_files(tmp_path, MEMO), "--lexicon", str(lexicon)])
    assert result.exit_code == 2
    assert message in result.output
