"""Units and bases in the memo check: a figure grounded by value must also carry its fact's
unit (or a declared conversion of it) and base (:mod:`preuve.core.measures`), and a base a
paragraph writes must be one its cited facts give."""

from __future__ import annotations

from collections.abc import Sequence

from preuve.core.bases import base_marks
from preuve.core.defects import Defect
from preuve.core.measures import Terms, converts, terms_conflict, terms_of
from preuve.core.memo_codes import BASE_MISMATCH, NUMBER_NOT_IN_FACTS, UNIT_MISMATCH
from preuve.core.numbers import Locale, NumberMention

__all__ = ["base_defects", "ids", "measured_code", "shorten", "terms_all", "terms_defect"]


def shorten(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


_MAX_IDS_SHOWN = 8


def ids(cited: Sequence[str]) -> str:
    shown = ", ".join(f"[{sid}]" for sid in cited[:_MAX_IDS_SHOWN]) or "none"
    more = len(cited) - _MAX_IDS_SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


def terms_all(
    text: str,
    mentions: Sequence[NumberMention],
    clauses: Sequence[tuple[int, int]],
    locale: Locale,
) -> list[Terms]:
    """The unit and bases of each number of ``text``, read in its clause."""
    marks = base_marks(text)
    return [terms_of(text, m, _clause_span(m, clauses, len(text)), locale, marks) for m in mentions]


def _clause_span(
    mention: NumberMention, clauses: Sequence[tuple[int, int]], length: int
) -> tuple[int, int]:
    return next(((s, e) for s, e in clauses if s <= mention.start < e), (0, length))


def measured_code(
    code: str | None,
    mention: NumberMention,
    terms: Terms,
    measured: Sequence[tuple[NumberMention, Terms]],
) -> str | None:
    """``code`` read again with units and bases: a number grounded by value whose every
    fact figure of that value has another unit or base is refused (unless a fact figure
    converts to it); a number in no fact is grounded by a declared conversion."""
    measure = terms.measure
    if code is None:
        same = [
            t
            for n, t in measured
            if n.value == mention.value or (not mention.signed and abs(n.value) == mention.value)
        ]
        conflicts = {terms_conflict(terms, t) for t in same}
        if not same or None in conflicts:
            return None
        if "unit" not in conflicts:
            return BASE_MISMATCH
    elif code != NUMBER_NOT_IN_FACTS or measure is None:
        return code
    for number, other in measured:
        if (
            measure is not None
            and other.measure is not None
            and converts(mention, measure, number, other.measure)
            and terms_conflict(Terms(None, terms.bases), other) is None
        ):
            return None
    return UNIT_MISMATCH if code is None else code


def terms_defect(
    code: str,
    mention: NumberMention,
    *,
    terms: Terms,
    clause: str,
    cited: Sequence[str],
    index: int,
    measured: Sequence[tuple[NumberMention, Terms]],
) -> Defect:
    """The unit or base a figure is written in, against what its facts give for it."""
    same = [(n, t) for n, t in measured if abs(n.value) == abs(mention.value)]
    if code == BASE_MISMATCH:
        written = ", ".join(f"{g} {v}" for g, v in terms.bases.items())
        given = ", ".join(
            dict.fromkeys(", ".join(f"{g} {v}" for g, v in t.bases.items()) for _, t in same)
        )
        what = "base"
    else:
        written = terms.measure.written if terms.measure is not None else "no unit"
        given = ", ".join(
            dict.fromkeys(f"{n.raw} {t.measure.written}" for n, t in same if t.measure)
        )
        what = "unit"
    detail = (
        f"{mention.raw} ({written}, in «{shorten(clause)}») has the value of a cited fact"
        f" but not its {what}: the facts cited ({ids(cited)}) give {given or 'another'};"
        f" write the figure with the {what} the fact gives"
    )
    return Defect(code=code, detail=detail, paragraph=index)


def base_defects(
    text: str, sources: Sequence[str], cited: Sequence[str], index: int
) -> list[Defect]:
    """A base the paragraph writes (``jour ouvré``, ``TTC``) where its cited facts write
    only another base of that group (``jour calendaire``, ``HT``)."""
    given: dict[str, set[str]] = {}
    for source in sources:
        for mark in base_marks(source):
            given.setdefault(mark.group, set()).add(mark.value)
    defects = []
    for mark in base_marks(text):
        values = given.get(mark.group, set())
        if values and mark.value not in values:
            written = text[mark.start : mark.end]
            detail = (
                f"«{written}» is another base than the facts cited ({ids(cited)}) give"
                f" ({', '.join(sorted(values))}); write the base the fact gives"
            )
            defects.append(Defect(BASE_MISMATCH, detail, paragraph=index))
    return defects
