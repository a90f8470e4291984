"""Values a document reports from another one (``selon la fiche éditeur de février``,
``according to doc-02``): attributed to that document when the dossier's catalogue
identifies it (by id, or by its source type with its month or title words). The original
speaks for itself, so the reporting document does not become a second source of a value it
only quotes; a reported value whose origin is not identified keeps its reporting document,
in a context of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from preuve.core.patterns import compiled
from preuve.synthesis.lexicon import Lexicon, fold, fold1, normalize_type_name
from preuve.synthesis.values import Value

__all__ = ["CatalogueEntry", "dates_a_document", "origin"]


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """What the reader knows of every document of the dossier (metadata only)."""

    doc_id: str
    title: str
    date: str
    source_type: str


def dates_a_document(
    sentence: str, value: Value, catalogue: Sequence[CatalogueEntry], own: str
) -> bool:
    """Whether a date written in an aside ("(see the notice of 20 May 2026)") is the date of
    another document of the dossier: the reference to that document, no date it states."""
    if value.kind != "date" or len(value.key) < 2 or not isinstance(value.key[1], tuple):
        return False
    year, month, day = (*value.key[1], None, None)[:3]
    if day is None or month is None:
        return False
    asides = [m.span() for m in re.finditer(r"\([^()]*\)", sentence)]
    if not any(a <= value.start and value.end <= b for a, b in asides):
        return False
    written = f"{year:04d}-{month:02d}-{day:02d}"
    return any(e.doc_id != own and e.date[:10] == written for e in catalogue)


def _mentioned_types(clause: str, lexicon: Lexicon) -> set[str]:
    name = normalize_type_name(clause)
    found = {
        canonical
        for alias, canonical in lexicon.source_aliases.items()
        if compiled(rf"(?<![a-z]){re.escape(alias)}(?![a-z])").search(name)
    }
    return found | {
        t for t in lexicon.source_ranks if compiled(rf"(?<![a-z]){re.escape(t)}\b").search(name)
    }


def _names_id(folded: str, doc_id: str) -> bool:
    return compiled(rf"(?<![\w-]){re.escape(doc_id.lower())}(?![\w-])").search(folded) is not None


def _identify(
    clause: str, types: set[str], catalogue: Sequence[CatalogueEntry], lexicon: Lexicon, own: str
) -> str | None:
    folded = fold(clause)
    literal = [e.doc_id for e in catalogue if e.doc_id != own and _names_id(folded, e.doc_id)]
    if len(literal) == 1:
        return literal[0]
    months = {m for m in lexicon.months if re.search(rf"\b{m}\b", folded)} | _abbreviated(folded)
    clause_words = set(re.findall(r"[a-z]{4,}", folded))
    scored = []
    for entry in catalogue:
        if entry.doc_id == own:
            continue
        score = 2 * (normalize_type_name(entry.source_type) in types)
        score += 2 * bool(_month_of(entry.date) & months)
        score += len(set(re.findall(r"[a-z]{4,}", fold(entry.title))) & clause_words) // 2
        scored.append((score, entry.doc_id))
    best = max((score for score, _ in scored), default=0)
    winners = [doc for score, doc in scored if score == best]
    return winners[0] if best >= 4 and len(winners) == 1 else None


def origin(
    sentence: str, value: Value, catalogue: Sequence[CatalogueEntry], lexicon: Lexicon, own: str
) -> tuple[str | None, str | None]:
    """(the document a value is reported from, when the catalogue identifies it; else a
    context naming the kind of source it is reported from), or (None, None) when the value
    is the document's own. A value is reported when its clause holds an attribution cue
    followed by a source, or names a source while another clause of the sentence names
    another one (two sources side by side)."""
    clause = _clause_of(sentence, value, lexicon)
    folded = fold(clause)
    cue = next(
        (m for c in lexicon.attribution_cues
         if (m := re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", folded))),
        None,
    )  # fmt: skip
    own_type = next((e.source_type for e in catalogue if e.doc_id == own), "")
    # a document naming its own type ("this quote is valid 90 days") reports nothing
    types = _mentioned_types(clause, lexicon) - {normalize_type_name(own_type), own_type}
    literal = any(_names_id(folded, e.doc_id) for e in catalogue if e.doc_id != own)
    side_by_side = bool(types) and len(_clauses_with_sources(sentence, lexicon, own_type)) >= 2
    # "1.8 s (LC-200 datasheet, Feb)": an aside right after the value naming a source
    aside = re.match(r"\s*\(([^()]*)\)", sentence[value.end :])
    cited = aside is not None and bool(
        _mentioned_types(aside.group(1), lexicon) - {normalize_type_name(own_type), own_type}
    )
    if not (literal or (cue is not None and types) or side_by_side or cited):
        return None, None
    origin = _identify(clause, types, catalogue, lexicon, own)
    if origin is not None:
        return origin, None
    return None, "reported " + " ".join(sorted(types))


def _clauses_with_sources(sentence: str, lexicon: Lexicon, own_type: str) -> list[str]:
    parts = re.split(_strong(lexicon).pattern, fold1(sentence))
    own = {normalize_type_name(own_type), own_type}
    return [p for p in parts if _mentioned_types(p, lexicon) - own]


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")  # fmt: skip
_MOIS = ("janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre",
         "octobre", "novembre", "decembre")  # fmt: skip


# a month as tables and asides shorten it ("Feb", "févr.", "sept."), by its index
_ABBREVIATIONS = {
    **{m[:3]: i for i, m in enumerate(_MONTHS) if m != "may"},
    **{a: i for i, a in enumerate(("janv", "fevr", "mars", "avr", "mai", "juin", "juil",
                                    "aout", "sept", "oct", "nov", "dec"))},
}  # fmt: skip


def _abbreviated(folded: str) -> set[str]:
    """The months ``folded`` names by an abbreviation, named in both languages."""
    return {
        name
        for word in re.findall(r"[a-z]+", folded)
        if (index := _ABBREVIATIONS.get(word)) is not None
        for name in (_MONTHS[index], _MOIS[index])
    }


def _month_of(day: str) -> set[str]:
    """The month of an ISO date, named in both languages."""
    try:
        index = int(day[5:7]) - 1
    except ValueError:
        return set()
    return {_MOIS[index], _MONTHS[index]} if 0 <= index < 12 else set()


@lru_cache(maxsize=16)
def _strong(lexicon: Lexicon) -> re.Pattern[str]:
    """Strong boundaries: ";", a contrast word, or ", and"."""
    joiners = lexicon.alternation("clause_words")
    return re.compile(rf";|{lexicon.alternation('contrast_words')}|,\s+{joiners}")


def _clause_of(sentence: str, value: Value, lexicon: Lexicon) -> str:
    """The part of the sentence that speaks of ``value``: from the previous strong boundary
    (``;``, ``alors que``, ``whereas``, ``but``) to the next one."""
    folded = fold1(sentence)
    strong = _strong(lexicon)
    left = max((m.end() for m in strong.finditer(folded, 0, value.start)), default=0)
    right = strong.search(folded, value.end)
    return sentence[left : right.start() if right else len(sentence)]
