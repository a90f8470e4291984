"""What every subcommand shares: one-line errors with exit codes, JSON and console output,
and its settings and runtime (:func:`command_settings`, :func:`command_runtime`).

Exit codes everywhere: 0 all verified / no defect, 1 something rejected, 2 bad input.
"""

from __future__ import annotations

import contextvars
import functools
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from preuve.core.errors import PreuveError
from preuve.models.progress import ProgressSink
from preuve.models.runtime import Runtime, RuntimeFactory
from preuve.models.secrets import Scrubber, environment_secrets
from preuve.models.settings import Settings, read_settings

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_OK",
    "EXIT_REJECTED",
    "CliState",
    "ConcurrencyOpt",
    "ModelOpt",
    "command_runtime",
    "command_settings",
    "console",
    "enter_cli",
    "error_console",
    "handles_errors",
    "make_runtime",
    "print_json",
    "process_environment",
]

ModelOpt = Annotated[
    str | None,
    typer.Option(
        "--model",
        help="rules (offline default, or $PREUVE_MODEL), openai:NAME@BASE_URL, hf:PATH, "
        "replay:FILE.",
    ),
]
ConcurrencyOpt = Annotated[
    int | None,
    typer.Option(
        "--concurrency",
        min=1,
        help="At most N model calls in flight per endpoint (default: $PREUVE_CONCURRENCY, else 4).",
    ),
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
    clean = Scrubber(environment_secrets(process_environment())).scrub(line)
    error_console.print(f"preuve: error: {clean}", markup=False)


def process_environment() -> Mapping[str, str]:
    """The process's environment. The CLI reads it here and nowhere else: settings come from
    it through :func:`~preuve.models.settings.read_settings`, and error lines are scrubbed of
    its secrets (even when the settings themselves are what failed)."""
    return os.environ


@dataclass(frozen=True, slots=True)
class CliState:
    """What the app's callback learned before the command runs: the runtime factory, the
    environment and the global flags (``--quiet``)."""

    factory: RuntimeFactory
    environ: Mapping[str, str]
    flags: Mapping[str, Any] = field(default_factory=dict)


def make_runtime(settings: Settings) -> Runtime:
    """The real runtime factory: progress on stderr (redrawn in place on a terminal) unless
    ``--quiet``; the model spec is loaded on first use."""
    sink = ProgressSink(sys.stderr, live=sys.stderr.isatty()) if settings.progress else None
    return Runtime(settings, progress=sink)


_STATE: contextvars.ContextVar[CliState | None] = contextvars.ContextVar(
    "preuve_cli_state", default=None
)


def enter_cli(ctx: typer.Context, state: CliState) -> None:
    """Make ``state`` the running command's, until the app's context closes."""
    token = _STATE.set(state)
    ctx.call_on_close(lambda: _STATE.reset(token))


def _state() -> CliState:
    # A sub-app invoked on its own (``digest_app`` in tests) has no callback: the real
    # factory and the process's environment, as ``preuve`` itself would use.
    found = _STATE.get()
    return found if found is not None else CliState(make_runtime, process_environment())


def command_settings(**flags: Any) -> Settings:
    """This command's settings: its flags (None when not given) over the global ones, over
    ``PREUVE_*`` variables, over the defaults."""
    state = _state()
    return read_settings(state.environ, **{**state.flags, **flags})


def command_runtime(**flags: Any) -> Runtime:
    """The runtime of this command (built once by it from :func:`command_settings`)."""
    return _state().factory(command_settings(**flags))


def print_json(value: Any) -> None:
    """Write JSON to stdout (UTF-8, no rich markup, one document)."""
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")
