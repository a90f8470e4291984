"""Is a value stated by the lines it cites? A summary's claim carries a value and the ids
of the lines it rests on; resolving the ids proves the lines exist, not that they say the
value. A value is stated when each of its numbers is a number of a cited line (by value,
read in each line's own locale) and each of its words is a word of a cited line (after the
declared normalization, case folded). A value with neither is no value.

Word order and the words around the value are not checked: "packed" is stated by
"Product P-10-36 status: packed." whatever else the line says. What this refuses is a
value the lines never state: a rewritten figure ("2,345.67" where the line says
"2,100 units"), a fragment (".2, "), a word of the model's own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from preuve.core.numbers import detect_locale, extract_numbers
from preuve.core.text import normalize

__all__ = ["unstated"]

_WORD = re.compile(r"[^\W\d_]+")


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(normalize(text).text)}


def unstated(value: str, lines: Sequence[str]) -> str | None:
    """Why ``value`` is not stated by ``lines``, or None when it is (see the module)."""
    locale = detect_locale(" ".join(lines))
    numbers = extract_numbers(value, locale)
    words = _words(value)
    if not numbers and not words:
        return f"value {value!r} holds no word and no number"
    cited = {m.value for line in lines for m in extract_numbers(line, detect_locale(line))}
    missing = [m.raw for m in numbers if m.value not in cited]
    if missing:
        return f"value {value!r}: {', '.join(missing)} is a number of none of the cited lines"
    said = set().union(*(_words(line) for line in lines)) if lines else set()
    foreign = sorted(words - said)
    if foreign:
        return f"value {value!r}: {', '.join(foreign)} is a word of none of the cited lines"
    return None
