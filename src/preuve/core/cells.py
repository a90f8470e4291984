"""Fields written in a prompt so that code reads them back exactly: ``a | b | c`` rows.

A role's prompt is the only input of both its implementations (a model and the rules
engine): what the rules implementation needs is rendered, then parsed back. A row is its
cells joined by `` | ``, a list inside a cell its items joined by `` ; ``. Inside a cell a
backslash, ``|``, ``;`` and a line break are escaped (``\\\\``, ``\\|``, ``\\;``, ``\\n``), so
a value holding a separator, or several lines, reads back as it was written in the cell:
:func:`split_row` and :func:`split_items` invert :func:`row` and :func:`items` for every
text (a property tested with hypothesis). The escapes are rare in practice and readable.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["cell", "items", "row", "split_items", "split_row", "unescape"]

_ESCAPES = {"\\": "\\\\", "|": "\\|", ";": "\\;", "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"n": "\n", "r": "\r"}


def cell(text: str) -> str:
    """``text`` escaped to stand in one cell of a row (see the module docstring)."""
    return "".join(_ESCAPES.get(char, char) for char in text)


def unescape(text: str) -> str:
    """The text a cell was written from (:func:`cell` inverted)."""
    out: list[str] = []
    chars = iter(text)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            out.append(_UNESCAPES.get(following, following))
        else:
            out.append(char)
    return "".join(out)


def row(cells: Iterable[str]) -> str:
    """Cells (already escaped) joined by `` | ``."""
    return " | ".join(cells)


def items(values: Iterable[str]) -> str:
    """The items of one cell (already escaped) joined by `` ; ``."""
    return " ; ".join(values)


def _split(text: str, separator: str) -> list[str]:
    """``text`` cut at each unescaped `` {separator} ``; the parts stay escaped."""
    parts: list[str] = []
    start = index = 0
    marker = f" {separator} "
    while index < len(text):
        if text[index] == "\\":
            index += 2
        elif text.startswith(marker, index):
            parts.append(text[start:index])
            index += len(marker)
            start = index
        else:
            index += 1
    parts.append(text[start:])
    return parts


def split_row(line: str) -> list[str]:
    """The cells of a row (still escaped: a cell may hold items, see :func:`split_items`)."""
    return _split(line, "|")


def split_items(text: str) -> list[str]:
    """The items of one escaped cell, each unescaped."""
    return [unescape(part) for part in _split(text, ";")] if text else []
