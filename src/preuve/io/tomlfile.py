"""TOML files a user gives (a dossier's ``ranks.toml``, a ``lexicon.toml``): read in one place,
so that a workflow module opens no file and every unreadable one fails as one line."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from preuve.core.errors import InputError

__all__ = ["read_toml_file"]


def read_toml_file(path: Path, what: str) -> dict[str, Any]:
    """The parsed table of ``path``, or ``path: cannot read <what> (<reason>)``: a missing or
    unreadable file, text that is not UTF-8, or TOML that does not parse."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise InputError(f"{path}: cannot read {what} ({err})") from None
