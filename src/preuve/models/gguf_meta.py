"""The metadata of a GGUF file, reading only the keys asked for.

A GGUF file opens with its metadata: the magic ``GGUF``, a version, the tensor and key
counts, then each key as ``(name, type, value)`` (the format: the ``gguf`` package's
``constants.py`` and ggml's ``docs/gguf.md``). The ``gguf`` package's reader parses every
value, the tokenizer's vocabulary and merges included (about 100 000 strings for SmolLM2:
seconds of CPU each time a model is described); this reader steps over a value it was not
asked for by its length, a fixed-size array by its count, and stops once it has every key
asked for. The file is memory-mapped: the tensors are never read.
"""

from __future__ import annotations

import mmap
import struct
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["GGUFFormatError", "read_gguf_metadata"]

_MAGIC = b"GGUF"
# Value types (GGUFValueType): struct code of each fixed-size scalar.
_SCALARS = {
    0: "B",
    1: "b",
    2: "H",
    3: "h",
    4: "I",
    5: "i",
    6: "f",
    7: "?",
    10: "Q",
    11: "q",
    12: "d",
}
_STRING, _ARRAY = 8, 9


class GGUFFormatError(ValueError):
    """The bytes are not a GGUF file's metadata (another format, cut short, a bad type)."""


class _Cursor:
    """Reads the metadata from ``data`` in the file's byte order."""

    def __init__(self, data: mmap.mmap | bytes, order: str, offset: int) -> None:
        self.data, self.order, self.offset = data, order, offset

    def _unpack(self, code: str) -> Any:
        size = struct.calcsize(code)
        if self.offset + size > len(self.data):
            raise GGUFFormatError(f"the file ends inside its metadata (at byte {self.offset})")
        (value,) = struct.unpack_from(self.order + code, self.data, self.offset)
        self.offset += size
        return value

    def count(self) -> int:
        return int(self._unpack("Q"))

    def uint32(self) -> int:
        return int(self._unpack("I"))

    def _string_bounds(self) -> tuple[int, int]:
        """Step over a string (its length, then its bytes): where its bytes are."""
        length = self.count()
        start, self.offset = self.offset, self.offset + length
        if self.offset > len(self.data):
            raise GGUFFormatError(f"the file ends inside a string (at byte {start})")
        return start, self.offset

    def string(self) -> str:
        start, end = self._string_bounds()
        return bytes(self.data[start:end]).decode("utf-8", errors="replace")

    def value(self, kind: int) -> object:
        if kind in _SCALARS:
            return self._unpack(_SCALARS[kind])
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            item, length = self.uint32(), self.count()
            return [self.value(item) for _ in range(length)]
        raise GGUFFormatError(f"unknown value type {kind} at byte {self.offset}")

    def skip(self, kind: int) -> None:
        if kind in _SCALARS:
            self.offset += struct.calcsize(_SCALARS[kind])
        elif kind == _STRING:
            self._string_bounds()
        elif kind == _ARRAY:
            item, length = self.uint32(), self.count()
            if item in _SCALARS:
                self.offset += struct.calcsize(_SCALARS[item]) * length
            else:
                for _ in range(length):
                    self.skip(item)
        else:
            raise GGUFFormatError(f"unknown value type {kind} at byte {self.offset}")
        if self.offset > len(self.data):
            raise GGUFFormatError("the file ends inside its metadata")


def _metadata(data: mmap.mmap | bytes, keys: frozenset[str]) -> dict[str, object]:
    if bytes(data[:4]) != _MAGIC:
        raise GGUFFormatError("not a GGUF file (it does not start with 'GGUF')")
    # The version is a small number: read in the wrong byte order, its low half is zero.
    order = "<" if len(data) >= 8 and struct.unpack_from("<I", data, 4)[0] & 0xFFFF else ">"
    cursor = _Cursor(data, order, 4)
    version = cursor.uint32()
    if version < 2:
        raise GGUFFormatError(f"GGUF version {version} is not supported (2 or later)")
    cursor.count()  # tensors
    found: dict[str, object] = {}
    for _ in range(cursor.count()):
        name = cursor.string()
        kind = cursor.uint32()
        if name in keys:
            found[name] = cursor.value(kind)
            if len(found) == len(keys):
                break
        else:
            cursor.skip(kind)
    return found


def read_gguf_metadata(path: Path, keys: Iterable[str]) -> dict[str, object]:
    """The values of ``keys`` the GGUF file at ``path`` has (a key it lacks is absent).

    Raises :class:`GGUFFormatError` for a file that is not GGUF or is cut short, and
    ``OSError`` for one that cannot be read."""
    wanted = frozenset(keys)
    with path.open("rb") as handle:
        if path.stat().st_size == 0:
            raise GGUFFormatError("not a GGUF file (it is empty)")
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return _metadata(data, wanted)
