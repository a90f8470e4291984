"""Order words checked against the values: above/below, and a covenant's breach or respect.

``supérieur à``, ``au-dessus de``, ``lower than``, ``passe sous`` ... compare the number
before the word with the one after it (else ``4,6x contre 2,2x`` after it, else the limit
and the only other number); ``breach``/``respecte`` compare a value with a maximum or a
minimum, its kind read from the words before the limit. A contradiction is
``wrong_direction``, or ``negation_flip`` when the word is negated.
"""

from __future__ import annotations

import re

from preuve.core.claim_state import (
    DEFECT,
    NEGATION_FLIP,
    OK,
    UNCHECKED,
    WRONG_DIRECTION,
    ClaimRecord,
    ParagraphState,
    shorten,
)
from preuve.core.numbers import NumberMention

__all__ = ["OrderChecks"]

_MAX_WORDS_TO_RIGHT = 8
_VERSUS = re.compile(
    r"\s*[^\s\w]{0,3}\s*(?:[^\W\d_]{1,2}\s*)?(?:contre|versus|vs\.?|against|compared with|"
    r"compared to|et|and|face a)\s+[-+−–$€£]?"
)


class OrderChecks(ParagraphState):
    """The order and covenant checks of a paragraph."""

    def check_order(self, scope: tuple[int, int], start: int, end: int, order: str) -> None:
        values = [m for m in self.read.values if scope[0] <= m.start < scope[1]]
        left = [m for m in values if m.end <= start]
        right = [
            m
            for m in values
            if m.start >= end
            and len(self.read.folded[end : m.start].split()) <= _MAX_WORDS_TO_RIGHT
        ]
        cue_text = self.text[start:end]
        pair = self.order_pair(values, left, right, end)
        if pair is None or pair[0].unit != pair[1].unit:
            self.statements.append(ClaimRecord(shorten(cue_text, 40), direction=UNCHECKED))
            return
        self.judge_order(scope, (start, end), order, pair, allow_equal=False)

    def check_covenant(self, scope: tuple[int, int], start: int, end: int, kind: str) -> None:
        """``breach``/``comply`` with a limit: above a maximum or below a minimum is a
        breach; the limit's kind comes from the words before its number."""
        values = [m for m in self.read.values if scope[0] <= m.start < scope[1]]
        limits = [m for m in values if self.limit_kind(m) is not None]
        others = [m for m in values if m not in limits]
        pair = (others[0], limits[0]) if len(limits) == 1 and len(others) == 1 else None
        limit = None if pair is None else self.limit_kind(pair[1])
        if pair is None or limit is None or pair[0].unit != pair[1].unit:
            self.statements.append(
                ClaimRecord(shorten(self.text[start:end], 40), direction=UNCHECKED)
            )
            return
        breach = "greater" if limit == "max" else "less"
        comply = "less" if limit == "max" else "greater"
        order = breach if kind == "breach" else comply
        self.judge_order(scope, (start, end), order, pair, allow_equal=kind == "comply")

    def judge_order(
        self,
        scope: tuple[int, int],
        cue: tuple[int, int],
        order: str,
        pair: tuple[NumberMention, NumberMention],
        *,
        allow_equal: bool,
    ) -> None:
        start, end = cue
        cue_text = self.text[start:end]
        a, b = pair
        if a.value == b.value:
            holds = allow_equal
        else:
            holds = a.value > b.value if order == "greater" else a.value < b.value
        negated = self.negated(scope, start, end)
        if negated:
            holds = not holds
        claim = next((c for c in self.claims if c.mention.start == a.start), None)
        if holds:
            if claim is not None:
                claim.record["direction"] = OK
            else:
                self.statements.append(ClaimRecord(f"{a.raw} / {b.raw}", direction=OK))
            return
        if claim is not None:
            claim.record["direction"] = DEFECT
        relation = "below" if order == "greater" else "above"
        if negated:
            relation = "above" if order == "greater" else "below"
        self.defect(
            NEGATION_FLIP if negated else WRONG_DIRECTION,
            f"«{cue_text}»{' (negated)' if negated else ''} (in "
            f"«{shorten(self.text[scope[0] : scope[1]])}») says {a.raw} is "
            f"{'not ' if negated else ''}{'above' if order == 'greater' else 'below'} {b.raw}, "
            f"but {a.raw} is {relation} {b.raw}"
            f"{' (equal)' if a.value == b.value else ''}; write what the values show",
        )

    def order_pair(
        self,
        values: list[NumberMention],
        left: list[NumberMention],
        right: list[NumberMention],
        end: int,
    ) -> tuple[NumberMention, NumberMention] | None:
        """The two numbers an order word compares: the one before it and the one after
        it; else, after it, ``4,6x contre 2,2x``; else the limit right after it and the
        only other number (``ne dépasse pas le plafond de 4,0x, son levier étant à 4,6x``)."""
        if left and right:
            # "un levier de 5,5x (3,6x en 2024) dépasse ...": an aside is not the subject
            outside = [m for m in left if not self.in_parentheses(m.start)]
            return (outside or left)[-1], right[0]
        after = [m for m in values if m.start >= end]
        if len(after) >= 2:
            between = self.read.folded[after[0].end : after[1].start]
            if _VERSUS.fullmatch(between):
                return after[0], after[1]
        limits = [m for m in after if self.after_limit_word(m)]
        if not left and len(after) == 2 and len(limits) == 1:
            other = after[0] if limits[0] is after[1] else after[1]
            return other, limits[0]
        return None
