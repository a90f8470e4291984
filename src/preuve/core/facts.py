"""Identified facts: the only input a writer sees, one ``[ID] text`` line each.

Ids carry their kind as a prefix (``R-`` ratio, ``A-`` alert, ``Q-`` verified quote in
workflow 1) so a memo paragraph can cite exactly the facts its numbers come from, e.g.
``[R-ferlac-levier] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from preuve.core.errors import InputError

__all__ = ["Fact", "FactStructure", "FactValue", "parse_facts", "render_facts"]

_ID = re.compile(r"[^\s\[\]]+")
_LINE = re.compile(r"\[(?P<id>[^\s\[\]]+)\][ \t]+(?P<text>\S[^\r]*)")
_FORMAT_FIX = "write one fact per line as [ID] text; lines starting with # are comments"


@dataclass(frozen=True, slots=True)
class FactValue:
    """One value a fact gives: its signed value as written (not scaled by its unit), the
    metric and period it is for, and, when the fact states a change (``en baisse de
    17,2 %``), the direction of that change (``"up"`` or ``"down"``)."""

    value: Decimal
    unit: str | None = None
    metric: str | None = None
    period: str | None = None
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class FactStructure:
    """What a fact is about, as data: its subject (company), its metric and period when it
    has one, the values it gives, and the prose a claim's polarity is read against (a
    quote, an alert's message; empty for a bare ratio line)."""

    subject: str | None
    metric: str | None = None
    period: str | None = None
    values: tuple[FactValue, ...] = ()
    statement: str = ""


@dataclass(frozen=True, slots=True)
class Fact:
    """One identified fact: an id without spaces or brackets, and one line of text without
    surrounding whitespace (so that ``render_facts`` and ``parse_facts`` round-trip).

    ``structure`` is set by code that built the fact from data (ratios, alerts, quotes);
    for a fact read from a file it is None and :func:`preuve.core.factlines.structure_of`
    reads it from the documented line format. It takes no part in equality."""

    id: str
    text: str
    structure: FactStructure | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not _ID.fullmatch(self.id):
            raise ValueError(f"fact id must be non-empty, without spaces or brackets: {self.id!r}")
        if not self.text or self.text != self.text.strip() or re.search(r"[\r\n]", self.text):
            raise ValueError(f"fact [{self.id}] text must be one non-empty, stripped line")

    def render(self) -> str:
        return f"[{self.id}] {self.text}"


def parse_facts(text: str, *, source: str = "facts") -> list[Fact]:
    """Facts in file order. Blank lines and lines starting with ``#`` are skipped; a line
    that is not ``[ID] text`` or repeats an id raises ``InputError`` naming ``source`` and
    the line number."""
    facts: list[Fact] = []
    first_line: dict[str, int] = {}
    # Split on "\n" only, so line numbers are the ones an editor shows.
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _LINE.fullmatch(stripped)
        if match is None:
            raise InputError(
                f"{source} line {number}: expected '[ID] text', got {stripped[:60]!r}",
                fix=_FORMAT_FIX,
            )
        fact_id = match.group("id")
        if fact_id in first_line:
            raise InputError(
                f"{source} line {number}: duplicate fact id [{fact_id}] "
                f"(first on line {first_line[fact_id]})",
                fix="give every fact its own id",
            )
        first_line[fact_id] = number
        facts.append(Fact(fact_id, match.group("text").rstrip()))
    return facts


def render_facts(facts: Sequence[Fact]) -> str:
    """One ``[ID] text`` line per fact, each ending with a newline; ``parse_facts`` reads it
    back."""
    return "".join(f"{fact.render()}\n" for fact in facts)
