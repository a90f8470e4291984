"""Is a value stated by the passages it cites? One check for workflows 2 and 3.

A model's value (a digest claim's value, a sub-agent statement's per-source value) comes
with the passages it rests on (cited lines, a verified quote); resolving them proves the
passages exist, not that they say the value. :func:`value_outside` lists what of the value
they do not hold; a value is stated when nothing is listed:

- a value with neither a word nor a number is no value, unless its digits are written as
  such in a passage (a date as ``30/06/2030``);
- each of its numbers is a number of a passage (compared by value, each passage read in
  its own locale: ``2100 units`` is stated by ``2,100 units``), or the value is written
  as such in one passage, whole numbers and words in order, spacing and punctuation aside
  (``Apache 2.0`` in ``Apache-2.0``, where the number alone reads as ``-2.0``; ``20 ms`` is
  not in ``120 ms``, ``100 units`` not in ``2,100 units``, ``5`` not in ``-5``);
- each of its words (runs of letters, after the declared normalization, case folded) is a
  word of a passage; for a value with numbers, a word may also be a word of the passages'
  ``context`` when the caller gives one (workflow 2 gives the quoted document: a table
  row's unit is written in its header);
- a yes/no value (the words of :class:`YesNoCues`, declared data: workflow 2 reads them
  from its lexicon) is stated by a passage that writes that word, or that holds a cue of
  that answer and a word of the attribute it answers.

Word order and the words around the value are not otherwise checked: ``packed`` is stated
by ``Product P-10-36 status: packed.`` whatever else the line says. What this refuses is a
value the passages never state: a rewritten figure (``2,345.67`` where the line says
``2,100 units``), a fragment (``.2,``), a word of the model's own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from preuve.core.claimtext import fold
from preuve.core.numbers import detect_locale, extract_numbers
from preuve.core.text import normalize

__all__ = ["YesNoCues", "unstated", "value_outside"]

_WORD = re.compile(r"[^\W\d_]+")
# A token written as such: a word, or a whole number (sign only when not a hyphen after a
# letter or digit; digit groups joined by a thin, plain or no-break space, comma or point).
_TOKEN = re.compile(r"[^\W\d_]+|(?:(?<![\w.,])[-−])?\d+(?:[ \u00a0\u202f]\d{3}(?!\d))*(?:[.,]\d+)*")


@dataclass(frozen=True, slots=True)
class YesNoCues:
    """How a passage answers a yes/no attribute, as declared data: the words of each answer
    (any language) and the cues that state it (``open source``; ``non``, ``sans``)."""

    yes: tuple[str, ...] = ()
    no: tuple[str, ...] = ()
    affirm: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()


@lru_cache(maxsize=64)  # a document is the context of each of its values
def _words(text: str) -> frozenset[str]:
    return frozenset(w.casefold() for w in _WORD.findall(normalize(text).text))


def _tokens(text: str) -> list[str]:
    plain = normalize(text).text.casefold().replace("−", "-")
    return [re.sub(r"[\s\u00a0\u202f]", "", t) for t in _TOKEN.findall(plain)]


def _as_written(value: str, passage: str) -> bool:
    needle, tokens = _tokens(value), _tokens(passage)
    size = len(needle)
    return bool(needle) and any(tokens[i : i + size] == needle for i in range(len(tokens)))


def _has_cue(folded: str, cues: Sequence[str]) -> bool:
    return any(
        re.search(rf"(?<![a-z0-9]){re.escape(fold(c))}(?![a-z0-9])", folded) for c in cues if c
    )


def _yes_no_outside(
    value: str, attribute: str, passages: Sequence[str], cues: YesNoCues
) -> list[str] | None:
    """What the passages lack for a yes/no value, or None when the value is no such word."""
    key = fold(value).strip()
    if key in {fold(w) for w in cues.yes}:
        answer = cues.affirm
    elif key in {fold(w) for w in cues.no}:
        answer = cues.deny
    else:
        return None
    folded = [" ".join(fold(p).split()) for p in passages]
    if any(key in re.findall(r"[^\W_]+", p) for p in folded):
        return []  # written as such (a cell of a table row)
    missing = [] if any(_has_cue(p, answer) for p in folded) else [f"no cue of {value!r}"]
    named = [w for w in re.findall(r"[^\W_]+", fold(attribute)) if len(w) > 2]
    said = {w for p in folded for w in re.findall(r"[^\W_]+", p)}
    if named and not any(w in said for w in named):
        missing.append(f"nothing of {attribute!r}")
    return missing


def value_outside(
    value: str,
    passages: Sequence[str],
    *,
    context: Sequence[str] = (),
    attribute: str = "",
    yes_no: YesNoCues | None = None,
) -> list[str]:
    """The parts of ``value`` that ``passages`` do not state; empty when it is stated (see
    the module)."""
    if yes_no is not None:
        answered = _yes_no_outside(value, attribute, passages, yes_no)
        if answered is not None:
            return answered
    numbers = extract_numbers(value, detect_locale(" ".join(passages)))
    words = _words(value)
    if not numbers and not words:
        if not re.search(r"\d", value):
            return ["no word and no number"]
        # digits no number reads (a date as 30/06/2030): stated only as written
        return [] if any(_as_written(value, p) for p in passages) else ["its digits as written"]
    around = (*passages, *context) if numbers else tuple(passages)
    said = frozenset().union(*(_words(p) for p in around))
    foreign = sorted(words - said)
    if any(_as_written(value, p) for p in passages):
        return foreign
    cited = {m.value for p in passages for m in extract_numbers(p, detect_locale(p))}
    return [m.raw for m in numbers if m.value not in cited] + foreign


def unstated(value: str, lines: Sequence[str]) -> str | None:
    """Why ``value`` is not stated by ``lines`` (workflow 3's claims), or None when it is."""
    missing = value_outside(value, lines)
    if not missing:
        return None
    if missing == ["no word and no number"]:
        return f"value {value!r} holds no word and no number"
    return f"value {value!r}: {', '.join(missing)} is stated by none of the cited lines"
