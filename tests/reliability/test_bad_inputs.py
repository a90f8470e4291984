"""The bad-input matrix through the real CLI: one line, exit 2, no traceback, nothing written.

Every case of :data:`preuve.eval.reliability_cases.INPUT_CASES` runs in-process (the CLI
runner); :data:`preuve.eval.reliability.PROCESS_CASES` run again through the installed
``preuve`` console script. The judge is :func:`preuve.eval.reliability_inputs.judge_input`,
itself tested here on outcomes that must fail it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from preuve.eval.reliability import PROCESS_CASES
from preuve.eval.reliability_cases import INPUT_CASES
from preuve.eval.reliability_inputs import (
    CliOutcome,
    Expect,
    InputCase,
    judge_input,
    run_input_case,
)
from tests.reliability.clirun import KNOWN_GAPS, invoke_entry_point, invoke_in_process

BY_ID = {case.id: case for case in INPUT_CASES}


def _marked(case_id: str) -> object:
    marks = (
        [pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[case_id])]
        if case_id in KNOWN_GAPS
        else []
    )
    return pytest.param(BY_ID[case_id], id=case_id, marks=marks)


def test_the_matrix_covers_every_family_the_issue_names() -> None:
    families = {case.family for case in INPUT_CASES}
    assert families >= {
        "pdf", "text", "page", "quotes", "facts", "memo", "workflow1", "dossier", "run", "grid",
        "digest", "store", "corpus",
    }  # fmt: skip
    ids = {case.id for case in INPUT_CASES}
    for wanted in ("pdf/corrupt", "pdf/truncated", "pdf/encrypted", "pdf/image-only",
                   "pdf/zero-page", "text/non-utf8", "pdf/missing-file",
                   "digest/unknown-document-id", "page/beyond-the-last"):  # fmt: skip
        assert wanted in ids
    assert len(ids) == len(INPUT_CASES), "case ids are unique"
    assert set(PROCESS_CASES) <= ids


@pytest.mark.parametrize("case", [_marked(case.id) for case in INPUT_CASES])
def test_bad_input_in_process(case: InputCase, tmp_path: Path) -> None:
    outcome, problems = run_input_case(case, tmp_path / "case", invoke_in_process)
    assert problems == (), (outcome.exit_code, outcome.stderr, outcome.stdout[:300])
    if case.expect is Expect.ERROR:
        assert outcome.exit_code == 2 and outcome.stderr.startswith("preuve: error: ")


@pytest.mark.parametrize("case", [_marked(case_id) for case_id in PROCESS_CASES])
def test_bad_input_through_the_installed_entry_point(case: InputCase, tmp_path: Path) -> None:
    outcome, problems = run_input_case(case, tmp_path / "case", invoke_entry_point)
    assert problems == (), (outcome.exit_code, outcome.stderr)


GOOD = CliOutcome(2, "", "preuve: error: /x/q.jsonl:2: invalid JSON (Expecting value)\n")


TRACEBACK = "Traceback (most recent call last):\n  ...\nKeyError: 'a'\n"
UNNAMED = "the message does not name"


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        pytest.param(GOOD, [], id="one-line-error"),
        pytest.param(CliOutcome(1, "", TRACEBACK),
                     ["a traceback", "exit code 1", "stderr is not one", UNNAMED], id="traceback"),
        pytest.param(CliOutcome(1, "", "", crash="KeyError('a')"),
                     ["crash", "exit code 1", "stderr is not one", UNNAMED],
                     id="escaped-exception"),
        pytest.param(CliOutcome(2, "", "preuve: error: /x/q.jsonl:2: bad\nmore\n"),
                     ["stderr is not one"], id="two-lines"),
        pytest.param(CliOutcome(2, "", "preuve: error: /x/q.jsonl: invalid JSON\n"),
                     [UNNAMED], id="no-line-number"),
        pytest.param(CliOutcome(2, "partial\n", GOOD.stderr), ["stdout is not empty"],
                     id="output-on-stdout"),
        pytest.param(CliOutcome(0, "", ""), ["exit code 0", "stderr is not one", UNNAMED],
                     id="accepted"),
    ],
)  # fmt: skip
def test_the_judge_fails_what_it_must(outcome: CliOutcome, expected: list[str]) -> None:
    case = InputCase("quotes/x", (), lambda folder: None, names=("/x/q.jsonl:2",))
    problems = judge_input(case, outcome, Path("/nonexistent"))
    assert len(problems) == len(expected)
    for problem, start in zip(problems, expected, strict=True):
        assert start in problem


def test_the_judge_finds_half_written_output_and_temporary_files(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "synthesis.md").write_text("half", encoding="utf-8")
    (tmp_path / ".preuve-tmp-run.json.123").write_text("{", encoding="utf-8")
    case = InputCase("dossier/x", (), lambda folder: None, out="out")
    problems = judge_input(case, GOOD, tmp_path)
    assert [p.split(" ")[0] for p in problems] == ["half-written", "temporary"]
