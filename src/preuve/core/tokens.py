"""Token boundaries: where a quote may start and end without cutting a word or a number.

A quote that starts or ends inside a token changes what the page says: "38 500 k€" cut
from "138 500 k€", "-12" from "-12,5 %", "12,5 %" from "-12,5 %" (its sign dropped). A
position ``i`` of a text (between ``text[i - 1]`` and ``text[i]``) *cuts a token* when:

- it falls between two word characters (letters, combining marks and decimal digits;
  a superscript, subscript or circled digit is a token of its own, like a footnote mark);
- it falls next to a hyphen that joins two word characters (``P-12-03``, ``cash-flow``),
  or next to a point or comma between two digits;
- it falls strictly inside a number as the number parser reads it in either locale: its
  digits, thousands groups, decimals, its sign and its accounting parentheses
  (:func:`preuve.core.numbers.number_extents`).

The rules are the same for every tier; they are applied to the text a tier compares.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from preuve.core.numbers import is_word_char, measured_extents, number_extents, unit_extents
from preuve.core.qualifiers import severed_qualifier
from preuve.core.text import Normalized

__all__ = ["TokenCut", "TokenIndex", "cell_join"]

# Hyphens that join two word characters into one token (with the forms NFKC folds into
# them, so that every tier judges alike); an en dash does not (2024–2025).
_JOINING_HYPHENS = "-\u2010\u2011\ufe63\uff0d"


@dataclass(frozen=True, slots=True)
class TokenCut:
    """A quote edge that falls inside a token: which edge, and the token it cuts."""

    edge: str  # "start" or "end"
    token: str
    kind: str  # "word", "number", "measure" (a number with its unit or a range) or "qualifier"

    def describe(self) -> str:
        if self.kind == "qualifier":
            where = "after" if self.edge == "start" else "before"
            return f"the quote {self.edge}s right {where} «{self.token}», which qualifies it"
        if self.kind == "cells":
            return f"the quote joins table cells into the number «{self.token}»"
        if self.kind == "measure":
            return (
                f"the quote {self.edge}s inside the measure «{self.token}» (a number with its"
                " unit or scale, or a range with both bounds)"
            )
        return f"the quote {self.edge}s inside the {self.kind} «{self.token}»"


class TokenIndex:
    """The number extents of one text, found once, to judge many quote edges against it."""

    __slots__ = ("_ends", "_measures", "_original", "_starts", "_text")

    def __init__(self, text: str, original: tuple[str, Normalized] | None = None) -> None:
        self._text = text
        # The page ``text`` was normalized from, with the map: the qualifier check reads
        # the page's own line breaks and column gaps, which normalization collapses.
        self._original = original
        # Disjoint, sorted: overlapping readings (French and English) are merged.
        merged: list[list[int]] = []
        for start, end in sorted(number_extents(text)):
            if merged and start < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self._starts = tuple(m[0] for m in merged)
        self._ends = tuple(m[1] for m in merged)
        # A number with its physical or time unit is read on the page as written (a unit's
        # case tells "A" from "a", "US" from "us"), then mapped onto the normalized text.
        if original is None:
            units = unit_extents(text)
        else:
            page, normalized = original
            units = [
                (normalized.from_original(start), normalized.from_original(end))
                for start, end in unit_extents(page)
            ]
        self._measures = tuple(sorted(set(measured_extents(text) + units)))

    def _number_around(self, index: int) -> tuple[int, int] | None:
        k = bisect_right(self._starts, index - 1) - 1
        if k >= 0 and self._starts[k] < index < self._ends[k]:
            return self._starts[k], self._ends[k]
        return None

    def _measure_around(self, index: int) -> tuple[int, int] | None:
        """The widest number-with-unit or range that ``index`` falls strictly inside."""
        inside = [(s, e) for s, e in self._measures if s < index < e]
        return max(inside, key=lambda m: m[1] - m[0]) if inside else None

    def _word_around(self, index: int) -> tuple[int, int]:
        """The token around ``index``: word characters and joining hyphens, and a number
        glued to them whole ("5,5x", not "5x")."""
        text = self._text
        start = end = index
        while start > 0 and (is_word_char(text[start - 1]) or text[start - 1] in _JOINING_HYPHENS):
            start -= 1
        while end < len(text) and (is_word_char(text[end]) or text[end] in _JOINING_HYPHENS):
            end += 1
        k = bisect_right(self._starts, start) - 1
        if k >= 0 and self._starts[k] < start <= self._ends[k]:
            start = self._starts[k]
        k = bisect_right(self._starts, end - 1) - 1
        if k >= 0 and self._ends[k] > end:
            end = self._ends[k]
        return start, end

    def cuts_word(self, index: int) -> bool:
        """True when position ``index`` falls inside a word or a hyphenated compound."""
        text = self._text
        if not 0 < index < len(text):
            return False
        before, after = text[index - 1], text[index]
        if is_word_char(before) and is_word_char(after):
            return True
        # A point or comma between two digits belongs to them, whatever the reading.
        if after in ".," and before.isdigit() and text[index + 1 : index + 2].isdigit():
            return True
        if before in ".," and after.isdigit() and index >= 2 and text[index - 2].isdigit():
            return True
        if before in _JOINING_HYPHENS:
            return index >= 2 and is_word_char(text[index - 2]) and is_word_char(after)
        if after in _JOINING_HYPHENS:
            return index + 1 < len(text) and is_word_char(before) and is_word_char(text[index + 1])
        return False

    def cut(self, index: int, edge: str) -> TokenCut | None:
        """The token that position ``index`` cuts, if any (``edge`` names the quote edge)."""
        number = self._number_around(index)
        if number is not None:
            return TokenCut(edge, self._text[number[0] : number[1]], "number")
        if self.cuts_word(index):
            start, end = self._word_around(index)
            return TokenCut(edge, self._text[start:end], "word")
        return None

    def measure_cut(self, index: int, edge: str) -> TokenCut | None:
        """The number with its unit, or the range, that position ``index`` falls inside."""
        measure = self._measure_around(index)
        if measure is not None:
            return TokenCut(edge, self._text[measure[0] : measure[1]], "measure")
        return None

    def span_cut(self, start: int, end: int) -> TokenCut | None:
        """The first token that ``text[start:end]`` cuts at either edge, or the qualifier
        it severs (:mod:`preuve.core.qualifiers`), or None."""
        cut = self.cut(start, "start") or self.cut(end, "end")
        if cut is not None:
            return cut
        cut = self.measure_cut(start, "start") or self.measure_cut(end, "end")
        if cut is not None:
            return cut
        if self._original is not None and start < end:
            page, normalized = self._original
            start, end = normalized.to_original(start, end)
            severed = severed_qualifier(page, start, end)
        else:
            severed = severed_qualifier(self._text, start, end)
        return None if severed is None else TokenCut(severed[0], severed[1], "qualifier")


def cell_join(passage: str) -> TokenCut | None:
    """The number that table cells glue into once their ``|`` rule becomes a space
    ("6 | 540" reads "6 540", "850 | 910" reads "850 910"), for a quote that copies the
    cells without their rules; None when every number stays what its cell says."""
    if "|" not in passage:
        return None
    celled = set(number_extents(passage))
    rules = [i for i, char in enumerate(passage) if char == "|"]
    for start, end in number_extents(passage.replace("|", " ")):
        if (start, end) not in celled and any(start < i < end for i in rules):
            return TokenCut("end", passage[start:end], "cells")
    return None
