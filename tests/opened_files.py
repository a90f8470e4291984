"""The files a block of code opens, recorded by one audit hook for the whole process.

An audit hook cannot be removed, and every hook runs on every audited event of the process
for the rest of its life: the tests that need the opened paths share this one, which
records only inside :func:`opened`."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["opened"]

_recording: list[list[Path]] = []


def _hook(event: str, args: tuple[object, ...]) -> None:
    if event == "open" and _recording and isinstance(args[0], str | bytes | os.PathLike):
        _recording[-1].append(Path(os.fsdecode(args[0])).resolve())


sys.addaudithook(_hook)


@contextmanager
def opened() -> Iterator[list[Path]]:
    """The paths opened inside the block (resolved)."""
    paths: list[Path] = []
    _recording.append(paths)
    try:
        yield paths
    finally:
        _recording.pop()
