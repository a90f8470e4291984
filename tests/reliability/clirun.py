"""How the reliability tests run the CLI: in-process (typer's runner) and as the installed
console script; and the known gaps of files this suite may not edit."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from typer.testing import CliRunner

from preuve.cli import app
from preuve.eval.reliability_inputs import CliOutcome

__all__ = ["KNOWN_GAPS", "PREUVE", "invoke_entry_point", "invoke_in_process"]

# Known gaps, owned by files this suite may not edit: xfail(strict) until they are fixed,
# so the fix is noticed (the test then passes unexpectedly and asks for this entry to go).
KNOWN_GAPS: dict[str, str] = {}
PREUVE = Path(sys.executable).parent / "preuve"
_runner = CliRunner()


def invoke_in_process(argv: Sequence[str]) -> CliOutcome:
    """``preuve ARGV`` through the typer CLI runner (fast; catches any escaping exception)."""
    result = _runner.invoke(app, list(argv))
    escaped = result.exception is not None and not isinstance(result.exception, SystemExit)
    return CliOutcome(
        result.exit_code, result.stdout, result.stderr, repr(result.exception) if escaped else ""
    )


def invoke_entry_point(argv: Sequence[str]) -> CliOutcome:
    """``preuve ARGV`` through the installed console script, in a real process."""
    done = subprocess.run(
        [str(PREUVE), *argv], capture_output=True, text=True, check=False, timeout=120
    )
    return CliOutcome(done.returncode, done.stdout, done.stderr)
