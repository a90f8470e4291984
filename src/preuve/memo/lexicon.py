"""What statement lines and headings are called, in French and English reports.

The statement parser relies on general cues only: a heading names the statement, a header
row gives the years, and a row's label is looked up here. Labels are compared after
:func:`normalize_label` (NFKC, case-folded, typographic apostrophes made plain, punctuation
and hyphens turned into spaces, trailing note references dropped); each rule is a list of
regular expressions that must match the whole normalized label. A label that matches no
rule is kept as an unmapped row, never guessed.

The rules are declared data (``data/concepts.json``: a concept, the statements it counts
in, its label patterns); a user's mapping file in the same format (read by
:func:`preuve.loaders.load_mapping`, parsed by :func:`parse_mapping`) is tried before them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from preuve.core.errors import InputError

__all__ = [
    "COMPONENT_LABELS",
    "DERIVED",
    "DERIVED_EXCLUDE",
    "LEXICON",
    "SENTENCE_RULES",
    "LabelRule",
    "Statement",
    "heading_kind",
    "lookup_label",
    "normalize_label",
    "parse_mapping",
    "unit_of",
]


class Statement(StrEnum):
    """The three statements whose lines are extracted."""

    INCOME = "income"
    BALANCE = "balance"
    CASHFLOW = "cashflow"


@dataclass(frozen=True, slots=True)
class LabelRule:
    """A field key, the statements its label counts in (preferred first), and its labels."""

    key: str
    statements: tuple[Statement, ...]
    patterns: tuple[str, ...]
    # A rule of the mapping's "sentences" section: its patterns are the subjects of a note's
    # sentence (memo/note_sentences.py), never a row label.
    sentence: bool = False

    def matches(self, normalized: str) -> bool:
        return not self.sentence and any(re.fullmatch(p, normalized) for p in self.patterns)


_OWNERS = r"(?:stockholders|shareholders|shareowners)"
_CONCEPTS_FILE = Path(__file__).with_name("data") / "concepts.json"


def parse_mapping(data: object, source: str) -> tuple[LabelRule, ...]:
    """Label rules from a mapping document (``{"rules": [{"concept", "statements",
    "labels"}]}``, see ``data/concepts.json``); a malformed document raises
    :class:`~preuve.core.errors.InputError` naming ``source``."""
    rules = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(rules, list):
        raise InputError(f"{source}: a concept mapping needs a list of rules under 'rules'")
    parsed: list[LabelRule] = []
    kinds = {s.value: s for s in Statement}
    for number, rule in enumerate(rules, start=1):
        if not isinstance(rule, dict):
            raise InputError(f"{source}: rule {number} is not an object")
        concept, statements, labels = (
            rule.get("concept"),
            rule.get("statements"),
            rule.get("labels"),
        )
        if not isinstance(concept, str) or not concept:
            raise InputError(f"{source}: rule {number} needs a 'concept' name")
        if (
            not isinstance(statements, list)
            or not statements
            or any(s not in kinds for s in statements)
        ):
            raise InputError(
                f"{source}: rule {number} ({concept}) needs 'statements' among {', '.join(kinds)}"
            )
        if (
            not isinstance(labels, list)
            or not labels
            or not all(isinstance(x, str) for x in labels)
        ):
            raise InputError(f"{source}: rule {number} ({concept}) needs a list of 'labels'")
        _check_patterns(labels, f"{source}: rule {number} ({concept}): bad label pattern")
        parsed.append(LabelRule(concept, tuple(kinds[s] for s in statements), tuple(labels)))
    assert isinstance(data, dict)  # rules were found under it
    return tuple(parsed) + _sentence_rules(data, source)


def _check_patterns(patterns: list[str], refused: str) -> None:
    """Every pattern of a rule compiles; else the one-line error ``refused`` names it."""
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as error:
            raise InputError(f"{refused} {pattern!r}: {error}") from None


def _sentence_rules(data: dict[str, object], source: str) -> tuple[LabelRule, ...]:
    """The rules of a mapping's ``sentences`` section (``{"rules": [{"concept",
    "subjects"}]}``): balance-sheet amounts a note states in a sentence."""
    section = data.get("sentences", {})
    rules = section.get("rules", []) if isinstance(section, dict) else None
    if not isinstance(rules, list):
        raise InputError(f"{source}: 'sentences' needs a list of rules under 'rules'")
    parsed: list[LabelRule] = []
    for number, rule in enumerate(rules, start=1):
        concept = rule.get("concept") if isinstance(rule, dict) else None
        subjects = rule.get("subjects") if isinstance(rule, dict) else None
        if not isinstance(concept, str) or not concept:
            raise InputError(f"{source}: sentence rule {number} needs a 'concept' name")
        if (
            not isinstance(subjects, list)
            or not subjects
            or not all(isinstance(x, str) and x for x in subjects)
        ):
            raise InputError(f"{source}: sentence rule {number} ({concept}) needs 'subjects'")
        _check_patterns(subjects, f"{source}: sentence rule {number} ({concept}): bad subject")
        parsed.append(LabelRule(concept, (Statement.BALANCE,), tuple(subjects), sentence=True))
    return tuple(parsed)


_BUNDLED = json.loads(_CONCEPTS_FILE.read_text(encoding="utf-8"))
_MAPPING = parse_mapping(_BUNDLED, str(_CONCEPTS_FILE))
LEXICON: tuple[LabelRule, ...] = tuple(r for r in _MAPPING if not r.sentence)
# The bundled mapping's note sentences (see memo/note_sentences.py): a user's come first.
SENTENCE_RULES: tuple[LabelRule, ...] = tuple(r for r in _MAPPING if r.sentence)
# (concept, statement, concepts among its parts) for totals printed without a label.
DERIVED: tuple[tuple[str, Statement, frozenset[str]], ...] = tuple(
    (str(d["concept"]), Statement(s), frozenset(d["parts_include"]))
    for d in _BUNDLED.get("derived", [])
    for s in d["statements"]
)
# What a derived concept's parts must not include (``parts_exclude``), per concept.
DERIVED_EXCLUDE: dict[str, frozenset[str]] = {
    str(d["concept"]): frozenset(d.get("parts_exclude", [])) for d in _BUNDLED.get("derived", [])
}

# Labels that name a share of their concept (``part du groupe``): components, see concepts.py.
COMPONENT_LABELS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(rf"\b(?:{p})\b") for p in _BUNDLED.get("components", {}).get("labels", [])
)

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_NOTE_SUFFIX = re.compile(r"(?:\s+(?:notes?\s+)?\d{1,2}(?:\s*[.,]\s*\d{1,2})?[a-z]?)+$")
_NUMBERING = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2})*\.?|[ivx]{1,4}\.|[a-z]\))\s+")
_PARENTHETICAL = re.compile(r"\([^()]*\)")
# Items numbered by roman numerals, as Schedule III prints them ("IX Profit for the year"):
# capitals before a capitalised word or a parenthesis.
_ROMAN = re.compile(r"^(?:[IVX]{1,4}|[IVX]{1,4}\.)\s+(?=[A-Z(])")


def normalize_label(label: str) -> str:
    """Comparable form of a row label: ``Chiffre d’affaires (note 3) :`` → ``chiffre
    d'affaires``; ``Cash and cash equivalents, end of year`` → ``cash and cash equivalents
    end of year``."""
    text = _ROMAN.sub("", unicodedata.normalize("NFKC", label).strip())
    text = _NUMBERING.sub("", text.translate(_APOSTROPHES).casefold())
    text = re.sub(r"[^\w']+", " ", text).replace("_", " ")
    text = re.sub(r"'(?=\s|$)|(?<=\s)'|^'", " ", text)  # possessives: stockholders' equity
    text = " ".join(text.split())
    return _NOTE_SUFFIX.sub("", text).strip("' ")


def lookup_label(
    label: str, statement: Statement, rules: tuple[LabelRule, ...] = LEXICON
) -> LabelRule | None:
    """The rule whose labels match ``label`` in ``statement``: first as written, then with
    parenthetical asides removed (``Net cash (used in) provided by ...``)."""
    candidates = [normalize_label(label), normalize_label(_PARENTHETICAL.sub(" ", label))]
    for candidate in dict.fromkeys(candidates):
        for rule in rules:
            if statement in rule.statements and rule.matches(candidate):
                return rule
    return None


_QUALIFIERS = r"(?:(?:condensed|consolidated|combined|interim|unaudited|abridged)\s+)*"
_HEADINGS: tuple[tuple[Statement | None, re.Pattern[str]], ...] = (
    (
        Statement.INCOME,
        re.compile(
            rf"{_QUALIFIERS}(?:statements?\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings)"
            # IAS 1's name, alone or with "and other comprehensive income" after it
            # (and the Indian Schedule III "statement of profit and loss")
            r"|statements?\s+of\s+(?:consolidated\s+)?profit\s+(?:or|and)\s+loss"
            r"|income\s+statements?|profit\s+and\s+loss(?:\s+account)?"
            r"|comptes?\s+de\s+résultats?|état\s+du\s+résultat(?!\s+global))\b"
        ),
    ),
    (
        Statement.BALANCE,
        re.compile(
            rf"{_QUALIFIERS}(?:balance\s+sheets?|statements?\s+of\s+financial\s+"
            r"(?:position|condition)|bilans?|état\s+de\s+la\s+situation\s+financière)\b"
        ),
    ),
    (
        Statement.CASHFLOW,
        re.compile(
            rf"{_QUALIFIERS}(?:statements?\s+of\s+(?:consolidated\s+)?cash\s+flows?"
            r"|cash\s+flows?\s+statements?|tableaux?\s+des?\s+flux\s+de\s+trésorerie"
            r"|états?\s+des?\s+flux\s+de\s+trésorerie|tableau\s+de\s+financement)\b"
        ),
    ),
    # Headings that end a statement without starting one of the three.
    (
        None,
        re.compile(
            rf"{_QUALIFIERS}(?:statements?\s+of\s+(?:comprehensive|changes|stockholders|"
            r"shareholders|shareowners|equity)|comprehensive\s+income\s+statements?"
            rf"|{_OWNERS}\s+equity\s+statements?|notes\s+to\s+(?:the\s+)?"
            r"(?:condensed\s+)?(?:consolidated\s+)?financial\s+statements"
            r"|annexes?(?:\s+aux\s+comptes)?|notes\s+annexes|tableau\s+de\s+variation"
            r"|variation\s+des\s+capitaux\s+propres|état\s+du\s+résultat\s+global)\b"
        ),
    ),
)
_MAX_HEADING_WORDS = 14
_MAX_PREFIX_WORDS = 5
_PROSE_WORDS = frozenset(
    {"the", "of", "to", "in", "on", "and", "from", "for", "with", "see", "our", "these"}
    | {"la", "le", "les", "de", "du", "des", "au", "aux", "dans", "sur", "et", "en", "par"}
)


def heading_kind(line: str) -> tuple[bool, Statement | None]:
    """Whether ``line`` is a statement heading, and which statement it opens (None for a
    heading that closes one, such as the notes). Headings are short lines that start with
    the statement's name and are not sentences."""
    text = " ".join(unicodedata.normalize("NFKC", line).translate(_APOSTROPHES).split())
    if not text or len(text.split()) > _MAX_HEADING_WORDS or text.endswith((".", ";", ",")):
        return False, None
    text = _NUMBERING.sub("", text.casefold())
    # The name may follow a short prefix naming the company ("NIKE, Inc. Consolidated ..."),
    # never a phrase of prose ("... to the consolidated statements of income").
    starts = [0, *[m.end() for m in re.finditer(r"\s+", text)][:_MAX_PREFIX_WORDS]]
    for start in starts:
        if set(text[:start].split()) & _PROSE_WORDS:
            break
        for statement, pattern in _HEADINGS:
            if pattern.match(text, start):
                return True, statement
    return False, None


