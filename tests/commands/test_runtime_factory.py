"""build_app(runtime_factory): each command's settings reach the factory, flag over variable."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.cli import build_app
from preuve.corpora.synthesis_dossier import SynthesisCorpusInfo, generate_synthesis_dossier
from preuve.models.runtime import Runtime
from preuve.models.settings import Settings
from preuve.synthesis.pipeline import synthesis_rules_model


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> SynthesisCorpusInfo:
    return generate_synthesis_dossier(tmp_path_factory.mktemp("factory"))


@pytest.mark.parametrize(
    ("args", "environ", "expected"),
    [
        pytest.param([], {}, ("rules", True), id="defaults"),
        pytest.param([], {"PREUVE_MODEL": "replay:x.jsonl"}, ("replay:x.jsonl", True), id="env"),
        pytest.param(
            ["--model", "rules"], {"PREUVE_MODEL": "replay:x.jsonl"}, ("rules", True), id="flag"
        ),
        pytest.param([], {"PREUVE_QUIET": "1"}, ("rules", False), id="quiet-env"),
    ],
)
def test_the_factory_gets_the_commands_settings_once(
    corpus: SynthesisCorpusInfo,
    tmp_path: Path,
    args: list[str],
    environ: dict[str, str],
    expected: tuple[str, bool],
) -> None:
    made: list[Settings] = []

    def factory(settings: Settings) -> Runtime:
        made.append(settings)
        return Runtime(settings, backend=synthesis_rules_model())

    command = ["synthesize", str(corpus.dossier), "--out", str(tmp_path), *args]
    result = CliRunner().invoke(build_app(factory), command, env=environ)
    assert result.exit_code == 0, result.output
    assert [(s.model, s.progress) for s in made] == [expected]


def test_the_global_quiet_flag_reaches_the_factory(
    corpus: SynthesisCorpusInfo, tmp_path: Path
) -> None:
    made: list[Settings] = []

    def factory(settings: Settings) -> Runtime:
        made.append(settings)
        return Runtime(settings, backend=synthesis_rules_model())

    command = ["--quiet", "synthesize", str(corpus.dossier), "--out", str(tmp_path)]
    result = CliRunner().invoke(build_app(factory), command)
    assert result.exit_code == 0, result.output
    assert [s.progress for s in made] == [False]


def test_a_malformed_variable_fails_the_commands_reading_settings_in_one_line() -> None:
    app = build_app(Runtime)
    result = CliRunner().invoke(
        app, ["check-quote", "--help"], env={"PREUVE_CONCURRENCY": "0"}, catch_exceptions=False
    )
    assert result.exit_code == 0  # help, and commands reading no setting, still work
    result = CliRunner().invoke(
        app, ["eval", "rates", "--json"], env={"PREUVE_CONCURRENCY": "0"}, catch_exceptions=False
    )
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "preuve: error: $PREUVE_CONCURRENCY must be a positive number, not '0'"
    ]
