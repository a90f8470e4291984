"""Attach each number of a text to the period and direction its sentence gives it.

Shared by the fact side (a fact written as prose: an alert, a quote) and the paragraph side
of :mod:`preuve.core.claims`, so a faithful copy of a fact binds the same way as the fact.

Period of a number: the nearest period in its clause with no other number in between;
else the nearest period before it in its sentence with no other number in between (``En
2025, le levier atteint 5,5x``); else none is stated. A change value is a number a
direction word introduces (``en baisse de 17,2 %``, ``down 17.2%``, ``a 17.2% decline``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from preuve.core.claim_lexicon import ClaimLexicon
from preuve.core.claimtext import (
    PeriodMention,
    clauses,
    cues,
    fold,
    period_mentions,
    segment_of,
    sentences,
)
from preuve.core.numbers import Locale, NumberMention, extract_numbers

__all__ = ["ReadText", "change_direction", "governing_direction", "read_text"]

Segment = tuple[int, int]


@dataclass(frozen=True, slots=True)
class ReadText:
    """A text with its value numbers (years left out), periods and segments."""

    text: str
    folded: str
    values: tuple[NumberMention, ...]
    periods: tuple[PeriodMention, ...]
    sentences: tuple[Segment, ...]
    clauses: tuple[Segment, ...]

    def protected(self) -> list[Segment]:
        return [(m.start, m.end) for m in self.values]

    def ranges(self) -> list[Segment]:
        return [(p.start, p.end) for p in self.periods if p.period is None]

    def period_of(self, mention: NumberMention) -> PeriodMention | None:
        """The period the text states for ``mention``, or None."""
        clause = segment_of(mention.start, self.clauses)
        sentence = segment_of(mention.start, self.sentences)
        following = [
            p
            for p in self.periods
            if clause[0] <= p.start < clause[1] and not self._compared_with(p)
        ]
        for period in following:
            if period.start >= mention.end and self._joined(mention, period):
                return period
        if self.is_from_value(mention):
            return None  # "En 2025, ... de 3,6x à 5,5x": the period is the change's end
        in_clause = [p for p in following if self._free(p, mention)]
        if in_clause:
            return min(in_clause, key=lambda p: _distance(p, mention))
        before = [
            p
            for p in self.periods
            if sentence[0] <= p.start and p.end <= mention.start and self._free(p, mention)
        ]
        return before[-1] if before else None

    def _compared_with(self, period: PeriodMention) -> bool:
        """``a change of -1.3 pts on 2024``: the year a change is measured against is
        not the period of its value."""
        before = self.folded[max(0, period.start - 24) : period.start]
        return _COMPARED_WITH.search(before) is not None

    def is_from_value(self, mention: NumberMention) -> bool:
        """The first number of ``de 3,6x à 5,5x``, ``from 3.6x to 5.5x``."""
        clause = segment_of(mention.start, self.clauses)
        return _FROM_TO.match(self.folded[mention.end : clause[1]]) is not None

    def _joined(self, mention: NumberMention, period: PeriodMention) -> bool:
        """``5,5x en 2025``, ``$9.9m in FY2025``: the period right after a number is its."""
        between = self.folded[mention.end : period.start]
        if _JOINED.fullmatch(between) is None:
            return False
        # "5,5x (2025)" joins; "96 days (2024: 78 days)" opens the next value's period
        return "(" not in between or self.folded[period.end : period.end + 1] == ")"

    def _free(self, period: PeriodMention, mention: NumberMention) -> bool:
        """No other number in between, and not the period joined to another number."""
        if not self._clear(period, mention):
            return False
        return not any(
            other.start != mention.start
            and other.end <= period.start
            and self._joined(other, period)
            for other in self.values
        )

    def _clear(self, period: PeriodMention, mention: NumberMention) -> bool:
        low, high = sorted((period.start, mention.start))
        return not any(
            low < other.start < high for other in self.values if other.start != mention.start
        )


_JOINED = re.compile(
    r"\s*(?:[^\s\w]{0,3}|[^\s\d]{0,4}|millions?|milliards?|billions?|thousands?|points?)"
    r"\s*(?:(?:en|in|for|au|fin|a fin|at|at end of|at the end of|end of|a la fin de|fin de|"
    r"during|over|durant|pour|sur|of|de)\s+)?"
    r"(?:(?:l'exercice|l'annee|the year|fiscal year|year|exercice|annee)\s+)?[(\[]?\s*"
)


_COMPARED_WITH = re.compile(
    r"\b(?:on|compared (?:with|to)|relative to|as against|par rapport a)\s+(?:fy\s?)?$"
)


def _distance(period: PeriodMention, mention: NumberMention) -> int:
    return period.start - mention.end if period.start >= mention.end else mention.start - period.end


def read_text(text: str, locale: Locale, lexicon: ClaimLexicon) -> ReadText:
    """Numbers, periods and segments of ``text``."""
    # Figures only: years, days of dates, ordinals and footnote marks are checked as
    # numbers by the memo check, but they are not a metric's value.
    values = tuple(m for m in extract_numbers(text, locale) if not m.is_year and _is_figure(m))
    protected = [(m.start, m.end) for m in values]
    periods = tuple(period_mentions(text, protected, lexicon.prior_period, lexicon.whole_year))
    ranges = [(p.start, p.end) for p in periods if p.period is None]
    return ReadText(
        text=text,
        folded=fold(text),
        values=values,
        periods=periods,
        sentences=tuple(sentences(text, protected)),
        clauses=tuple(clauses(text, protected, ranges)),
    )


_LINK = r"\s*(?:de|d'|of|by)?\s*[-+−–$€£]?$"
# "de 3,6x à 5,5x", "from 3.6x to 5.5x": the first number is a starting level.
_FROM_TO = re.compile(r"^\s*[^\s\d]{0,3}\s*(?:a|to|jusqu'a)\s+[-+−–$€£]?\d")
_AFTER = re.compile(r"^\s*(?:%|pts?|points?|pp|bps?|points? de base)\s+(?:de\s+|d')?")


def change_direction(read: ReadText, mention: NumberMention, lexicon: ClaimLexicon) -> str | None:
    """``"up"``/``"down"`` when a direction word introduces ``mention`` as an amount of
    change (``en hausse de 5 %``, ``down 5%``, ``a 5% decline``), else None."""
    clause = segment_of(mention.start, read.clauses)
    head = read.folded[clause[0] : mention.start]
    tail = read.folded[mention.end : clause[1]]
    if _FROM_TO.match(tail):
        return None
    for direction, patterns in (("up", lexicon.up), ("down", lexicon.down)):
        for cue in cues(head, patterns):
            if re.fullmatch(_LINK, head[cue.end :]):
                return direction
    after = _AFTER.match(tail)
    if after is not None:
        rest = tail[after.end() :]
        for direction, patterns in (("up", lexicon.up), ("down", lexicon.down)):
            found = cues(rest, patterns)
            if found and found[0].start == 0:
                return direction
    return None


_LEVEL_LINK = re.compile(r"\s*(?:a|to|at|jusqu'a|a hauteur de|de|of|by)?\s*[-+−–$€£]?")


def governing_direction(
    read: ReadText, mention: NumberMention, lexicon: ClaimLexicon
) -> str | None:
    """The direction a change word right before ``mention`` gives it, as an amount (``en
    baisse de 5 %``) or a level (``increased to 8%``); None without one."""
    amount = change_direction(read, mention, lexicon)
    if amount is not None:
        return amount
    clause = segment_of(mention.start, read.clauses)
    head = read.folded[clause[0] : mention.start]
    for direction, patterns in (("up", lexicon.up), ("down", lexicon.down)):
        for cue in cues(head, patterns):
            if _LEVEL_LINK.fullmatch(head[cue.end :]):
                return direction
    return None


def _is_figure(mention: NumberMention) -> bool:
    kind = mention.kind or ""
    return not (kind.startswith(("day-", "compat:")) or kind == "ordinal")
