"""Which of its several values a document opposes to another document's.

A group of values (one subject, one attribute) may hold several values of one document:

- a note that sets side by side what other documents state ("the datasheet gives 18, our
  test 7.2; no new measurement") states nothing of its own: every value it writes is also
  written by an earlier document. It contradicts no one (the documents it quotes do);
- a report that repeats an earlier figure beside its own ("campaign 1: 9.1, campaign 3:
  11.4", the earlier report giving 9.1) has one value of its own: that one is its statement;
- a sheet whose rows are items (a quote's onboarding line and its subscription line) may
  repeat an earlier document's row: when that document's passage shares the repeated row's
  distinguishing words most, the rows are compared as a property sheet's (below);
- a property sheet with several rows of one quantity ("throughput, firewall only: 60";
  "throughput, threat protection (TLS inspection + IPS): 18") states several values of its
  own, each under its own words. Another document's value is opposed to the row whose
  distinguishing words (those not common to all the rows) its own passage shares most, when
  one row shares more than every other; a value matching no row alone is compared with no row.

:func:`split_rows` returns the groups of values to compare, each with one value per document
at most, from the documents' passages (the quotes): no vocabulary of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date

from preuve.synthesis.lexicon import Lexicon, default_lexicon, fold
from preuve.synthesis.statements import stem
from preuve.synthesis.types import SourcedValue

__all__ = ["passage_words", "split_rows"]


def passage_words(quote: str, lexicon: Lexicon | None = None) -> frozenset[str]:
    """The content words of a passage, stemmed (numbers and function words left out)."""
    lex = lexicon or default_lexicon()
    return frozenset(
        stem(w)
        for w in re.findall(r"[a-z][a-z0-9-]+", fold(quote))
        if len(w) >= 3 and w not in lex.stopwords
    )


def _docs(values: Sequence[SourcedValue]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for index, value in enumerate(values):
        for doc_id in value.sources:
            found.setdefault(doc_id, []).append(index)
    return found


def _without(values: Sequence[SourcedValue], doc_id: str, keep: int | None) -> list[SourcedValue]:
    """``values`` with ``doc_id`` kept on the value at ``keep`` only."""
    out = []
    for index, value in enumerate(values):
        sources = tuple(d for d in value.sources if d != doc_id or index == keep)
        out.append(SourcedValue(value.value, sources))
    return out


def split_rows(
    values: Sequence[SourcedValue],
    quotes: Mapping[tuple[str, str], str],
    dates: Mapping[str, date | None],
    lexicon: Lexicon | None = None,
) -> list[tuple[SourcedValue, ...]]:
    """The groups of values to compare (see the module docstring); ``quotes`` maps (doc id,
    value as written in the group) to the passage that states it, ``dates`` a document to
    its date: a value of a document is its own unless an earlier document states it."""
    current = list(values)
    by_doc = _docs(current)

    def earlier(other: str, doc_id: str) -> bool:
        a, b = dates.get(other), dates.get(doc_id)
        return a is not None and b is not None and a < b

    sheets: list[tuple[str, list[int]]] = []
    repeating: list[tuple[str, list[int], int]] = []
    for doc_id, at in by_doc.items():
        if len(at) < 2:
            continue
        own = [i for i in at if not any(earlier(o, doc_id) for o in current[i].sources)]
        distinct = len({quotes.get((doc_id, current[i].value), "") for i in at}) == len(at)
        if len(own) == 1 and distinct and _repeats_rows(current, doc_id, at, quotes, lexicon):
            repeating.append((doc_id, at, own[0]))  # rows, one an earlier document's too
        elif len(own) == 1:
            current = _without(current, doc_id, own[0])  # the earlier figure it repeats
        elif len(own) >= 2 and len(
            {quotes.get((doc_id, current[i].value), "") for i in own}
        ) == len(own):
            sheets.append((doc_id, own))  # fmt: skip
        else:
            current = _without(current, doc_id, None)  # it quotes others side by side
    if not sheets and len(repeating) == 1:
        sheets.append(repeating[0][:2])
    elif len(sheets) != 1:
        for doc_id, _, mine in repeating:
            current = _without(current, doc_id, mine)
    if len(sheets) != 1:
        for doc_id, _ in sheets:
            current = _without(current, doc_id, None)
        return [tuple(v for v in current if v.sources)]
    return _by_row(current, *sheets[0], quotes, lexicon)


def _repeats_rows(
    values: Sequence[SourcedValue], doc_id: str, rows: list[int],
    quotes: Mapping[tuple[str, str], str], lexicon: Lexicon | None,
) -> bool:  # fmt: skip
    """True when each other document stating a value ``doc_id`` repeats does so in a
    passage sharing that row's distinguishing words most: the rows are two items of a
    sheet (a quote's onboarding line and its subscription line), the repeated one the same
    item of the earlier document, not an earlier figure beside the document's own."""
    words = {i: passage_words(quotes.get((doc_id, values[i].value), ""), lexicon) for i in rows}
    common = frozenset.intersection(*words.values())
    checked = False
    for row in rows:
        for other in values[row].sources:
            if other == doc_id:
                continue
            said = passage_words(quotes.get((other, values[row].value), ""), lexicon)
            scores = {i: len(said & (words[i] - common)) for i in rows}
            if not scores[row] or any(scores[i] >= scores[row] for i in rows if i != row):
                return False
            checked = True
    return checked


def _by_row(
    values: list[SourcedValue], sheet: str, rows: list[int],
    quotes: Mapping[tuple[str, str], str], lexicon: Lexicon | None,
) -> list[tuple[SourcedValue, ...]]:  # fmt: skip
    """One group per row of the sheet, with the other documents' values whose passage
    shares that row's distinguishing words most; the rest compared among themselves."""
    words = {i: passage_words(quotes.get((sheet, values[i].value), ""), lexicon) for i in rows}
    common = frozenset.intersection(*words.values())
    distinct = {i: w - common for i, w in words.items()}
    placed: dict[int, list[tuple[int, str]]] = {i: [] for i in rows}
    rest: list[tuple[int, str]] = []
    for index, value in enumerate(values):
        for doc_id in value.sources:
            if doc_id == sheet:
                continue
            said = passage_words(quotes.get((doc_id, value.value), ""), lexicon)
            scores = sorted(((len(said & distinct[i]), i) for i in rows), reverse=True)
            best, row = scores[0]
            if best and (len(scores) == 1 or scores[1][0] < best):
                placed[row].append((index, doc_id))
            else:
                rest.append((index, doc_id))
    out = []
    for row in rows:
        out.append(_grouped(values, [(row, sheet), *placed[row]]))
    out.append(_grouped(values, rest))
    return [g for g in out if g]


def _grouped(
    values: Sequence[SourcedValue], members: list[tuple[int, str]]
) -> tuple[SourcedValue, ...]:
    kept: dict[int, list[str]] = {}
    for index, doc_id in members:
        kept.setdefault(index, []).append(doc_id)
    return tuple(SourcedValue(values[i].value, tuple(ids)) for i, ids in sorted(kept.items()))
