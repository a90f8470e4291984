"""Risk cues as declared data (``data/cues.json``), and the sentence classifier that uses them.

The cues are regular expressions over a folded sentence (see :func:`fold`), French and
English, general rather than copied from any report: categories tried in order (the
first whose cues match names the sentence), set phrases blanked first (``not_risk``),
pointers to another section (``cross_reference``), reassurance (``reassurance``: "no
other significant uncertainty", "complies with all its covenants", a risk said to be
remote or not material) and boilerplate (``boilerplate``: forward-looking lists, the
document describing itself, truisms, policies, contract drafting) that make a sentence no
signal; a sentence that only says what could happen (``hedges``) and states no figure is
a generic hypothetical, not a signal, unless one of its clauses states the risk as a fact
(``clause_breaks`` cut the sentence; a clause with no hedge, not opened by a condition
word, ``conditions``, states it: "we are heavily dependent on suppliers, and if they fail
... could be affected"). A sentence stating a figure ranks first.

A user extends them with a file in the same format (``preuve memo --cues FILE``, read by
:func:`preuve.loaders.load_cues`): its
patterns are tried before the bundled ones, for categories among the bundled ones; they are
in force in the process that runs the command (a remote executor's workers use the bundled
cues). A malformed file
is one :class:`InputError` line naming the entry at fault.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from preuve.core.errors import InputError

__all__ = [
    "SPECIFIC_BONUS",
    "Category",
    "CueSet",
    "bundled_cues",
    "classify_sentence",
    "fold",
    "parse_cues",
]

_CUES_FILE = Path(__file__).with_name("data") / "cues.json"
_SHARE = "{share_of_revenue}"
_LISTS = (
    "not_risk",
    "cross_reference",
    "reassurance",
    "boilerplate",
    "hedges",
    "clause_breaks",
    "conditions",
)
# A figure a sentence states: an amount, a percentage, a ratio, a date (not a reference
# to a note, item or section, which states nothing itself).
_REFERENCE = re.compile(r"\b(?:note|item|section|part|exhibit|article|page|p\.)\s*\d[\d.()a-z]*")
_FIGURE = re.compile(r"\d")
SPECIFIC_BONUS = 2  # a sentence that states a figure ranks above any that states none


def fold(text: str) -> str:
    """Lower case, accents removed, typographic apostrophes and spaces made plain."""
    decomposed = unicodedata.normalize("NFKD", text.replace("\u2019", "'").casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"\s+", " ", plain)


@dataclass(frozen=True, slots=True)
class Category:
    """A risk category as the bundled cues declare it: its name (what a reader answers),
    its label in the memo (French and English) and what it covers, as the LLM reader's
    prompt says it."""

    name: str
    label_fr: str
    label_en: str
    describe: str


@dataclass(frozen=True, slots=True)
class CueSet:
    """Compiled cues: (category, patterns) in order, and the screens; ``described`` names
    each category of the bundled file (labels and description)."""

    categories: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]
    not_risk: re.Pattern[str]
    cross_reference: re.Pattern[str]
    reassurance: re.Pattern[str]
    boilerplate: re.Pattern[str]
    hedges: re.Pattern[str]
    clause_breaks: re.Pattern[str]
    conditions: re.Pattern[str]
    described: tuple[Category, ...] = ()
    requires: tuple[tuple[str, re.Pattern[str]], ...] = ()
    # The bound words of a covenant threshold (``covenant_limits``, memo/covenant.py).
    covenant_maximum: tuple[str, ...] = ()
    covenant_minimum: tuple[str, ...] = ()

    def factual_clauses(self, folded: str) -> str:
        """The clauses of a folded sentence that state something as a fact: no hedge, not
        opened by a condition (``if``, ``unless``, ``si``), joined by ``" ; "``."""
        clauses: list[str] = []
        start, opener = 0, ""
        for match in [*self.clause_breaks.finditer(folded), None]:
            end = match.start() if match is not None else len(folded)
            clause = folded[start:end]
            conditional = self.conditions.search(opener) or self.conditions.match(clause)
            if clause.strip() and not conditional and not self.hedges.search(clause):
                clauses.append(clause.strip())
            if match is not None:
                start, opener = match.end(), match.group(0)
        return " ; ".join(clauses)

    def classify(self, text: str) -> tuple[str, int] | None:
        """The sentence's risk category and its strength (how many of its cues matched,
        plus :data:`SPECIFIC_BONUS` when it states a figure), or None: a pointer,
        reassurance, boilerplate, or a hypothetical that states no figure."""
        folded = self.not_risk.sub(" ", fold(text))
        if any(p.search(folded) for p in (self.cross_reference, self.reassurance)):
            return None
        if self.boilerplate.search(folded):
            return None
        specific = bool(_FIGURE.search(_REFERENCE.sub(" ", folded)))
        # A hypothetical that states no figure is a signal only through its factual clauses.
        hedged = not specific and self.hedges.search(folded)
        read = self.factual_clauses(folded) if hedged else folded
        needs = dict(self.requires)
        for category, patterns in self.categories:
            hits = sum(1 for pattern in patterns if pattern.search(read))
            if hits and category in needs and not needs[category].search(read):
                continue  # e.g. a cyber threat named with no incident that happened
            if hits:
                return category, hits + (SPECIFIC_BONUS if specific else 0)
        return None


def _compile(pattern: object, where: str) -> re.Pattern[str]:
    if not isinstance(pattern, str) or not pattern:
        raise InputError(f"{where}: a cue must be a non-empty string, not {pattern!r}")
    try:
        return re.compile(pattern)
    except re.error as error:
        raise InputError(f"{where}: bad cue pattern {pattern!r}: {error}") from None


def _strings(data: dict[str, object], key: str, source: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InputError(f"{source}: '{key}' must be a list of non-empty pattern strings")
    return [str(v) for v in value]


def _entries(data: dict[str, object]) -> list[dict[str, object]]:
    """The category entries of a cues document already checked by :func:`_categories`."""
    entries = data.get("categories", [])
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def _described(entry: dict[str, object], where: str) -> Category:
    """The label and description a bundled category must declare."""
    label, describe = entry.get("label"), entry.get("describe")
    if not isinstance(label, dict) or not all(
        isinstance(label.get(lang), str) and label[lang] for lang in ("fr", "en")
    ):
        raise InputError(f"{where}: 'label' must give the category's 'fr' and 'en' labels")
    if not isinstance(describe, str) or not describe:
        raise InputError(f"{where}: 'describe' must say what the category covers")
    return Category(str(entry["category"]), str(label["fr"]), str(label["en"]), describe)


def _categories(data: dict[str, object], source: str, share: str) -> list[tuple[str, list[str]]]:
    entries = data.get("categories", [])
    if not isinstance(entries, list):
        raise InputError(f"{source}: 'categories' must be a list")
    found: list[tuple[str, list[str]]] = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("category"), str):
            raise InputError(f"{source}: category {number} needs a 'category' name")
        cues = _strings(entry, "cues", f"{source}: category {number} ({entry['category']})")
        found.append((str(entry["category"]), [c.replace(_SHARE, share) for c in cues]))
    return found


def parse_cues(data: object, source: str, base: CueSet | None = None) -> CueSet:
    """A cue set from a cues document; with ``base``, its patterns come first and its
    categories must be among ``base``'s."""
    if not isinstance(data, dict):
        raise InputError(f"{source}: a cues file is a JSON object (see data/cues.json)")
    share = data.get("share_of_revenue", "")
    if not isinstance(share, str):
        raise InputError(f"{source}: 'share_of_revenue' must be a pattern string")
    categories = _categories(data, source, share or r"\d[\d ,.]*\s?%")
    known = [name for name, _ in base.categories] if base else [n for n, _ in categories]
    for name, _ in categories:
        if name not in known:
            raise InputError(f"{source}: unknown category {name!r} (one of {', '.join(known)})")
    compiled: dict[str, list[re.Pattern[str]]] = {name: [] for name in known}
    for name, cues in categories:
        compiled[name] += [_compile(c, f"{source}: {name}") for c in cues]
    screens = {key: _strings(data, key, source) for key in _LISTS}
    for key, patterns in screens.items():
        for pattern in patterns:
            _compile(pattern, f"{source}: {key}")
    if base is not None:
        for name, bundled in base.categories:
            compiled[name] += list(bundled)
        for key in _LISTS:
            screens[key].append(getattr(base, key).pattern)
    maximum, minimum = _limits(data, source)
    if base is not None:
        maximum += base.covenant_maximum
        minimum += base.covenant_minimum
    never = r"(?!x)x"
    described = (
        base.described
        if base is not None
        else tuple(
            _described(entry, f"{source}: category {number} ({entry['category']})")
            for number, entry in enumerate(_entries(data), start=1)
        )
    )
    requires = (
        base.requires
        if base is not None
        else tuple(
            (str(entry["category"]), _compile("|".join(needs), f"{source}: {entry['category']}"))
            for entry in _entries(data)
            if (needs := _strings(entry, "requires", f"{source}: {entry['category']}"))
        )
    )
    return CueSet(
        tuple((name, tuple(compiled[name])) for name in known),
        re.compile("|".join(screens["not_risk"]) or never),
        re.compile("|".join(screens["cross_reference"]) or never),
        re.compile("|".join(screens["reassurance"]) or never),
        re.compile("|".join(screens["boilerplate"]) or never),
        re.compile("|".join(screens["hedges"]) or never),
        re.compile("|".join(screens["clause_breaks"]) or never),
        re.compile("|".join(screens["conditions"]) or never),
        described,
        requires,
        maximum,
        minimum,
    )


def _limits(data: dict[str, object], source: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ``maximum`` and ``minimum`` bound words of a cues document's ``covenant_limits``."""
    limits = data.get("covenant_limits", {})
    if not isinstance(limits, dict):
        raise InputError(f"{source}: 'covenant_limits' must be an object")
    where = f"{source}: covenant_limits"
    words = {key: _strings(limits, key, where) for key in ("maximum", "minimum")}
    for patterns in words.values():
        for pattern in patterns:
            _compile(pattern, where)
    return tuple(words["maximum"]), tuple(words["minimum"])


@functools.cache
def bundled_cues() -> CueSet:
    """The bundled cues (package data); a user's file is read by
    :func:`preuve.loaders.load_cues` and parsed over them."""
    return parse_cues(json.loads(_CUES_FILE.read_text(encoding="utf-8")), str(_CUES_FILE))


def classify_sentence(text: str, cues: CueSet | None = None) -> tuple[str, int] | None:
    """The sentence's risk category and how many of ``cues`` matched (the bundled cues when
    None), or None. A user's cues (``preuve memo --cues FILE``) are given by the rules
    engine that carries them (:func:`preuve.memo.rules_engine.memo_rules_model`), never put
    in force for the process."""
    return (cues or bundled_cues()).classify(text)
