"""Value columns by x-position, for a row printed with a blank cell.

PDF text gives a row with a blank cell as fewer values than columns (``Tax assessment
refunds 101`` under ``2021 2020 2019``): from the text alone the value could be any
year's. With the characters' x-positions (pypdfium2, :func:`preuve.io.pdf.char_lefts`),
each value goes to the column whose *anchor* is nearest its last digit: the median x of
that column's last digits over the complete rows read so far, else the header year's
last digit. A value is placed only when it is within half the gap between two columns of
its anchor, and the values stay in column order, one per column; otherwise the row is
left out (missed, never misplaced).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from preuve.memo.entities import entities_by_x, mention_spans

__all__ = [
    "ColumnAnchors",
    "aligned",
    "digit_x",
    "entities_placed",
    "header_centres",
    "header_xs",
    "place",
    "place_run",
    "spans_xs",
    "value_pattern",
    "widen_column_gaps",
]

# A year, or a fiscal year over two (``2024/2025``): its last digit ends the column.
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?:[/-](?:19|20)?\d\d)?(?!\d)")


@functools.lru_cache(maxsize=4096)
def value_pattern(raw: str) -> re.Pattern[str]:
    """A value as printed, its thousands separated by any space (``61 300``)."""
    parts = [re.escape(part) for part in re.split(r"[\u202f\u00a0 ]", raw)]
    return re.compile(r"[ \u00a0\u202f]*".join(parts))


def digit_x(lefts: Sequence[float], start: int, end: int) -> float | None:
    """The x of the last digit of ``text[start:end]``'s span, from the page's ``lefts``
    (``None`` when unknown)."""
    for index in range(min(end, len(lefts)) - 1, start - 1, -1):
        x = lefts[index]
        if not math.isnan(x):
            return x
    return None


def header_xs(line: str, offset: int, lefts: Sequence[float], columns: int) -> tuple[float, ...]:
    """The x of each year's last digit on a column line, when it names ``columns`` years."""
    years = list(_YEAR.finditer(line))
    if len(years) != columns:
        return ()
    xs = [digit_x(lefts, offset + m.start(), offset + m.end()) for m in years]
    return tuple(x for x in xs if x is not None) if None not in xs else ()


def header_centres(
    line: str, offset: int, lefts: Sequence[float], columns: int
) -> tuple[float, ...]:
    """The x of the middle of each year on a column line, when it names ``columns`` years
    (where a label centred over its columns is compared with them)."""
    years = list(_YEAR.finditer(line))
    if len(years) != columns or offset + len(line) > len(lefts):
        return ()
    xs = [(lefts[offset + m.start()] + lefts[offset + m.end() - 1]) / 2 for m in years]
    return () if any(math.isnan(x) for x in xs) else tuple(xs)


@dataclass(slots=True)
class ColumnAnchors:
    """Where each column's values end on the page: from the header line, then the
    complete rows. Spans are kept and read as x-positions only when a blank cell needs
    them, so a page without one never has its positions read."""

    line: str
    offset: int
    columns: int
    rows: list[list[tuple[int, int]]] = field(default_factory=list)

    def observe(self, spans: Sequence[tuple[int, int]]) -> None:
        """The page spans of a complete row's values."""
        if len(spans) == self.columns:
            self.rows.append(list(spans))

    def anchors(self, lefts: Sequence[float]) -> tuple[float, ...]:
        seen = [
            [x for row in self.rows if (x := digit_x(lefts, *row[i])) is not None]
            for i in range(self.columns)
        ]
        if self.rows and all(seen):
            return tuple(statistics.median(column) for column in seen)
        return header_xs(self.line, self.offset, lefts, self.columns)


def place(xs: Sequence[float], anchors: Sequence[float]) -> list[int] | None:
    """The column of each value (by its last digit's x), or None when any is doubtful."""
    if len(anchors) < 2 or not xs or len(xs) >= len(anchors):
        return None
    gaps = [b - a for a, b in itertools.pairwise(anchors)]
    if min(gaps) <= 0:
        return None  # columns not left to right: no placement
    tolerance = min(gaps) / 2
    chosen: list[int] = []
    for x in xs:
        column = min(range(len(anchors)), key=lambda i: abs(anchors[i] - x))
        if abs(anchors[column] - x) >= tolerance or (chosen and column <= chosen[-1]):
            return None
        chosen.append(column)
    return chosen


