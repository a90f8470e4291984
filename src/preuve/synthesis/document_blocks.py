"""Documents in a prompt, and read back from it: ``<document ...>`` blocks and listings.

The planner and the sub-agent give a model documents whole, one block each::

    <document id="doc-02" date="2026-02-10" type="vendor note" title="Fiche Kestrel">
    text
    </document>

(the planner adds each document's ``rank``); the sub-agent also lists, one ``|`` row each
(:mod:`preuve.core.cells`), the dossier's other documents, metadata only. Their rules
implementations read the documents back from these very blocks and rows
(:func:`read_blocks`, :func:`read_listing`), never from a side channel, so they work from
what a model is given. A ``</document>`` inside a text is written ``</ document>``: a
document cannot close its block (the rules engine reads it so written, as a model does).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from preuve.core.cells import cell, row, split_row, unescape

__all__ = ["Block", "document_block", "listing_row", "read_blocks", "read_listing"]

_BLOCK = re.compile(
    r'^<document id="(?P<id>[^"\n]*)" date="(?P<date>[^"\n]*)" type="(?P<type>[^"\n]*)" '
    r'(?:rank="(?P<rank>-?\d+)" )?title="(?P<title>[^\n]*)">\n(?P<text>.*?)\n</document>$',
    re.MULTILINE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Block:
    """One document as a prompt gives it (``text`` empty for a listed one)."""

    doc_id: str
    date: str
    source_type: str
    title: str
    text: str = ""
    rank: int | None = None


def document_block(block: Block) -> str:
    """One document whole, in its block (see the module docstring)."""
    ranked = f'rank="{block.rank}" ' if block.rank is not None else ""
    body = block.text.replace("</document>", "</ document>")
    return (
        f'<document id="{block.doc_id}" date="{block.date}" type="{block.source_type}" '
        f'{ranked}title="{block.title}">\n{body}\n</document>'
    )


def _rank(written: str | None) -> int | None:
    return int(written) if written is not None else None


def read_blocks(prompt: str) -> list[Block]:
    """Every document block of ``prompt``, in order."""
    return [
        Block(m["id"], m["date"], m["type"], m["title"], m["text"], _rank(m["rank"]))
        for m in _BLOCK.finditer(prompt)
    ]


def listing_row(doc_id: str, date: str, source_type: str, title: str) -> str:
    """One listed document: ``- id | date | type | title``."""
    return "- " + row(cell(field) for field in (doc_id, date, source_type, title))


def read_listing(lines: Iterable[str]) -> list[Block]:
    """The documents listed by :func:`listing_row` among ``lines`` (other lines skipped)."""
    listed = []
    for line in lines:
        cells = split_row(line[2:]) if line.startswith("- ") else []
        if len(cells) == 4:
            doc_id, day, kind, title = (unescape(c) for c in cells)
            listed.append(Block(doc_id, day, kind, title))
    return listed
