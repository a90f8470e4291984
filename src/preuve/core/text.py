"""Text normalization for quote checks, with an offset map back to the original text.

Two forms are declared, each with a map to the text it was made from:

* :func:`normalize` — the SPEC normalization (tier 1): Unicode NFKC, ``’`` → ``'``, ``|`` →
  space, every whitespace run → one space, strip, lowercase — except that no normalization
  changes a digit: superscripts, subscripts, circled, parenthesized and mathematical digits
  and vulgar fractions are kept as they are (``3¹`` is not ``31``, ``10²`` not ``102``,
  ``⑤`` not ``5``); fullwidth digits fold, being the same number. It also absorbs what PDF text
  extraction produces and that carries no meaning: ligatures (by NFKC), no-break, narrow
  no-break and other Unicode spaces (spaces), invisible format characters such as the
  soft hyphen or a left-to-right mark (removed), and U+FFFE, which pdfium emits for a
  hyphen it believes soft (``-``). End-of-line hyphenation is *not* joined: ``manage-`` +
  newline + ``ment`` stays ``manage- ment``.
* :func:`lenient` — the second, declared tier, built on a normalized text: it drops
  spaces, quotation marks, apostrophes and punctuation dashes, so that a quote whose
  spaces, curly quotes or dashes were lost or changed still matches. It keeps every
  letter, digit, ``.`` and ``,``, parenthesis and sign; a space between two numbers, a
  quote mark between digits and a dash in front of a number are kept too, so that cells
  are never merged and signs never vanish.

NFKC is applied per combining sequence (a base character and its combining marks), which
equals whole-text NFKC except for conjoining Hangul jamo, which extracted text does not
contain (syllables come precomposed).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

__all__ = ["Lenient", "Normalized", "lenient", "normalize", "normalize_quote"]

# Every character for which str.isspace() is true (pinned by a test against all of Unicode).
_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# Characters replaced one for one before NFKC: all of them are meaningless variants.
_ONE_FOR_ONE = {
    **dict.fromkeys(_WHITESPACE, " "),
    "|": " ",  # table rules and cell separators from extraction
    "\u2019": "'",  # typographic apostrophe
    "\ufffe": "-",  # pdfium's marker for a hyphen it believes soft
}

# Categories of characters that belong to the sequence before them (see _attaches).
_ATTACHING = frozenset({"Mn", "Mc", "Me", "Cf"})
# Edge characters stripped from a quote only (models add final periods and quote marks).
_QUOTE_EDGE = " .;:,«»\"'“”‘’„‟‹›"


def _is_simple(char: str) -> bool:
    """True when a non-ASCII character maps to one character on its own, whatever surrounds it.

    Such characters take the fast path (replaced, lowercased in bulk); every other
    character is normalized with its combining marks, one sequence at a time.
    """
    if char in _ONE_FOR_ONE:
        return True
    category = unicodedata.category(char)
    if category[0] in "MC" or char.isspace():
        return False
    lowered = char.lower()
    return (
        unicodedata.normalize("NFKC", char) == char
        and len(lowered) == 1
        and unicodedata.normalize("NFKC", lowered) == lowered
    )


def _simple_chars() -> frozenset[str]:
    # Latin-1 and Latin Extended, general punctuation, currency signs: the non-ASCII
    # characters real filings are made of. Greek is left out on purpose (final sigma).
    candidates = [*range(0x80, 0x250), *range(0x2010, 0x205F), *range(0x20A0, 0x20D0)]
    return frozenset(c for c in map(chr, candidates) if _is_simple(c))


_SIMPLE = _simple_chars()
# After the one-for-one replacements, a match is a run the fast path cannot take as it
# is: spaces to collapse into one, or non-ASCII characters, some of which NFKC,
# lowercasing or removal may change in length.
_SLOW = re.compile(r"  +|[^\x00-\x7f]+")


def _one_for_one(text: str) -> str:
    # str.replace per present character is many times faster than str.translate here.
    for char, replacement in _ONE_FOR_ONE.items():
        if char in text:
            text = text.replace(char, replacement)
    return text


@dataclass(frozen=True, slots=True)
class Normalized:
    """A normalized text and, for each of its characters, the original range it came from.

    The map is piecewise: a *linear* segment maps character ``i`` to one original
    character; a block segment (a collapsed whitespace run, an expanded ligature, a
    composed sequence) maps all its characters to the whole original range.
    """

    text: str
    original_length: int
    seg_start: tuple[int, ...]  # normalized index where each segment starts
    seg_orig_start: tuple[int, ...]
    seg_orig_end: tuple[int, ...]
    seg_linear: tuple[bool, ...]

    def char_range(self, index: int) -> tuple[int, int]:
        """The original half-open range that normalized character ``index`` came from."""
        if not 0 <= index < len(self.text):
            raise IndexError(f"normalized index {index} outside 0..{len(self.text) - 1}")
        k = bisect_right(self.seg_start, index) - 1
        if self.seg_linear[k]:
            at = self.seg_orig_start[k] + index - self.seg_start[k]
            return at, at + 1
        return self.seg_orig_start[k], self.seg_orig_end[k]

    def from_original(self, position: int) -> int:
        """The normalized index of the first character that comes from original
        ``position`` or after it (a boundary of the original maps to a boundary here)."""
        k = bisect_right(self.seg_orig_start, position) - 1
        if k < 0:
            return 0
        if position < self.seg_orig_end[k]:
            if self.seg_linear[k]:
                return self.seg_start[k] + position - self.seg_orig_start[k]
            if position == self.seg_orig_start[k]:
                return self.seg_start[k]
        return self.seg_start[k + 1] if k + 1 < len(self.seg_start) else len(self.text)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map normalized ``[start, end)`` to the original ``[s, e)`` that covers it."""
        if not 0 <= start <= end <= len(self.text):
            raise IndexError(f"normalized range [{start}, {end}) outside 0..{len(self.text)}")
        if start == end:
            at = (
                self.char_range(start)[0]
                if start < len(self.text)
                else (self.char_range(start - 1)[1] if start else 0)
            )
            return at, at
        return self.char_range(start)[0], self.char_range(end - 1)[1]


