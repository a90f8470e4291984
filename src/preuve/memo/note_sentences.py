"""Balance-sheet amounts a report's notes state in a sentence, not in a table.

French GAAP notes often give, in prose, what a ratio needs and the statements omit: the debts
due within one year at the year before's close ("Au 31 décembre 2024, les dettes à un an au
plus s'élevaient à 22 700 k€"), the rents still due on operating leases ("Les loyers restant
dus au titre des contrats de location simple s'élèvent à 3 400 k€ au 31 décembre 2025
(2 900 k€ au 31 décembre 2024)"). This module reads such sentences, soundly:

- the subject is one of a concept's declared phrases (``sentences`` in ``data/concepts.json``);
- a verb of amount (``s'élève(nt) à``, ``atteint``, ``amounted to``...) follows it closely,
  then an amount *with its unit* (``k€``, ``M€``, ``€``, ``£m``...): no unit, no field;
- the amount's date is the one printed right after it (``au 31 décembre 2025``), else the
  one that opens the sentence (``Au 31 décembre 2024, ...``): no full date, no field;
- a second amount in parentheses right after, with its own unit and date, gives the other
  year; anything else in the sentence (``dont 2 570 k€ ...``) is left alone.

Each field keeps its page, raw text and unit; the caller adds it only for a (concept, year)
the statements do not give, at a date the balance sheet prints.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from preuve.core.numbers import Locale
from preuve.memo.cues import page_sentences
from preuve.memo.lexicon import SENTENCE_RULES, LabelRule, Statement, unit_of
from preuve.memo.periods import _MONTH_WORD, _MONTHS
from preuve.memo.statements import Field

__all__ = ["sentence_fields"]


@functools.cache
def _subjects(rules: tuple[LabelRule, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(concept, its subject phrases) of the mapping's sentence rules, in order."""
    return tuple(
        (rule.key, re.compile(r"(?i)\b(?:" + "|".join(rule.patterns) + r")\b"))
        for rule in rules
        if rule.sentence
    )


_VERB = re.compile(
    r"(?i)^[^.;:\d]{0,60}?\b(?:s'él[eè]v\w*|s'établi\w*|atteign\w*|atteint|représent\w*"
    r"|amount(?:ed|s)? to|totall?(?:ed|led|s)|stood at|were|was)\s+(?:à\s+|de\s+)?"
)
_UNIT = r"(?P<unit>k€|m€|md€|€|k£|£ ?m|£ ?k|£|\$ ?m|\$)"
_AMOUNT = re.compile(
    r"(?i)^(?P<raw>-?\d{1,3}(?:[ \u00a0\u202f]\d{3})*(?:,\d+)?|\d+(?:,\d+)?)\s?" + _UNIT + r"(?!\w)"
)
_DATE = re.compile(
    rf"(?i)\b(?:au|at|as of|as at)\s+(?P<day>\d{{1,2}})(?:er)?\s+(?P<month>{_MONTH_WORD})"
    r"\s+(?P<year>(?:19|20)\d\d)\b"
)
_OTHER = re.compile(r"^\s*\(\s*")
_UNITS = {"k€": "k€", "m€": "M€", "md€": "Md€", "€": "en euros", "£m": "£m", "£k": "£k"}


def _unit(raw: str) -> tuple[str, int] | None:
    key = raw.replace(" ", "").casefold()
    return unit_of(_UNITS.get(key, key))


def _value(raw: str) -> Decimal:
    return Decimal(re.sub(r"[ \u00a0\u202f]", "", raw).replace(",", "."))


def _date_at(text: str) -> tuple[int, int, int] | None:
    """The full date ``text`` starts with (spaces allowed before), as (year, month, day)."""
    match = _DATE.match(text.lstrip(" ,"))
    if match is None:
        return None
    return int(match["year"]), _MONTHS[match["month"].casefold()], int(match["day"])


@dataclass(frozen=True, slots=True)
class _Stated:
    """An amount a sentence states: value, text as printed, unit, date and where it ends."""

    value: Decimal
    raw: str
    unit: tuple[str, int]
    date: tuple[int, int, int]
    end: int

    def field(self, concept: str, page: int) -> Field:
        unit, scale = self.unit
        balance = Statement.BALANCE
        return Field(concept, "", self.date[0], self.value, page, unit, balance, self.raw, scale, 0)


def _amount_with_date(text: str, opening: tuple[int, int, int] | None) -> _Stated | None:
    """An amount with its unit at the start of ``text`` and its date (printed after it, else
    ``opening``)."""
    amount = _AMOUNT.match(text)
    if amount is None:
        return None
    unit = _unit(amount["unit"])
    after = text[amount.end() :]
    dated = _date_at(after)
    date = dated or opening
    if unit is None or date is None:
        return None
    end = amount.end()
    if dated is not None:
        found = _DATE.search(after)
        end += found.end() if found is not None else 0
    return _Stated(_value(amount["raw"]), amount["raw"], unit, date, end)


def _sentence_fields(
    text: str, page: int, rules: tuple[LabelRule, ...]
) -> list[tuple[Field, tuple[int, int, int]]]:
    opening = _date_at(text)
    found: list[tuple[Field, tuple[int, int, int]]] = []
    for concept, subject in _subjects(rules):
        match = subject.search(text)
        if match is None:
            continue
        verb = _VERB.match(text[match.end() :])
        if verb is None:
            continue
        rest = text[match.end() + verb.end() :]
        first = _amount_with_date(rest, opening if match.start() > 0 else None)
        if first is None:
            continue
        found.append((first.field(concept, page), first.date))
        other = _OTHER.match(rest[first.end :])
        if other is not None:
            second = _amount_with_date(rest[first.end + other.end() :], None)
            if second is not None and second.date[0] != first.date[0]:
                found.append((second.field(concept, page), second.date))
    return found


def sentence_fields(
    pages: Sequence[str],
    dates: Sequence[tuple[int, int, int]],
    locale: Locale = Locale.FR,
    user_rules: tuple[LabelRule, ...] = (),
) -> tuple[Field, ...]:
    """The fields the notes' sentences of ``pages`` state at one of the balance sheet's
    ``dates`` (year, month, day); the first sentence stating a (concept, year) wins. The
    subjects are the mapping's ``sentences`` (a user's mapping, ``user_rules``, first)."""
    del locale  # amounts are read as French notes print them (space thousands, comma decimals)
    rules = (*user_rules, *SENTENCE_RULES)
    fields: list[Field] = []
    seen: set[tuple[str, int]] = set()
    for number, page in enumerate(pages, start=1):
        for sentence in page_sentences(page):
            text = " ".join(sentence.text.split())
            for found, date in _sentence_fields(text, number, rules):
                key = (found.key, found.year)
                if date in dates and key not in seen:
                    seen.add(key)
                    label = text[:80] + ("…" if len(text) > 80 else "")
                    fields.append(dataclasses.replace(found, label=label))
    return tuple(fields)
