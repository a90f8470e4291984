"""Is a number said of its own metric? A value is not said of its neighbour.

A percentage whose clause names, before it, a metric of its cited fact (``EBIT margin
reached 8.4%``), none of them part of the value's own metric (``revenue growth``), is said
of the neighbour it stands beside on the fact line: ``wrong_metric``. A metric named as a
base (``of revenue``) or after the number names nothing here. A share written as an amount
of change (``grew 6.2%`` for a margin) is the base check's (:mod:`preuve.core.claim_base`,
``wrong_base``).

Only structured facts name their metrics (``Metric Period : value``); a value read from
prose has none and is not checked here. A clause naming part of the metric ("revenue" for
"revenue growth") names it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from preuve.core.binding import ReadText
from preuve.core.claim_lexicon import ClaimLexicon
from preuve.core.claim_state import Candidate
from preuve.core.claimtext import fold, segment_of
from preuve.core.numbers import NumberMention

__all__ = ["metric_problem"]

_WORD = re.compile(r"[a-z0-9]+")
_BASE_BEFORE = re.compile(r"(?:\bof(?: the)?|\bde(?: la| l')?|\bdu|\bdes|\bd')\s*$")


def _words(name: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(fold(name)))


def _named(clause: str, names: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The metric names (as word tuples) written in the folded ``clause``, not as the
    base of another ("of revenue", "du chiffre d'affaires")."""
    found = []
    for words in names:
        pattern = rf"(?<![a-z0-9]){r'[^a-z0-9]+'.join(words)}(?![a-z0-9])"
        starts = [m.start() for m in re.finditer(pattern, clause)] if words else []
        if any(_BASE_BEFORE.search(clause[:start]) is None for start in starts):
            found.append(words)
    return found


def metric_problem(
    read: ReadText, mention: NumberMention, candidates: Sequence[Candidate], lexicon: ClaimLexicon
) -> str | None:
    """Why ``mention`` is said of a metric its candidate values do not have, or
    None (also when a candidate has no metric: nothing to compare)."""
    metrics = [c.value.metric for c in candidates]
    if not candidates or any(m is None for m in metrics):
        return None
    first = candidates[0]
    if mention.kind != "%":
        return None
    start, _ = segment_of(mention.start, read.clauses)
    clause = read.folded[start : mention.start]
    facts = {c.fact.id: c.fact for c in candidates}
    names = list(
        dict.fromkeys(
            _words(v.metric) for f in facts.values() for v in f.structure.values if v.metric
        )
    )
    named = _named(clause, names)
    if not named:
        return None
    own = [set(_words(str(m))) for m in metrics]
    if any(set(words) <= words_of for words in named for words_of in own):
        return None
    said = " ".join(sorted(named, key=len)[-1])
    return (
        f"is said of «{said}» but [{first.fact.id}] gives it for «{first.value.metric}»;"
        " write the value the fact gives for that metric"
    )
