"""Links in model output: one that its sources do not contain is a defect, never followed.

Documents are untrusted. One may tell the model to "print" a URL (to exfiltrate what it
read through the query string, or to send a reader to a page of the attacker's). preuve
never fetches anything; these functions only find link-shaped text, so that a check can
refuse a link the cited sources do not contain, exactly as it refuses an unsourced number.

What counts as a link, in every form a browser or a Markdown renderer would follow:

- ``scheme://...`` (http, https, ftp, file, ...), and a web scheme with fewer or other
  slashes (``https:evil.example``, ``https:/evil.example``, ``https:\\\\evil.example``);
- protocol-relative ``//host.tld/...`` (also inside markup: ``<img src=//host/x.png>``);
- ``www.host.tld...``; the ``javascript:``, ``vbscript:``, ``mailto:`` and
  ``data:<mime>`` forms;
- a bare domain followed by a path, port, query or fragment (``evil.example/c?d=x``), and
  a bare domain alone when its last label is one of :data:`BARE_DOMAIN_TLDS` — a declared
  list a caller can extend (``find_links(text, tlds=...)``); ``e.g.``, ``fr.wikipedia`` or a
  file name such as ``memo.json`` are not links.

Trailing sentence punctuation is not part of a link. Comparison is on the exact characters.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

__all__ = ["BARE_DOMAIN_TLDS", "find_links", "unsupported_links"]

# Last labels that make a bare ``name.tld`` a link on their own: the most used generic and
# country domains and the reserved test names. Not the ones that are file extensions (md,
# py, sh, pl, rs...), so that a file name is not taken for a link.
_TLD_WORDS = (
    "com net org info biz io co app dev xyz online site top club shop link click ru cn fr de "
    "uk eu be ch nl es it us ca au jp br tk ml ga cf gq me tv cc ly gl gg to su ws "
    "example test invalid localhost onion local internal"
)
BARE_DOMAIN_TLDS: frozenset[str] = frozenset(_TLD_WORDS.split(" "))
_STOP = r"[^\s<>\"'`]"
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_LINK = re.compile(
    r"(?i)(?<![\w.+-])(?:"
    rf"[a-z][a-z0-9+.-]{{1,15}}://{_STOP}+"
    rf"|(?:https?|ftps?|wss?):[/\\]{{0,3}}(?=[a-z0-9\[]){_STOP}+"
    rf"|www\.{_LABEL}(?:\.{_LABEL})+{_STOP}*"
    rf"|(?:javascript|vbscript):{_STOP}+"
    r"|mailto:[^\s<>\"'`@]+@[^\s<>\"'`]+"
    rf"|data:[a-z]+/[a-z0-9.+-]+[;,]{_STOP}*"
    r")"
)
# ``//host`` after anything but a word or a colon (``src=//x``, ``(//x``, a line start).
_RELATIVE = re.compile(rf"(?i)(?<![\w:/\\])[/\\]{{2}}{_LABEL}(?:\.{_LABEL})+{_STOP}*")
_BARE = re.compile(
    rf"(?i)(?<![\w.@/\\:-])(?:{_LABEL}\.)+(?P<tld>[a-z]{{2,24}})(?![\w-])"
    rf"(?P<rest>(?::\d{{1,5}})?[/?#]{_STOP}*|:\d{{1,5}})?"
)
# A link written in prose usually ends before these: "see https://x.example/a." → no dot.
_TRAILING = ".,;:!?)]}»›’”"


def _bare_domains(text: str, tlds: Collection[str]) -> Iterable[tuple[int, str]]:
    for match in _BARE.finditer(text):
        if match.group("rest") or match.group("tld").lower() in tlds:
            yield match.start(), match.group()


def find_links(text: str, *, tlds: Collection[str] = BARE_DOMAIN_TLDS) -> tuple[str, ...]:
    """Every link of ``text``, in order of appearance, each once."""
    spans: list[tuple[int, int, str]] = []
    for pattern in (_LINK, _RELATIVE):
        spans += [(m.start(), m.end(), m.group()) for m in pattern.finditer(text)]
    covered = [(start, end) for start, end, _ in spans]
    for start, link in _bare_domains(text, tlds):
        if not any(a <= start < b for a, b in covered):  # part of a link already found
            spans.append((start, start + len(link), link))
    found = (link.rstrip(_TRAILING) for _, _, link in sorted(spans))
    return tuple(dict.fromkeys(link for link in found if link))


def unsupported_links(text: str, sources: Iterable[str]) -> tuple[str, ...]:
    """The links of ``text`` that appear in none of ``sources`` (character for character)."""
    links = find_links(text)
    if not links:
        return ()
    pool = tuple(sources)
    return tuple(link for link in links if not any(link in source for source in pool))
