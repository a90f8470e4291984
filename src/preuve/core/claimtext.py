"""Reading a sentence for the claim checks: folding, segments, periods and cue words.

Pure functions over a text and the positions of its number tokens (as
:func:`preuve.core.numbers.extract_numbers` gives them), shared by the paragraph side and
the fact side of :mod:`preuve.core.claims`, so both are read the same way.

- :func:`fold` lowercases, strips accents and straightens apostrophes *without changing
  the length*, so an offset in the folded copy is an offset in the text.
- Segments: *sentences* (``. ! ?`` not inside a number), *clauses* (also cut at ``, ; :``,
  parentheses and linking words such as et/and/contre/versus) and *scopes* (sentences cut
  at ``;`` and at contrasting or joining conjunctions), each a ``(start, end)`` pair.
- Periods: a year (``2025``, ``fin 2025``, ``FY2025``), a quarter (``T3 2025``, ``Q3
  2025``, ``3e trimestre 2025``, ``third quarter of 2025``), a half (``S1 2025``, ``H1
  2025``, ``premier semestre 2025``), the first months of a year (``nine months to
  September 2025``, ``neuf premiers mois de 2025``, ``9M 2025``: ``2025-9M``), a range
  (``entre 2024 et 2025``: no single period),
  and "the year before" (``un an plus tôt``, ``a year earlier``), resolved against the
  nearest year written before it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "ANY_YEAR",
    "Cue",
    "PeriodMention",
    "clauses",
    "cues",
    "fold",
    "period_key",
    "period_mentions",
    "scopes",
    "segment_of",
    "sentences",
    "words",
]

Segment = tuple[int, int]


def _fold_char(char: str) -> str:
    if char in "’‘ʼ`´":
        return "'"
    if char in "\u00a0\u202f\u2009\u2007":
        return " "
    if char in "‐‑‒–—":
        return "-"
    plain = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    lowered = plain.lower()
    return lowered if len(lowered) == 1 else char.lower()[:1] or char


def fold(text: str) -> str:
    """Lower case, no accents, straight apostrophes, plain spaces; same length as ``text``."""
    return "".join(_fold_char(c) for c in text)


_WORD = re.compile(r"[^\W\d_]+")


def words(folded: str, start: int = 0, end: int | None = None) -> list[tuple[int, int, str]]:
    """``(start, end, word)`` of each run of letters of ``folded[start:end]``."""
    stop = len(folded) if end is None else end
    return [(m.start(), m.end(), m.group()) for m in _WORD.finditer(folded, start, stop)]


def _inside(position: int, protected: Sequence[Segment]) -> bool:
    return any(start <= position < end for start, end in protected)


_ABBREVIATION = re.compile(r"(?:\b[a-z]|\bpp|\binc|\bcorp|\bltd|\bco|\bvs|\bcf|\bno|\bart|\betc)$")
_SENTENCE_END = re.compile(r"[.!?…]+(?=\s|$|[»\"')])")


def _cut(text: str, cuts: list[Segment]) -> list[Segment]:
    segments, position = [], 0
    for cut_start, cut_end in sorted(cuts):
        if cut_start >= position:
            if text[position:cut_start].strip():
                segments.append((position, cut_start))
            position = cut_end
        position = max(position, cut_end)
    if text[position:].strip():
        segments.append((position, len(text)))
    return segments or [(0, len(text))]


def _sentence_cuts(text: str, protected: Sequence[Segment]) -> list[Segment]:
    folded = fold(text)
    return [
        m.span()
        for m in _SENTENCE_END.finditer(text)
        if not _inside(m.start(), protected) and not _ABBREVIATION.search(folded[: m.start()])
    ]


def sentences(text: str, protected: Sequence[Segment] = ()) -> list[Segment]:
    """Sentences of ``text``; a point inside a protected span (a number) does not end one."""
    return _cut(text, _sentence_cuts(text, protected))


_CLAUSE_MARK = re.compile(r"[,;:()\[\]]")
_CLAUSE_WORD = re.compile(
    r"\b(?:et|and|mais|but|tandis qu(?:e\b|')|alors qu(?:e\b|')|whereas|while|contre|versus|vs|"
    r"compared with|compared to|par rapport (?:a|au|aux)|face (?:a|au|aux))\b"
)
_SCOPE_MARK = re.compile(r";")
_SCOPE_WORD = re.compile(
    r"\b(?:et|and|mais|but|tandis qu(?:e\b|')|alors qu(?:e\b|')|whereas|while)(?:\b|(?<='))"
)


def _word_cuts(folded: str, pattern: re.Pattern[str], keep: Sequence[Segment]) -> list[Segment]:
    return [m.span() for m in pattern.finditer(folded) if not _inside(m.start(), keep)]


def clauses(
    text: str, protected: Sequence[Segment] = (), keep: Sequence[Segment] = ()
) -> list[Segment]:
    """Clauses of ``text``: sentences cut at punctuation and linking words, except inside
    ``protected`` (numbers) and ``keep`` (period ranges such as ``entre 2024 et 2025``)."""
    folded = fold(text)
    cuts = _sentence_cuts(text, protected)
    cuts += [m.span() for m in _CLAUSE_MARK.finditer(text) if not _inside(m.start(), protected)]
    cuts += _word_cuts(folded, _CLAUSE_WORD, [*protected, *keep])
    return _cut(text, cuts)


def scopes(
    text: str, protected: Sequence[Segment] = (), keep: Sequence[Segment] = ()
) -> list[Segment]:
    """Where a direction word applies: sentences cut at ``;`` and at conjunctions."""
    folded = fold(text)
    cuts = _sentence_cuts(text, protected)
    cuts += [m.span() for m in _SCOPE_MARK.finditer(text) if not _inside(m.start(), protected)]
    cuts += _word_cuts(folded, _SCOPE_WORD, [*protected, *keep])
    return _cut(text, cuts)


def segment_of(position: int, segments: Sequence[Segment]) -> Segment:
    """The segment holding ``position`` (the last one starting before it otherwise)."""
    found = segments[0]
    for segment in segments:
        if segment[0] <= position:
            found = segment
    return found


# --- Periods ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PeriodMention:
    """A period written in a text: ``period`` is ``"2025"``, ``"2025-Q3"``, ``"2025-H1"``,
    ``"2025-9M"``, :data:`ANY_YEAR` for a whole year whose year is not written (``full-year
    revenue``), or None for a range (``entre 2024 et 2025``), which states no single
    period."""

    start: int
    end: int
    period: str | None


_YEAR = r"(?:19|20)\d\d"
ANY_YEAR = "full-year"
"""The period of a whole-year phrase with no year written in its text ("full-year
revenue"): a whole year, which one unsaid; never a half, a quarter or months of one."""
_ORDINAL_QUARTER = {
    "1": "1", "premier": "1", "1er": "1", "first": "1", "1st": "1",
    "2": "2", "deuxieme": "2", "second": "2", "2e": "2", "2eme": "2", "2nd": "2",
    "3": "3", "troisieme": "3", "third": "3", "3e": "3", "3eme": "3", "3rd": "3",
    "4": "4", "quatrieme": "4", "fourth": "4", "4e": "4", "4eme": "4", "4th": "4",
}  # fmt: skip
_ORDINAL = "|".join(sorted(map(re.escape, _ORDINAL_QUARTER), key=len, reverse=True))
# A count of months from the start of a year (written in words or figures).
_MONTH_COUNT = {
    "two": 2, "deux": 2, "three": 3, "trois": 3, "four": 4, "quatre": 4, "five": 5, "cinq": 5,
    "six": 6, "seven": 7, "sept": 7, "eight": 8, "huit": 8, "nine": 9, "neuf": 9,
    "ten": 10, "dix": 10, "eleven": 11, "onze": 11, "twelve": 12, "douze": 12,
    **{str(n): n for n in range(2, 13)},
}  # fmt: skip
_COUNT = "|".join(sorted(_MONTH_COUNT, key=len, reverse=True))
# "nine months to/ended (30) September (30,) 2025", "(the) first nine months of 2025".
_MONTHS_EN = (
    rf"\b(?:first\s+)?({_COUNT})\s+months\s+(?:to|ended|ending|through|of)\s+(?:the\s+)?"
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+)?(?:[a-z]{{3,9}}\.?\s+)?(?:\d{{1,2}},?\s+)?"
    rf"(?:fy\s?|fiscal\s+)?({_YEAR})\b"
)
# "neuf premiers mois de (l'exercice) 2025", "neuf mois clos le 30 septembre 2025".
_MONTHS_FR = (
    rf"\b({_COUNT})\s+(?:premiers\s+)?mois\s+(?:de\s+l'exercice\s+|de\s+|d'|"
    rf"(?:clos|arretes?|termines?)\s+(?:le\s+|au\s+|fin\s+)?|au\s+|a\s+fin\s+)"
    rf"(?:\d{{1,2}}(?:er)?\s+)?(?:[a-z]{{3,9}}\s+)?({_YEAR})\b"
)
_PERIOD_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(_MONTHS_EN), "months"),
    (re.compile(_MONTHS_FR), "months"),
    (re.compile(rf"\b({_COUNT})m\s?({_YEAR})\b"), "months"),
    (
        re.compile(
            rf"\b(?:entre|between|de|from)\s+(?:l'exercice\s+|fy\s?)?({_YEAR})\s+"
            rf"(?:et|and|a|to)\s+(?:l'exercice\s+|fy\s?)?({_YEAR})\b"
        ),
        "range",
    ),
    (re.compile(rf"(?<![\w-])({_YEAR})\s?[-/]\s?({_YEAR}|\d\d)(?![\d\w])"), "range"),
    (
        re.compile(
            rf"\b(?:depuis|since|a partir de|as from|as of|starting|jusqu'en|jusqu'a|until|"
            rf"d'ici|by|avant|before|apres|after)\s+(?:(?:l'exercice|fin|end|the end of)\s+)?"
            rf"(?:fy\s?)?({_YEAR})\b"
        ),
        "range",
    ),
    (re.compile(rf"\b[qt]([1-4])\s?(?:de\s+|of\s+)?({_YEAR})\b"), "quarter"),
    (re.compile(rf"\b({_YEAR})\s?[-\s]?[qt]([1-4])\b"), "quarter-after"),
    (
        re.compile(
            rf"\b({_ORDINAL})\s+(?:trimestre|quarter)\s+(?:de\s+l'exercice\s+|de\s+|d'|of\s+)?"
            rf"(?:fy\s?)?({_YEAR})\b"
        ),
        "quarter",
    ),
    (re.compile(rf"\b[hs]([12])\s?(?:de\s+|of\s+)?({_YEAR})\b"), "half"),
    (
        re.compile(
            rf"\b({_ORDINAL})\s+(?:semestre|half)\s+(?:de\s+l'exercice\s+|de\s+|d'|of\s+)?"
            rf"(?:fy\s?)?({_YEAR})\b"
        ),
        "half",
    ),
    (re.compile(rf"\bfy\s?({_YEAR})\b"), "year"),
    (re.compile(rf"(?<![\d\w])({_YEAR})(?![\d\w]|,\d|\.\d)"), "year"),
)