class _Builder:
    """Accumulates normalized pieces and their segments; collapses spaces across pieces."""

    __slots__ = ("length", "linear", "orig_end", "orig_start", "parts", "start")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.start: list[int] = []
        self.orig_start: list[int] = []
        self.orig_end: list[int] = []
        self.linear: list[bool] = []

    def ends_with_space(self) -> bool:
        return not self.parts or self.parts[-1][-1] == " "

    def ends_linear_at(self, position: int) -> bool:
        """True when the last character added is original ``position - 1``, taken as is."""
        return bool(self.linear) and self.linear[-1] and self.orig_end[-1] == position

    def add_linear(self, piece: str, orig_start: int) -> None:
        # A piece never holds two spaces in a row (the regex sends runs elsewhere), but it
        # may start with one right after a space: drop it, as collapsing requires.
        if piece[:1] == " " and self.ends_with_space():
            piece, orig_start = piece[1:], orig_start + 1
        if not piece:
            return
        self._segment(piece, orig_start, orig_start + len(piece), linear=True)

    def add_block(self, mapped: str, orig_start: int, orig_end: int) -> None:
        kept: list[str] = []
        last_space = self.ends_with_space()
        for char in mapped:
            is_space = char.isspace()
            if is_space and last_space:
                continue
            kept.append(" " if is_space else char)
            last_space = is_space
        if kept:
            self._segment("".join(kept), orig_start, orig_end, linear=False)

    def drop_last_char(self) -> None:
        last = self.parts[-1][:-1]
        self.length -= 1
        if self.linear[-1]:
            self.orig_end[-1] -= 1
        if last:
            self.parts[-1] = last
            return
        for column in (self.parts, self.start, self.orig_start, self.orig_end, self.linear):
            column.pop()

    def _segment(self, piece: str, orig_start: int, orig_end: int, *, linear: bool) -> None:
        self.parts.append(piece)
        self.start.append(self.length)
        self.orig_start.append(orig_start)
        self.orig_end.append(orig_end)
        self.linear.append(linear)
        self.length += len(piece)

    def build(self, original_length: int) -> Normalized:
        if self.parts and self.parts[-1][-1] == " ":
            self.drop_last_char()
        return Normalized(
            "".join(self.parts),
            original_length,
            tuple(self.start),
            tuple(self.orig_start),
            tuple(self.orig_end),
            tuple(self.linear),
        )


_FULLWIDTH_DIGITS = frozenset(map(chr, range(0xFF10, 0xFF1A)))


