"""Front-matter headers: ``key: value`` lines between two ``---`` lines at the top of a text.

One reader for every document format that carries its metadata this way (a workflow 2
dossier's documents, a Markdown file given to the document loader)::

    ---
    id: doc-01
    title: Banc d'essai interne, juillet 2026
    ---
    Text of the document...

Keys are case-insensitive, each once, from a declared set (a typo must not silently drop a
date); a value is never empty. Anything wrong raises :class:`InputError` naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from preuve.core.documents import PAGE_SEPARATOR, Document, document_id, is_document_id
from preuve.core.errors import DocumentError, InputError

__all__ = [
    "FENCE",
    "HEADER_KEYS",
    "FrontMatter",
    "has_front_matter",
    "read_front_matter",
    "read_markdown",
]

FENCE = "---"
HEADER_KEYS = ("id", "title", "date", "source_type", "version")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_LINE = re.compile(r"(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*:\s*(?P<value>.*)")
Error = Callable[[int, str], InputError]


@dataclass(frozen=True, slots=True)
class FrontMatter:
    """The header's values with their line numbers, and the body after it."""

    values: dict[str, tuple[str, int]]
    end: int  # the line number (from 1) of the closing fence
    body: str  # the text after the header, stripped

    def get(self, key: str, default: str = "") -> str:
        return self.values[key][0] if key in self.values else default


def has_front_matter(text: str) -> bool:
    """True when ``text`` opens with a ``---`` line."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    return first.strip() == FENCE


def read_front_matter(
    text: str,
    keys: Sequence[str],
    required: Sequence[str] = (),
    *,
    error: Error | None = None,
) -> FrontMatter:
    """Read the header of ``text``: only ``keys``, each once, every one of ``required``.

    ``error(line, message)`` builds the error to raise (by default a plain InputError that
    names the line), so each caller names its file and its fix."""
    fail = error or (lambda line, message: InputError(f"line {line}: {message}"))
    lines = text.split("\n")  # not splitlines(): a form feed of the body separates pages
    if not lines or lines[0].strip() != FENCE:
        raise fail(1, f"a document must start with a '{FENCE}' header line")
    values: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(lines[1:], start=2):
        stripped = line.strip()
        if stripped == FENCE:
            missing = [key for key in required if key not in values]
            if missing:
                raise fail(number, f"header misses {', '.join(missing)}")
            return FrontMatter(values, number, "\n".join(lines[number:]).strip())
        if not stripped:
            continue
        match = _LINE.fullmatch(stripped)
        if match is None:
            raise fail(number, f"header line {stripped!r} is not 'key: value'")
        key, value = match.group("key").lower(), match.group("value").strip()
        if key not in keys:
            raise fail(number, f"unknown header key {key!r} (allowed: {', '.join(keys)})")
        if key in values:
            raise fail(number, f"header key {key!r} appears twice")
        if not value:
            raise fail(number, f"empty value for {key!r}")
        values[key] = (value, number)
    raise fail(len(text.splitlines()), f"the header is not closed by a '{FENCE}' line")


def _checked_date(value: str, line: int, fail: Callable[[int, str], InputError]) -> str:
    if not value:
        return ""
    if _ISO_DATE.fullmatch(value) is None:
        raise fail(line, f"date {value!r} is not an ISO date YYYY-MM-DD")
    try:
        date.fromisoformat(value)
    except ValueError:
        raise fail(line, f"date {value!r} does not exist") from None
    return value


def read_markdown(
    text: str,
    name: str,
    *,
    keys: Sequence[str] = HEADER_KEYS,
    required: Sequence[str] = (),
    fix: str | None = None,
    source_type: Callable[[str, int], str] | None = None,
) -> Document:
    """The document of a front-matter Markdown text; ``name`` (the file) is its ``path``,
    named in errors with the line, and its title when the header has none. Only ``keys``
    are accepted, every one of ``required`` must be given. ``source_type(value, line)``
    gives the name kept for the header's source type (a caller's vocabulary: it raises the
    caller's error for an unknown one); without it the value is kept as written."""

    def fail(line: int, message: str) -> InputError:
        return InputError(f"{name}:{line}: {message}", fix=fix)

    header = read_front_matter(text, keys, required, error=fail)
    entry = dict(header.values)
    doc_id, id_line = entry.get("id", (document_id(name), 1))
    if not is_document_id(doc_id):
        raise fail(id_line, f"id {doc_id!r} must be one token such as doc-01")
    version = header.get("version", "1")
    if not version.isdigit() or int(version) < 1:
        raise fail(entry["version"][1], f"version {version!r} is not an integer >= 1")
    day = _checked_date(*entry.get("date", ("", 1)), fail)
    kind = header.get("source_type")
    if source_type is not None and "source_type" in entry:
        kind = source_type(*entry["source_type"])
    if not header.body:
        raise fail(header.end, "the document has no text after its header")
    title = header.get("title", Path(name).name)
    pages = tuple(header.body.split(PAGE_SEPARATOR))
    try:
        return Document(doc_id, int(version), title, day, kind, pages, path=name)
    except DocumentError as err:
        raise InputError(f"{name}: {err.message}", fix=err.fix or fix) from None
