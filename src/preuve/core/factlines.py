"""The structure of a fact line: subject, metric, period and values, in French or English.

The documented format (README, ``check-memo``)::

    [ID] Subject - Metric Period : value (Period2 : value2 ; Period3 : value3) ; formule : …
    [ID] Subject - Metric Period : value ; other metric : value
    [ID] Subject - « quote » (p. N)
    [ID] Subject - any sentence (an alert): its numbers take the period their clause gives

``Period`` is a year (``2025``, ``FY2025``), a quarter (``T3 2025``, ``Q3 2025``) or a
half (``S1 2025``, ``H1 2025``); ``:`` may be written with or without a space before it;
``formule``/``formula``/``définition``/``definition``/``source`` segments say how a
value was computed and give no value. A line that does not follow the metric form is read
as prose: its numbers get the periods and directions their own sentence gives them, and
its text is the statement a claim's polarity is read against.
"""

from __future__ import annotations

import re

from preuve.core.binding import governing_direction, read_text
from preuve.core.claim_lexicon import DEFAULT_LEXICON, ClaimLexicon
from preuve.core.claimtext import fold, period_mentions
from preuve.core.facts import Fact, FactStructure, FactValue
from preuve.core.numbers import Locale, extract_numbers, parse_number

__all__ = ["metric_key", "parse_fact_structure", "prose_structure", "structure_of"]

_SUBJECT = re.compile(r"^(?P<subject>[^:;«»\"]{1,80}?)\s+[-–—]\s+(?P<rest>\S.*)$")
_QUOTE = re.compile(r"^[«\"“]\s*(?P<quote>.+?)\s*[»\"”]\s*(?:\((?:p\.|page)\s*\d+\))?\.?$")
_NOTE_KEY = re.compile(r"^(?:formule|formula|d[ée]finition|definition|source|calcul)\s*:", re.I)
_PAIR = re.compile(r"^(?P<name>[^:]+?)\s*:\s*(?P<value>.+?)$")
_PRIOR_GROUP = re.compile(r"\((?P<inner>[^()]*:[^()]*)\)\s*$")


def _split_top(text: str, separator: str) -> list[str]:
    """``text`` split on ``separator`` outside parentheses."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        if char == separator and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _trailing_period(name: str) -> tuple[str, str | None]:
    """``Levier 2025`` → (``Levier``, ``2025``); ``Levier`` → (``Levier``, None)."""
    stripped = name.strip()
    found = period_mentions(stripped)
    if found and found[-1].end == len(stripped) and found[-1].period is not None:
        head = stripped[: found[-1].start].strip()
        head = re.sub(r"\s+(?:en|in|de|of|fin|end|au|at)$", "", head, flags=re.I)
        return head, found[-1].period
    return stripped, None


def _only_period(text: str) -> str | None:
    found = period_mentions(text.strip())
    if len(found) == 1 and found[0].start == 0 and found[0].end == len(text.strip()):
        return found[0].period
    return None


_UNIT_WORDS = re.compile(r"\s*[^\W\d_]+(?:\s+[^\W\d_]+)?\.?")


def _value(text: str, locale: Locale) -> tuple[str, object] | None:
    """One number, with its unit or a unit word after it (``96 days``, ``1 200 salariés``)."""
    token = text.strip()
    value = parse_number(token, locale)
    mentions = extract_numbers(token, locale)
    if value is not None:
        return (mentions[0].unit if mentions else None) or "", value
    if len(mentions) != 1 or mentions[0].start != 0 or mentions[0].is_year:
        return None
    rest = token[mentions[0].end :]
    if _UNIT_WORDS.fullmatch(rest) is None:
        return None
    return mentions[0].unit or rest.strip(), mentions[0].value


def _metric_values(rest: str, locale: Locale) -> tuple[str, str | None, list[FactValue]] | None:
    """The values of a metric line, or None if ``rest`` is not one."""
    segments = [s for s in _split_top(rest, ";") if not _NOTE_KEY.match(s)]
    if not segments:
        return None
    values: list[FactValue] = []
    first_metric: str | None = None
    first_period: str | None = None
    for number, segment in enumerate(segments):
        prior_match = _PRIOR_GROUP.search(segment)
        head = segment[: prior_match.start()].strip() if prior_match else segment
        pair = _PAIR.match(head)
        if pair is None:
            return None
        metric, period = _trailing_period(pair["name"])
        parsed = _value(pair["value"], locale)
        if parsed is None or not metric:
            return None
        if number == 0:
            first_metric, first_period = metric, period
        period = period or first_period
        unit, value = parsed
        values.append(FactValue(value, unit or None, metric, period))  # type: ignore[arg-type]
        if prior_match is not None:
            for item in re.split(r"\s*[;,]\s*(?=[^:]*:)", prior_match["inner"]):
                prior = _PAIR.match(item.strip())
                if prior is None:
                    return None
                prior_period, prior_value = (
                    _only_period(prior["name"]),
                    _value(prior["value"], locale),
                )
                if prior_period is None or prior_value is None:
                    return None
                unit, value = prior_value
                values.append(FactValue(value, unit or None, metric, prior_period))  # type: ignore[arg-type]
    return first_metric or "", first_period, values


def prose_structure(
    subject: str | None, text: str, locale: Locale, lexicon: ClaimLexicon = DEFAULT_LEXICON
) -> FactStructure:
    """A fact written as a sentence: each number with the period and direction its own
    sentence gives it; the sentence is the statement read for polarity."""
    read = read_text(text, locale, lexicon)
    values = []
    for mention in read.values:
        period = read.period_of(mention)
        values.append(
            FactValue(
                mention.value,
                mention.unit,
                None,
                None if period is None else period.period,
                governing_direction(read, mention, lexicon),
            )
        )
    periods = {v.period for v in values if v.period is not None}
    return FactStructure(
        subject=subject,
        period=next(iter(periods)) if len(periods) == 1 else None,
        values=tuple(values),
        statement=text,
    )


def parse_fact_structure(
    text: str, locale: Locale, lexicon: ClaimLexicon = DEFAULT_LEXICON
) -> FactStructure:
    """The structure of one fact's text (without its ``[ID]``), in the documented format."""
    match = _SUBJECT.match(text.strip())
    subject, rest = (match["subject"].strip(), match["rest"]) if match else (None, text.strip())
    quote = _QUOTE.match(rest)
    if quote is not None:
        return prose_structure(subject, quote["quote"], locale, lexicon)
    metric = _metric_values(rest, locale)
    if metric is not None:
        name, period, values = metric
        return FactStructure(subject=subject, metric=name, period=period, values=tuple(values))
    return prose_structure(subject, rest, locale, lexicon)


def subject_of(fact: Fact) -> str | None:
    """The fact's subject alone (cheap: the text before `` - ``), without its structure."""
    if fact.structure is not None:
        return fact.structure.subject
    match = _SUBJECT.match(fact.text.strip())
    return match["subject"].strip() if match else None


def structure_of(
    fact: Fact, locale: Locale, lexicon: ClaimLexicon = DEFAULT_LEXICON
) -> FactStructure:
    """The structure the fact carries, else the one its text gives."""
    if fact.structure is not None:
        return fact.structure
    return parse_fact_structure(fact.text, locale, lexicon)


def metric_key(metric: str | None) -> str:
    """A metric's name folded, so "Levier" and "levier" are one metric."""
    return "" if metric is None else " ".join(fold(metric).split())
