"""Polarity: does a statement negate what its cited fact affirms, or the reverse?

A statement part (a scope of a paragraph) is aligned with the part of a cited fact's text
that shares most of its content words (compared on their first five letters, so that
"accordé"/"accordée" and "granted"/"grant" meet). When the alignment is strong, each side
is negative if it holds an explicit negation (pas, aucun, jamais, sans, not, no, never,
without, ...; French "ne ... que" restricts and does not negate, "ne ... plus" does).
Opposite polarities are a flip only when a word the negation governs on one side is
present on the other side; otherwise the paraphrase may be an antonym ("non respecté" /
"breached") and the claim is left unchecked, never passed as verified.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from preuve.core.claim_lexicon import ClaimLexicon
from preuve.core.claimtext import Cue, cues, fold, scopes, words

__all__ = ["Polarity", "align_polarity", "negations"]

_STEM = 5
_MIN_OVERLAP = 2
_MIN_SHARE = 0.5
_SCOPE_AFTER = 4
_SCOPE_BEFORE = 1
_NEGATIVE_PREFIX = re.compile(r"^(?:un|non-?|in|im|ir|dis)(?=[a-z]{3})")
_NE_PLUS = re.compile(r"\bn(?:e\s|')\s*(?:[^\W\d_]+\s+){0,2}(?P<cue>plus)\b")


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Polarity:
    """``status`` is ``ok`` (aligned, same polarity), ``defect`` (a flip), ``unchecked``
    (a claim that could not be decided) or ``n/a`` (nothing to compare)."""

    status: str
    fact_id: str | None = None
    fact_text: str = ""
    negated_in_claim: bool = False
    aligned: tuple[str, ...] = ()


def negations(folded: str, lexicon: ClaimLexicon) -> list[Cue]:
    """Explicit negations of a folded text."""
    found = cues(folded, lexicon.negation)
    found += [Cue(m.start("cue"), m.end("cue"), "plus") for m in _NE_PLUS.finditer(folded)]
    return sorted(found, key=lambda c: c.start)


def _stems(folded: str, lexicon: ClaimLexicon) -> list[tuple[int, str]]:
    stop = set(lexicon.stopwords)
    negation = {c.text for c in cues(folded, lexicon.negation)}
    return [
        (start, word[:_STEM])
        for start, _, word in words(folded)
        if len(word) >= 3 and word not in stop and word not in negation
    ]


def _governed(folded: str, lexicon: ClaimLexicon) -> set[str]:
    """Stems a negation governs: the words just before it and a few after."""
    tokens = _stems(folded, lexicon)
    governed: set[str] = set()
    for cue in negations(folded, lexicon):
        after = [s for p, s in tokens if p >= cue.end][:_SCOPE_AFTER]
        before = [s for p, s in tokens if p < cue.start][-_SCOPE_BEFORE:]
        governed |= {*after, *before}
    return governed


def _parts(text: str) -> list[str]:
    return [text[s:e] for s, e in scopes(text)]


def align_polarity(
    claim: str, statements: Sequence[tuple[_HasId, str]], lexicon: ClaimLexicon
) -> Polarity:
    """The polarity check of one statement part against the texts of its cited facts."""
    claim_folded = fold(claim)
    claim_stems = {s for _, s in _stems(claim_folded, lexicon)}
    claim_negative = bool(negations(claim_folded, lexicon))
    if len(claim_stems) < _MIN_OVERLAP:
        return Polarity("n/a")
    best: tuple[int, _HasId, str] | None = None
    aligned: dict[str, int] = {}
    for fact, text in statements:
        for part in _parts(text):
            part_stems = {s for _, s in _stems(fold(part), lexicon)}
            overlap = len(claim_stems & part_stems)
            share = overlap / max(1, min(len(claim_stems), len(part_stems)))
            if overlap >= _MIN_OVERLAP and share >= _MIN_SHARE:
                aligned[fact.id] = max(aligned.get(fact.id, 0), overlap)
                if best is None or overlap > best[0]:
                    best = (overlap, fact, part)
    if best is None:
        undecided = claim_negative or (bool(statements) and len(claim_stems) >= 3)
        return Polarity("unchecked" if undecided else "n/a")
    top = tuple(fid for fid, overlap in aligned.items() if overlap >= best[0] - 1)
    _, fact, part = best
    part_folded = fold(part)
    part_negative = bool(negations(part_folded, lexicon))
    if claim_negative != part_negative:
        # "undrawn" / "has not drawn": a negative prefix on a word the negation governs
        negated_side, other = (
            (claim_folded, part_folded) if claim_negative else (part_folded, claim_folded)
        )
        if _prefixed(other, _governed(negated_side, lexicon), lexicon):
            claim_negative = part_negative
    if claim_negative == part_negative:
        return Polarity("ok", fact.id, part, aligned=top)
    negated_side, other = (
        (claim_folded, part_folded) if claim_negative else (part_folded, claim_folded)
    )
    other_stems = {s for _, s in _stems(other, lexicon)}
    if _governed(negated_side, lexicon) & other_stems:
        return Polarity("defect", fact.id, part.strip(), claim_negative, top)
    return Polarity("unchecked", fact.id, part.strip(), claim_negative, top)


def _prefixed(folded: str, governed: set[str], lexicon: ClaimLexicon) -> bool:
    for _, _, word in words(folded):
        prefix = _NEGATIVE_PREFIX.match(word)
        if prefix is not None and word[prefix.end() :][:_STEM] in governed:
            return True
    return False
