"""The covenant ratio a report states, against the threshold it states, as an R- fact.

A covenant is tested under the loan contract's own definition (an adjusted EBITDA, a net
debt without leases...), which the statements do not give: the ratio is therefore the
one the report *publishes*, never recomputed from the statements under another
definition. What code computes is the headroom: threshold - ratio for a maximum, ratio -
threshold for a minimum (negative: the covenant is breached).

A threshold is a figure in ``x`` (``3,0x``, ``1.15 times``, ``2.75 to 1.00``) right after a
bound word declared in ``data/cues.json`` (``covenant_limits``, which a user's cues file
extends: "inférieur ou égal à",
"plafond", "not to exceed", "at least"...) in a sentence that names a ratio or a covenant
(or leverage, gearing, interest cover). The published ratio is the first other ``x`` figure
of that sentence or of the two after it, outside parentheses (where a report puts the year
before), that is no threshold: neither one a bound word states nor one of the threshold's
schedule ("from 2.75 to 1.00 to 2.50 to 1.00"). A ratio printed without ``x`` may
come before its threshold in the sentence ("le ratio ... s'établit à 1,84 pour un plafond
contractuel de 3,00"), the bound word followed by its adjective. A threshold without a
published ratio gives no fact.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from preuve.core.facts import FactValue
from preuve.core.numbers import Locale
from preuve.memo.amounts import format_number
from preuve.memo.company import Company
from preuve.memo.cues import page_sentences
from preuve.memo.ratio_facts import Ratio, RatioValue
from preuve.memo.risk_cues import CueSet, bundled_cues, fold

__all__ = ["Covenant", "covenant_ratio", "find_covenant"]

# A ratio's figure: "3,0x", "1.15 times", or as US credit agreements print it, "2.42 to 1.00".
_FIGURE = (
    r"(?P<figure>\d{1,2}(?:[.,]\d{1,2})?)"
    r"(?:\s?(?:x|fois|times)(?![a-z])|\s?(?:to |:\s?)1(?:[.,]00?)?(?![\d.,]*\d))"
)
_ANY_FIGURE = re.compile(_FIGURE)
# A ratio printed without "x" (French statutory reports: "ne doit pas excéder 3,0"): a
# decimal figure (with its separator) not followed by a unit, right after the bound word;
# the published one right after the ratio's name ("soit un ratio R1 de 3,3").
_BARE = (
    r"(?P<figure>\d{1,2}[.,]\d{1,2})"
    r"(?![\d.,]*\s?(?:%|k€|m€|€|\$|millions?|milliards?|points?|jours|days))"
)


@dataclass(frozen=True, slots=True)
class _Bounds:
    """A bound word then a threshold figure: in ``x`` (within 80 non-digit characters)
    and bare (within 12)."""

    x: re.Pattern[str]
    bare: re.Pattern[str]


@functools.cache
def _bounds(maximum: tuple[str, ...], minimum: tuple[str, ...]) -> _Bounds:
    words = rf"(?:(?P<max>{'|'.join(maximum)})|(?P<min>{'|'.join(minimum)}))"
    return _Bounds(
        re.compile(rf"{words}[^\d]{{0,80}}?{_FIGURE}"),
        # "plafond contractuel de 3,00": the bound's adjective between it and the figure
        re.compile(
            rf"{words}(?:\s(?:contractuel|contractual|autoris|impos|prevu|fix)\w*)?[^\d]{{0,12}}?{_BARE}"
        ),
    )


def _cue_bounds(cues: CueSet | None) -> _Bounds:
    """The bound words of the run's cues (``covenant_limits`` of ``data/cues.json``, a
    user's cues file's first; the bundled ones when None)."""
    chosen = cues or bundled_cues()
    return _bounds(chosen.covenant_maximum, chosen.covenant_minimum)


_BARE_PUBLISHED = re.compile(
    r"\bratio\b[^;]{0,60}?\b(?:de|a|of|was|is|:|=|ressort a|s'etablit a|stood at)\s" + _BARE
)
# The published figure in the threshold's own sentence, after it: "ne doit pas excéder 3,00 ;
# il s'établit à 2,66", "must not exceed 2.50, and was 2.36".
_BARE_AFTER = re.compile(
    r"^[^\d]{0,60}?\b(?:s'etablit a|s'eleve a|se situe a|ressort a|etait de|est de|atteint"
    # the same verbs in the past: "il s'élevait à 2,43 au 31 décembre"
    r"|s'etablissait a|s'elevait a|se situait a|ressortait a|atteignait"
    r"|was|stood at|is|amounted to)\s" + _BARE
)
# Between the threshold and the published figure, what dates the threshold: an aside in
# parentheses ("(3,00 auparavant)") and years ("à compter de l'exercice 2025").
_ASIDE = re.compile(r"\([^()]*\)")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
# A threshold's schedule: "steps down from 2.75 to 1.00 to 2.50 to 1.00", "3,0x puis 2,75x".
_SCHEDULE = re.compile(r"\s*(?:to|a|then|puis|and then|et|,)\s*")
_RATIO_NAME = re.compile(r"\bratios? (?!de\b|of\b|d')([a-z]{1,3}\d{0,2}|\d[a-z]?)\b")
# A sentence about a covenant names a ratio, a covenant, or the usual ratios themselves.
_NAMES_RATIO = re.compile(
    r"\bratios?\b|\bcovenants?\b|\bengagements? financiers?\b|\bleverage\b|\blevier\b"
    r"|\bgearing\b|\binterest cover(?:age)?\b|\bcouverture des (?:frais financiers|interets)\b"
)
_FOLLOWING = 2  # sentences after the threshold's where the published ratio may be


@dataclass(frozen=True, slots=True)
class Covenant:
    """A published covenant ratio and its threshold (``maximum``: the ratio must stay at
    or below it), with the page where the threshold is stated."""

    value: Decimal
    limit: Decimal
    maximum: bool
    page: int
    places: int

    @property
    def headroom(self) -> Decimal:
        return self.limit - self.value if self.maximum else self.value - self.limit


def _decimal(raw: str) -> tuple[Decimal, int]:
    text = raw.replace(",", ".")
    return Decimal(text), len(text.partition(".")[2])


def _outside_parentheses(text: str, start: int) -> bool:
    before = text[:start]
    return before.count("(") <= before.count(")")


def _published(window: str, skip: tuple[int, int], bounds: _Bounds) -> tuple[Decimal, int] | None:
    """The first ``x`` figure of ``window`` that is no threshold: neither the one at
    ``skip`` nor one a bound word states (a second covenant's "at least 4.0x")."""
    thresholds = {b.start("figure") for b in bounds.x.finditer(window)}
    limit_end = -1  # where the last threshold figure ends (its schedule follows it)
    for match in _ANY_FIGURE.finditer(window):
        if match.span() == skip or skip[0] <= match.start() < skip[1]:
            limit_end = match.end()
            continue
        if match.start("figure") in thresholds or (
            limit_end >= 0 and _SCHEDULE.fullmatch(window[limit_end : match.start()])
        ):
            limit_end = match.end()
            continue
        if _outside_parentheses(window, match.start()):
            return _decimal(match.group("figure"))
    return None


def _name_before(text: str, end: int) -> str:
    """The short name of the ratio named last before ``end`` (``ratio r1``), or ""."""
    names = list(_RATIO_NAME.finditer(text[:end]))
    return names[-1].group(1) if names else ""


def _bare_covenant(pages: Sequence[str], bounds: _Bounds) -> Covenant | None:
    """A threshold and a published ratio printed without ``x`` (see :data:`_BARE`)."""
    for number, page in enumerate(pages, start=1):
        sentences = [fold(s.quote()) for s in page_sentences(page)]
        for index, sentence in enumerate(sentences):
            bound = bounds.bare.search(sentence)
            if bound is None or not _NAMES_RATIO.search(sentence):
                continue
            name = _name_before(sentence, bound.start())
            limit, limit_places = _decimal(bound.group("figure"))
            maximum = bound.group("max") is not None
            rest = _YEAR.sub(" ", _ASIDE.sub(" ", sentence[bound.end("figure") :]))
            same = _BARE_AFTER.match(rest)
            if same is not None:
                value, places = _decimal(same.group("figure"))
                return Covenant(value, limit, maximum, number, max(places, limit_places))
            # Or before it: "le ratio ... s'établit à 1,84 pour un plafond de 3,00".
            before = list(_BARE_PUBLISHED.finditer(sentence[: bound.start()]))
            if before:
                value, places = _decimal(before[-1].group("figure"))
                return Covenant(value, limit, maximum, number, max(places, limit_places))
            for later in sentences[index + 1 : index + 1 + _FOLLOWING]:
                thresholds = {b.end("figure") for b in bounds.bare.finditer(later)}
                for published in _BARE_PUBLISHED.finditer(later):
                    if published.end("figure") in thresholds:
                        continue  # "pour un plafond de 2,0": a threshold, not the ratio
                    other = _name_before(later, published.start("figure"))
                    if name and other and name != other:
                        continue
                    value, places = _decimal(published.group("figure"))
                    return Covenant(value, limit, maximum, number, max(places, limit_places))
    return None


def find_covenant(pages: Sequence[str], cues: CueSet | None = None) -> Covenant | None:
    """The first covenant threshold of the report that comes with its published ratio
    (figures in ``x`` first; else a ratio printed without ``x``), with the bound words of
    ``cues``."""
    bounds = _cue_bounds(cues)
    return _x_covenant(pages, bounds) or _bare_covenant(pages, bounds)


def _x_covenant(pages: Sequence[str], bounds: _Bounds) -> Covenant | None:
    for number, page in enumerate(pages, start=1):
        sentences = [fold(s.quote()) for s in page_sentences(page)]
        for index, sentence in enumerate(sentences):
            bound = bounds.x.search(sentence)
            if bound is None or not _NAMES_RATIO.search(sentence):
                continue
            window = " ".join(sentences[index : index + 1 + _FOLLOWING])
            found = _published(window, (bound.start(), bound.end("figure")), bounds)
            if found is None:
                continue
            limit, limit_places = _decimal(bound.group("figure"))
            value, places = found
            maximum = bound.group("max") is not None
            return Covenant(value, limit, maximum, number, max(places, limit_places))
    return None


def covenant_ratio(
    pages: Sequence[str],
    company: Company,
    year: int | None,
    locale: Locale = Locale.FR,
    cues: CueSet | None = None,
) -> Ratio | None:
    """``R-<slug>-covenant``: the published covenant ratio of ``year`` (the report's
    latest), its threshold and headroom, or None when the report states none."""
    covenant = find_covenant(pages, cues)
    if covenant is None or year is None:
        return None
    places = covenant.places

    def shown(value: Decimal) -> str:
        return f"{format_number(value, places, locale)}x"

    if locale is Locale.EN:
        name = "Covenant ratio (contract definition, as published)"
        bound = "maximum" if covenant.maximum else "minimum"
        formula = (
            f"ratio published by the report (p. {covenant.page}); {bound} {shown(covenant.limit)},"
            f" headroom {shown(covenant.headroom)}"
        )
    else:
        name = "Ratio de covenant (définition contractuelle, publié)"
        bound = "plafond" if covenant.maximum else "plancher"
        formula = (
            f"ratio publié par le rapport (p. {covenant.page}), {bound} de {shown(covenant.limit)},"
            f" marge de {shown(covenant.headroom)}"
        )
    extra = tuple(
        FactValue(round(v, places), "x", name, str(year))
        for v in (covenant.limit, covenant.headroom)
    )
    value = RatioValue(year, covenant.value, covenant.value, Decimal(1))
    return Ratio(
        f"R-{company.slug}-covenant",
        company.name,
        name,
        formula,
        "x",
        places,
        (value,),
        locale,
        extra=extra,
    )
