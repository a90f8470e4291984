"""Periods of a statement's value columns, read from the lines above its first row.

A period is first-class: a balance-sheet column is a date (``as of``), an income or
cash-flow column is a duration (3, 6, 9 or 12 months) ending on a date. A value is keyed
by its period, never by a year alone, so a three-month and a six-month column of one year
never meet in one figure.

The heading block of a statement (the lines between its heading and its first row) is read
as a whole, whatever its layout:

- the *column line* is the last line of years or dates (``2023 2022 2023 2022``,
  ``31/12/2025 31/12/2024``, ``Notes 2025 2024``); a year header printed twice (a sentence
  naming the years, then the column line) counts once;
- *durations* are named in order (``Three Months Ended`` ... ``Six Months Ended``); with
  d durations over n columns, each duration covers n/d consecutive columns;
- *month and day* (``June 30,``, ``31 décembre``) give each group's end date.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from preuve.memo.entities import is_entity_word

__all__ = [
    "Period",
    "names_relative_columns",
    "read_periods",
    "relative_columns",
    "years_of_line",
]

_DURATIONS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"\b(?:three|3)[- ]months?\b|\bquarters?\b|\btrimestres?\b|\b3 mois\b"), 3),
    (re.compile(r"\b(?:six|6)[- ]months?\b|\bsemestres?\b|\bhalf[- ]year\b|\b6 mois\b"), 6),
    (re.compile(r"\b(?:nine|9)[- ]months?\b|\b9 mois\b"), 9),
    (
        re.compile(
            r"\b(?:twelve|12)[- ]months?\b|\b(?:fiscal )?years? ended\b|\bexercices?\b"
            r"|\b12 mois\b|\bannée\b"
        ),
        12,
    ),
)
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan", "janvier", "janv"),
            ("february", "feb", "février", "fevrier", "févr", "fév", "fevr"),
            ("march", "mar", "mars"),
            ("april", "apr", "avril", "avr"),
            ("may", "mai"),
            ("june", "jun", "juin"),
            ("july", "jul", "juillet", "juil"),
            ("august", "aug", "août", "aout"),
            ("september", "sep", "sept", "septembre"),
            ("october", "oct", "octobre"),
            ("november", "nov", "novembre"),
            ("december", "dec", "décembre", "decembre", "déc"),
        ),
        start=1,
    )
    for name in names
}
_MONTH_WORD = "|".join(sorted(_MONTHS, key=len, reverse=True))
_MONTH_DAY = re.compile(
    rf"\b(?:({_MONTH_WORD})\.? (\d{{1,2}})\b|(\d{{1,2}})(?:er)? ({_MONTH_WORD})\b)"
)
_YEAR = re.compile(r"^(?:19[5-9]\d|20\d\d)$")
_DATE = re.compile(r"^\(?(\d{1,2})[/.-](\d{1,2})[/.-]((?:19|20)\d\d)\)?[,;:]?$")
# A fiscal year over two calendar years (``2024/2025``, ``2024-25``): it ends in the second.
_SPAN = re.compile(r"^\(?((?:19|20)\d\d)[/-]((?:19|20)?\d\d)\)?[,;:]?$")
# A share column's heading between the periods' (``2025 % CA 2024 % CA``, ``% of sales``).
_SHARE_HEADING = re.compile(
    r"(?:^|\s)%(?:\s+(?:du |of )?(?:ca|c\.a\.|sales|net sales|revenue))?(?=\s|$)"
)
_FILLER = re.compile(
    r"^(?:notes?|\(?unaudited\)?|\(?non audité\)?|\$|€|,|and|et|fiscal|fy|exercice|year)$", re.I
)
# Every column line has one of these: a year (in a date or a span too) or ``FY25``.
_MAYBE_YEAR = re.compile(r"(?:19|20)\d\d|(?i:fy)[-']?\d\d")
# A fiscal year in one word (``FY2025``, ``FY25``).
_FY = re.compile(r"^fy[-']?((?:19|20)?\d\d)$")
# A column named relative to the fiscal year (French ``Exercice N`` / ``Exercice N-1``).
_RELATIVE = re.compile(r"(?<![\w-])N(?:\s?[-−–]\s?([1-9]))?(?![\w-])")
# Columns named in words: the prior year (``Exercice précédent``, ``Prior year``) is N-1,
# and, on a line that names it, the current one (``Exercice``, ``Current year``) is N.
_PRIOR_WORDS = re.compile(
    r"(?i)\b(?:exercice|année) (?:précédent|antérieur|précédente|antérieure)\b"
    r"|\b(?:prior|previous|preceding) (?:fiscal |financial )?year\b"
)
_CURRENT_WORDS = re.compile(
    r"(?i)\b(?:exercice|année)(?: (?:en cours|courant|courante|clôturé|clôturée))?\b(?! N)"
    r"|\b(?:current|this) (?:fiscal |financial )?year\b"
)
# A period written from its first day to its last (``du 1er janvier 2025 au 31 décembre
# 2025``, ``from 1 April 2024 to 31 March 2025``, ``01/01/2025 - 31/12/2025``): one
# column, ending on the last day, never two columns of the two days' years.
_DAY_MONTH_YEAR = (
    r"(?:\d{1,2}(?:er|st|nd|rd|th)? [a-zéû]+\.? (?:19|20)\d\d"
    r"|[a-zéû]+\.? \d{1,2},? (?:19|20)\d\d|\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d\d)"
)
_FROM_TO = re.compile(
    rf"\b(?:du |from |de )?{_DAY_MONTH_YEAR} (?:au|to|until|through|à|[-–]) "
    rf"(?P<end>{_DAY_MONTH_YEAR})(?![\d])"
)


@dataclass(frozen=True, slots=True, order=True)
class Period:
    """A column's period: ``months`` 0 for a date (balance sheet), else a duration ending
    at ``year``-``month``-``day`` (``month`` and ``day`` are 0 when not printed)."""

    months: int
    year: int
    month: int = 0
    day: int = 0

    @property
    def end(self) -> str:
        return f"{self.year}-{self.month:02d}-{self.day:02d}" if self.month else str(self.year)

    @property
    def key(self) -> str:
        """``FY2025``, ``6M 2023-06-30``, ``at 2025-12-31``."""
        if self.months == 0:
            return f"at {self.end}"
        if self.months == 12 and not self.month:
            return f"FY{self.year}"
        return f"{self.months}M {self.end}"


def _plain(line: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", line).casefold().split())


def _end_date(text: str) -> str:
    """A date as ``dd/mm/yyyy`` when its month is a month's name, else as written."""
    words = text.replace(",", "").split()
    if len(words) == 3:
        day, month = (words[0], words[1]) if words[0][:1].isdigit() else (words[1], words[0])
        number = _MONTHS.get(month.rstrip("."))
        digits = re.match(r"\d+", day)
        if number is None or digits is None:
            return text
        return f"{digits.group()}/{number}/{words[2]}"
    return text


