"""The company a report is about, as the report names it, and its id slug.

The name comes from the report's own text: on an SEC cover, the line above "(Exact name of
registrant ...)" or below "Commission file number"; else the first line of the cover page
that is not a generic title. A running header puts more than the name on that line
(``Tanjung Marine Berhad  Registration No. 1998… | Annual Report 2025``): the name is its
first cell (a tab, a run of spaces, a spaced dash, bar or middle dot sets cells apart),
ended by its legal form (``Berhad``, ``SAS``, ``plc``, ``Pte. Ltd.``) or before a title or
a registration number that follows it (PDF text joins the cells with one space). The slug
(``ferlac``) is the first distinctive word of the name, ASCII, lower case; fact ids are
built from it (``R-ferlac-levier``).
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
# What sets a running header's cells apart: a tab, two spaces or more, a spaced dash, bar or
# middle dot.
_CELL_BREAK = re.compile(r"\t|\s{2,}|\s[—–|·-]\s")
# Legal forms a company name ends with (several may follow each other: "Sdn. Bhd.").
_LEGAL_FORM = re.compile(
    r"(?:s\.?a\.?s\.?u?|s\.?a\.?|sarl|sca|snc|se|ag|gmbh|kgaa|n\.?v\.?|b\.?v\.?|s\.?p\.?a\.?"
    r"|ltd\.?|limited|plc|inc\.?|incorporated|corp\.?|corporation|llc|lp|berhad|bhd\.?"
    r"|sdn\.?|pte\.?|pty\.?|co\.?|ab|asa|a/s|oyj|tbk|pjsc|jsc),?",
    re.IGNORECASE,
)
# What may follow a name on its line and is no part of it: a report's title, a period, a
# registration number.
_AFTER_NAME = re.compile(
    r"\s(?:(?:integrated\s+)?annual\s+report|rapport\s+(?:annuel|financier|de\s+gestion)"
    r"|comptes\s+(?:annuels|sociaux|consolid)|document\s+d.enregistrement|form\s+10-?[kq]"
    r"|exercice\s+(?:du|clos)|fiscal\s+year|financial\s+statements|[ée]tats\s+financiers"
    r"|registration\s+no|reg(?:istered)?\.?\s+no|company\s+no|abn\s+\d|acn\s+\d|cin\s*:"
    r"|rcs\s|siren\s|ide\s*:)",
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


def _is_legal_form(word: str) -> bool:
    # written with a capital ("SA", "Berhad", "Co."), or one of the forms written in lower
    # case ("plc"): a lower-case "se" or "co" inside a name is a word
    return bool(_LEGAL_FORM.fullmatch(word)) and (
        word[:1].isupper() or word.rstrip(".,").lower() in {"plc", "ltd", "inc", "bhd"}
    )


def _name_of(line: str) -> str:
    """The name a cover or header line starts with: its first cell, ended by its legal form
    or before what follows a name (a title, a period, a registration number)."""
    cell = _CELL_BREAK.split(line.strip(), maxsplit=1)[0]
    words = cell.split(" ")
    for index, word in enumerate(words[1:], 1):
        if _is_legal_form(word):
            end = index + 1
            while end < len(words) and _is_legal_form(words[end]):
                end += 1
            cell = " ".join(words[:end])
            break
    after = _AFTER_NAME.search(cell)
    return _clean(cell[: after.start()] if after else cell)


def _first_name_line(lines: list[str]) -> str | None:
    for line in lines:
        text = _clean(line)
        if re.search(r"[^\W\d_]{2}", text) and not _TITLE_LINE.match(line.strip()):
            return _name_of(line) or text
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
