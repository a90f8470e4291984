"""The state of one paragraph under the claim checks: its records, candidates, helpers.

:mod:`preuve.core.claims` runs the checks; this module holds what they share (the defect
codes, the record of each claim, the candidate fact values of a number, and the reading of
the paragraph), so that the order checks (:mod:`preuve.core.claim_orders`) stay apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from preuve.core.binding import ReadText, read_text
from preuve.core.claim_lexicon import ClaimLexicon
from preuve.core.claimtext import cues, fold, segment_of
from preuve.core.defects import Defect
from preuve.core.facts import FactStructure, FactValue
from preuve.core.numbers import Locale, NumberMention, extract_numbers
from preuve.core.subjects import SubjectIndex

__all__ = [
    "DEFECT",
    "DIMENSIONS",
    "NEGATION_FLIP",
    "NOT_STATED",
    "OK",
    "UNCHECKED",
    "WRONG_DIRECTION",
    "WRONG_METRIC",
    "WRONG_PERIOD",
    "WRONG_SUBJECT",
    "Candidate",
    "CitedFact",
    "ClaimRecord",
    "ClaimState",
    "ParagraphClaims",
    "ParagraphState",
    "shorten",
    "squash",
]

WRONG_SUBJECT = "wrong_subject"
WRONG_PERIOD = "wrong_period"
WRONG_DIRECTION = "wrong_direction"
WRONG_METRIC = "wrong_metric"
NEGATION_FLIP = "negation_flip"
OK, DEFECT, UNCHECKED, NOT_STATED = "ok", "defect", "unchecked", "n/a"
DIMENSIONS = ("subject", "period", "direction", "polarity")
_QUOTED = re.compile(r"«[^«»]*»|“[^“”]*”|\"[^\"]*\"")


@dataclass(frozen=True, slots=True)
class CitedFact:
    """A fact a paragraph cites: its id, text and structure."""

    id: str
    text: str
    structure: FactStructure


@dataclass(frozen=True, slots=True)
class ClaimRecord:
    """One claim of a paragraph (a number as written, or a statement's first words) and
    the status of each dimension: ``ok``, ``defect``, ``unchecked`` or ``n/a``."""

    claim: str
    subject: str = NOT_STATED
    period: str = NOT_STATED
    direction: str = NOT_STATED
    polarity: str = NOT_STATED

    def status(self, dimension: str) -> str:
        return str(getattr(self, dimension))

    def unchecked(self) -> tuple[str, ...]:
        return tuple(d for d in DIMENSIONS if self.status(d) == UNCHECKED)

    def checked(self) -> tuple[str, ...]:
        return tuple(d for d in DIMENSIONS if self.status(d) in (OK, DEFECT))


@dataclass(frozen=True, slots=True)
class ParagraphClaims:
    defects: tuple[Defect, ...]
    claims: tuple[ClaimRecord, ...]


def shorten(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def squash(text: str) -> str:
    return " ".join(re.sub(r"[^\w%]+", " ", fold(text)).split())


@dataclass(frozen=True, slots=True)
class Candidate:
    fact: CitedFact
    value: FactValue


@dataclass
class ClaimState:
    mention: NumberMention
    candidates: list[Candidate]
    record: dict[str, str]


class ParagraphState:
    """One paragraph being checked: its reading, cited facts, defects and records."""

    def __init__(
        self,
        text: str,
        *,
        cited: Sequence[CitedFact],
        subjects: SubjectIndex,
        locale: Locale,
        lexicon: ClaimLexicon,
        index: int,
    ) -> None:
        self.text, self.cited, self.subjects = text, cited, subjects
        self.locale, self.lexicon, self.index = locale, lexicon, index
        self.read: ReadText = read_text(text, locale, lexicon)
        quoted = [m.span() for m in _QUOTED.finditer(text)]
        facts_text = " ".join(squash(f.text) for f in cited)
        self.verbatim = [s for s in quoted if squash(text[s[0] + 1 : s[1] - 1]) in facts_text]
        # A cited fact's metric written out by name ("Ratio de liquidité réduite", "Quick
        # ratio"): its words name the metric, they state no change of it.
        names = {
            fold(name)
            for f in cited
            for name in (f.structure.metric, *(v.metric for v in f.structure.values))
            if name
        }
        self.metric_names = [
            m.span() for name in names for m in re.finditer(re.escape(name), self.read.folded)
        ]
        self.subject_mentions = subjects.mentions(text, skip=quoted)
        self.parentheses = [m.span() for m in re.finditer(r"\([^()]*\)", text)]
        self.defects: list[Defect] = []
        self.claims: list[ClaimState] = []
        # Claims refused as a level written as a change: no direction is checked on them.
        self.based: set[int] = set()
        self.statements: list[ClaimRecord] = []

    def in_verbatim(self, position: int) -> bool:
        return any(s <= position < e for s, e in self.verbatim)

    def in_metric_name(self, position: int) -> bool:
        return any(s <= position < e for s, e in self.metric_names)

    def defect(self, code: str, detail: str) -> None:
        self.defects.append(Defect(code, detail, paragraph=self.index))

    def raw_in_fact(self, fact: CitedFact, value: FactValue) -> str:
        for mention in extract_numbers(fact.text, self.locale):
            if mention.value == value.value and not mention.is_year:
                return f"{mention.raw}{'' if value.unit in (None, 'x') else ' '}{_unit(value)}"
        return f"{value.value}{_unit(value)}"

    def clause_of(self, mention: NumberMention) -> str:
        start, end = segment_of(mention.start, self.read.clauses)
        return self.text[start:end].strip()

    def claims_in(self, scope: tuple[int, int]) -> list[ClaimState]:
        return [c for c in self.claims if scope[0] <= c.mention.start < scope[1]]

    def negated(self, scope: tuple[int, int], start: int, end: int) -> bool:
        before = self.read.folded[max(scope[0], start - 24) : start]
        after = self.read.folded[end : min(scope[1], end + 6)]
        window = f"{before} | {after.split(' ', 2)[1] if after.startswith(' ') else ''}"
        return bool(cues(window, self.lexicon.negation)) or bool(
            re.search(r"\bn(?:e\s|')\s*(?:\w+\s+){0,2}plus\b", before)
        )

    def in_parentheses(self, position: int) -> bool:
        return any(s < position < e for s, e in self.parentheses)

    def after_limit_word(self, mention: NumberMention) -> bool:
        previous = [m.end for m in self.read.values if m.end <= mention.start]
        head = self.read.folded[max([0, mention.start - 40, *previous]) : mention.start]
        window = " ".join(head.split()[-4:])
        return bool(cues(window, self.lexicon.limits))

    def limit_kind(self, mention: NumberMention) -> str | None:
        previous = [m.end for m in self.read.values if m.end <= mention.start]
        head = self.read.folded[max([0, mention.start - 60, *previous]) : mention.start]
        window = " ".join(head.split()[-6:])
        is_max, is_min = (
            cues(window, self.lexicon.max_limits),
            cues(window, self.lexicon.min_limits),
        )
        if bool(is_max) == bool(is_min):
            return None
        return "max" if is_max else "min"


def _unit(value: FactValue) -> str:
    return value.unit or ""
