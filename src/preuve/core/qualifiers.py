"""A quote edge that severs a qualifier: the negation just before it, the exception or
condition just after it; a bound before its first number, the parentheses of a negative
amount, a tax base after its last number.

A quote is a substring of its page, yet a cut can invert what the page says: "material
uncertainty relating to going concern" taken from "there is *no* material uncertainty
...", "toutes les filiales respectent leurs covenants" from "..., *sauf* la filiale
italienne". So a quote may not start right after a negation word of its own clause, nor
end right before an exception or a condition (or the second half of a French negation,
"n'a" + "pas"). Only the words next to the edge count, within the clause: a period, a
colon or a semicolon before the start ends the clause ("... que non. Le site ...").

A quote that starts with a number may not start right after a bound or an approximation
of it ("at least", "up to", "approximately", "au moins", "jusqu'à", "environ"): "40 units"
taken from "at least 40 units" states a minimum as an exact count. A quote may not hold
one parenthesis of an amount written in parentheses and not the other ("S$3.1 million),"
from "(S$3.1 million),": the negative mark is cut). A quote may not end right before a tax
base (``HT``, ``excl. VAT``, :mod:`preuve.core.bases`) when the page also gives another
base of that group: the figure's base is lost where two bases are on the page.

The cue words are general grammar of French and English, not any text's phrases.
"""

from __future__ import annotations

import re

from preuve.core.bases import base_marks, mark_at

__all__ = ["severed_qualifier"]

# A negation word right before the quote's first word.
_NEGATION_BEFORE = frozenset(
    {"not", "no", "never", "nor", "without", "cannot", "neither", "none"}
    | {"pas", "aucun", "aucune", "jamais", "sans", "ni", "non", "guère", "nullement"}
)
# Words that negate only after a first half: "ne ... plus", "no longer".
_SECOND_HALF = {
    "plus": re.compile(r"(?i)(?:^|\W)n(?:e\s|['’])"),
    "longer": re.compile(r"(?i)\bno\s+$"),
}
_WORD_BEFORE = re.compile(r"(?i)([^\W\d_]+(?:['’][^\W\d_]+)?)\s*$")
# An exception, a condition or a negation right after the quote's last word (after a
# space, a comma or an opening parenthesis).
_AFTER = re.compile(
    r"(?i)[\s,(]*(?P<cue>sauf|hors|except[ée]?e?s?|à l['’]exception|a l['’]exception|"
    r"à condition|a condition|sous réserve|à moins|a moins|seulement si|uniquement si|"
    r"except|excluding|exclusive of|unless|provided|subject to|save for|other than|"
    r"apart from|only if|not|never)\b"
)
# The second half of a French negation after the quote, when its first half is quoted.
_FRENCH_SECOND_HALF = re.compile(r"(?i)\s+(?P<cue>pas|plus|jamais|guère|point)\b")
_FRENCH_FIRST_HALF = re.compile(r"(?i)(?:^|\W)n(?:e\s|['’])\S*(?:\s+\S+)?\s*$")
_LOOK = 40  # characters read on each side of an edge

# Bounds and approximations written before a number (matched lowercased, apostrophes
# straight, at the end of the text before the quote).
BOUNDS_BEFORE: tuple[str, ...] = (
    "at least", "at most", "up to", "no more than", "no less than", "not more than",
    "not less than", "more than", "less than", "fewer than", "in excess of", "upwards of",
    "as much as", "as many as", "as little as", "a minimum of", "a maximum of", "minimum of",
    "maximum of", "approximately", "approx.", "approx", "about", "around", "roughly", "nearly",
    "almost", "some", "circa", "ca.", "close to", "just over", "just under", "well over",
    "au moins", "au plus", "au minimum", "au maximum", "jusqu'à", "jusqu'a", "plus de",
    "moins de", "pas plus de", "pas moins de", "un minimum de", "un maximum de", "environ",
    "env.", "approximativement", "près de", "pres de", "presque", "quelque", "quelques",
    "autour de", "de l'ordre de", "à peu près", "a peu pres", "au-delà de", "au dela de",
    "supérieur à", "supérieure à", "supérieurs à", "supérieures à", "inférieur à",
    "inférieure à", "inférieurs à", "inférieures à",
)  # fmt: skip
_BOUND_BEFORE = re.compile(
    r"(?:^|(?<=[\s(,;:'\u2019]))(?P<cue>"
    + "|".join(re.escape(c) for c in sorted(BOUNDS_BEFORE, key=len, reverse=True))
    + r")\s*$"
)
# A quote's first token holds a digit: a number, signed or after its currency ("S$3.1").
_STARTS_WITH_NUMBER = re.compile(r"[^\s\d]{0,4}\s?[-\u2212]?\d")
# An amount written in parentheses: "(S$3.1 million)", "(EUR 7.2 m)", "(1 577 k€)".
_AMOUNT_IN_PARENTHESES = re.compile(
    r"\((?=[^()\n]{1,40}\))[^\W\d_]{0,3}[$€£¥]?\s?[-\u2212]?\d[\d\s.,'\u2019]*"
    r"(?:\s?[^\W\d_]{1,8}\.?)?\s?[$€£¥]?\s*\)"
)


