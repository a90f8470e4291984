"""The base of a percentage: a margin or a share is no rate of change.

A fact value that is a level over a base of its own is one of:

- a percentage whose fact line states a formula dividing one quantity by another
  (``Marge d'EBITDA 2025 : 12,6 % ; formule : EBITDA / chiffre d'affaires``): its base is
  the divisor;
- when the fact states no formula, the level of a share metric (a margin, a rate, a share:
  :data:`~preuve.core.claim_lexicon.SHARE_METRICS`): a margin is a share of revenue.

A memo that writes the same figure as an amount of change of a quantity (``l'EBITDA
progresse de 12,6 %``, ``net income grew 6.2%``) changes its base, since a growth is a
share of the prior value: the figure is refused (``wrong_base``), unless the fact's metric
is itself a change (``croissance``, ``growth``, ``variation``), its formula ends in ``- 1``
(a rate of change), or the fact states a direction for the value. Only structured facts
name their metrics (``Metric Period : value``); a value read from prose has none and is not
checked here.
"""

from __future__ import annotations

import re

from preuve.core.binding import ReadText, change_direction
from preuve.core.claim_lexicon import ClaimLexicon
from preuve.core.claim_state import Candidate, ClaimState
from preuve.core.claimtext import cues, fold

__all__ = ["WRONG_BASE", "level_as_change"]

WRONG_BASE = "wrong_base"

# "formule : EBITDA / chiffre d'affaires", "formula: net income / revenue": a quotient; a
# formula "A / B - 1" is a rate of change, not a level.
_QUOTIENT = re.compile(r"(?:formule|formula)\s*:\s*(?P<formula>[^;/]+/[^;]+)")
_MINUS_ONE = re.compile(r"[-−–]\s*1(?![\d,.])")


def _level_base(candidate: Candidate, lexicon: ClaimLexicon) -> str | None:
    """How a candidate is a level over a base of its own (its formula, or its share
    metric), else None."""
    value = candidate.value
    if value.direction is not None or value.metric is None:
        return None
    metric = fold(value.metric)
    if cues(metric, lexicon.up + lexicon.down + lexicon.change_metrics):
        return None
    quotient = _QUOTIENT.search(fold(candidate.fact.text))
    if quotient is not None:
        if _MINUS_ONE.search(quotient.group("formula")):
            return None
        return f"a level over its own base ({quotient.group('formula').strip()})"
    if cues(metric, lexicon.share_metrics):
        return f"the level of «{value.metric}», a share of another base"
    return None


def level_as_change(
    read: ReadText, claim: ClaimState, clause: str, lexicon: ClaimLexicon
) -> str | None:
    """The defect detail when the claim's number is a percentage written as an amount of
    change (in ``clause``) but every candidate fact value is a level with its own base;
    else None."""
    mention = claim.mention
    if mention.kind != "%" or not claim.candidates:
        return None
    if change_direction(read, mention, lexicon) is None:
        return None
    bases = [_level_base(candidate, lexicon) for candidate in claim.candidates]
    if any(base is None for base in bases):
        return None
    return (
        f"{mention.raw} (in «{clause}») is written as a change but"
        f" [{claim.candidates[0].fact.id}] gives it as {bases[0]}; write it as the fact"
        " gives it"
    )