_UNITS: tuple[tuple[re.Pattern[str], str, int], ...] = (
    (re.compile(r"milliards? d'euros|\bmd€|\bmds? ?€|\bmdeur\b", re.I), "Md€", 10**9),
    (re.compile(r"millions? d'euros|\bm€|\bmeur\b|en millions", re.I), "M€", 10**6),
    (re.compile(r"milliers d'euros|\bk€|\bkeur\b|en milliers|€ ?'000(?!\d)", re.I), "k€", 10**3),
    (re.compile(r"£ ?(?:bn|billions?)\b", re.I), "£ billions", 10**9),
    (re.compile(r"£ ?(?:m|millions?)\b", re.I), "£ millions", 10**6),
    (re.compile(r"£ ?(?:k|thousands?|'?000)(?!\d)", re.I), "£ thousands", 10**3),
    (re.compile(r"in billions|\(billions|\$ ?billions|billions of", re.I), "billions", 10**9),
    (re.compile(r"in millions|\(millions|\$ ?millions|millions of", re.I), "millions", 10**6),
    # "$'000" heads a column in thousands (Australian, Irish, UK reports)
    (
        re.compile(r"in thousands|\(thousands|\$ ?thousands|thousands of|\$ ?'000(?!\d)", re.I),
        "thousands",
        10**3,
    ),
    # Whole euros, stated last: a scaled unit anywhere in the text wins.
    (re.compile(r"\b(?:en|in) euros\b|\(euros\)", re.I), "€", 1),
)


def unit_of(text: str) -> tuple[str, int] | None:
    """The amount unit stated in ``text`` (``k€``, ``M€``, ``millions`` ...) and its scale,
    or None. English units get their currency when ``$`` is written: ``$ millions``."""
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    for pattern, unit, scale in _UNITS:
        if pattern.search(text):
            dollar = _DOLLAR.search(text)
            if unit in {"billions", "millions", "thousands"} and dollar:
                return f"{dollar.group('prefix') or ''}$ {unit}", scale
            return unit, scale
    return None


# A dollar keeps the country letters printed before it (S$, A$, NZ$, HK$, C$: not the US
# dollar a bare "$" reads as); "US$" is the US dollar, written "$".
_DOLLAR = re.compile(r"(?:(?<![A-Za-z])(?:US|(?P<prefix>[A-Z]{1,3})))?\$")