@lru_cache(maxsize=4096)
def _keeps_its_digits(char: str) -> bool:
    """True for a character that NFKC would turn into other digits: a superscript, a
    subscript, a circled or parenthesized number, a vulgar fraction, a mathematical or
    other compatibility digit. Such characters are kept as they are (``3¹`` is not ``31``);
    fullwidth digits are the same number and fold."""
    if char in _FULLWIDTH_DIGITS or "0" <= char <= "9":
        return False
    folded = unicodedata.normalize("NFKC", char)
    return folded != char and any(c.isdigit() or c.isnumeric() for c in folded)


def _normalize_sequence(sequence: str) -> str:
    """Normalize one combining sequence: one-for-one replacements, format chars out, NFKC
    (canonical composition only when NFKC would change a digit)."""
    mapped = "".join(
        "" if unicodedata.category(c) == "Cf" else _ONE_FOR_ONE.get(c, c) for c in sequence
    )
    if any(_keeps_its_digits(c) for c in mapped):
        return unicodedata.normalize("NFC", mapped).lower()
    return unicodedata.normalize("NFKC", mapped).lower()


def _attaches(char: str) -> bool:
    """True for a character that belongs to the sequence before it: a combining mark, or
    an invisible format character (removed, it must not split a base from its mark)."""
    return unicodedata.combining(char) != 0 or unicodedata.category(char) in _ATTACHING


def _add_complex_run(builder: _Builder, text: str, start: int, end: int) -> None:
    """Add ``text[start:end]`` (non-ASCII characters) one combining sequence at a time."""
    seq_start = start
    if _attaches(text[start]) and builder.ends_linear_at(start):
        # A combining mark after a fast-path character composes with it: take it back.
        builder.drop_last_char()
        seq_start = start - 1
    for index in range(start + 1, end + 1):
        if index == end or not _attaches(text[index]):
            normalized = _normalize_sequence(text[seq_start:index])
            builder.add_block(normalized, seq_start, index)
            seq_start = index


def normalize(text: str) -> Normalized:
    """The SPEC normalization of ``text`` with its map back to ``text`` (see module doc)."""
    builder = _Builder()
    replaced = _one_for_one(text)  # same length: every replacement is one for one
    position = 0  # start of the pending fast-path run
    for match in _SLOW.finditer(replaced):
        start, end = match.span()
        if replaced[start] == " ":
            if start > position:
                builder.add_linear(replaced[position:start].lower(), position)
            builder.add_block(" ", start, end)
            position = end
            continue
        index = start
        while index < end:
            if replaced[index] in _SIMPLE:
                index += 1
                continue
            complex_end = index + 1
            while complex_end < end and replaced[complex_end] not in _SIMPLE:
                complex_end += 1
            if index > position:
                builder.add_linear(replaced[position:index].lower(), position)
            _add_complex_run(builder, text, index, complex_end)
            position = index = complex_end
    if position < len(text):
        builder.add_linear(replaced[position:].lower(), position)
    return builder.build(len(text))


def _strip_quote_edges(quote: str) -> str:
    # A "." or "," in front of a digit is part of a number (".5"): never strip it.
    start, end = 0, len(quote)
    while start < end and quote[start] in _QUOTE_EDGE:
        if quote[start] in ".," and start + 1 < end and quote[start + 1].isdigit():
            break
        start += 1
    while end > start and quote[end - 1] in _QUOTE_EDGE:
        end -= 1
    return quote[start:end]


def normalize_quote(quote: str) -> str:
    """A model's quote, normalized, without the punctuation and quote marks at its edges."""
    return _strip_quote_edges(normalize(quote).text)


# -- the lenient tier --------------------------------------------------------------------

_QUOTE_MARKS = "'\"\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f«»\u2039\u203a`\u00b4\u02bc"
_HYPHENS = "-\u2010\u2012\u2013"  # hyphen-minus, hyphen, figure dash, en dash
_DASHES = "\u2014\u2015"  # em dash, horizontal bar: punctuation unless before a number
_MINUS = "\u2212"  # the minus sign is always a sign
_SIGN_TARGET = "0123456789$€£¥₹"
_MARKS = re.compile("[" + re.escape(_QUOTE_MARKS + _HYPHENS + _DASHES + _MINUS) + "]")
# A space is dropped unless it separates two numbers (two cells must never merge).
# (Written to start with a literal space, which the regex engine searches for fast.)
_DROPPED_SPACE = re.compile(r" (?:(?![0-9])|(?<![0-9.,] ))")


