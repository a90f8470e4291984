"""`preuve memo`, `eval memo` and `eval rates` through the CLI runner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from preuve.cli import build_app
from preuve.commands.memo import eval_memo_command, eval_rates_command, memo_command
from preuve.core.markdown import escape_markdown
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.models.base import Model
from preuve.models.runtime import Runtime
from preuve.models.scripted import ScriptedModel

SLUGS = ("ferlac", "solvea", "helvane")


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("memo")(memo_command)
    evaluation = typer.Typer()
    evaluation.command("memo")(eval_memo_command)
    evaluation.command("rates")(eval_rates_command)
    app.add_typer(evaluation, name="eval")
    return app


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    out = tmp_path_factory.mktemp("memo-corpus")
    generate_memo_corpus(out)
    return [str(out / "reports" / f"{slug}.pdf") for slug in SLUGS]


def test_memo_on_the_three_bundled_reports(reports: list[str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(_app(), ["memo", *reports, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "memo verified: yes" in result.output and "engine: rules" in result.output
    assert "Known limits" in result.output
    memo = (out / "memo.md").read_text(encoding="utf-8")
    assert "engine: rules" in memo
    assert memo.count("— VERIFIED") == 3
    assert "Sources : [R-ferlac-levier] [R-ferlac-marge] [R-ferlac-gearing]" in memo
    assert "## Limites connues" in memo and "ouvrir la page" in memo
    # every paragraph says which of its claims were checked, and which were not
    assert memo.count("Contrôles") == memo.count("Sources :")
    # (the line quotes model text, so memo.md writes it escaped as Markdown)
    assert (
        escape_markdown(
            # issue 14: 8 more ratios (covenant included), 15 more claims, all checked
            "Contrôles (31/31 affirmations entièrement vérifiées, ? = non vérifié) : "
            "5,5 [sujet ✓, période ✓] · 3,6 [sujet ✓, période ✓]"
        )
        in memo
    )
    assert escape_markdown("« Points d'alerte relevés par les règles … » [polarité ?]") in memo
    facts = (out / "facts.txt").read_text(encoding="utf-8")
    assert "[Q-helvane-4] Helvane - « Dans ce contexte" in facts
    dashboard = json.loads((out / "dashboard.json").read_text(encoding="utf-8"))
    assert [row["memo_status"] for row in dashboard["rows"]] == ["VERIFIED"] * 3
    assert dashboard["summary"]["claims_unchecked"] is not None
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    first = run["companies"][0]["memo"]["paragraphs"][0]["claims"][0]
    assert first == {
        "claim": "5,5", "subject": "ok", "period": "ok", "direction": "n/a", "polarity": "n/a",
    }  # fmt: skip
    assert [c["task"] for c in run["calls"]] == ["memo.reader", "memo.writer"] * 3
    assert all(c["raw_output"] for c in run["calls"])
    assert (out / "journal.sqlite").is_file()


def _app_with(model: Model) -> typer.Typer:
    """The real command tree, every command's runtime built around ``model``."""
    return build_app(lambda settings: Runtime(settings, backend=model))


def test_refused_memo_exits_1_and_shows_its_defects(reports: list[str], tmp_path: Path) -> None:
    bad = json.dumps(
        {"paragraphs": [{"text": "Le levier a gagné 1,9 point.", "sources": ["R-ferlac-levier"]}]}
    )
    scripted = ScriptedModel(['{"signals": []}', bad, bad])
    out = tmp_path / "out"
    result = CliRunner().invoke(
        _app_with(scripted), ["memo", reports[0], "--out", str(out), "--json"]
    )
    assert result.exit_code == 1, result.output
    assert json.loads(result.output)["summary"]["memo_verified"] is False
    memo = (out / "memo.md").read_text(encoding="utf-8")
    assert "— REFUSED" in memo and "REFUSÉ" in memo
    assert "[number_not_in_facts]" in memo and "1,9" in memo
    assert "> Le levier a gagné 1,9 point." in memo  # shown as refused text, quoted
    assert "engine: scripted:scripted" in memo


