"""What every subcommand shares: one-line errors with exit codes, JSON and console output.

Exit codes everywhere: 0 all verified / no defect, 1 something rejected, 2 bad input.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from preuve.core.errors import InputError, PreuveError
from preuve.core.jsonout import DuplicateKeyError, loads_unique_keys
from preuve.models.base import Model
from preuve.models.progress import ProgressModel, ProgressSink
from preuve.models.replay import RecordingModel
from preuve.models.secrets import Scrubber, environment_secrets
from preuve.models.spec import load_model

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_OK",
    "EXIT_REJECTED",
    "console",
    "error_console",
    "handles_errors",
    "print_json",
    "read_json_file",
    "read_jsonl_file",
    "read_text_file",
    "resolve_model",
    "set_progress",
]

EXIT_OK = 0
EXIT_REJECTED = 1
EXIT_BAD_INPUT = 2

# Piped or captured output gets a readable width instead of rich's 80-column fallback.
_WIDTH = None if sys.stdout.isatty() else 132
console = Console(highlight=False, soft_wrap=True, width=_WIDTH)
error_console = Console(stderr=True, highlight=False, soft_wrap=True)

P = ParamSpec("P")
R = TypeVar("R")


def handles_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn preuve's errors (and unreadable files) into one line on stderr and an exit code."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except PreuveError as err:
            _print_error(err.one_line())
            raise typer.Exit(err.exit_code) from None
        except OSError as err:
            where = f"{err.filename}: " if err.filename else ""
            _print_error(f"{where}{err.strerror or err}")
            raise typer.Exit(EXIT_BAD_INPUT) from None

    return wrapper


def _print_error(line: str) -> None:
    # Scrubbed like every artefact: an error may quote a spec, a URL or an answer.
    clean = Scrubber(environment_secrets(os.environ)).scrub(line)
    error_console.print(f"preuve: error: {clean}", markup=False)


_PROGRESS = {"on": True}
# Backends whose calls take long enough to deserve a progress line (rules and replay answer
# at once).
_SLOW_BACKENDS = frozenset({"hf", "openai"})


def set_progress(on: bool) -> None:
    """``preuve --quiet`` turns the progress lines off for the command it runs."""
    _PROGRESS["on"] = on


def resolve_model(spec: str | None, rules: Callable[[], Model]) -> Model:
    """``--model``, else ``$PREUVE_MODEL``, else the workflow's rules engine (built lazily).

    With ``$PREUVE_RECORD=FILE`` every call is also recorded to FILE (secrets stripped), to
    be replayed later with ``--model replay:FILE``. A local or remote model reports each
    call on stderr (:mod:`preuve.models.progress`) unless ``preuve --quiet``."""
    chosen = spec or os.environ.get("PREUVE_MODEL") or "rules"
    model = load_model(chosen, rules=rules() if chosen == "rules" else None, env=os.environ)
    if _PROGRESS["on"] and model.identity.backend in _SLOW_BACKENDS:
        sink = ProgressSink(sys.stderr, live=sys.stderr.isatty())
        model = ProgressModel(model, sink)
    record = os.environ.get("PREUVE_RECORD")
    return RecordingModel(model, Path(record)) if record else model


def print_json(value: Any) -> None:
    """Write JSON to stdout (UTF-8, no rich markup, one document)."""
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def _loads(text: str) -> Any:
    # Duplicate keys are refused, as the model-output parser refuses them (the last would win).
    return loads_unique_keys(text)


def read_json_file(path: Path) -> Any:
    """Parse a JSON file, or raise an InputError naming the file, line and column."""
    text = read_text_file(path)
    try:
        return _loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"{path}:{err.lineno}:{err.colno}: invalid JSON ({err.msg})") from None
    except (ValueError, RecursionError) as err:
        raise InputError(f"{path}: invalid JSON ({_json_limit(err)})") from None


def read_jsonl_file(path: Path) -> list[tuple[int, Any]]:
    """Parse a JSON-lines file into (line number, value) pairs; blank lines are skipped."""
    rows: list[tuple[int, Any]] = []
    # Split on \n only: str.splitlines() also breaks on U+2028 and friends, which a JSON
    # string may hold raw, and would shift every line number after them.
    for number, line in enumerate(read_text_file(path).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            rows.append((number, _loads(line)))
        except json.JSONDecodeError as err:
            raise InputError(f"{path}:{number}: invalid JSON ({err.msg})") from None
        except (ValueError, RecursionError) as err:
            raise InputError(f"{path}:{number}: invalid JSON ({_json_limit(err)})") from None
    return rows


def _json_limit(err: ValueError | RecursionError) -> str:
    """Why valid-looking JSON was refused: nested too deep, or an integer too long."""
    if isinstance(err, RecursionError):
        return "nested too deeply"
    if isinstance(err, DuplicateKeyError):
        return str(err)
    return str(err).split(":", 1)[0]  # "Exceeds the limit (4300 digits) for integer ..."


def read_text_file(path: Path) -> str:
    """Read a UTF-8 file, or raise an InputError naming it."""
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})") from None