def _spans_as_ends(plain: str) -> str:
    """``plain`` with each period written from its first day to its last as its last day."""
    return _FROM_TO.sub(lambda m: f" {_end_date(m.group('end'))} ", plain)


def years_of_line(line: str) -> list[tuple[int, int, int]] | None:
    """The (year, month, day) of each column a line names, when the line is a column line:
    only years or dates, plus a few filler words (``Notes``, ``$``, ``(In millions)``); a
    period written from its first day to its last is one column, ending on its last."""
    if not _MAYBE_YEAR.search(line):
        return None  # no year, date or fiscal year in it: no column line (a fast test)
    plain = _plain(line).replace("(in millions)", "").replace("(in thousands)", "")
    plain = _spans_as_ends(plain)
    words = _SHARE_HEADING.sub(" ", plain).split()
    found: list[tuple[int, int, int]] = []
    others = 0
    trailing = True
    for index, word in enumerate(words):
        if word.rstrip(".,") in _MONTHS or (
            re.fullmatch(r"\d{1,2}(?:er)?,?", word)
            and (
                (index > 0 and words[index - 1].rstrip(".,") in _MONTHS)
                or (index + 1 < len(words) and words[index + 1].rstrip(".,") in _MONTHS)
            )
        ):
            continue
        date = _DATE.match(word)
        bare = word.strip("(),;:*")
        span = _SPAN.match(word)
        if span and int(span.group(2)[-2:]) == (int(span.group(1)) + 1) % 100:
            found.append((int(span.group(1)) + 1, 0, 0))
        elif date:
            found.append((int(date.group(3)), int(date.group(2)), int(date.group(1))))
        elif _YEAR.match(bare):
            found.append((int(bare), 0, 0))
        elif fy := _FY.match(bare):
            digits = fy.group(1)
            found.append((int(digits) if len(digits) == 4 else 2000 + int(digits), 0, 0))
        elif not _FILLER.match(word) and not is_entity_word(word):  # "Group 2025 Company 2025"
            others += 1
            trailing = trailing and not found
    # A few words, or a caption before the years: "(In millions, except per share data)".
    return found if found and (others <= 3 or (trailing and others <= 10)) else None