def _period_of(kind: str, match: re.Match[str]) -> str | None:
    if kind == "range":
        return None
    if kind == "year":
        return match.group(1)
    if kind == "quarter-after":
        return f"{match.group(1)}-Q{match.group(2)}"
    if kind == "months":
        count, year = _MONTH_COUNT[match.group(1)], match.group(2)
        return {12: year, 6: f"{year}-H1", 3: f"{year}-Q1"}.get(count, f"{year}-{count}M")
    ordinal = _ORDINAL_QUARTER.get(match.group(1), match.group(1))
    if kind == "quarter":
        return f"{match.group(2)}-Q{ordinal}"
    return f"{match.group(2)}-H{ordinal}" if ordinal in "12" else None


@lru_cache(maxsize=64)
def _words_pattern(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    if not patterns:
        return None
    return re.compile(rf"(?<![\w-])(?:{'|'.join(patterns)})(?![\w-])")


# A quarter or half without its year ("au T4", "in H1"): the year is the sentence's.
_PART_NO_YEAR: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<![\w-])([qt])([1-4])(?![\w-])"), "Q"),
    (re.compile(r"(?<![\w-])([hs])([12])(?![\w-])"), "H"),
    (re.compile(rf"\b({_ORDINAL})\s+(trimestre|quarter)\b"), "Q"),
    (re.compile(rf"\b({_ORDINAL})\s+(semestre|half)\b"), "H"),
)


