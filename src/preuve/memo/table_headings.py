"""Where a statement's table starts: its heading, or a note table completing a statement.

A heading split one word per line, or with a space inside a word (``Statement of Incom e``,
``Bilan conso lidé``) is recognised on its letters alone; a note table completing a
statement (EBITDA, off-balance-sheet leasing, a reconciliation to the operating cash flow)
opens by its title or by a sentence announcing a non-IFRS measure (see :mod:`preuve.memo.
tables`).
"""

from __future__ import annotations

import re
import unicodedata

from preuve.memo.lexicon import _HEADINGS, _MAX_PREFIX_WORDS, _PROSE_WORDS, Statement, heading_kind
from preuve.memo.periods import years_of_line

__all__ = ["CONNECTORS", "opening"]

CONNECTORS = frozenset(
    {"de", "des", "du", "et", "à", "aux", "of", "and", "for", "the", "to", "in", "on", "/"}
)
# A digit, superscripts and subscripts included (str.isdigit's, searched at C speed).
_DIGIT = re.compile(r"[\d\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089\u2460-\u2473]")
_SPLIT_HEADING_LINES = 4
# Tables that complete a statement with figures it does not print: the French "soldes
# intermédiaires de gestion" (EBE), an IFRS report's alternative performance measures
# (EBITDA), a US filing's non-GAAP measures complete the income statement; the
# off-balance-sheet commitments note (French GAAP leasing: its principal outstanding,
# "capital restant dû") completes the balance sheet. Their rows give only the concepts the
# primary tables do not.
_SUPPLEMENT = re.compile(
    r"(?i)\b(?:soldes intermédiaires de gestion|indicateurs alternatifs de performance"
    r"|alternative performance measures|non[- ](?:gaap|ifrs) (?:financial )?measures)\b"
    # a note whose heading is the measure itself ("Note 3 — EBITDA", "Note 12: EBE")
    r"|^note\s+\d+(?:\.\d+)?\s*[—–:.-]\s*(?:ebitda|ebe|excédent brut d'exploitation)"
    r"(?:\s*\([^()]*\))?\s*$"  # its unit aside: "(en milliers d'euros)"
)
_COMMITMENTS = re.compile(
    r"(?i)\b(?:engagements hors[- ]bilan|off[- ]balance[- ]sheet (?:commitments|arrangements"
    r"|obligations|leases)"
    # a note on the leasing commitments alone ("Engagements de crédit-bail")
    r"|engagements (?:de|au titre des contrats de) (?:crédit[- ]bail|location|leasing)"
    r"|(?:finance )?lease commitments)\b"
)
# The note reconciling profit to the operating cash flow completes a cash-flow statement
# printed by the direct method (receipts and payments): its rows are the indirect method's.
_RECONCILIATION = re.compile(
    r"(?i)^(?:reconciliation of (?:the )?(?:net )?(?:profit|income|earnings|loss|result)\b.*"
    r"\bto (?:the )?net cash\b.*\boperating activities"
    r"|(?:rapprochement|réconciliation) (?:du|entre le) résultat\b.*\b(?:flux|trésorerie)\b"
    r".*\b(?:activité|exploitation|opérationnel(?:le)?s?)\b)"
)
# A leading "Note 24." / "Note 3 —" / "18" before a note's title.
_NOTE_PREFIX = re.compile(r"(?i)^(?:note\s+)?\d{1,2}(?:\.\d{1,2})?(?:\s*[—–:.-]\s*|\s+)")
# A sentence announcing a non-IFRS / non-GAAP measure and its reconciliation: the column
# line right after it heads that reconciliation (a directors' report prints no heading).
_MEASURE_CUE = re.compile(
    r"(?i)\bnon[- ](?:ifrs|gaap)\b|\balternative performance measures?\b"
    r"|\bindicateurs? alternatifs? de performance\b"
)
_CUE_LINES = 3  # lines of the sentence (blank lines apart) between the cue and the columns
_COMPACT = tuple(
    (kind, re.compile(p.pattern.replace(r"\s+", "").replace(r"\b", ""))) for kind, p in _HEADINGS
)


