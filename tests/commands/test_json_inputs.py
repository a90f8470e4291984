"""Regressions found by the reliability matrix in the CLI's shared readers and writers.

JSON nested too deep or holding an integer over Python's digit limit raised past the CLI
(a traceback); a raw U+2028 inside a JSON-lines string split the line and shifted every
line number; outputs were written in place, so a killed or failed write left half a file.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from preuve.commands.synthesize import write_run
from preuve.core.errors import InputError
from preuve.eval.reliability_files import write_synthesis_dossier
from preuve.io.files import TEMP_PREFIX
from preuve.io.jsonfile import read_json_file, read_jsonl_file
from preuve.loaders import load_dossier
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.pipeline import SynthesisRun, synthesis_rules_model, synthesize


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param("[" * 100_000, "invalid JSON (nested too deeply)", id="nested"),
        pytest.param('{"page": ' + "1" * 5000 + "}", "invalid JSON (Exceeds the limit",
                     id="over-long-integer"),
    ],
)  # fmt: skip
def test_json_python_cannot_hold_is_an_input_error(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "in.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(message)):
        read_json_file(path)
    with pytest.raises(InputError, match=f"{path}:1: "):
        read_jsonl_file(path)


def test_json_lines_are_numbered_as_an_editor_numbers_them(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    first = json.dumps({"page": 1, "quote": "deux\u2028lignes"}, ensure_ascii=False)
    path.write_text(f'{first}\n\n{{"page": 2}}\n{{oops\n', encoding="utf-8")
    with pytest.raises(InputError, match=f"{path}:4: invalid JSON"):
        read_jsonl_file(path)
    path.write_text(f'{first}\r\n{{"page": 2}}\r\n', encoding="utf-8")
    assert [n for n, _ in read_jsonl_file(path)] == [1, 2]


@pytest.fixture(scope="module")
def run_and_dossier(tmp_path_factory: pytest.TempPathFactory) -> tuple[SynthesisRun, Dossier]:
    dossier = load_dossier(write_synthesis_dossier(tmp_path_factory.mktemp("syn") / "dossier"))
    return synthesize(dossier, synthesis_rules_model()), dossier


def test_a_run_is_written_whole(
    run_and_dossier: tuple[SynthesisRun, Dossier], tmp_path: Path
) -> None:
    run, dossier = run_and_dossier
    files = write_run(run, tmp_path / "out", dossier)
    assert json.loads(files["trajectory"].read_text(encoding="utf-8"))["status"] == "VALID"
    assert not list((tmp_path / "out").rglob(f"{TEMP_PREFIX}*"))


def test_a_failed_write_leaves_no_half_file(
    run_and_dossier: tuple[SynthesisRun, Dossier], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, dossier = run_and_dossier
    real_replace = os.replace

    def full_at_trajectory(src: str, dst: str) -> None:
        if str(dst).endswith("trajectory.json"):
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", full_at_trajectory)
    out = tmp_path / "out"
    with pytest.raises(OSError, match="No space"):
        write_run(run, out, dossier)
    assert not (out / "trajectory.json").exists()
    assert not list(out.rglob(f"{TEMP_PREFIX}*"))
