"""Which entity each value column of a statement is: the group's or the parent company's.

A parent company's report often prints its own figures beside the group's, under entity
labels in the heading block: ``Group | Company`` above ``2025 2024 2025 2024``, ``The Group
The Company``, ``Consolidated | Parent``, ``Groupe | Société``, or one label per column on
the column line itself (``Group 2025 Group 2024 Company 2025 Company 2024``). The labels
are read in printed order and spread over the columns (two labels over four columns: each
covers two consecutive columns), as durations are (:mod:`preuve.memo.periods`); on a PDF
page, labels that do not divide the columns (``Group`` over two, ``Company`` over one) are
placed by their x-positions: each column is the nearest label's.

The group's (consolidated) columns are the statement's; the company's are kept apart,
never fed to ratios. Columns that cannot be attributed with confidence are *unattributed*:
the same period printed twice with no entity labels that tell the two apart (``2025 2024
2025 2024``), labels that do not divide the columns evenly, an entity that would print one
period twice. Their values are flagged doubtful and not used, never guessed.

A cue that tells the groups apart without labels over the columns: a heading that names
both entities in order (``Statements of financial position — Group and Company``). A
statement printed twice, once headed for the company alone (``Company balance sheet``),
is the group's where the report prints it (see :mod:`preuve.memo.tables`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

__all__ = [
    "COMPANY",
    "GROUP",
    "UNATTRIBUTED",
    "column_entities",
    "entities_by_x",
    "entity_labels",
    "heading_entities",
    "is_entity_word",
    "mention_spans",
]

GROUP = ""  # the statement's own columns: the group's, or the only entity's
COMPANY = "company"  # the parent company's own columns, kept apart
UNATTRIBUTED = "?"  # columns no cue attributes: doubtful, not used

# General entity words, English and French (longest first: "parent company" is one label,
# "consolidated entity" the group's).
_GROUP_WORDS = (
    r"consolidated entity|economic entity|entité consolidée|ensemble consolidé"
    r"|comptes consolidés|états financiers consolidés"
    r"|consolidated|consolidés?|consolidées?|groupe|group"
)
_COMPANY_WORDS = (
    r"parent company|parent entity|holding company|société mère|société-mère|maison mère"
    r"|comptes sociaux|comptes individuels|états financiers individuels"
    r"|standalone|stand-alone|separate|company|parent|société"
)
_MENTION = re.compile(rf"(?<![\w'’-])(?:({_GROUP_WORDS})|({_COMPANY_WORDS}))(?![\w'’-])")
# Words a column-label line may hold besides the entities: articles, a notes column's
# heading, a unit, a column rule, years and dates (the column line itself).
_FILLER = re.compile(
    r"^(?:the|la|le|les|l'|of|de|du|and|et|&|notes?|annexes?|réf\.?|ref\.?"
    r"|[^a-zà-ÿ]*|[a-z]{0,3}[$€£¥₹]?'?0{3}|[a-z]{0,3}[$€£¥₹][mk]?|[km]€|[$€£]?[mk])$"
)
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def _plain(line: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", line).casefold().split())


_ENTITY_WORD = re.compile(rf"[|(]*(?:{_GROUP_WORDS}|{_COMPANY_WORDS})[|)]*")


def is_entity_word(word: str) -> bool:
    """Whether ``word`` (case-folded, as a column line's words are read) alone is an entity
    label (``group``, ``company``, ``société``)."""
    return _ENTITY_WORD.fullmatch(word) is not None


def entity_labels(line: str) -> list[str]:
    """The entities a column-label line names, in printed order (``GROUP`` or ``COMPANY``
    each); empty when the line is not one (a sentence that mentions the group, a label)."""
    plain = _plain(line)
    kinds = [GROUP if m.group(1) else COMPANY for m in _MENTION.finditer(plain)]
    if not kinds:
        return []
    rest = _MENTION.sub(" ", plain).split()
    others = [w for w in rest if not _FILLER.match(w.strip("|,:;()").replace("’", "'"))]
    return [] if others else kinds


def heading_entities(heading: str) -> frozenset[str]:
    """The entities a statement's heading names: ``{COMPANY}`` for ``Company statement of
    financial position`` or ``Bilan de la société mère``, ``{GROUP}`` for ``Consolidated
    balance sheet``, both for ``Acme Company — consolidated balance sheet``."""
    return frozenset(GROUP if m.group(1) else COMPANY for m in _MENTION.finditer(_plain(heading)))


# Both entities joined in a heading ("of the Group and of the Company", "Groupe et
# Société"); "XYZ Company and subsidiaries — consolidated" names no pair.
_PAIR = re.compile(
    rf"(?<![\w'’-])(?:({_GROUP_WORDS})|({_COMPANY_WORDS}))(?![\w'’-])"
    r"\s*(?:and|et|&|/)\s*(?:of |de )?(?:the |la |l'|le )?"
    rf"(?:({_GROUP_WORDS})|({_COMPANY_WORDS}))(?![\w'’-])"
)


def _title_order(title: str) -> list[str]:
    """Both entities as a heading names them side by side, in order ("... of the Group and
    of the Company"); empty when it does not."""
    pair = _PAIR.search(_plain(title))
    if pair is None or bool(pair.group(1)) == bool(pair.group(3)):
        return []
    return [GROUP, COMPANY] if pair.group(1) else [COMPANY, GROUP]


def _spread(kinds: Sequence[str], columns: int) -> tuple[str, ...] | None:
    if not kinds or columns % len(kinds):
        return None
    width = columns // len(kinds)
    return tuple(kinds[index // width] for index in range(columns))


def _on_the_line(line: str, columns: int) -> tuple[str, ...] | None:
    """Each column's entity when the column line names them itself, one before its years
    (``Group 2025 2024 Company 2025``): each year is the entity named last before it."""
    plain = _plain(line)
    years = [m.start() for m in _YEAR.finditer(plain)]
    mentions = [(m.start(), GROUP if m.group(1) else COMPANY) for m in _MENTION.finditer(plain)]
    if len(years) != columns or not mentions or mentions[0][0] > years[0]:
        return None
    return tuple(next(k for at, k in reversed(mentions) if at < year) for year in years)


def column_entities(
    label_lines: Sequence[str], column_line: str, keys: Sequence[object], title: str = ""
) -> tuple[str, ...]:
    """The entity of each column (``keys``: each column's period, in printed order) from
    the column line's own labels, else the last label line above it, else the heading's
    order of the two entities when the columns split in two with the same periods."""
    columns = len(keys)
    kinds = entity_labels(column_line)
    entities = _on_the_line(column_line, columns) if kinds else None
    if not kinds:
        kinds = next((found for ln in reversed(label_lines) if (found := entity_labels(ln))), [])
    if entities is None and len(set(kinds)) > 1:
        entities = _spread(kinds, columns)
    elif not kinds and columns % 2 == 0 and (order := _title_order(title)):
        half = columns // 2
        if list(keys[:half]) == list(keys[half:]):
            entities = _spread(order, columns)
    if entities is None:
        if len(set(kinds)) > 1 or len(set(keys)) < columns:
            return (UNATTRIBUTED,) * columns  # labels that do not divide, or periods twice
        return (GROUP,) * columns  # one entity: the statement's own columns
    if len(set(entities)) < 2 or _repeats(keys, entities):
        return (UNATTRIBUTED,) * columns if len(set(keys)) < columns else (GROUP,) * columns
    return entities


def mention_spans(line: str) -> list[tuple[str, int, int]]:
    """Each entity a label line names, with its span in ``line`` (for its x-positions)."""
    folded = line.casefold()
    if len(folded) != len(line):
        return []  # a character whose case folding changes the offsets: no span
    return [
        (GROUP if m.group(1) else COMPANY, m.start(), m.end()) for m in _MENTION.finditer(folded)
    ]


def entities_by_x(
    mentions: Sequence[tuple[str, float]], centres: Sequence[float], keys: Sequence[object]
) -> tuple[str, ...] | None:
    """Each column's entity by where the labels are printed on the page (``mentions``:
    each label's entity and the x of its middle; ``centres``: each column's, from its
    year): the nearest label's. None unless both entities are named, each over columns
    side by side, and neither prints one period twice."""
    if len({kind for kind, _ in mentions}) < 2 or len(centres) != len(keys):
        return None
    entities = tuple(min(mentions, key=lambda m: abs(m[1] - x))[0] for x in centres)
    runs = [kind for i, kind in enumerate(entities) if i == 0 or entities[i - 1] != kind]
    if len(set(entities)) < 2 or len(runs) != len(set(runs)) or _repeats(keys, entities):
        return None
    return entities


def _repeats(keys: Sequence[object], entities: Sequence[str]) -> bool:
    """Whether one entity would print one period twice."""
    pairs = list(zip(entities, keys, strict=True))
    return len(set(pairs)) != len(pairs)
