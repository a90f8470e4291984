"""The candidates a question lists one per line: ``- **Name** (maker): rest of the item``.

An item may name its candidate's editions as alternatives (``**A Studio / A Campus**``) and
wrap onto indented lines; both are the item's words, where its other names are read
(:func:`preuve.synthesis.planner_products.product_aliases`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from preuve.synthesis.statements import mentions

__all__ = ["VERSION", "listed_items"]

_ITEM = re.compile(
    r"^[ \t]*(?:[-*•+]|\d+[.)])[ \t]+(?:\*\*|__)?(?P<name>[A-ZÀ-Ý][^*_:—–(\n]{0,60}?)"
    r"(?:\*\*|__)?[ \t]*(?:[:—–(]|[ \t]-[ \t])(?P<rest>[^\n]*)$",
    re.MULTILINE,
)


# A version or model number after a name ("Corvus Suite 11", "Halden 4.2"): the capitalized
# name pattern stops before it, though it is part of the product's name.
VERSION = re.compile(r"\s+v?\d[\w.]*")


_CONTINUATION = re.compile(r"(?:\n[ \t]+(?![-*•+][ \t]|\d+[.)][ \t])[^\n]*)*")


def _continued(question: str, end: int) -> str:
    """The indented lines that carry a list item on after ``end`` (a wrapped item)."""
    found = _CONTINUATION.match(question, end)
    return " " + " ".join(found.group().split()) if found and found.group() else ""


def listed_items(
    question: str, names: Sequence[str], texts: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    """(name, rest of the item) for the question's list items that start with one of
    ``names``: candidates written one per line. An item's name that is one of ``names``
    followed by a version number is that longer name when documents (``texts``) write it
    ("- **Orla Suite 7** (Orla Ltd)": the candidate is Orla Suite 7, not Orla Suite)."""
    out = []
    for item in _ITEM.finditer(question):
        # "**A Studio / A Campus**: ...": the first name is the candidate, the others (its
        # editions, written as alternatives) are other names of it, read with the item's rest
        head, *others = [" ".join(n.split()) for n in item.group("name").split(" / ")]
        said = item.group("rest") + _continued(question, item.end())
        rest = ", ".join([*others, said]) if others else said
        ordered = sorted(names, key=len, reverse=True)
        name = next((n for n in ordered if head == n), None)
        if name is None and texts is not None:
            name = next(
                (
                    head
                    for n in ordered
                    if head.startswith(n) and VERSION.fullmatch(head[len(n) :])
                    and any(mentions(head, t) for t in texts)
                ),
                None,
            )  # fmt: skip
        if name is not None:
            out.append((name, rest))
    return out
