"""Links in model output: one that its sources do not contain is a defect, never followed.

Documents are untrusted. One may tell the model to "print" a URL (to exfiltrate what it
read through the query string, or to send a reader to a page of the attacker's). preuve
never fetches anything; these functions only find link-shaped text, so that a check can
refuse a link the cited sources do not contain, exactly as it refuses an unsourced number.

What counts as a link: ``scheme://...`` (http, https, ftp, file, ...), ``www.host.tld...``,
and the ``javascript:``, ``vbscript:``, ``mailto:`` and ``data:<mime>`` forms. Trailing
sentence punctuation is not part of a link. Comparison is on the exact characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["find_links", "unsupported_links"]

_LINK = re.compile(
    r"(?i)(?<![\w.+-])(?:"
    r"[a-z][a-z0-9+.-]{1,15}://[^\s<>\"'`]+"
    r"|www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+[^\s<>\"'`]*"
    r"|(?:javascript|vbscript):[^\s<>\"'`]+"
    r"|mailto:[^\s<>\"'`@]+@[^\s<>\"'`]+"
    r"|data:[a-z]+/[a-z0-9.+-]+[;,][^\s<>\"'`]*"
    r")"
)
# A link written in prose usually ends before these: "see https://x.example/a." → no dot.
_TRAILING = ".,;:!?)]}»›’”"


def find_links(text: str) -> tuple[str, ...]:
    """Every link of ``text``, in order of appearance, each once."""
    found = (match.group().rstrip(_TRAILING) for match in _LINK.finditer(text))
    return tuple(dict.fromkeys(link for link in found if link))


def unsupported_links(text: str, sources: Iterable[str]) -> tuple[str, ...]:
    """The links of ``text`` that appear in none of ``sources`` (character for character)."""
    links = find_links(text)
    if not links:
        return ()
    pool = tuple(sources)
    return tuple(link for link in links if not any(link in source for source in pool))