def period_mentions(
    text: str,
    protected: Sequence[Segment] = (),
    prior: tuple[str, ...] = (),
    whole_year: tuple[str, ...] = (),
) -> list[PeriodMention]:
    """Every period written in ``text``, in order, none overlapping another; digits inside
    ``protected`` spans (number tokens that are not years) are never read as a year.
    ``prior`` are patterns for "the year before", ``whole_year`` for "the whole year"
    (see the lexicon); they, and a quarter or half without its year, take the year of the
    nearest year written before them (else after)."""
    folded = fold(text)
    taken: list[Segment] = list(protected)
    found: list[PeriodMention] = []
    for pattern, kind in _PERIOD_PATTERNS:
        for match in pattern.finditer(folded):
            start, end = match.span()
            if any(s < end and start < e for s, e in taken):
                continue
            taken.append((start, end))
            found.append(PeriodMention(start, end, _period_of(kind, match)))
    found.sort(key=lambda p: p.start)
    relative: list[tuple[int, int, str]] = []
    for pattern, part in _PART_NO_YEAR:
        for match in pattern.finditer(folded):
            number = _ORDINAL_QUARTER.get(match.group(1), match.group(2))
            if part == "H" and number not in "12":
                continue
            relative.append((*match.span(), f"{part}{number}"))
    for patterns, how in ((prior, "prior"), (whole_year, "year")):
        words_pattern = _words_pattern(patterns)
        if words_pattern is not None:
            relative += [(*m.span(), how) for m in words_pattern.finditer(folded)]
    years = [p for p in found if p.period is not None]
    for start, end, how in sorted(relative):
        if any(s < end and start < e for s, e in taken):
            continue
        taken.append((start, end))
        found.append(_resolve(start, end, years, how))
    found.sort(key=lambda p: p.start)
    return found


