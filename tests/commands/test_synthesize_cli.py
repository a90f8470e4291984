"""The workflow 2 commands end to end: files written, exit codes, JSON, and gold kept apart."""

from __future__ import annotations

import builtins
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from preuve.cli import build_app
from preuve.commands.synthesize import (
    check_synthesis_command,
    eval_synthesis_command,
    grade_command,
    synthesize_command,
)
from preuve.corpora.synthesis_dossier import SynthesisCorpusInfo, generate_synthesis_dossier
from preuve.models import FunctionModel
from preuve.models.base import Completion, Request
from preuve.models.runtime import Runtime
from preuve.synthesis.pipeline import synthesis_rules_model
from preuve.synthesis.synthesizer import SYNTHESIZER_TASK

runner = CliRunner()


def app() -> typer.Typer:
    # The lead wires these into preuve.cli; the test builds the same commands on its own.
    cli = typer.Typer(pretty_exceptions_enable=False)
    cli.command("synthesize")(synthesize_command)
    cli.command("check-synthesis")(check_synthesis_command)
    cli.command("grade")(grade_command)
    evaluation = typer.Typer()
    evaluation.command("synthesis")(eval_synthesis_command)
    cli.add_typer(evaluation, name="eval")
    return cli


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app(), list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> SynthesisCorpusInfo:
    return generate_synthesis_dossier(tmp_path_factory.mktemp("cli"))


@pytest.fixture(scope="module")
def run_dir(corpus: SynthesisCorpusInfo, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run")
    code, stdout, _ = invoke("synthesize", str(corpus.dossier), "--out", str(out))
    assert code == 0, stdout
    return out


def test_synthesize_writes_the_run_and_prints_a_summary(
    corpus: SynthesisCorpusInfo, tmp_path: Path
) -> None:
    code, stdout, _ = invoke("synthesize", str(corpus.dossier), "--out", str(tmp_path))
    assert code == 0
    assert "engine: rules · status: VALID" in stdout
    assert "ORV-SA-2026-004" in stdout and "Limits of the dossier" in stdout
    names = {p.name for p in tmp_path.iterdir()}
    assert {"synthesis.md", "synthesis.json", "trajectory.json", "defects.json"} <= names
    assert "journal.sqlite" in names
    markdown = (tmp_path / "synthesis.md").read_text(encoding="utf-8")
    assert "engine: rules · statut : VALID" in markdown and "## Limites du dossier" in markdown
    trajectory = json.loads((tmp_path / "trajectory.json").read_text(encoding="utf-8"))
    assert trajectory["engine"] == "rules" and trajectory["plan"]["subtasks"]
    assert json.loads((tmp_path / "defects.json").read_text(encoding="utf-8")) == []


def test_synthesize_json(corpus: SynthesisCorpusInfo, tmp_path: Path) -> None:
    code, stdout, _ = invoke("synthesize", str(corpus.dossier), "--out", str(tmp_path), "--json")
    data = json.loads(stdout)
    assert (code, data["status"], data["engine"], data["defects"]) == (0, "VALID", "rules", [])


def test_a_refused_synthesis_exits_1_and_is_not_written_as_valid(
    corpus: SynthesisCorpusInfo, tmp_path: Path
) -> None:
    rules = synthesis_rules_model()

    def answer(request: Request) -> str | Completion:
        if request.task != SYNTHESIZER_TASK:
            return rules.complete(request)
        data = json.loads(rules.complete(request).text)
        data["paragraphs"][0]["sources"].append("doc-77")
        return json.dumps(data, ensure_ascii=False)

    scripted = build_app(
        lambda settings: Runtime(settings, backend=FunctionModel(answer, name="doc-77"))
    )
    result = runner.invoke(scripted, ["synthesize", str(corpus.dossier), "--out", str(tmp_path)])
    code, stdout = result.exit_code, result.stdout
    assert code == 1
    assert "status: REFUSED" in stdout and "unknown_citation" in stdout
    assert not (tmp_path / "synthesis.json").exists()
    assert (tmp_path / "synthesis.refused.json").exists()
    code, stdout, _ = invoke("check-synthesis", str(tmp_path))
    assert code == 1 and "doc-77" in stdout


def test_check_synthesis_on_a_saved_run(run_dir: Path, corpus: SynthesisCorpusInfo) -> None:
    code, stdout, _ = invoke("check-synthesis", str(run_dir))
    assert code == 0 and "VERIFIED, 0 defects" in stdout
    code, stdout, _ = invoke(
        "check-synthesis", str(run_dir), "--dossier", str(corpus.dossier), "--json"
    )
    assert code == 0 and json.loads(stdout) == {"verified": True, "defects": []}


def test_check_synthesis_on_an_edited_synthesis(run_dir: Path, tmp_path: Path) -> None:
    data: dict[str, Any] = json.loads((run_dir / "synthesis.json").read_text(encoding="utf-8"))
    licence = next(c for c in data["contradictions"] if c["attribute"] == "licence")
    licence["retained"], licence["rejected"] = licence["rejected"][0], [licence["retained"]]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, stdout, _ = invoke("check-synthesis", str(run_dir), "--synthesis", str(edited), "--json")
    assert code == 1
    assert [d["code"] for d in json.loads(stdout)["defects"]] == ["suspicious_arbitration"]


def test_grade_a_run_and_a_synthesis_file(run_dir: Path, corpus: SynthesisCorpusInfo) -> None:
    code, stdout, _ = invoke("grade", str(run_dir), "--grid", str(corpus.grid))
    assert code == 0 and stdout.startswith("score: 100.0/100")
    code, stdout, _ = invoke(
        "grade", str(run_dir / "synthesis.json"), "--grid", str(corpus.grid), "--json"
    )
    assert json.loads(stdout)["total"] == 100.0


def test_eval_synthesis_prints_one_row_per_dossier() -> None:
    own = "tests/heldout/synthesis/en-backup-service"
    code, stdout, _ = invoke("eval", "synthesis", "--repeat", "2", "--dossier", own)
    assert code == 0
    assert re.search(r"bundled\s*│\s*bundled\s*│\s*100\.0\s*│\s*100\.0\s*│\s*12/12", stdout)
    assert re.search(r"held-out\s*│\s*en-backup-service\s*│\s*100\.0\s*│\s*100\.0", stdout)
    assert "held-out en-backup-service:\n  score: 100.0/100" in stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("synthesize", "no-such-dossier"), "is not a folder", id="missing-dossier"),
        pytest.param(
            ("synthesize", "{dossier}", "--model", "gpt"), "unknown model spec", id="bad-model"
        ),
        pytest.param(("check-synthesis", "{tmp}"), "no trajectory.json", id="no-run"),
        pytest.param(("grade", "{tmp}", "--grid", "{tmp}/none.json"), "no such file", id="no-grid"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    args: tuple[str, ...], message: str, corpus: SynthesisCorpusInfo, tmp_path: Path
) -> None:
    filled = [a.format(dossier=corpus.dossier, tmp=tmp_path) for a in args]
    code, _, stderr = (
        invoke(*filled, "--out", str(tmp_path)) if args[0] == "synthesize" else (invoke(*filled))
    )
    assert code == 2
    assert message in stderr and len(stderr.strip().splitlines()) == 1


