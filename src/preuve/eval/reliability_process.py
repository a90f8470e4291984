"""``preuve`` in a real process: the console entry point, its exit code, its peak memory.

The in-process CLI runner shares one interpreter with the caller; these helpers start a
fresh one (``python -c "from preuve.cli import main; main()" ARGS``), so an import-time
failure, an unflushed stream or a leaked traceback is seen as a user would see it, and
the peak resident memory of that one process can be measured (``os.wait4``).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from preuve.eval.reliability_inputs import CliOutcome

__all__ = ["Measured", "measure_cli", "measure_python", "run_cli"]

_CLI = "import sys; from preuve.cli import main; sys.argv[0] = 'preuve'; main()"


def _command(argv: Sequence[str]) -> list[str]:
    return [sys.executable, "-c", _CLI, *argv]


def run_cli(argv: Sequence[str], *, preexec: Callable[[], None] | None = None) -> CliOutcome:
    """``preuve ARGV`` in a real process (``preexec`` runs in the child before it starts)."""
    done = subprocess.run(
        _command(argv),
        capture_output=True,
        text=True,
        preexec_fn=preexec,  # only sets a resource limit in the child
        check=False,
        timeout=300,
    )
    return CliOutcome(done.returncode, done.stdout, done.stderr)


@dataclass(frozen=True, slots=True)
class Measured:
    """One process: what it did, its wall-clock seconds and peak resident memory (MiB)."""

    outcome: CliOutcome
    seconds: float
    peak_mib: float


# A small go-between: a process started from a big one inherits its memory high-water
# mark (vfork, then exec records the shared mm's peak), so the measured command is started
# by this bare interpreter instead, which reports that child's own ru_maxrss.
_WRAPPER = (
    "import os, sys\n"
    "pid = os.posix_spawn(sys.executable, [sys.executable, *sys.argv[2:]], os.environ)\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "with open(sys.argv[1], 'w') as out: out.write(str(usage.ru_maxrss))\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def measure_cli(argv: Sequence[str]) -> Measured:
    """Run ``preuve ARGV`` and read that process's own peak RSS (``wait4``)."""
    return measure_python(["-c", _CLI, *argv])


def measure_python(args: Sequence[str]) -> Measured:
    """Run ``python ARGS`` (e.g. ``-m module ...``) and read its own peak RSS."""
    with tempfile.TemporaryDirectory(prefix="preuve-rss-") as folder:
        report = Path(folder) / "maxrss"
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-S", "-c", _WRAPPER, str(report), *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        seconds = time.perf_counter() - started
        maxrss = int(report.read_text(encoding="utf-8"))
    # ru_maxrss is in KiB on Linux (bytes on macOS).
    per_mib = 1024 * 1024 if sys.platform == "darwin" else 1024
    outcome = CliOutcome(done.returncode, done.stdout, done.stderr)
    return Measured(outcome, seconds, maxrss / per_mib)
