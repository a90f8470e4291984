"""The bad-input matrix: each case is a command line, the files it reads, and what it must do.

A case writes its inputs into a fresh folder (``{d}`` in its arguments), runs one ``preuve``
command line and is judged by :func:`judge_input`:

- ``ERROR`` (the input is unusable): exit code 2, exactly one line on stderr starting with
  ``preuve: error:`` that names the file (and the line, where a line is at fault), nothing
  on stdout, no traceback, and no output at all in the ``--out`` folder;
- ``REFUSED`` (the input is readable, its content is refused, e.g. a quote cited on a page
  the document does not have): exit code 1 and the verdict on stdout, no traceback.

The cases are data (:data:`preuve.eval.reliability_cases.INPUT_CASES`), so the tests and
``preuve reliability`` run the very same list. Commands are run through an
:data:`Invoke` the caller gives (the CLI runner in-process, or a real ``preuve`` process).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from preuve.io.files import TEMP_PREFIX

__all__ = [
    "CliOutcome",
    "Expect",
    "InputCase",
    "Invoke",
    "judge_input",
    "run_input_case",
]

ERROR_PREFIX = "preuve: error: "


class Expect(StrEnum):
    ERROR = "error"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class CliOutcome:
    """What one command line did; ``crash`` is the uncaught exception, if any."""

    exit_code: int
    stdout: str
    stderr: str
    crash: str = ""


Invoke = Callable[[Sequence[str]], CliOutcome]


@dataclass(frozen=True, slots=True)
class InputCase:
    """One bad input: its id (``family/what``), arguments, setup and expectations."""

    id: str
    argv: tuple[str, ...]
    setup: Callable[[Path], object]
    names: tuple[str, ...] = ()
    expect: Expect = Expect.ERROR
    out: str | None = None

    @property
    def family(self) -> str:
        return self.id.split("/", 1)[0]

    def args(self, folder: Path) -> list[str]:
        return [arg.replace("{d}", str(folder)) for arg in self.argv]


def _message_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def judge_input(case: InputCase, outcome: CliOutcome, folder: Path) -> tuple[str, ...]:
    """Every way ``outcome`` falls short of ``case``'s expectations (empty: it passed)."""
    problems: list[str] = []
    if outcome.crash:
        problems.append(f"crash: {outcome.crash}")
    if "Traceback (most recent call last)" in outcome.stdout + outcome.stderr:
        problems.append("a traceback was printed")
    wanted = 2 if case.expect is Expect.ERROR else 1
    if outcome.exit_code != wanted:
        problems.append(f"exit code {outcome.exit_code}, expected {wanted}")
    if case.expect is Expect.ERROR:
        lines = _message_lines(outcome.stderr)
        if len(lines) != 1 or not lines[0].startswith(ERROR_PREFIX):
            problems.append(f"stderr is not one 'preuve: error:' line: {lines[:3]!r}")
        if outcome.stdout.strip():
            problems.append(f"stdout is not empty: {outcome.stdout[:120]!r}")
        message = outcome.stderr
    else:
        message = outcome.stdout
    for name in case.names:
        wanted_text = name.replace("{d}", str(folder))
        if wanted_text not in message:
            problems.append(f"the message does not name {wanted_text!r}")
    if case.out is not None and case.expect is Expect.ERROR:
        out = folder / case.out
        written = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
        if written:
            problems.append(f"half-written output in {case.out}/: {written}")
    leftovers = sorted(str(p.relative_to(folder)) for p in folder.rglob(f"{TEMP_PREFIX}*"))
    if leftovers:
        problems.append(f"temporary files left behind: {leftovers}")
    return tuple(problems)


def run_input_case(
    case: InputCase, folder: Path, invoke: Invoke
) -> tuple[CliOutcome, tuple[str, ...]]:
    """Set up ``case`` in ``folder`` (created), run it, and judge it."""
    folder.mkdir(parents=True, exist_ok=True)
    case.setup(folder)
    outcome = invoke(case.args(folder))
    return outcome, judge_input(case, outcome, folder)
