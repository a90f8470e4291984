"""The base a figure is stated on: before or after tax, in calendar or working days.

The same amount reads differently on another base: "1 000 € HT" is not "1 000 € TTC", a
penalty "per calendar day" is not one "per working day". A base is one value of a
*group* (``tax``: ``excl``/``incl``; ``days``: ``calendar``/``working``), written as a
marker near the figure. The quote check refuses a quote that stops right before a base
marker when the page also gives another base of that group; the memo check refuses a
figure (or a clause) written on a base its cited facts do not give.

The markers are declared data, general French and English vocabulary, matched on a folded
copy of the text (lower case, no accents, straight apostrophes) between word boundaries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from preuve.core.claimtext import fold

__all__ = ["BASES", "BaseMark", "base_marks", "mark_at"]

_TAXES = r"(?:vat|gst|hst|tva|sales tax|tax|taxes)"
BASES: dict[str, dict[str, tuple[str, ...]]] = {
    "tax": {
        "excl": (
            r"ht", r"h\.t\.?", r"hors taxes?", r"hors tva", rf"excl\.? {_TAXES}",
            rf"excluding {_TAXES}", rf"exclusive of {_TAXES}", rf"ex\.?[- ]{_TAXES}",
            rf"net of {_TAXES}", rf"before {_TAXES}", rf"pre-{_TAXES}",
        ),
        "incl": (
            r"ttc", r"t\.t\.c\.?", r"toutes taxes comprises", r"tva comprise",
            r"tva incluse", rf"incl\.? {_TAXES}", rf"including {_TAXES}",
            rf"inclusive of {_TAXES}", rf"gross of {_TAXES}", rf"{_TAXES} included",
        ),
    },
    "days": {
        "calendar": (
            r"jours? calendaires?", r"jours? calendaire", r"calendar days?",
            r"jours? de calendrier",
        ),
        "working": (
            r"jours? ouvres?", r"jours? ouvrables?", r"working days?", r"business days?",
        ),
    },
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class BaseMark:
    """A base marker written in a text: ``text[start:end]``, its group and value."""

    start: int
    end: int
    group: str
    value: str


_PATTERNS = tuple(
    (group, value, re.compile(rf"(?<![\w-])(?:{'|'.join(patterns)})(?![\w-])"))
    for group, values in BASES.items()
    for value, patterns in values.items()
)


def base_marks(text: str) -> list[BaseMark]:
    """Every base marker of ``text``, in order (the longest where two overlap)."""
    folded = fold(text)
    found = [
        BaseMark(m.start(), m.end(), group, value)
        for group, value, pattern in _PATTERNS
        for m in pattern.finditer(folded)
    ]
    found.sort(key=lambda m: (m.start, m.start - m.end))
    kept: list[BaseMark] = []
    for mark in found:
        if not kept or mark.start >= kept[-1].end:
            kept.append(mark)
    return kept


def mark_at(text: str, index: int) -> BaseMark | None:
    """The base marker that starts at ``index`` of ``text`` (after spaces), if any."""
    gap = len(text) - len(text[index:].lstrip())
    return next((m for m in base_marks(text[index:]) if m.start == gap), None)
