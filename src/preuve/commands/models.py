"""`preuve models`: the local models this machine can run, and the spec to run each."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated

import typer

from preuve.commands.common import EXIT_OK, EXIT_REJECTED, console, handles_errors, print_json
from preuve.io.records import dump_record
from preuve.models.local import LocalModel, find_local_models

__all__ = ["models_command"]

_NONE_FOUND = (
    "no local model found; `make real-model` installs SmolLM2-135M-Instruct (a .gguf file),"
    " or give a folder or .gguf file: preuve models PATH"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class LocalModelEntry:
    """A found model as ``--json`` lists it: the spec to run it, then its fields."""

    spec: str
    path: Path
    kind: str
    size_bytes: int
    context_length: int | None
    chat_template: bool
    found_in: str

    @classmethod
    def of(cls, model: LocalModel) -> LocalModelEntry:
        return cls(spec=model.spec, **{f.name: getattr(model, f.name) for f in fields(model)})


def _size(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB" if n < 1_000_000_000 else f"{n / 1_000_000_000:.2f} GB"


def _line(model: LocalModel) -> str:
    context = f"{model.context_length} tokens" if model.context_length else "context unknown"
    template = "chat template" if model.chat_template else "NO chat template (not usable)"
    return (
        f"{model.spec}\n    {model.kind}, {_size(model.size_bytes)}, {context}, {template};"
        f" found in {model.found_in}"
    )


@handles_errors
def models_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="More .gguf files or model folders (or folders holding them)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """List local models: installed packages' .gguf files, the hub cache, and PATHS."""
    found = find_local_models(paths or ())
    if as_json:
        print_json([dump_record(LocalModelEntry.of(m)) for m in found])
    elif not found:
        console.print(_NONE_FOUND, markup=False)
    else:
        for model in found:
            console.print(_line(model), markup=False, highlight=False)
    raise typer.Exit(EXIT_OK if found else EXIT_REJECTED)
