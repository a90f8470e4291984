"""Building blocks of the bundled reports' prose: sections, paragraphs, planted risk signals.

A paragraph is a sequence of chunks; a chunk is plain text or a :class:`Signal`, the
sentence the gold records with its category. Texts are written with ordinary spaces; the
layout makes thousands and ``%`` spaces non-breaking, and PDF extraction gives them back as
spaces, so a signal's ``text`` is exactly what a reader can copy from the page.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Block",
    "Chunk",
    "KeyFigures",
    "NoteTable",
    "Para",
    "Section",
    "Signal",
    "signals_of",
]


@dataclass(frozen=True, slots=True)
class Signal:
    """A risk signal planted in the prose: one whole sentence and its category."""

    category: str
    text: str


Chunk = str | Signal


@dataclass(frozen=True, slots=True)
class Para:
    """One paragraph; chunks are joined with a single space."""

    chunks: tuple[Chunk, ...]

    @property
    def text(self) -> str:
        return " ".join(c.text if isinstance(c, Signal) else c for c in self.chunks)


@dataclass(frozen=True, slots=True)
class KeyFigures:
    """Where the management report shows its key-figures table (fields given by key)."""

    keys: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NoteTable:
    """A small two-year table in the notes: (label, value of the report year, prior year)."""

    rows: tuple[tuple[str, int, int], ...]


Block = Para | KeyFigures | NoteTable


@dataclass(frozen=True, slots=True)
class Section:
    """A titled part of the management report or of the notes."""

    title: str
    blocks: tuple[Block, ...]


def signals_of(sections: tuple[Section, ...]) -> list[tuple[Section, Signal]]:
    """Every planted signal with its section, in reading order."""
    found: list[tuple[Section, Signal]] = []
    for section in sections:
        for block in section.blocks:
            if isinstance(block, Para):
                found += [(section, c) for c in block.chunks if isinstance(c, Signal)]
    return found
