"""Output files written whole or not at all: a temporary file, then one atomic rename.

A reader (a person, the viewer, a rerun) never sees a half-written report, even if the
process is killed or the disk fills up mid-write: the bytes go to a hidden temporary file
in the same folder, are flushed to disk, then :func:`os.replace` swaps the file in. On any
failure the temporary file is removed and the previous version, if any, stays intact.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path
from stat import S_ISREG

__all__ = [
    "TEMP_PREFIX",
    "copy_file_atomic",
    "read_capped",
    "write_bytes_atomic",
    "write_json_atomic",
    "write_text_atomic",
]

# Hidden, and recognisable, so a check can tell a leftover temporary file from an output.
TEMP_PREFIX = ".preuve-tmp-"


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (same folder, flushed, then renamed)."""
    temporary = path.parent / f"{TEMP_PREFIX}{path.name}.{uuid.uuid4().hex}"
    # os.open with 0o666 honours the umask, as a plain open() would (mkstemp forces 0o600).
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def copy_file_atomic(source: Path, path: Path) -> None:
    """Copy ``source`` to ``path`` atomically (same folder, flushed, then renamed)."""
    temporary = path.parent / f"{TEMP_PREFIX}{path.name}.{uuid.uuid4().hex}"
    try:
        shutil.copyfile(source, temporary)
        with temporary.open("rb+") as stream:
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_json_atomic(path: Path, value: object) -> None:
    """Write ``value`` as indented UTF-8 JSON (one trailing newline) to ``path`` atomically."""
    write_text_atomic(path, json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def read_capped(path: Path, limit: int, *, cap: str = "limit") -> bytes:
    """The bytes of ``path``, refusing a symlink (``O_NOFOLLOW``), a non-regular file and a
    file over ``limit`` bytes with an OSError or ValueError that says which (``cap`` names
    the limit: ``N bytes, over the <cap> of <limit>``). The run folder and the viewer read
    every file they were not given in memory through it."""
    handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(handle, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        if info.st_size > limit:
            raise ValueError(f"{info.st_size} bytes, over the {cap} of {limit}")
        return stream.read(limit + 1)[:limit]
