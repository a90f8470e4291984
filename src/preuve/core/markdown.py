"""Model and document text written into a Markdown file, as text and nothing else.

A memo paragraph is written by a model that read untrusted documents: copied raw into
``memo.md`` it could become a heading, a list, an image that loads a tracking URL
(``![](https://evil.example/p.png)``), raw HTML, or a link a renderer makes clickable.
:func:`escape_markdown` backslash-escapes every character CommonMark gives a meaning to,
the markers that start a block at the beginning of a line, and breaks the autolinks of
GitHub-flavoured Markdown (``https://``, ``www.``) found by :func:`find_links`. A
renderer shows the same characters; it never builds a link, an image or a tag from them.
"""

from __future__ import annotations

import re

from preuve.core.links import find_links

__all__ = ["escape_markdown", "markdown_quote"]

# CommonMark's escapable ASCII punctuation that has inline meaning (emphasis, code, links,
# images, raw HTML, tables, strikethrough, entities).
_INLINE = re.compile(r"([\\`*_\[\]<>|~!&])")
# Block markers at a line start: headings, quotes, lists, thematic breaks, setext lines;
# an ordered-list marker is escaped on its punctuation (a backslash before a digit stays).
_BLOCK = re.compile(r"^(\s*)([#>+=-])", re.MULTILINE)
_ORDERED = re.compile(r"^(\s*\d{1,9})([.)])", re.MULTILINE)
_LINK_PUNCTUATION = re.compile(r"([:.])")


def _inert_link(link: str) -> str:
    return _LINK_PUNCTUATION.sub(r"\\\1", link)


def escape_markdown(text: str) -> str:
    """``text`` as literal Markdown: rendered, it shows the same characters and nothing
    becomes markup or a link."""
    escaped = _INLINE.sub(r"\\\1", text)
    escaped = _BLOCK.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", escaped)
    escaped = _ORDERED.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", escaped)
    for link in sorted(find_links(escaped), key=len, reverse=True):
        escaped = escaped.replace(link, _inert_link(link))
    return escaped


def markdown_quote(text: str) -> str:
    """``text`` escaped, as a block quote (every line of it, not only the first)."""
    return "\n".join(f"> {line}" for line in escape_markdown(text).split("\n"))
