"""Read one JSON file a user wrote (a digest's manifest, grammar, events and gold, a versioned
folder's ``meta.json``): any defect is one line.

Not UTF-8, not JSON, a key given twice, nesting too deep, an integer too long to read, an
unreadable file: each is an :class:`~preuve.core.errors.InputError` naming the file.
"""

from __future__ import annotations

import json
from pathlib import Path

from preuve.core.errors import InputError
from preuve.core.jsonout import loads_unique_keys

__all__ = ["read_json_file"]


def read_json_file(path: Path, what: str) -> object:
    """The parsed content of ``path``, the ``what`` of a dossier (for the error's fix)."""
    try:
        raw = path.read_bytes().decode("utf-8")
        return loads_unique_keys(raw)
    except OSError as err:
        raise InputError(f"{path}: cannot read the {what} ({err.strerror or err})") from None
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})") from None
    except json.JSONDecodeError as err:
        raise InputError(f"{path}: line {err.lineno}, column {err.colno}: {err.msg}") from None
    except ValueError as err:  # a duplicate key, an integer too long to convert
        raise InputError(f"{path}: {err}") from None
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply") from None
