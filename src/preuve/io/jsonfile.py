"""The one reader of JSON a user or a run wrote: a file (a digest's manifest, grammar, events
and gold, a versioned folder's ``meta.json``, a memo or synthesis given to a check, a grid),
a JSON-lines file (quotes to check), or the text of a run file (``RunFolder``).

Every defect is one :class:`~preuve.core.errors.InputError` naming where it is, in the form
an editor jumps to: ``path:line:column: invalid JSON (reason)`` for a syntax error (in a
JSON-lines file, ``path:line: invalid JSON (reason)``), ``path: invalid JSON (reason)`` for
JSON Python cannot hold (nested too deeply, an integer over its digit limit) or a key given
twice (the model-output parser refuses it too: the last would win), ``path: not UTF-8 text
(byte N)``, ``path: no such file``, ``path: cannot read the <what> (reason)``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from preuve.core.errors import InputError
from preuve.core.jsonout import DuplicateKeyError, loads_unique_keys

__all__ = ["parse_json", "read_json_file", "read_jsonl_file", "read_text_file"]


def _limit(err: ValueError | RecursionError) -> str:
    """Why JSON that parses was refused: nested too deep, a key twice, an integer too long."""
    if isinstance(err, RecursionError):
        return "nested too deeply"
    if isinstance(err, DuplicateKeyError):
        return str(err)
    return str(err).split(":", 1)[0]  # "Exceeds the limit (4300 digits) for integer ..."


def parse_json(text: str, source: str, *, line: int | None = None) -> Any:
    """``text`` parsed, or an InputError at ``source`` (``source:line`` when ``line`` is the
    line of a JSON-lines file ``text`` is)."""
    where = source if line is None else f"{source}:{line}"
    try:
        return loads_unique_keys(text)
    except json.JSONDecodeError as err:
        at = where if line is not None else f"{where}:{err.lineno}:{err.colno}"
        raise InputError(f"{at}: invalid JSON ({err.msg})") from None
    except (ValueError, RecursionError) as err:
        raise InputError(f"{where}: invalid JSON ({_limit(err)})") from None


def read_text_file(path: Path, what: str = "file") -> str:
    """A UTF-8 file's text, or an InputError naming it (``what`` names it in the fix)."""
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    try:
        return path.read_bytes().decode("utf-8")
    except OSError as err:
        raise InputError(f"{path}: cannot read the {what} ({err.strerror or err})") from None
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})") from None


def read_json_file(path: Path, what: str = "file") -> Any:
    """The parsed content of ``path``, ``what`` a user would call it (the error's words)."""
    return parse_json(read_text_file(path, what), str(path))


def read_jsonl_file(path: Path) -> list[tuple[int, Any]]:
    """A JSON-lines file as (line number, value) pairs; blank lines are skipped."""
    # Split on \n only: str.splitlines() also breaks on U+2028 and friends, which a JSON
    # string may hold raw, and would shift every line number after them.
    lines = enumerate(read_text_file(path).split("\n"), start=1)
    return [(n, parse_json(text, str(path), line=n)) for n, text in lines if text.strip()]
