"""The company a report is about, as the report names it, and its id slug.

The name comes from the report's own text: on an SEC cover, the line above "(Exact name of
registrant ...)" or below "Commission file number"; else the first line of the cover page
that is not a generic title. The slug (``ferlac``) is the first distinctive word of the
name, ASCII, lower case; fact ids are built from it (``R-ferlac-levier``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Company", "detect_company", "slug_of"]

_GENERIC_WORDS = frozenset(
    {"maison", "groupe", "group", "societe", "compagnie", "company", "the", "les"}
    | {"la", "le", "l", "sa", "sas", "sasu", "sca", "se", "sarl", "snc", "inc"}
    | {"incorporated", "corp", "corporation", "plc", "ltd", "limited", "llc", "co"}
    | {"holding", "holdings", "nv", "ag"}
)
_TITLE_LINE = re.compile(
    r"^(?:rapport (?:annuel|financier|de gestion)|annual report|document d.enregistrement"
    r"|universal registration|united states|securities and exchange|table of contents"
    r"|sommaire|form\s+10-?[kq]|washington|exercice|fiscal year|page\s+\d|exhibit)",
    re.IGNORECASE,
)
_REGISTRANT = re.compile(r"exact\s+name\s+of\s+registrant", re.IGNORECASE)
_FILE_NUMBER = re.compile(r"^commission\s+file\s+(?:number|no)", re.IGNORECASE)
# Rules, check boxes and underscores around a name; a final "." (Inc.) or ")" stays.
_SPACE_BEFORE_MARK = re.compile(r"\s+([.,])(?=\s|$)")
_EDGES = re.compile(r"^[\W_]+|[^\w.)]+$")


@dataclass(frozen=True, slots=True)
class Company:
    """The company a report is about, as the report names it, and its id slug."""

    name: str
    slug: str


def slug_of(name: str) -> str:
    """``Maison Ferlac SAS`` → ``ferlac``: the first distinctive word, ASCII, lower case."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    words: list[str] = re.findall(r"[a-z0-9]+", folded)
    distinctive = [w for w in words if w not in _GENERIC_WORDS]
    return (distinctive or words or ["report"])[0]


def _clean(line: str) -> str:
    # PDF extraction may space a name's punctuation out ("NIKE, Inc ."): close it up
    return _EDGES.sub("", _SPACE_BEFORE_MARK.sub(r"\1", " ".join(line.split())))


def _first_name_line(lines: list[str]) -> str | None:
    for line in lines:
        text = _clean(line)
        if re.search(r"[^\W\d_]{2}", text) and not _TITLE_LINE.match(line.strip()):
            return text
    return None


def detect_company(pages: Sequence[str]) -> Company:
    """The company named by the report: on an SEC cover, the line above "(Exact name of
    registrant ...)" or below "Commission file number"; else the first line of the cover
    page that is not a generic title."""
    for page in pages[:3]:
        lines = [_clean(line) for line in page.split("\n") if _clean(line)]
        for index, line in enumerate(lines):
            if _REGISTRANT.search(line) and index > 0:
                return Company(lines[index - 1], slug_of(lines[index - 1]))
            if _FILE_NUMBER.match(line) and index + 1 < len(lines):
                following = lines[index + 1]
                if not _REGISTRANT.search(following):
                    return Company(following, slug_of(following))
    found = _first_name_line(pages[0].split("\n")) if pages else None
    name = found or "Unknown company"
    return Company(name, slug_of(name))