def test_model_text_is_written_into_memo_md_escaped(reports: list[str], tmp_path: Path) -> None:
    hostile = "Voir ![x](https://evil.example/p.png) <img src=//evil.example/q>\n# Titre"
    bad = json.dumps({"paragraphs": [{"text": hostile, "sources": ["R-ferlac-levier"]}]})
    scripted = ScriptedModel(['{"signals": []}', bad, bad])
    out = tmp_path / "out"
    result = CliRunner().invoke(_app_with(scripted), ["memo", reports[0], "--out", str(out)])
    assert result.exit_code == 1, result.output
    memo = (out / "memo.md").read_text(encoding="utf-8")
    assert "> Voir \\!\\[x\\](https\\://evil\\.example/p\\.png) \\<img" in memo
    assert "> \\# Titre" in memo
    for raw in (r"!\[", r"<img", r"https://evil", r"//evil\.example"):
        assert not re.search(r"(?<!\\)" + raw, memo), raw  # only escaped forms remain


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["memo", "missing.pdf"], "no such report", id="missing-report"),
        pytest.param(["memo", "{report}", "--model", "gpt"], "unknown model spec", id="bad-model"),
        pytest.param(
            ["memo", "{report}", "--cues", "{cues}"], "'categories' must be a list", id="bad-cues"
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    reports: list[str], tmp_path: Path, args: list[str], message: str
) -> None:
    cues = tmp_path / "cues.json"
    cues.write_text('{"categories": 3}', encoding="utf-8")
    argv = [a.replace("{report}", reports[0]).replace("{cues}", str(cues)) for a in args]
    argv += ["--out", str(tmp_path)]
    result = CliRunner().invoke(_app(), argv)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "memo.md").exists()  # nothing half-written


def test_a_user_cue_file_drops_a_signal_of_the_memo(reports: list[str], tmp_path: Path) -> None:
    cues = tmp_path / "cues.json"
    # the user declares a screen: a sentence naming a litigation is no signal for them
    cues.write_text(json.dumps({"reassurance": [r"\blitiges?\b|\breclame\b"]}))
    runner = CliRunner()
    plain = runner.invoke(_app(), ["memo", reports[0], "--out", str(tmp_path / "a"), "--json"])
    mine = runner.invoke(
        _app(), ["memo", reports[0], "--out", str(tmp_path / "b"), "--json", "--cues", str(cues)]
    )
    assert plain.exit_code == 0 and mine.exit_code == 0
    read = [json.loads((tmp_path / d / "run.json").read_text())["companies"][0] for d in "ab"]
    facts = [[f["id"] for f in company["facts"] if f["id"].startswith("Q-")] for company in read]
    assert len(facts[1]) == len(facts[0]) - 1


def test_eval_memo_then_rates(tmp_path: Path) -> None:
    out = tmp_path / "eval"
    rates = tmp_path / "rates.jsonl"
    runner = CliRunner()
    result = runner.invoke(
        _app(), ["eval", "memo", "--repeat", "1", "--out", str(out), "--rates", str(rates)]
    )
    assert result.exit_code == 0, result.output
    assert (
        "field accuracy: 100.0% · max ratio deviation: 0.00% · signal recall: 100% · "
        "memo verified: yes"
    ) in result.output
    saved = json.loads((out / "eval.json").read_text(encoding="utf-8"))
    assert saved["worst"]["signal_recall"] == 1.0
    shown = runner.invoke(_app(), ["eval", "rates", "--rates", str(rates), "--json"])
    assert shown.exit_code == 0
    data = json.loads(shown.output)
    assert data["runs"] == 1 and data["rows"][0]["source"] == "eval"
    assert data["last_rejected_quotes_per_report"] == 0.0


def test_memo_appends_rates_under_preuve_home(
    reports: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PREUVE_HOME", str(tmp_path / "home"))
    runner = CliRunner()
    assert runner.invoke(_app(), ["memo", reports[1], "--out", str(tmp_path / "o")]).exit_code == 0
    shown = runner.invoke(_app(), ["eval", "rates"])
    assert shown.exit_code == 0
    assert "1 run(s)" in shown.output
    assert (tmp_path / "home" / "memo_rates.jsonl").is_file()