def _compact(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    return re.sub(r"\s+", "", text)


def _compact_kind(text: str) -> tuple[bool, Statement | None]:
    """A heading recognised on its letters alone (spaces inside words, words on lines)."""
    words = text.split()
    if not words or len(words) > 14 or text.rstrip().endswith((".", ";", ",")):
        return False, None
    compact = _compact(text)
    best: tuple[int, Statement | None] | None = None
    for kind, pattern in _COMPACT:
        match = pattern.search(compact)
        if match is None or (best is not None and match.start() >= best[0]):
            continue
        # The name starts the heading or follows a short prefix (a company's name), never
        # a phrase of prose ("analysis of the consolidated statements of income").
        prefix: list[str] = []
        length = 0
        for word in words:
            length += len(_compact(word))
            if length > match.start():
                break
            prefix.append(word.casefold())
        if len(prefix) <= _MAX_PREFIX_WORDS and not set(prefix) & _PROSE_WORDS:
            best = (match.start(), kind)
    return (False, None) if best is None else (True, best[1])


def _heading(lines: list[str], index: int) -> tuple[int, Statement | None] | None:
    """(lines the heading takes, statement) when a heading starts at ``index``."""
    line = lines[index]
    if _DIGIT.search(line) and years_of_line(line) is None:
        found, kind = heading_kind(line)
        if found and _AMOUNTS_END.search(line):
            # A row whose label names a statement or the notes ("income statement charge
            # (1.4) (1.3)", "Produits annexes 61 200 58 900") is no heading.
            return None
        return (1, kind) if found else None
    found, kind = heading_kind(line)
    if not found:
        found, kind = _compact_kind(line)
    if found:
        return 1, kind
    # One word a line: join a few short lines without digits.
    joined = [line]
    for extra in range(1, _SPLIT_HEADING_LINES):
        if index + extra >= len(lines):
            break
        nxt = lines[index + extra]
        if len(nxt.split()) > 3 or _DIGIT.search(nxt) or not nxt.strip():
            break
        joined.append(nxt)
        words = line.split()
        if len(words) <= 3 or (len(words) <= 6 and words[-1].casefold() in CONNECTORS):
            found, kind = _compact_kind(" ".join(joined))
            if found:
                return extra + 1, kind
    return None


def _supplement_heading(line: str) -> Statement | None:
    """The statement a note table's heading completes, or None."""
    text = line.strip()
    if text.endswith((".", ";", ",")):
        return None
    title = _NOTE_PREFIX.sub("", text)
    if len(title.split()) <= _MAX_PREFIX_WORDS + 10 and _RECONCILIATION.match(title):
        return Statement.CASHFLOW
    if len(text.split()) > _MAX_PREFIX_WORDS + 6:
        return None
    if _SUPPLEMENT.search(text) is not None:
        return Statement.INCOME
    return Statement.BALANCE if _COMMITMENTS.search(text) is not None else None


def _announced_measures(lines: list[str], index: int) -> int | None:
    """When ``lines[index]`` is a sentence naming a non-IFRS / non-GAAP measure and a
    column line follows it within the sentence's lines, the lines up to that column line
    (a reconciliation printed without a heading of its own); else None."""
    if _MEASURE_CUE.search(lines[index]) is None:
        return None
    prose = 0
    for ahead, nxt in enumerate(lines[index + 1 :], start=1):
        years = years_of_line(nxt)
        if years is not None and len(years) >= 2:
            return ahead
        prose += bool(nxt.strip())
        if _DIGIT.search(nxt) or prose > _CUE_LINES:
            return None  # figures or more prose before any column line: no table announced
    return None


_AMOUNTS_END = re.compile(
    r"[-−–(]?\d[\d\u202f\u00a0 .,'\u2019]*\)?\s+[-−–(]?\d[\d\u202f\u00a0 .,'\u2019]*\)?$"
)


def opening(lines: list[str], index: int) -> tuple[tuple[int, Statement | None] | None, bool]:
    """The heading starting at ``index`` (lines it takes, statement), and whether it opens a
    note table completing a statement. A note table's heading is tried first: "Engagements
    hors bilan" names no balance sheet."""
    completed = _supplement_heading(lines[index])
    if completed is not None:
        return (1, completed), True
    heading = _heading(lines, index)
    if heading is not None:
        return heading, False
    announced = _announced_measures(lines, index)
    return (None, False) if announced is None else ((announced, Statement.INCOME), True)