def aligned(xs: Sequence[float], anchors: Sequence[float]) -> bool:
    """Whether values ending at ``xs`` (one per column, in order) sit in their columns:
    each last digit within half the narrowest column gap of its column's anchor."""
    if len(anchors) < 2 or len(xs) != len(anchors):
        return False
    gaps = [b - a for a, b in itertools.pairwise(anchors)]
    if min(gaps) <= 0:
        return False
    tolerance = min(gaps) / 2
    return all(abs(x - a) < tolerance for x, a in zip(xs, anchors, strict=True))


def spans_xs(lefts: Sequence[float], spans: Sequence[tuple[int, int]]) -> list[float] | None:
    """The x of each span's last digit, or None when any is unknown."""
    xs = [digit_x(lefts, a, b) for a, b in spans]
    return None if None in xs else [x for x in xs if x is not None]


def place_run(
    line: str, offset: int, raws: Sequence[str], lefts: Sequence[float], anchors: ColumnAnchors
) -> list[tuple[int, int, int]] | None:
    """(column, start, end) in the page of each value ending ``line`` (found from the line's
    end), or None when any value cannot be placed surely."""
    spans: list[tuple[int, int]] = []
    end = len(line)
    for raw in reversed(raws):
        found = list(value_pattern(raw).finditer(line, 0, end))
        if not found:
            return None
        spans.insert(0, (offset + found[-1].start(), offset + found[-1].end()))
        end = found[-1].start()
    xs = [digit_x(lefts, a, b) for a, b in spans]
    if None in xs:
        return None
    columns = place([x for x in xs if x is not None], anchors.anchors(lefts))
    if columns is None:
        return None
    return [(column, a, b) for column, (a, b) in zip(columns, spans, strict=True)]


_SPACE_BETWEEN_FIGURES = re.compile(r"(?<=[\d)]) (?=[-−–(]?\d)")
# A blank between two figures wider than this many digit advances is a column gap, never
# a thousands separator (a separator is one space: about 1.5 advances).
_COLUMN_GAP = 3.0


def widen_column_gaps(line: str, offset: int, lefts: Sequence[float]) -> str:
    """``line`` with each single blank between two figures that the page prints as a
    column gap (``186 420      201 870``, which PDF text gives as ``186 420 201 870``)
    doubled, so that a reader never joins the two columns' figures into one amount."""
    advances = [
        b - a
        for i, (a, b) in enumerate(itertools.pairwise(lefts[offset : offset + len(line)]))
        if line[i].isdigit() and line[i + 1].isdigit() and b > a
    ]
    if not advances:
        return line
    advance = statistics.median(advances)
    pieces: list[str] = []
    last = 0
    for match in _SPACE_BETWEEN_FIGURES.finditer(line):
        before, after = offset + match.start() - 1, offset + match.end()
        if after >= len(lefts):
            break
        gap = lefts[after] - lefts[before]
        if not math.isnan(gap) and gap > _COLUMN_GAP * advance:
            pieces.append(line[last : match.start()] + "  ")
            last = match.end()
    return "".join(pieces) + line[last:] if pieces else line


def entities_placed(
    labels: tuple[str, int], heading: ColumnAnchors, lefts: Sequence[float], keys: Sequence[object]
) -> tuple[str, ...] | None:
    """Each column's entity from where its label is printed (``labels``: the label line and
    its offset in the page; ``heading``: the column line's): the label whose middle is
    nearest the middle of the column's year (:func:`preuve.memo.entities.entities_by_x`)."""
    line, offset = labels
    mentions = [
        (kind, (lefts[offset + a] + lefts[offset + b - 1]) / 2)
        for kind, a, b in mention_spans(line)
        if offset + b <= len(lefts)
    ]
    centres = header_centres(heading.line, heading.offset, lefts, len(keys))
    return entities_by_x([m for m in mentions if not math.isnan(m[1])], centres, keys)