@dataclass(frozen=True, slots=True)
class Lenient:
    """A lenient form and, for each of its characters, the index it came from.

    The map is piecewise linear: character ``i`` of ``text`` is character
    ``seg_source[k] + (i - seg_start[k])`` of the source, ``k`` its segment.
    """

    text: str
    seg_start: tuple[int, ...]
    seg_source: tuple[int, ...]

    def source_index(self, index: int) -> int:
        """Index, in the text this form was made from, of lenient character ``index``."""
        if not 0 <= index < len(self.text):
            raise IndexError(f"lenient index {index} outside 0..{len(self.text) - 1}")
        k = bisect_right(self.seg_start, index) - 1
        return self.seg_source[k] + index - self.seg_start[k]


def _mark_replacement(text: str, index: int) -> str:
    """What a quote mark or dash at ``text[index]`` becomes: itself as ``'``/``-``, or nothing."""
    char = text[index]
    before = text[index - 1] if index else " "
    after = text[index + 1] if index + 1 < len(text) else " "
    if char in _QUOTE_MARKS:
        # Between digits a quote mark is a thousands separator (5'000): keep it.
        return "'" if before.isdigit() and after.isdigit() else ""
    if char in _MINUS:
        return "-"
    following = text[index + 2] if after == " " and index + 2 < len(text) else after
    if following in _SIGN_TARGET:
        return "-"  # a sign, or a range between numbers
    if char in _DASHES or (before == " " and after == " "):
        return ""  # punctuation dash
    return "-"  # a hyphen inside a word; end-of-line hyphens are not joined


def _drop_marks(text: str) -> tuple[str, list[int], list[int]]:
    """Stage 1: quote marks and dashes replaced or dropped, with the piecewise map."""
    pieces: list[str] = []
    starts: list[int] = []
    sources: list[int] = []
    length = position = 0
    segment_source = 0  # a new segment starts only where a mark is dropped
    for match in _MARKS.finditer(text):
        index = match.start()
        replacement = _mark_replacement(text, index)
        pieces.append(text[position:index] + replacement)
        if not replacement:
            starts.append(length)
            sources.append(segment_source)
            length += index - segment_source
            segment_source = index + 1
        position = index + 1
    pieces.append(text[position:])
    starts.append(length)
    sources.append(segment_source)
    return "".join(pieces), starts, sources


def _compose(
    outer: tuple[list[int], list[int], int], inner: tuple[list[int], list[int]]
) -> tuple[list[int], list[int]]:
    """Piecewise-linear maps composed: (C → B) after (B → A) gives C → A."""
    outer_starts, outer_sources, total = outer
    inner_starts, inner_sources = inner
    if not outer_starts:
        return [], []
    bounds = [*inner_starts[1:], sys.maxsize]  # where each inner segment ends
    deltas = [source - start for start, source in zip(inner_starts, inner_sources, strict=True)]
    starts: list[int] = []
    sources: list[int] = []
    j, bound, delta = 0, bounds[0], deltas[0]
    ends = [*outer_starts[1:], total]
    for outer_start, outer_source, end in zip(outer_starts, outer_sources, ends, strict=True):
        while outer_source >= bound:
            j += 1
            bound, delta = bounds[j], deltas[j]
        starts.append(outer_start)
        sources.append(outer_source + delta)
        start, source = outer_start, outer_source
        source_end = source + end - start
        while source_end > bound:  # the segment spans a dropped mark: split it there
            start, source = start + bound - source, bound
            j += 1
            bound, delta = bounds[j], deltas[j]
            starts.append(start)
            sources.append(source + delta)
    return starts, sources


def lenient(text: str) -> Lenient:
    """The lenient form of an already normalized ``text`` (see the module docstring)."""
    marked, mark_starts, mark_sources = _drop_marks(text)
    # Stage 2 judges spaces after stage 1, so a dropped mark cannot glue two numbers.
    chunks = _DROPPED_SPACE.split(marked)
    lengths = [len(chunk) for chunk in chunks]
    # Chunk k starts at sum(lengths[:k]) + k in stage 1: one dropped space before each.
    positions = list(accumulate(lengths, lambda at, n: at + n + 1, initial=0))
    starts = [at - k for k, at in enumerate(positions[:-1]) if lengths[k]]
    sources = [at for k, at in enumerate(positions[:-1]) if lengths[k]]
    length = sum(lengths)
    if len(mark_starts) > 1:
        starts, sources = _compose((starts, sources, length), (mark_starts, mark_sources))
    return Lenient("".join(chunks), tuple(starts), tuple(sources))
