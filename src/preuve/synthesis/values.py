"""Values read in a sentence, and compared by meaning, with the units of the lexicon.

A :class:`Value` is what a sentence states at one place: a quantity with its unit
(``340 ms``, ``0,8 s``, ``2 TB``, ``99,9 %``, ``1 900 tok/s``), an amount of money with its
currency, tax and periods (``2 300 € HT par GPU et par mois``), a count of things
(``12 GPU``), a date (``30 juin 2027``, ``2027-06-30``, ``June 30, 2027``), a licence
(``Apache 2.0``, ``licence commerciale``) or a status (``corrigée en 3.4.2``).

Its ``key`` is its meaning: quantities in the base unit of their dimension and per second
for every period (``1 200 € par mois`` = ``14 400 euros/an``; ``0.8 s`` = ``800 ms``), dates
as (year, month, day), licences by canonical name, statuses by their group and version.
Two values agree when their keys are equal (:func:`same_meaning`), whatever the spelling.
Its ``display`` keeps the number as written (so it can be found in its document) with a
canonical unit. Every word list comes from :mod:`preuve.synthesis.lexicon`.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from preuve.core.numbers import Locale, NumberMention, extract_numbers
from preuve.synthesis.lexicon import Lexicon, Unit, default_lexicon, fold, fold1

__all__ = ["Value", "date_value", "meaning", "read_values", "same_meaning"]

_SP = r"[ \u00a0\u202f\u2009]"
_MINUTES_AFTER_HOURS = re.compile(
    r"[ \u00a0\u202f]?([0-5]\d)(?:[ \u00a0]?(?:min|mn))?(?![\d,.]|\s*[%€$])"
)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_IDENTIFIER_TAIL = re.compile(r"[ \u00a0](?:Part[ \u00a0]|§[ \u00a0]?)?\d")
_ORDINAL_ENDINGS = frozenset({"st", "nd", "rd", "th", "e", "er", "re", "ere", "eme", "ieme"})


@dataclass(frozen=True, slots=True)
class Value:
    """One value of a sentence (see the module docstring). ``amount`` is in the base unit
    (money: in currency units per second of each period); ``unit`` names the dimension
    (``time``, ``money:EUR``, ``count:gpu``); ``per`` the per-unit denominators."""

    kind: str
    start: int
    end: int
    display: str
    key: tuple[Hashable, ...]
    unit: str = ""
    amount: Decimal | None = None
    per: tuple[str, ...] = ()
    periods: tuple[str, ...] = ()


def _space(text: str) -> str:
    return " ".join(text.split())


def _match_word(rest: str, words: Iterable[str]) -> str | None:
    """The longest of ``words`` (folded) that starts ``rest`` and ends on a boundary."""
    folded = fold(rest)
    best = None
    for word in words:
        if folded.startswith(word) and (len(word) > len(best or "")):
            after = folded[len(word) : len(word) + 1]
            if not after or not (after.isalnum() or (word[-1:].isalnum() is False and False)):
                if after.isalpha() and word[-1:].isalpha():
                    continue
                best = word
    return best


def _unit_at(rest: str, lexicon: Lexicon) -> tuple[Unit, int] | None:
    for unit in lexicon.units:  # longest first
        head = rest[: len(unit.word)]
        same = head == unit.word if unit.case_sensitive else fold(head) == unit.word
        if not same:
            continue
        after = rest[len(unit.word) : len(unit.word) + 1]
        if after and (after.isalnum() or after in "_'’"):
            continue  # a longer word, or an elided article ("2026 l'enveloppe")
        return unit, len(unit.word)
    return None


def _unit_over(rest: str, lexicon: Lexicon) -> tuple[Unit, int] | None:
    """The unit after a slash that is no period ("/cm²" of "mJ/cm²", "/W" of "lm/W"; "/h"
    is a period, read as such), and how many characters it takes."""
    slash = re.match(r"/[ \u00a0]?", rest)
    found = _unit_at(rest[slash.end() :], lexicon) if slash else None
    if slash is None or found is None or found[0].dimension == "time":
        return None
    return found[0], slash.end() + found[1]


def _lead(rest: str) -> int:
    return len(rest) - len(rest.lstrip(" \u00a0\u202f\u2009"))


def _currency(rest: str, lexicon: Lexicon) -> tuple[str, int] | None:
    for code, words in lexicon.currencies.items():
        word = _match_word(rest, words)
        if word is not None:
            return code, len(word)
    return None


def _scale(rest: str, lexicon: Lexicon) -> tuple[Decimal, str, int] | None:
    """A scale word (``k``, ``M``, ``million``), possibly glued to a currency (``k€``)."""
    for factor, words in lexicon.scales.items():
        word = _match_word(rest, words)
        if word is not None:
            return factor, word, len(word)
    return None


@dataclass(frozen=True, slots=True)
class _Per:
    periods: tuple[str, ...]
    per: tuple[str, ...]
    used: int
    tax: str


def _period_of(word: str, lexicon: Lexicon) -> str | None:
    folded = fold(word)
    return next((p for p, words in lexicon.periods.items() if folded in words), None)


@lru_cache(maxsize=16)
def _per_link(lexicon: Lexicon) -> re.Pattern[str]:
    """ "par", "per", "/" (the lexicon's per words), after an optional "and" or comma."""
    per = "|".join(re.escape(w) for w in sorted(lexicon.per_words, key=len, reverse=True))
    joiners = "|".join(re.escape(w) for w in lexicon.words("clause_words")) or "(?!)"
    return re.compile(rf"(?:(?:{joiners}|,)\s+)?({per})(?=[\s\d/]|$)\s*", re.IGNORECASE)


def _denominators(rest: str, lexicon: Lexicon, count_nouns: bool) -> _Per:
    """``HT par GPU et par mois``, ``/mois``, ``per month``, ``mensuels``: what follows."""
    periods: list[str] = []
    per: list[str] = []
    used, tax = 0, ""
    while True:
        chunk = rest[used:]
        lead = _lead(chunk)
        tail = chunk[lead:]
        for code, words in lexicon.taxes.items():
            word = _match_word(tail, words)
            if word is not None and not tax:
                tax, used = code, used + lead + len(word)
                break
        else:
            link = _per_link(lexicon).match(tail)
            if tail.startswith("/"):
                link = re.match(r"/\s*", tail)
            body = tail[link.end() :] if link else tail
            word_match = _WORD.match(body)
            if word_match is None:
                break
            word = word_match.group().rstrip("'’")
            period = _period_of(word, lexicon)
            if link is None:
                # an adjective of period ("mensuels", "annual") without a preposition
                if period is None or fold(word) in {"an", "a", "s", "h", "mo", "le", "la"}:
                    break
                periods.append(period)
                used += lead + word_match.end()
                continue
            if period is not None:
                periods.append(period)
            elif (
                count_nouns
                and fold(word) not in lexicon.stopwords
                and fold(link.group(1) if link.groups() else "/") not in _ARTICLE_LINKS
            ):
                phrase = _per_phrase(body, lexicon)
                per.append(_head(phrase, link.group(1) if link.groups() else "/", lexicon))
                used += lead + link.end() + phrase[-1][1]
                continue
            else:
                break
            used += lead + link.end() + word_match.end()
    return _Per(tuple(periods), tuple(per), used, tax)


_MAX_PER_WORDS = 3
# per words that are articles ("$5 a month", "à l'heure"): a period after them, never a noun
_ARTICLE_LINKS = frozenset({"a", "an"})


def _per_phrase(body: str, lexicon: Lexicon) -> list[tuple[str, int]]:
    """The words of a per-unit phrase and where each ends: ``licensed bed`` in ``per
    licensed bed per month``, ``colis suivi`` in ``par colis suivi et par mois``; it stops
    at a function word, a period, a tax, punctuation or the next ``per``."""
    words: list[tuple[str, int]] = []
    cursor = 0
    while len(words) < _MAX_PER_WORDS:
        lead = _lead(body[cursor:]) if words else 0
        match = _WORD.match(body, cursor + lead)
        if match is None:
            break
        word = match.group().rstrip("'’")
        folded = fold(word)
        stop = (
            "'" in folded  # an elided word starts a clause ("s'ajoutent", "qu'il")
            or folded in lexicon.stopwords
            or folded in lexicon.per_words
            or _period_of(word, lexicon) is not None
            or any(folded in w for w in lexicon.taxes.values())
        )
        if words and (stop or lead == 0):
            break
        words.append((word, match.start() + len(word)))
        cursor = match.start() + len(word)
    # several words only when the phrase ends there (the next per, a joiner, punctuation):
    # "per unit reflects a discount" is per unit
    rest = body[words[-1][1] :] if words else ""
    link = _per_link(lexicon).match(rest.lstrip())
    ended = (
        not rest.strip()
        or bool(re.match(r"\s*[,;.:)/]", rest))
        or bool(
            (link and fold(link.group(1)) not in _ARTICLE_LINKS) or _ends_with_tax(rest, lexicon)
        )
    )
    return words if ended else words[:1]


def _ends_with_tax(rest: str, lexicon: Lexicon) -> bool:
    tail = rest.lstrip()
    return any(_match_word(tail, words) for words in lexicon.taxes.values())


def _head(phrase: list[tuple[str, int]], link: str, lexicon: Lexicon) -> str:
    """The counted noun of a per-unit phrase: English puts it last (``per licensed bed``),
    French first (``par colis suivi``); the per word tells which (``/`` takes one word)."""
    del lexicon
    english = fold(link) in {"per", "each", "a", "an"}
    return _singular(phrase[-1][0] if english else phrase[0][0])


def _singular(word: str) -> str:
    folded = fold(word)
    return folded[:-1] if len(folded) > 3 and folded.endswith("s") else folded


_SECONDS = {
    "seconde": Decimal(1), "minute": Decimal(60), "heure": Decimal(3600), "jour": Decimal(86400),
    "semaine": Decimal(604800), "mois": Decimal(2629800), "trimestre": Decimal(7889400),
    "an": Decimal(31557600),
}  # fmt: skip


def _rate(periods: tuple[str, ...]) -> tuple[str, ...]:
    """What a value's key keeps of its periods: that it is a rate (its amount is per second),
    not which period it was written per."""
    return ("rate",) if periods else ()


def _per_second(amount: Decimal, periods: Iterable[str]) -> Decimal:
    for period in periods:
        amount = amount / _SECONDS.get(period, Decimal(1))
    return amount


def _currency_before(text: str, mention: NumberMention, lexicon: Lexicon) -> tuple[str | None, int]:
    """(currency written before the number, where the amount starts): ``$9.9``, ``USD 4,950``."""
    before = text[: mention.start].rstrip(" \u00a0")
    # The number parser may have read a code or sign before the digits ("USD 4,950").
    head = re.match(r"[^\d\-\u2212(]*", mention.raw)
    written = head.group().strip() if head else ""
    for code, words in lexicon.currencies.items():
        if written and (fold(written) in words or written in words):
            return code, mention.start
        for w in words:
            if (
                len(w) == 1
                and not w.isalnum()
                and (before.endswith(w) or mention.raw.startswith(w))
            ):
                return code, mention.start
    word = re.search(r"([A-Za-z$€£]{1,8})[ \u00a0\u202f]?$", before)
    if word is not None and len(word.group(1)) >= 2:
        for code, words in lexicon.currencies.items():
            if fold(word.group(1)) in words:
                return code, word.start(1)
    return None, mention.start


def _scale_and_currency(
    rest: str, currency: str | None, lexicon: Lexicon
) -> tuple[tuple[Decimal, str, int] | None, str | None, int]:
    """(scale word, currency, characters used) after the number: ``k€``, ``M€``, ``€``."""
    scale, used = None, 0
    lead = _lead(rest)
    found = _scale(rest[lead:], lexicon)
    if found is not None:
        after = rest[lead + found[2] :]
        glued = any(not c.isalnum() for c in found[1])
        then_currency = _currency(after[_lead(after) :], lexicon)
        if currency or glued or then_currency or (found[1][0].isalpha() and len(found[1]) > 2):
            scale, used = found, lead + found[2]
            if glued and currency is None:
                currency = next(
                    (code for code, words in lexicon.currencies.items()
                     for w in words if w in found[1]), None
                )  # fmt: skip
    if currency is None:
        tail = rest[used:]
        hit = _currency(tail[_lead(tail) :], lexicon)
        if hit is not None:
            currency, used = hit[0], used + _lead(tail) + hit[1]
    return scale, currency, used


def _unit_quantity(
    text: str, mention: NumberMention, unit: tuple[Unit, int], *, at: int, value: Decimal,
    lexicon: Lexicon,
) -> Value:  # fmt: skip
    """The quantity of ``value`` in the unit written ``at`` characters after the number
    (hours then minutes, a unit over another, then periods)."""
    rest = text[mention.end :]
    spec, length = unit
    end = at + length
    magnitude = value * spec.factor
    # "1 h 10", "6 h 30": hours then minutes, one duration
    minutes = _MINUTES_AFTER_HOURS.match(rest[end:]) if spec.symbol == "h" else None
    if minutes is not None:
        magnitude += Decimal(minutes.group(1)) * 60
        end += minutes.end()
    dimension = spec.dimension
    over = _unit_over(rest[end:], lexicon)
    if over is not None:  # "mJ/cm²", "lm/W": a unit over another (not a period)
        dimension = f"{dimension}/{over[0].dimension}"
        magnitude /= over[0].factor
        end += over[1]
    den = _denominators(rest[end:], lexicon, count_nouns=False)
    amount = _per_second(magnitude, den.periods)
    stop = mention.end + end + den.used
    display = _space(text[mention.start : stop])
    # a rate compares per second, whatever period it is written per (6,5 l/s = 23,4 m³/h)
    key = ("quantity", dimension, _rate(den.periods), amount)
    return Value("quantity", mention.start, stop, display, key,
                 dimension, amount, (), den.periods)  # fmt: skip


def _quantity(text: str, mention: NumberMention, lexicon: Lexicon, lang: str) -> Value | None:
    """The value whose number is ``mention``: money, a unit quantity or a count of things."""
    del lang  # values are read the same way in every language; the lexicon holds both
    value = mention.value
    before = text[: mention.start].rstrip(" \u00a0")
    rest = text[mention.end :]
    currency, start = _currency_before(text, mention, lexicon)
    scale, currency, used = _scale_and_currency(rest, currency, lexicon)
    factor = scale[0] if scale else Decimal(1)
    if currency is not None:
        den = _denominators(rest[used:], lexicon, count_nouns=True)
        amount = _per_second(value * factor, den.periods)
        end = mention.end + used + den.used
        display = _space(text[start:end])
        key: tuple[Hashable, ...] = ("money", currency, den.tax, den.per, amount)
        return Value("money", start, end, display, key,
                     f"money:{currency}", amount, den.per, den.periods)  # fmt: skip
    tail = rest[used:]
    lead = _lead(tail)
    unit = _unit_at(tail[lead:], lexicon) if lead <= 1 else None
    if unit is not None:
        return _unit_quantity(
            text, mention, unit, at=used + lead, value=value * factor, lexicon=lexicon
        )
    word = _WORD.match(tail[lead:]) if lead <= 1 else None
    if re.search(r"\d[-‐‑]$", text[: mention.start]):
        return None  # "FIPS 140-3 validated": the tail of an identifier, not a count
    if word is None or mention.is_year or re.search(r"\b[A-Z][\w-]*[ \u00a0]$", before + " "):
        return None  # "Item 3 services", "Broker 5.0 remains": a name and its number
    noun = word.group().rstrip("'’")
    folded = fold(noun)
    if lead == 0 and folded in _ORDINAL_ENDINGS:
        return None  # "the 95th percentile", "au 90e centile": a rank, not a quantity
    if folded in lexicon.stopwords or folded in lexicon.months or len(folded) < 2:
        return None
    if noun[0].isupper() and not noun.isupper():
        return None  # a capitalized word after a number starts a name ("178,200 Brantwood")
    if noun.isupper() and _IDENTIFIER_TAIL.match(tail[lead + len(noun) :]):
        return None  # "21 CFR 1311", "21 CFR Part 11": an identifier, not a count
    end = used + lead + len(noun)
    den = _denominators(rest[end:], lexicon, count_nouns=False)
    amount = _per_second(value * factor, den.periods)
    stop = mention.end + end + den.used
    display = _space(text[mention.start : stop])
    key = ("count", _singular(noun), _rate(den.periods), amount)
    return Value("count", mention.start, stop, display, key,
                 f"count:{_singular(noun)}", amount, (), den.periods)  # fmt: skip


# --- dates -----------------------------------------------------------------------------------

_MONTH_NUMBERS = {
    "janvier": 1, "fevrier": 2, "mars": 3, "avril": 4, "mai": 5, "juin": 6, "juillet": 7,
    "aout": 8, "septembre": 9, "octobre": 10, "novembre": 11, "decembre": 12, "january": 1,
    "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2,
    "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
    "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH_RE = "|".join(sorted(_MONTH_NUMBERS, key=len, reverse=True))
_DATES = (
    re.compile(rf"\b(?P<d>1er|\d{{1,2}})(?:st|nd|rd|th)?{_SP}+(?:of{_SP}+)?(?P<m>{_MONTH_RE})\.?,?{_SP}+(?P<y>\d{{4}})\b"),
    re.compile(rf"\b(?P<m>{_MONTH_RE})\.?{_SP}+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?{_SP}+(?P<y>\d{{4}})\b"),
    re.compile(r"\b(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})\b"),
    re.compile(r"\b(?P<d>\d{1,2})/(?P<mo>\d{1,2})/(?P<y>\d{4})\b"),
    re.compile(rf"\b(?P<m>{_MONTH_RE})\.?{_SP}+(?P<y>\d{{4}})\b"),
    re.compile(r"\b(?P<q>[QT][1-4])\s+(?P<y>\d{4})\b"),
    # a week number: "semaine 38 (2026)", "week 12 of 2027", "W12 2027"
    re.compile(r"\b(?:(?:semaine|week|wk)\s*|[sw](?=\d))(?P<w>\d{1,2})(?:\s*(?:,|\(|de|of)?\s*)(?P<y>(?:19|20)\d{2})\b\)?"),
    re.compile(r"(?<![\w/.,-])(?P<y>(?:19|20)\d{2})(?![\w/-]|[.,]\d)"),
)  # fmt: skip


def _week_month(year: int, week: int) -> int | None:
    """The month an ISO week lies in, None when its days span two months (or no such week)."""
    try:
        monday = date.fromisocalendar(year, week, 1)
    except ValueError:
        return None
    sunday = monday + timedelta(days=6)
    return monday.month if (monday.year, monday.month) == (sunday.year, sunday.month) else None


def _date_key(parts: dict[str, str | None]) -> tuple[int, int | None, int | None] | None:
    year = int(parts["y"] or 0)
    month: int | None = None
    if parts.get("mo"):
        month = int(parts["mo"] or 0)
    elif parts.get("m"):
        month = _MONTH_NUMBERS[fold(parts["m"] or "")]
    elif parts.get("q"):
        month = 3 * int((parts["q"] or "Q1")[1])  # the end of the quarter
    elif parts.get("w"):
        return year, _week_month(year, int(parts["w"] or 0)), None
    if month is not None and not 1 <= month <= 12:
        return None
    day_text = parts.get("d")
    day = None if day_text is None else (1 if day_text == "1er" else int(day_text))
    if day is not None and not 1 <= day <= 31:
        return None
    return year, month, day


def date_value(text: str, lang: str = "fr", offset: int = 0) -> list[Value]:
    """Every date of ``text``, most precise first where two overlap, in reading order."""
    folded = fold1(text)
    taken: list[tuple[int, int]] = []
    out = []
    for pattern in _DATES:
        for match in pattern.finditer(folded):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue
            key = _date_key(match.groupdict())
            if key is None:
                continue
            taken.append((match.start(), match.end()))
            written = " ".join(text[match.start() : match.end()].split())
            out.append(Value("date", offset + match.start(), offset + match.end(), written,
                             ("date", key)))  # fmt: skip
    return sorted(out, key=lambda v: v.start)


# --- reading a sentence ----------------------------------------------------------------------


def read_values(
    text: str, lexicon: Lexicon | None = None, locale: Locale = Locale.FR, lang: str = "fr"
) -> list[Value]:
    """Every quantity, amount and count of ``text`` (dates are read by :func:`date_value`,
    licences and statuses by :mod:`preuve.synthesis.statements`), in reading order."""
    lex = lexicon or default_lexicon()
    out: list[Value] = []
    for mention in extract_numbers(text, locale):
        if out and mention.start < out[-1].end:
            continue  # a number inside the previous value ("par 2 GPU")
        if (mention.kind or "").startswith("compat:"):
            continue  # a superscript or a fraction sign ("mJ/cm²"): an exponent, no value
        try:
            found = _quantity(text, mention, lex, lang)
        except (InvalidOperation, ArithmeticError):
            found = None
        if found is not None:
            out.append(found)
    return out


def meaning(value: str, lexicon: Lexicon | None = None) -> tuple[Hashable, ...]:
    """The meaning of a written value: its quantities and dates, or its folded words."""
    lex = lexicon or default_lexicon()
    locale = Locale.EN if re.search(r"\d,\d{3}(?!\d)", value) and "." in value else Locale.FR
    found: list[Value] = read_values(value, lex, locale)
    taken = [(v.start, v.end) for v in found]
    found += [d for d in date_value(value) if not any(s < d.end and d.start < e for s, e in taken)]
    if found:
        return tuple(v.key for v in sorted(found, key=lambda v: v.start))
    words = re.findall(r"[a-z0-9.]+", fold(value))
    return ("text", " ".join(words))


def same_meaning(a: str, b: str, lexicon: Lexicon | None = None) -> bool:
    """True when two written values say the same thing (see the module docstring)."""
    return meaning(a, lexicon) == meaning(b, lexicon)
