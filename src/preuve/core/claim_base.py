"""The base of a percentage: a margin or a share is no rate of change.

A fact line that gives a percentage with a formula dividing one quantity by another
(``Marge d'EBITDA 2025 : 12,6 % ; formule : EBITDA / chiffre d'affaires``) gives a level
whose base is the divisor. A memo that writes the same figure as an amount of change of a
quantity (``l'EBITDA progresse de 12,6 %``, ``net income grew 6.2%``) changes its base:
the figure is then refused (``wrong_base``), unless the fact's metric is itself a change
(``croissance``, ``growth``, ``variation``) or the fact states a direction for the value.
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
# Metric words that name a change whatever their direction (general vocabulary).
_CHANGE_METRIC = re.compile(r"\b(?:variation|evolution|change|delta|ecart|taux de croissance)")


def _level_formula(candidate: Candidate, lexicon: ClaimLexicon) -> str | None:
    """The quotient formula of a candidate that is a level with a base, else None."""
    value = candidate.value
    if value.direction is not None or value.metric is None:
        return None
    metric = fold(value.metric)
    if cues(metric, lexicon.up) or cues(metric, lexicon.down) or _CHANGE_METRIC.search(metric):
        return None
    quotient = _QUOTIENT.search(fold(candidate.fact.text))
    if quotient is None or _MINUS_ONE.search(quotient.group("formula")):
        return None
    return quotient.group("formula").strip()


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
    formulas = [_level_formula(candidate, lexicon) for candidate in claim.candidates]
    if any(formula is None for formula in formulas):
        return None
    return (
        f"{mention.raw} (in «{clause}») is written as a change but"
        f" [{claim.candidates[0].fact.id}] gives it as a level over its own base"
        f" ({formulas[0]}); write it as the fact gives it"
    )
