"""`preuve view DIR`: open a run folder in the local web viewer (read-only)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer

from preuve.commands.common import (
    EXIT_BAD_INPUT,
    console,
    error_console,
    handles_errors,
    process_environment,
)
from preuve.models.secrets import environment_secrets

__all__ = ["secret_values", "view_command"]


def secret_values(environ: Mapping[str, str]) -> tuple[str, ...]:
    """Values of secret-looking variables, for the viewer to redact wherever they appear."""
    return environment_secrets(environ)


@handles_errors
def view_command(
    run_dir: Annotated[Path, typer.Argument(help="A folder written by preuve (demo, memo, ...).")],
    host: Annotated[
        str, typer.Option("--host", help="Interface to bind (local only by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port.")] = 8000,
) -> None:
    """Browse a run folder: memos with each quote on its page, dashboards, the synthesis
    and its trajectory, the digest tree, and every model call."""
    # Imported here: the viewer's dependencies are an optional extra.
    from preuve.web.layout import check_run_files, discover
    from preuve.web.server import serve, viewer_url

    layout = discover(run_dir)
    if layout.empty:
        error_console.print(
            f"preuve: error: {run_dir}: not a run folder (no memo, synthesis, digest or "
            "journal output found)",
            markup=False,
        )
        raise typer.Exit(EXIT_BAD_INPUT)
    check_run_files(layout)  # a run file that does not read back: one line, exit 2
    console.print(f"preuve viewer: {viewer_url(host, port)}  (Ctrl+C to stop)", markup=False)
    serve(run_dir, host, port, secrets=secret_values(process_environment()))