def _resolve(start: int, end: int, years: Sequence[PeriodMention], how: str) -> PeriodMention:
    before = [p for p in years if p.end <= start]
    after = [p for p in years if p.start >= end]
    reference = before[-1] if before else (after[0] if after else None)
    if reference is None or reference.period is None:
        return PeriodMention(start, end, ANY_YEAR if how == "year" else None)
    year = int(reference.period.split("-")[0])
    if how == "prior":
        return PeriodMention(start, end, str(year - 1))
    if how == "year":
        return PeriodMention(start, end, str(year))
    return PeriodMention(start, end, f"{year}-{how}")


def period_key(period: str) -> tuple[int, str]:
    """Orders periods in time: ``2024`` < ``2025``; a quarter sorts inside its year."""
    year, _, part = period.partition("-")
    return int(year), part


# --- Cue words ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cue:
    start: int
    end: int
    text: str


@lru_cache(maxsize=128)
def _alternation(patterns: tuple[str, ...]) -> re.Pattern[str]:
    ordered = sorted(patterns, key=len, reverse=True)
    return re.compile(rf"(?<![\w-])(?:{'|'.join(f'(?:{p})' for p in ordered)})(?![\w-])")


def cues(
    folded: str, patterns: tuple[str, ...], start: int = 0, end: int | None = None
) -> list[Cue]:
    """Every match of one of ``patterns`` in ``folded[start:end]``, between word boundaries."""
    if not patterns:
        return []
    stop = len(folded) if end is None else end
    return [
        Cue(m.start(), m.end(), m.group())
        for m in _alternation(patterns).finditer(folded, start, stop)
    ]