def test_synthesize_never_opens_the_gold_grid(
    corpus: SynthesisCorpusInfo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    real_open = io.open

    def recording_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", recording_open)
    monkeypatch.setattr(builtins, "open", recording_open)
    code, _, _ = invoke("synthesize", str(corpus.dossier), "--out", str(tmp_path))
    assert code == 0
    assert any(p.endswith("question.md") for p in opened)
    assert [p for p in opened if p.startswith(str(corpus.grid.parent))] == []


def test_synthesize_takes_a_lexicon_extension(tmp_path: Path) -> None:
    folder = tmp_path / "trackers"
    (folder / "documents").mkdir(parents=True)
    (folder / "question.md").write_text("Which tracker, Alpha or Beta?\n", encoding="utf-8")
    for doc_id, kind, day, body in (
        ("d-1", "note-fournisseur", "2026-02-01", "Alpha has a time to repair of 2.5 h."),
        ("d-2", "benchmark-interne", "2026-06-01", "Alpha: MTTR of 6.8 h in our test."),
        ("d-3", "vendor note", "2026-02-01", "Beta has a time to repair of 3 h."),
    ):
        header = f"---\nid: {doc_id}\ntitle: Note\ndate: {day}\nsource_type: {kind}\n---\n\n"
        (folder / "documents" / f"{doc_id}.md").write_text(header + body + "\n", "utf-8")
    extension = tmp_path / "repair.toml"  # a synonym the default lexicon does not know
    extension.write_text(
        '[[concepts]]\nid = "repair_time"\nlabel = { en = "time to repair" }\n'
        'terms = ["time to repair", "mttr"]\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    args = ("synthesize", str(folder), "--out", str(out), "--json")
    code, _, _ = invoke(*args)
    assert code == 0 and json.loads((out / "trajectory.json").read_text())["contradictions"] == []
    code, _, _ = invoke(*args, "--lexicon", str(extension))
    [found] = json.loads((out / "trajectory.json").read_text())["contradictions"]
    assert (code, found["subject"], found["retained"]["value"], found["rule"]) == (
        0, "Alpha", "6.8 h", 1
    )  # fmt: skip
    code, _, stderr = invoke(*args, "--lexicon", str(tmp_path / "missing.toml"))
    assert code == 2 and "cannot read the lexicon" in stderr