def _negation_before(text: str, start: int) -> str | None:
    before = text[max(0, start - _LOOK) : start]
    match = _WORD_BEFORE.search(before)
    if match is None:
        return None
    word = match.group(1).lower()
    word_start = start - (len(before) - match.start(1))
    if _last_cell_of_a_row(text, word_start, start):
        return None
    if word in _NEGATION_BEFORE or word.endswith(("n't", "n’t")):
        return word
    first_half = _SECOND_HALF.get(word)
    if first_half is not None and first_half.search(text[max(0, word_start - _LOOK) : word_start]):
        return word
    return None


def _last_cell_of_a_row(text: str, word_start: int, start: int) -> bool:
    """True when the word before the quote ends a table row: a line break lies between
    them and a column gap (two spaces or more, or a tab) sets the word apart on its line,
    as the "non" of a row "Paramétrable   oui   non" above the quoted row."""
    if "\n" not in text[word_start:start]:
        return False
    line_start = text.rfind("\n", 0, word_start) + 1
    return re.search(r"(?:\S(?: {2,}|\t)\S)", text[line_start : word_start + 1]) is not None


def _qualifier_after(text: str, start: int, end: int) -> str | None:
    after = text[end : end + _LOOK]
    match = _AFTER.match(after)
    if match is not None:
        return match.group("cue")
    second = _FRENCH_SECOND_HALF.match(after)
    if second is not None and _FRENCH_FIRST_HALF.search(text[max(start, end - _LOOK) : end]):
        return second.group("cue")
    return None


def _bound_before(text: str, start: int) -> str | None:
    """The bound or approximation right before a quote that starts with a number."""
    if _STARTS_WITH_NUMBER.match(text, start, min(len(text), start + 7)) is None:
        return None
    before = text[max(0, start - _LOOK) : start].lower().replace("\u2019", "'")
    match = _BOUND_BEFORE.search(before)
    return None if match is None else match.group("cue")


def _parenthesis_cut(text: str, start: int, end: int) -> str | None:
    """``"("`` when the quote holds one parenthesis of an amount in parentheses and not
    the other."""
    window = text[max(0, start - _LOOK) : end + _LOOK]
    offset = max(0, start - _LOOK)
    for match in _AMOUNT_IN_PARENTHESES.finditer(window):
        opening, closing = offset + match.start(), offset + match.end() - 1
        if (start <= opening < end) != (start <= closing < end):
            return "("
    return None


def _base_after(text: str, end: int) -> str | None:
    """The tax base right after the quote, when the page also gives another of its group."""
    after = text[end : end + _LOOK]
    mark = mark_at(after, 0)
    if mark is None or not re.fullmatch(r"[\s\u00a0\u202f]*", after[: mark.start]):
        return None
    others = {m.value for m in base_marks(text) if m.group == mark.group}
    return after[mark.start : mark.end] if others - {mark.value} else None


def severed_qualifier(text: str, start: int, end: int) -> tuple[str, str] | None:
    """``("start", word)`` when ``text[start:end]`` starts right after a negation of its
    clause or, with a number, right after a bound (``at least``, ``environ``);
    ``("end", word)`` when it ends right before an exception, a condition, a negation's
    second half or a tax base the page gives another of; ``(edge, "(")`` when it cuts the
    parentheses of an amount; else None."""
    word = _negation_before(text, start) or _bound_before(text, start)
    if word is not None:
        return "start", word
    word = _qualifier_after(text, start, end) or _base_after(text, end)
    if word is not None:
        return "end", word
    if _parenthesis_cut(text, start, end) is not None:
        return "start", "("
    return None