def _in_letters(line: str) -> str:
    """``line`` with the columns it names in words (``Exercice | Exercice précédent``)
    written N and N-1, when it names the prior year."""
    if _PRIOR_WORDS.search(line) is None:
        return line
    marked = _PRIOR_WORDS.sub(" N-1 ", line)
    return _CURRENT_WORDS.sub(" N ", marked)


def names_relative_columns(line: str) -> bool:
    """Whether ``line`` names two or more different columns relative to the fiscal year
    (``Exercice N-1 Exercice N``, ``Exercice | Exercice précédent``)."""
    line = _in_letters(line)
    if "N" not in line:
        return False
    back = [m.group(1) or "0" for m in _RELATIVE.finditer(line)]
    return len(back) >= 2 and len(set(back)) == len(back)


def relative_columns(line: str, fiscal_year: int) -> str | None:
    """``line`` with its columns named relative to the fiscal year (``Exercice N-1
    Exercice N``) written as years (``Exercice 2024 Exercice 2025``), when it names at
    least two such columns, all different, and reads then as a column line; else None."""
    if not names_relative_columns(line):
        return None
    line = _in_letters(line)
    text = _RELATIVE.sub(lambda m: str(fiscal_year - int(m.group(1) or 0)), line)
    return text if years_of_line(text) is not None else None


def _durations(text: str) -> list[int]:
    """Durations named in ``text``, in reading order; a duration repeated right after
    itself (``years ended ... years ended``) counts once."""
    hits = sorted((m.start(), months) for p, months in _DURATIONS for m in p.finditer(text))
    ordered: list[int] = []
    for _, months in hits:
        if not ordered or ordered[-1] != months:
            ordered.append(months)
    return ordered


def _month_days(text: str) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    for match in _MONTH_DAY.finditer(text):
        if match.group(1):
            found.append((_MONTHS[match.group(1)], int(match.group(2))))
        else:
            found.append((_MONTHS[match.group(4)], int(match.group(3))))
    return found


def _spread(items: list[int] | list[tuple[int, int]], columns: int) -> list[int] | None:
    """Indexes into ``items`` per column, each item covering columns/len(items) columns."""
    if not items or columns % len(items):
        return None
    width = columns // len(items)
    return [index // width for index in range(columns)]


def read_periods(block: list[str], column_line: str, balance: bool) -> tuple[Period, ...]:
    """The period of each column named by ``column_line``, with the durations and end
    dates stated anywhere in ``block`` (the heading block, column line included)."""
    columns = years_of_line(column_line) or []
    text = _plain(" ".join(block))
    durations = [] if balance else _durations(text)
    month_days = _month_days(text)
    on_line = _month_days(_plain(column_line))
    if len(on_line) == len(columns):
        month_days = on_line
    # "Year ended Dec 31, 2022, Dec 25, 2021 and ...": one date per column, not per group.
    by_duration = _spread(durations, len(columns))
    by_date = _spread(month_days, len(columns))
    if len(month_days) > len(columns) and len(set(month_days)) == 1:
        by_date = [0] * len(columns)
    periods: list[Period] = []
    for index, (year, printed_month, printed_day) in enumerate(columns):
        months = 0 if balance else 12
        if by_duration is not None:
            months = durations[by_duration[index]]
        month, day = printed_month, printed_day
        if not month and by_date is not None:
            month, day = month_days[by_date[index]]
        periods.append(Period(months, year, month, day))
    return tuple(periods)
