"""A quote edge that severs a qualifier: the negation just before it, the exception or
condition just after it.

A quote is a substring of its page, yet a cut can invert what the page says: "material
uncertainty relating to going concern" taken from "there is *no* material uncertainty
...", "toutes les filiales respectent leurs covenants" from "..., *sauf* la filiale
italienne". So a quote may not start right after a negation word of its own clause, nor
end right before an exception or a condition (or the second half of a French negation,
"n'a" + "pas"). Only the words next to the edge count, within the clause: a period, a
colon or a semicolon before the start ends the clause ("... que non. Le site ...").

The cue words are general grammar of French and English, not any text's phrases.
"""

from __future__ import annotations

import re

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


def severed_qualifier(text: str, start: int, end: int) -> tuple[str, str] | None:
    """``("start", word)`` when ``text[start:end]`` starts right after a negation of its
    clause, ``("end", word)`` when it ends right before an exception, a condition or a
    negation's second half; else None."""
    word = _negation_before(text, start)
    if word is not None:
        return "start", word
    word = _qualifier_after(text, start, end)
    if word is not None:
        return "end", word
    return None
