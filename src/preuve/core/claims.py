"""Beyond numbers: a claim must be about its fact's subject, period and direction.

The number check proves each number comes from a cited fact; this check reads the sentence
around it against that fact's structure (:class:`preuve.core.facts.FactStructure`):

- ``wrong_subject``: the number is said of a subject (the one its clause names, else the
  nearest one its sentence or paragraph names) other than its fact's;
- ``wrong_period``: the number is written for a period (the one its clause gives) other
  than its fact's (2024's value as 2025's, a quarter as a year);
- ``wrong_direction``: a direction word (hausse/baisse, increased/decreased) or an order
  word (supérieur à, above, lower than) that the values themselves contradict;
- ``negation_flip``: a statement that negates what its cited fact's text affirms, or
  affirms what it negates, the negation being explicit and about a word both share.

Every claim gets a :class:`ClaimRecord` saying, for each of subject, period, direction and
polarity, whether it was checked (``ok`` or ``defect``), could not be decided
(``unchecked``: counted, never verified) or was not stated (``n/a``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from preuve.core.binding import change_direction
from preuve.core.claim_base import WRONG_BASE, level_as_change
from preuve.core.claim_lexicon import DEFAULT_LEXICON, ClaimLexicon
from preuve.core.claim_metrics import metric_problem
from preuve.core.claim_orders import OrderChecks
from preuve.core.claim_state import (
    DEFECT,
    DIMENSIONS,
    NEGATION_FLIP,
    NOT_STATED,
    OK,
    UNCHECKED,
    WRONG_DIRECTION,
    WRONG_METRIC,
    WRONG_PERIOD,
    WRONG_SUBJECT,
    Candidate,
    CitedFact,
    ClaimRecord,
    ClaimState,
    ParagraphClaims,
    shorten,
    squash,
)
from preuve.core.claimtext import ANY_YEAR, cues, fold, period_key, scopes, segment_of
from preuve.core.factlines import metric_key, structure_of, subject_of
from preuve.core.facts import Fact, FactValue
from preuve.core.numbers import Locale, NumberMention
from preuve.core.polarity import Polarity, align_polarity
from preuve.core.subjects import SubjectIndex, SubjectMention, subject_key

__all__ = [
    "DIMENSIONS",
    "NEGATION_FLIP",
    "WRONG_BASE",
    "WRONG_DIRECTION",
    "WRONG_METRIC",
    "WRONG_PERIOD",
    "WRONG_SUBJECT",
    "CitedFact",
    "ClaimRecord",
    "ParagraphClaims",
    "check_claims",
    "review_claims",
]


# A capitalized name in a possessive or after "chez/de/at": maybe a company.
_UNKNOWN_NAME = re.compile(
    r"(?<![\w-])[A-ZÀ-Þ][\w&-]+(?:\s+[A-ZÀ-Þ][\w&-]+)*['’]s\b"
    r"|\b(?:chez|at|for|of|de|d['’])\s*[A-ZÀ-Þ][a-zà-ÿ][\w&-]+"
)


class _Paragraph(OrderChecks):
    """One paragraph under the subject, period, change and polarity checks."""

    # --- subject -------------------------------------------------------------------------

    def subjects_for(self, position: int) -> tuple[list[SubjectMention], bool]:
        """The subjects a claim at ``position`` is about, and whether that is certain: the
        one its clause names (nearest), else every one its sentence names, else every
        one the paragraph names (a claim may be about any of them)."""
        clause = segment_of(position, self.read.clauses)
        sentence = segment_of(position, self.read.sentences)
        ordered = self.subject_mentions
        in_clause = [s for s in ordered if clause[0] <= s.start < clause[1]]
        if in_clause:
            return [min(in_clause, key=lambda s: abs(s.start - position))], True
        in_sentence = [s for s in ordered if sentence[0] <= s.start < sentence[1]]
        return (in_sentence or list(ordered)), False

    def subject_defect(
        self,
        position: int,
        facts: Sequence[CitedFact],
        claim: str,
        where: str,
        scope: tuple[int, int] | None = None,
    ) -> str:
        """``ok``, ``defect`` (recorded), ``unchecked`` or ``n/a`` for a claim at
        ``position`` (or a statement filling ``scope``) resting on ``facts``."""
        named, _ = self.subjects_for(position)
        if scope is not None:
            in_scope = [s for s in self.subject_mentions if scope[0] <= s.start < scope[1]]
            named = in_scope or named
        if not named:
            clause = scope or segment_of(position, self.read.clauses)
            # "Delmar's leverage", "chez Delmar": a name no fact gives, so not decidable
            return UNCHECKED if self.unknown_name_in(clause) else NOT_STATED
        keys = {
            f.id: subject_key(f.structure.subject, self.lexicon)
            for f in facts
            if f.structure.subject
        }
        if any(keys.get(f.id) == n.key for f in facts for n in named):
            return OK
        if len(keys) < len({f.id for f in facts}):
            return UNCHECKED  # a fact without subject
        if any(n.key in squash(f.text) for f in facts for n in named):
            return OK  # the fact itself names that subject
        fact, first = facts[0], named[0]
        self.defect(
            WRONG_SUBJECT,
            f"{claim} (in «{shorten(where)}») is said of {first.name} but [{fact.id}] gives "
            f"it for {fact.structure.subject}; write it as {fact.structure.subject}'s, or "
            f"cite a fact about {first.name}",
        )
        return DEFECT

    def unknown_name_in(self, segment: tuple[int, int]) -> bool:
        text = self.text[segment[0] : segment[1]]
        return _UNKNOWN_NAME.search(text) is not None

    def check_subject(self, claim: ClaimState) -> None:
        facts = list({c.fact.id: c.fact for c in claim.candidates}.values())
        status = self.subject_defect(
            claim.mention.start, facts, claim.mention.raw, self.clause_of(claim.mention)
        )
        claim.record["subject"] = status
        if status == OK:
            named, _ = self.subjects_for(claim.mention.start)
            keys = {n.key for n in named}
            same = [
                c
                for c in claim.candidates
                if c.fact.structure.subject
                and subject_key(c.fact.structure.subject, self.lexicon) in keys
            ]
            claim.candidates = same or claim.candidates

    # --- period --------------------------------------------------------------------------

    def check_period(self, claim: ClaimState) -> None:
        stated = self.read.period_of(claim.mention)
        if stated is None:
            return
        if stated.period is None:
            claim.record["period"] = UNCHECKED
            return
        same = [c for c in claim.candidates if _same_period(stated.period, c.value.period)]
        if same:
            claim.candidates, claim.record["period"] = same, OK
            return
        if any(c.value.period in (None, ANY_YEAR) for c in claim.candidates):
            claim.record["period"] = UNCHECKED
            return
        first = claim.candidates[0]
        periods = ", ".join(sorted({str(c.value.period) for c in claim.candidates}))
        other = next(
            (v for v in first.fact.structure.values if v.period == stated.period
             and metric_key(v.metric) == metric_key(first.value.metric)),
            None,
        )  # fmt: skip
        hint = (
            f"; its {stated.period} value is {self.raw_in_fact(first.fact, other)}"
            if other is not None
            else ""
        )
        claim.record["period"] = DEFECT
        self.defect(
            WRONG_PERIOD,
            f"{claim.mention.raw} (in «{shorten(self.clause_of(claim.mention))}») is written "
            f"for {stated.period} but [{first.fact.id}] gives it for {periods}{hint}; write "
            "the period the fact gives",
        )

    # --- direction -----------------------------------------------------------------------

    def check_directions(self, scope: tuple[int, int]) -> bool:
        """Change and order words of one scope; True if the scope held one."""
        folded = self.read.folded
        found = False
        for direction, patterns in (("up", self.lexicon.up), ("down", self.lexicon.down)):
            for cue in cues(folded, patterns, *scope):
                if not self.in_verbatim(cue.start) and not self.in_metric_name(cue.start):
                    found = True
                    self.check_change(scope, cue.start, cue.end, direction)
        for effect, patterns in (("better", self.lexicon.better), ("worse", self.lexicon.worse)):
            for cue in cues(folded, patterns, *scope):
                if not self.in_verbatim(cue.start) and not self.in_metric_name(cue.start):
                    found = True
                    self.check_change(scope, cue.start, cue.end, effect)
        for kind, patterns in (("breach", self.lexicon.breach), ("comply", self.lexicon.comply)):
            for cue in cues(folded, patterns, *scope):
                if not self.in_verbatim(cue.start) and not self.in_metric_name(cue.start):
                    found = True
                    self.check_covenant(scope, cue.start, cue.end, kind)
        for order, patterns in (("greater", self.lexicon.greater), ("less", self.lexicon.less)):
            for cue in cues(folded, patterns, *scope):
                if not self.in_verbatim(cue.start) and not self.in_metric_name(cue.start):
                    found = True
                    self.check_order(scope, cue.start, cue.end, order)
        return found

    def check_change(self, scope: tuple[int, int], start: int, end: int, direction: str) -> None:
        claims = self.claims_in(scope)
        after = [c for c in claims if c.mention.start >= end]
        before = [c for c in claims if c.mention.start < start]
        target = after[0] if after else (before[-1] if before else None)
        cue_text = self.text[start:end]
        if target is None:
            self.statements.append(ClaimRecord(shorten(cue_text, 40), direction=UNCHECKED))
            return
        if target.mention.start in self.based:
            return  # refused already: a level written as a change (check_base)
        if direction in ("better", "worse"):
            oriented = self.orient(target, scope, start, direction)
            if oriented is None:
                target.record["direction"] = UNCHECKED
                return
            direction = oriented
        actual, evidence = self.actual_change(target, claims)
        if actual is None:
            target.record["direction"] = UNCHECKED
            return
        negated = self.negated(scope, start, end)
        words = {"up": "up", "down": "down"}
        where = shorten(self.text[scope[0] : scope[1]])
        if not negated and actual != direction:
            target.record["direction"] = DEFECT
            self.defect(
                WRONG_DIRECTION,
                f"«{cue_text}» (in «{where}») says the value went {words[direction]} but "
                f"{evidence}: it went {words[actual]}; write the direction the values show, "
                "or remove the word",
            )
        elif negated and actual == direction:
            target.record["direction"] = DEFECT
            self.defect(
                NEGATION_FLIP,
                f"«{cue_text}» is negated (in «{where}») but {evidence}: it did go "
                f"{words[actual]}; remove the negation",
            )
        else:
            target.record["direction"] = OK

    def orient(
        self, target: ClaimState, scope: tuple[int, int], start: int, effect: str
    ) -> str | None:
        """``better``/``worse`` as ``up``/``down`` for the target's metric, or None when
        the lexicon does not say whether a higher value of it is better."""
        metric = target.candidates[0].value.metric if target.candidates else None
        named = fold(metric) if metric else self.read.folded[scope[0] : start]
        lower = cues(named, self.lexicon.lower_is_better)
        higher = cues(named, self.lexicon.higher_is_better)
        if bool(lower) == bool(higher):
            if not (lower and higher):
                return None
            # "couverture de la dette": the first word names the metric
            higher_first = higher[0].start < lower[0].start
            lower = [] if higher_first else lower
        up_is_better = not lower
        return "up" if (effect == "better") == up_is_better else "down"

    def actual_change(self, target: ClaimState, claims: list[ClaimState]) -> tuple[str | None, str]:
        if not target.candidates:
            return None, ""

        def shared(candidate: Candidate) -> int:  # the fact giving most of the scope's numbers
            return sum(any(c.fact.id == candidate.fact.id for c in o.candidates) for o in claims)

        chosen = max(target.candidates, key=shared)
        fact = chosen.fact
        if change_direction(self.read, target.mention, self.lexicon) is not None:
            if chosen.value.direction is None:
                return None, ""
            return chosen.value.direction, f"[{fact.id}] gives {target.mention.raw} as a " + (
                "rise" if chosen.value.direction == "up" else "fall"
            )
        metric = metric_key(chosen.value.metric)
        levels: dict[str, FactValue] = {}
        for claim in claims:
            for candidate in claim.candidates:
                same_metric = metric_key(candidate.value.metric) == metric
                if candidate.fact.id == fact.id and same_metric and candidate.value.period:
                    levels.setdefault(candidate.value.period, candidate.value)
                    break
        series = sorted(
            (v for v in fact.structure.values if v.period and metric_key(v.metric) == metric),
            key=lambda v: period_key(str(v.period)),
        )
        if len(levels) == 1 and chosen.value.period is not None:
            periods = [str(v.period) for v in series]
            if chosen.value.period in periods and len(periods) > 1:
                at = periods.index(chosen.value.period)
                other = series[at - 1] if at > 0 else series[at + 1]
                levels.setdefault(str(other.period), other)
        if len(levels) < 2 or len({"-" in p for p in levels}) > 1:
            if chosen.value.direction is not None:
                word = "a rise" if chosen.value.direction == "up" else "a fall"
                return chosen.value.direction, f"[{fact.id}] states {word} to it"
            return None, ""
        ordered = sorted(levels.items(), key=lambda kv: period_key(kv[0]))
        first, last = ordered[0][1], ordered[-1][1]
        if first.value == last.value:
            return None, ""
        shown = " and ".join(
            f"{self.raw_in_fact(fact, v)} for {p}" for p, v in (ordered[0], ordered[-1])
        )
        return ("up" if last.value > first.value else "down"), f"[{fact.id}] gives {shown}"

    # --- polarity ------------------------------------------------------------------------

    def check_polarity(self, scope: tuple[int, int]) -> str:
        if all(
            self.in_verbatim(p) for p in range(scope[0], scope[1]) if not self.text[p].isspace()
        ):
            return OK
        statements = [(f, f.structure.statement) for f in self.cited if f.structure.statement]
        part = self.text[scope[0] : scope[1]]
        result: Polarity = align_polarity(part, statements, self.lexicon)
        if result.aligned and not self.claims_in(scope):
            facts = [f for f in self.cited if f.id in result.aligned]
            subject = self.subject_defect(
                scope[0], facts, f"«{shorten(part, 60)}»", part, scope=scope
            )
            if subject == DEFECT:
                return result.status
        if result.status == DEFECT and result.fact_id is not None:
            verb = "negates what" if result.negated_in_claim else "affirms what"
            what = "affirms" if result.negated_in_claim else "negates"
            self.defect(
                NEGATION_FLIP,
                f"«{shorten(part)}» {verb} [{result.fact_id}] {what} "
                f"(«{shorten(result.fact_text)}»); keep the polarity of the cited fact",
            )
        return result.status

    # --- base ----------------------------------------------------------------------------

    def check_base(self, claim: ClaimState) -> None:
        based = level_as_change(
            self.read, claim, shorten(self.clause_of(claim.mention)), self.lexicon
        )
        if based is not None:
            claim.record["direction"] = DEFECT
            self.based.add(claim.mention.start)
            self.defect(WRONG_BASE, based)

    # --- all -----------------------------------------------------------------------------

    def run(self) -> ParagraphClaims:
        for mention in self.read.values:
            if self.in_verbatim(mention.start):
                continue
            candidates = _candidates(mention, self.cited)
            if candidates:
                self.claims.append(ClaimState(mention, candidates, {}))
        for claim in self.claims:
            self.check_subject(claim)
            self.check_period(claim)
            self.check_base(claim)
            problem = metric_problem(self.read, claim.mention, claim.candidates, self.lexicon)
            if problem is not None:
                where = shorten(self.clause_of(claim.mention))
                self.defect(WRONG_METRIC, f"{claim.mention.raw} (in «{where}») {problem}")
        protected = self.read.protected()
        for scope in scopes(self.text, protected, self.read.ranges()):
            self.check_directions(scope)
            polarity = self.check_polarity(scope)
            in_scope = self.claims_in(scope)
            for claim in in_scope:
                claim.record.setdefault("polarity", polarity)
            if not in_scope and polarity != NOT_STATED:
                self.statements.append(
                    ClaimRecord(shorten(self.text[scope[0] : scope[1]], 40), polarity=polarity)
                )
        records = [ClaimRecord(c.mention.raw, **c.record) for c in self.claims]
        return ParagraphClaims(tuple(self.defects), tuple(records + self.statements))


def _same_period(stated: str, given: str | None) -> bool:
    """A whole year with no year written is any year, never a part of one."""
    if stated == ANY_YEAR:
        return given is not None and given.isdigit()
    return given == stated


def _same_unit(mention: NumberMention, value: FactValue) -> bool:
    return mention.unit is None or value.unit is None or mention.unit == value.unit


def _candidates(mention: NumberMention, cited: Sequence[CitedFact]) -> list[Candidate]:
    """The fact values a number may be: same value (and unit when both have one); the
    opposite sign only when no value matches exactly (the sign rule is the number check's)."""
    pairs = [
        Candidate(fact, value)
        for fact in cited
        for value in fact.structure.values
        if _same_unit(mention, value)
    ]
    exact = [c for c in pairs if c.value.value == mention.value]
    return exact or [c for c in pairs if c.value.value == -mention.value]


def check_claims(
    text: str,
    cited: Sequence[CitedFact],
    subjects: SubjectIndex,
    *,
    locale: Locale,
    index: int,
    lexicon: ClaimLexicon = DEFAULT_LEXICON,
) -> ParagraphClaims:
    """The subject, period, direction and polarity defects of one paragraph (numbered
    ``index``) against the facts it cites, and the record of what was checked."""
    return _Paragraph(
        text, cited=cited, subjects=subjects, locale=locale, lexicon=lexicon, index=index
    ).run()


def review_claims(
    paragraphs: Sequence[tuple[str, Sequence[str]]],
    facts: Sequence[Fact],
    *,
    locale: Locale,
    lexicon: ClaimLexicon = DEFAULT_LEXICON,
) -> list[ParagraphClaims]:
    """:func:`check_claims` for each ``(text, source ids)`` paragraph, numbered from 1;
    subjects are those of all ``facts`` plus the lexicon's aliases."""
    by_id = {f.id: f for f in facts}
    cited_by_id: dict[str, CitedFact] = {}  # structured once, and only when cited

    def cited(fact_id: str) -> CitedFact:
        if fact_id not in cited_by_id:
            fact = by_id[fact_id]
            cited_by_id[fact_id] = CitedFact(
                fact.id, fact.text, structure_of(fact, locale, lexicon)
            )
        return cited_by_id[fact_id]

    names = list(dict.fromkeys(name for f in facts if (name := subject_of(f))))
    subjects = SubjectIndex.of(names, lexicon)
    return [
        check_claims(
            text,
            [cited(s) for s in dict.fromkeys(sources) if s in by_id],
            subjects,
            locale=locale,
            index=index,
            lexicon=lexicon,
        )
        for index, (text, sources) in enumerate(paragraphs, start=1)
    ]
