"""Balance-sheet sections: the maturity a section title gives the rows printed under it.

An IFRS or Ind AS balance sheet prints ``Borrowings`` twice, once under ``Non-current
liabilities`` and once under ``Current liabilities``: neither row is the gross debt. A row
under such a title is looked up with the section's qualifier first (``non current
borrowings``), then as printed (a label naming its own maturity keeps its own concept).
Titles may be numbered (``1 Non-current assets``, ``B. Current liabilities``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from preuve.memo.lexicon import Statement, heading_kind, normalize_label

__all__ = ["balance_section", "closes_section", "continued_pages", "qualified_labels"]

_CONTINUED = re.compile(r"(?i)\((?:continued|cont'?d|suite)\)|\b(?:continued|suite)$")
_HEAD_LINES = 8  # a page's heading is among its first lines

_NUMBERED = r"(?:(?:\d{1,2}|[A-Z]|[IVX]{1,4})[.)]?\s+|\([a-z0-9]{1,3}\)\s+)?"
_TITLE = re.compile(
    rf"(?i)^{_NUMBERED}(?:(non[- ]?current|long[- ]term)|(current|short[- ]term))"
    r" (?:assets|liabilities)$"
    rf"|^{_NUMBERED}(?:passifs?|actifs?|dettes) (?:(non[- ]courant(?:e)?s?)|(courant(?:e)?s?))$"
    # Belgian and UK schemes: debts (or creditors) by maturity, a row with its own figures
    rf"|^{_NUMBERED}(?:(?:dettes|cr[ée]ances) "
    r"(?:(?P<long>[àa] plus d'un an)|(?P<short>[àa] un an au plus))"
    r"|(?:creditors:? )?amounts falling due "
    r"(?:(?P<after>after more than one year)|(?P<within>within one year)))$"
)
_CLOSES = re.compile(r"(?i)^(?:total|sous[- ]total)\b")
_QUALIFIED = {
    "current": ("current {label}", "{label} courants", "{label} courantes"),
    "non_current": ("non current {label}", "{label} non courants", "{label} non courantes"),
}


def balance_section(text: str) -> str | None:
    """``"non_current"`` or ``"current"`` for a line that is a section title, else None."""
    plain = " ".join(text.split()).rstrip(":").replace("\u2019", "'")
    # as printed, else without its note and code references ("Dettes à un an au plus 6.9")
    titled = _TITLE.match(plain) or _TITLE.match(normalize_label(plain))
    if titled is None:
        return None
    long_term = titled.group(1) or titled.group(3) or titled["long"] or titled["after"]
    return "non_current" if long_term else "current"


def closes_section(label: str) -> bool:
    """Whether a row ends the section it is in (``Total current liabilities``)."""
    return _CLOSES.match(label.strip()) is not None


def qualified_labels(label: str, section: str) -> tuple[str, ...]:
    """The labels to look up for a row printed under ``section`` ("" for none): the label
    qualified by the section first, then as printed."""
    forms = _QUALIFIED.get(section, ())
    # the qualifier after the label's words, not after its note reference ("Dettes 43")
    plain = normalize_label(label) if forms else label
    return (*(f.format(label=plain if f.startswith("{") else label) for f in forms), label)


def continued_pages(pages: Sequence[str], statement: Statement, found: set[int]) -> set[int]:
    """The pages (from 1) that continue ``statement`` from one of its ``found`` pages: the
    next page, headed by the statement's title marked ``(continued)`` / ``(suite)``."""
    continued: set[int] = set()
    for number in sorted(found):
        following = number + 1
        while following <= len(pages):
            lines = pages[following - 1].split("\n")[:_HEAD_LINES]
            if not any(
                heading_kind(line) == (True, statement) and _CONTINUED.search(line.strip())
                for line in lines
            ):
                break
            continued.add(following)
            following += 1
    return continued - found
