"""General statement extraction: (subject, attribute, value, context) from sentences of any
domain, each with the verbatim sentence it rests on.

A document is cut into sentences with their offsets (a wrapped line is joined, a list item
or a ``label : value`` line is a sentence of its own). In each sentence, values are read by
:mod:`preuve.synthesis.values` (quantities, money, counts) and here (dates of a date
attribute, licences, the state of an identified advisory). Each value gets:

- its *attribute*: the concept of the lexicon whose term is nearest in its clause (``latence
  p95`` = ``p95 latency`` = ``temps de réponse au 95e centile``), with the qualifiers the
  clause gives (``p95``); else the content words of the clause before it (their set is the
  key, so word order does not matter); else the kind of thing counted;
- its *subject*: the product named nearest before it in the sentence, else after it, else
  the ``label`` of a ``label : value`` line, else the product of the previous sentences of
  the paragraph, else the document's main product;
- its *context*: a period (``en 2026``), a modality (a target, a limit or a forecast is not a
  measurement) and, for a value reported from another source (``selon la fiche éditeur``),
  that source. Two values are compared only when their contexts agree.

Nothing here knows a dossier: every word list is in the lexicon.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from preuve.core.numbers import Locale
from preuve.core.patterns import compiled
from preuve.synthesis.lexicon import Concept, Lexicon, fold, fold1
from preuve.synthesis.sentences import LabelledSentence, mentions, sentences, table_sentences
from preuve.synthesis.values import Value, date_value, read_values

__all__ = [
    "LabelledSentence",
    "Read",
    "attribute_of",
    "distinguishing_words",
    "mentions",
    "product_mentions",
    "product_words",
    "sentences",
    "setup_context",
    "short_forms",
    "stem",
    "table_sentences",
    "term_pattern",
    "values_in",
    "with_branch",
    "year_context",
]


@lru_cache(maxsize=16)
def _boundary(lexicon: Lexicon) -> re.Pattern[str]:
    """Clause boundaries: punctuation, or a clause word of the lexicon ("et", "whereas")."""
    return re.compile(rf"[;:,()\[\]—–]|\s-\s|{lexicon.alternation('clause_words')}")


@lru_cache(maxsize=16)
def _year_context(lexicon: Lexicon) -> re.Pattern[str]:
    """A year after a period word of the lexicon ("en 2026", "by 2027")."""
    return re.compile(rf"{lexicon.alternation('period_words')}\s+(?P<y>(?:19|20)\d{{2}})\b")


_WORDS = re.compile(r"[^\W\d_][\w'’-]*")
# (not the last part of a longer version: "2.8.x" is no 8.x branch)
_BRANCH = re.compile(r"\b(?:branche\s+|branch\s+|v)?(?<![\d.])(\d+)\.x\b", re.IGNORECASE)
_MAX_LABEL_WORDS = 6


@dataclass(frozen=True, slots=True)
class Read:
    """One value read in one document, with everything a statement needs."""

    subject: str
    attribute: str
    attribute_key: tuple[Hashable, ...]
    value: str
    value_key: tuple[Hashable, ...]
    context: tuple[str, ...]
    text: str
    quote: str
    doc_id: str
    kind: str


_YEAR = re.compile(r"(?:19|20)\d{2}")
_TERM_GAP = 6  # words "..." stands for in a term ("support for every 2.x release now ends on")


def term_pattern(term: str) -> str:
    """A lexicon term as a regex: whole words, a plural or participle ending allowed, and
    ``...`` standing for up to six words or parenthesized asides ("support ... jusqu" =
    "support du GT-40 (firmware, pièces) jusqu")."""
    parts = [re.escape(p.strip()) for p in term.split("...")]
    body = rf"(?:\s+(?:\([^()]*\)|[^\s()]+)){{0,{_TERM_GAP}}}\s+".join(parts)
    return rf"(?<![a-z0-9]){body}(?:s|es|e|d|ed|ee|ees)?(?![a-z0-9])"


def _term_positions(folded: str, concepts: Sequence[Concept]) -> list[tuple[int, int, Concept]]:
    out = []
    for concept in concepts:
        for term in concept.terms:
            out += [
                (m.start(), m.end(), concept) for m in compiled(term_pattern(term)).finditer(folded)
            ]
    # a term inside a longer one is that one's ("erreur" in "taux d'erreur")
    return [
        t for t in out if not any(o[0] <= t[0] and t[1] <= o[1] and o[1] - o[0] > t[1] - t[0]
                                  for o in out)
    ]  # fmt: skip


def _fits(concept: Concept, value: Value) -> bool:
    if value.kind == "money":
        return concept.dimension == "money"  # an amount is a price, never a rate of things
    if concept.dimension is None:
        return value.kind not in {"date"} and value.unit not in concept.not_dimensions
    if concept.dimension == "money":
        return value.kind == "money"
    if concept.dimension in {"date", "licence"}:
        return value.kind == concept.dimension
    return value.unit == concept.dimension


def _clause(folded: str, start: int, end: int, lexicon: Lexicon) -> tuple[int, int]:
    """The clause around [start, end): from the boundary before to the boundary after."""
    boundary = _boundary(lexicon)
    left = max((m.end() for m in boundary.finditer(folded, 0, start)), default=0)
    after = boundary.search(folded, end)
    return left, after.start() if after else len(folded)


def _qualifiers(text: str, lexicon: Lexicon) -> tuple[str, ...]:
    keys = []
    for qualifier in lexicon.qualifiers:
        for match in qualifier.pattern.finditer(text):
            keys.append(qualifier.key.format(*match.groups()))
    return tuple(dict.fromkeys(keys))


def _content_words(text: str, lexicon: Lexicon, skip: frozenset[str]) -> list[str]:
    words = []
    for word in _WORDS.findall(text):
        # "d'inférence" is "inférence"; "jusqu'à" is two function words
        for part in re.split(r"['’]", word):
            folded = fold(part).strip("-")
            if (
                len(folded) < 3
                or folded in lexicon.stopwords
                or folded in lexicon.months
                or folded in skip
                or folded in lexicon.words("comparison_words")
            ):
                continue
            words.append(part)
    return words


def stem(word: str) -> str:
    folded = re.sub(r"^[ldcjmnst]'", "", fold(word))
    for suffix in (
        "ements",
        "ement",
        "ations",
        "ation",
        "ings",
        "ing",
        "ees",
        "ee",
        "ed",
        "es",
        "s",
        "e",
    ):
        if len(folded) - len(suffix) >= 4 and folded.endswith(suffix):
            return folded[: -len(suffix)]
    return folded


_TERM_GAP = 12  # characters between a term and the value it introduces ("ends in 2029")


def attribute_of(
    sentence: str, value: Value, others: Sequence[Value], *, lexicon: Lexicon,
    skip: frozenset[str], lang: str,
) -> tuple[str, tuple[Hashable, ...], tuple[str, ...]]:  # fmt: skip
    """(attribute shown, attribute key, modality context) of ``value`` in ``sentence``."""
    folded = fold1(sentence)
    masked = list(folded)
    for other in others:
        if other is not value:
            masked[other.start : other.end] = " " * (other.end - other.start)
    plain = "".join(masked)
    left, right = _clause(plain, value.start, value.end, lexicon)
    terms = [t for t in _term_positions(plain, lexicon.concepts) if _fits(t[2], value)]
    before = [t for t in terms if left <= t[0] < value.start]
    after = [t for t in terms if value.end <= t[0] < right]
    # a term of an earlier clause, unless a value of the same kind stands between (that
    # one is its value: "support runs until 30 May 2029, beyond the date of June 2025")
    # (a year alone is a period, "contracted in the first half of 2026", not such a value,
    # unless it follows the term: "supported to the end of 2029, ... before 2027")
    anywhere = [
        t for t in terms if t[1] <= value.start
        and not any(o is not value and o.kind == value.kind and t[1] <= o.start < value.start
                    and (not _YEAR.fullmatch(o.display) or o.start - t[1] <= _TERM_GAP)
                    for o in others)
    ]  # fmt: skip
    inside = [  # the unit may name the concept: "3,000 requests per second"
        (value.start, value.end, t[2])
        for t in _term_positions(folded[value.start : value.end], lexicon.concepts)
        if _fits(t[2], value)
    ]

    # a concept of the value's own dimension ("restore" for a duration) before a general one
    # ("volume"), then the nearest
    def rank(t: tuple[int, int, Concept]) -> tuple[bool, int]:
        return (t[2].dimension is not None, t[0])

    chosen = (max(before, key=rank) if before else None) or (
        min(after, key=lambda t: (t[2].dimension is None, t[0])) if after else None
    ) or (inside[0] if inside else None) or (
        max(anywhere, key=rank) if anywhere else None
    )  # fmt: skip
    if value.kind == "date":
        chosen = _date_concept(plain, value, others, terms=terms, chosen=chosen, lexicon=lexicon)
    # qualifiers between the concept's term and the value, or after it in the clause up to
    # the next term: "latence p99 de 38 ms pour un débit de ..." gives p99 to 38 ms only
    following = [t[0] for t in terms if t[0] >= max(value.end, chosen[1] if chosen else 0)]
    stop = min([right, *following])
    # a parenthesis right after the value qualifies it: "2,5 m (CEP 50)", "4 ms (p99)"
    aside = re.match(r"\s*\([^()]{1,40}\)", plain[value.end :])
    if aside is not None and stop <= value.end + aside.end():
        stop = value.end + aside.end()
    # (English writes the qualifier first: "p99 latency", "99th-percentile latency")
    begin = left
    if chosen and chosen[0] < value.start:
        earlier = [o.end for o in others if o is not value and o.end <= chosen[0]]
        earlier += [t[1] for t in terms if t[1] <= chosen[0]]
        begin = max([min(left, chosen[0]), chosen[0] - 30, *earlier])
    qualifier_text = plain[begin:stop]
    qualifiers = _qualifiers(qualifier_text, lexicon)
    modality = _modality(plain, left, right, value, lexicon)
    if chosen is not None:
        concept = chosen[2]
        extra: list[str] = []
        if concept.dimension == "money":
            # an amount is of one fee: "option API" and "abonnement" are two prices
            before_value = sentence[left : value.start]
            extra = [w.lower() for w in distinguishing_words(before_value, concept, lexicon, skip)]
        shown = " ".join([concept.label(lang), *qualifiers, *extra])
        return shown, ("concept", concept.id, qualifiers), modality
    bare = "".join(  # the sentence without the other values, nor digits
        " " if ch.isdigit() or any(o.start <= i < o.end for o in others if o is not value) else ch
        for i, ch in enumerate(sentence[: value.start])
    )
    window = bare[left:]
    if not _content_words(window, lexicon, skip):
        window = bare
    # a word that is only a qualifier ("median", "p95") names no quantity: the caller
    # gives the value the quantity it qualifies (a heading, the value before it)
    words = [w for w in _content_words(window, lexicon, skip) if not _qualifiers(fold(w), lexicon)]
    words = words[-5:]
    if words:
        key = ("words", frozenset(stem(w) for w in words), qualifiers, value.unit)
        return " ".join([*(w.lower() for w in words), *qualifiers]), key, modality
    if value.kind == "money":
        price = lexicon.concept("price")
        return (price.label(lang) if price else "price"), ("concept", "price", qualifiers), modality
    if value.kind == "quantity" and qualifiers:
        return " ".join(qualifiers), ("qualifier", value.unit, qualifiers), modality
    noun = value.unit.split(":", 1)[-1]
    shown = f"nombre de {noun}" if lang == "fr" else f"number of {noun}"
    return shown, ("unit", value.unit, qualifiers), modality


def _date_concept(
    plain: str, value: Value, others: Sequence[Value], *,
    terms: Sequence[tuple[int, int, Concept]], chosen: tuple[int, int, Concept] | None,
    lexicon: Lexicon,
) -> tuple[int, int, Concept] | None:  # fmt: skip
    """The date concept of a date value: a date right after a start or end verb ("les
    livraisons ... débuteront le 15 mars 2027", "support will end on") is the value of the
    last date term before it, whatever dates stand between; a date right after ``since``
    ("commandées depuis le 1er mars 2026 débuteront le ...", "commercialisé depuis mars
    2024") is when something began, never that value."""
    dated = [t for t in terms if t[2].dimension == "date" and t[1] <= value.start]
    verbs = lexicon.alternation("date_verbs")
    lead = plain[max(0, value.start - 40) : value.start]
    if dated and re.search(rf"{verbs}\s+(?:[\w']+\s+)?$", lead):
        return dated[-1]
    since = lexicon.alternation("since_words")
    if re.search(rf"{since}\s+(?:[\w']+\s+)?$", lead):
        # when something began: no delivery, deadline or end to come ("commercialisé
        # depuis mars 2024" is no end of sales; "commandées depuis le 1er mars 2026
        # débuteront le ..." is the delivery's order date)
        return None
    return chosen


_SIGN_BEFORE_WORDS = re.compile(r"(?<![<>=≤≥])[<>≤≥]=?(?=\s*[^\W\d_])")
_MARKER = re.compile(r"(?<![<>=≤≥])>(?![<>=])")


def _modality(plain: str, left: int, right: int, value: Value, lexicon: Lexicon) -> tuple[str, ...]:
    """The modalities the clause [left, right) gives ``value`` (a target, a forecast); the
    value's own words are no cue ("47 min" is no minimum). A bound ("jusqu'à") makes a count
    of things a limit; before a measured quantity, or a count per period (a rate: "up to 900
    parcels per hour"), it is the claim of it."""
    # a sign ("<", "≥") compares the figure right after it: a line's leading ">" (a quoted
    # e-mail's blockquote marker) is none, before words or, in a sentence the marker opens
    # (its lines joined: "passée avant le > 15 juin"), anywhere
    quoted = plain.lstrip().startswith(">")
    unvalued = " ".join(
        (_MARKER if quoted else _SIGN_BEFORE_WORDS).sub(" ", part)
        for part in (plain[left : value.start], plain[value.end : right])
    )
    modality = tuple(
        name
        for name, cues in lexicon.modality.items()
        if name not in lexicon.not_compared
        and any(compiled(rf"(?<![a-z]){re.escape(c)}(?![a-z])").search(unvalued) for c in cues)
    )
    bounded = any(
        re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", plain[left : value.start])
        for c in lexicon.words("bound_words")
    )
    if bounded and value.kind == "count" and not value.periods and "target" in lexicon.modality:
        modality = tuple(dict.fromkeys((*modality, "target")))
    return modality


def setup_context(label: str | None, lexicon: Lexicon) -> tuple[str, ...]:
    """The not-compared modalities (the conditions of a measurement) a sentence's label
    announces: "Conditions de mesure : ...", "Test setup: ..."."""
    if not label:
        return ()
    folded = fold(label)
    return tuple(
        name
        for name in lexicon.not_compared
        if any(re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", folded)
               for c in lexicon.modality.get(name, ()))
    )  # fmt: skip


def distinguishing_words(
    text: str, concept: Concept, lexicon: Lexicon, skip: frozenset[str] = frozenset()
) -> list[str]:
    """The content words of ``text`` that are none of ``concept``'s terms (what kind of
    price: "frais de mise en service", "option API")."""
    term_words = {stem(w) for t in concept.terms for w in re.split(r"[\s'’.-]+", t) if w}
    term_words |= {stem(w) for w in (lexicon.pricing or {}).get("not_items", ())}
    words = _content_words(text, lexicon, skip)
    return [w for w in words if stem(w) not in term_words and not w[0].isdigit()][-3:]


def year_context(sentence: str, value: Value, lexicon: Lexicon) -> tuple[str, ...]:
    """The period a value is about when its clause names one ("6 GPU en 2026")."""
    folded = fold1(sentence)
    left, right = _clause(folded, value.start, value.end, lexicon)
    years = [
        m.group("y")
        for m in _year_context(lexicon).finditer(folded, left, right)
        if not value.start <= m.start("y") < value.end
    ]
    return (years[0],) if years and value.kind != "date" else ()


def with_branch(product: str, sentence: str, document: str = "") -> str:
    """``Product 2.x`` when the sentence is about one version branch of the product, or,
    naming none, when its ``document`` names one branch only (a lifecycle notice "for all
    11.x releases" whose table then gives the dates)."""
    branches = {m.group(1) for m in _BRANCH.finditer(sentence)}
    if not branches:
        branches = {m.group(1) for m in _BRANCH.finditer(document)}
    return f"{product} {branches.pop()}.x" if len(branches) == 1 else product


def product_words(products: Sequence[str]) -> frozenset[str]:
    return frozenset(fold(w) for p in products for w in p.split())


def values_in(
    sentence: LabelledSentence, lexicon: Lexicon, locale: Locale, lang: str
) -> list[Value]:
    """Quantities, amounts and counts of a sentence, with dates of a date attribute."""
    found = read_values(sentence.text, lexicon, locale, lang)
    taken = [(v.start, v.end) for v in found]
    dates = [
        d
        for d in date_value(sentence.text, lang)
        if not any(s < d.end and d.start < e for s, e in taken)
    ]
    values = sorted([*found, *dates], key=lambda v: v.start)
    if sentence.table and sentence.cell:
        # a number of a column header ("timeouts (>10 s)") is no value of the cell
        at = sentence.text.rfind(sentence.cell)
        values = [v for v in values if v.end > at]
    return values


def short_forms(products: Sequence[str]) -> dict[str, str]:
    """A product's first word, when no other product starts with it (``Tessaly`` for
    ``Tessaly Broker``): documents often shorten a name so."""
    firsts = [p.split()[0] for p in products if len(p.split()) > 1]
    return {
        p.split()[0]: p
        for p in products
        if len(p.split()) > 1 and firsts.count(p.split()[0]) == 1 and len(p.split()[0]) >= 3
        and p.split()[0] not in products
    }  # fmt: skip


_MIN_TAIL_WORDS = 2


def _coded(word: str) -> bool:
    """A model code or a coined word ("AF-900", "GridBlock"): a digit, or a capital inside."""
    return any(c.isdigit() for c in word) or any(c.isupper() for c in word[1:])


def _tails(names: Sequence[tuple[str, str]]) -> dict[str, str]:
    """A name of three words or more without its first one, the brand documents drop
    ("Miléa E3" for "Tarnac Miléa E3"), when it names one product only; of two words, when
    the second is a model code or a coined word ("AF-900" for "Orla AF-900", "GridBlock"
    for "Voltaris GridBlock")."""
    tails: dict[str, set[str]] = {}
    for name, product in names:
        words = name.split()
        if len(words) > _MIN_TAIL_WORDS or (len(words) == _MIN_TAIL_WORDS and _coded(words[1])):
            tails.setdefault(" ".join(words[1:]), set()).add(product)
    written = {n for n, _ in names}
    return {t: ps.pop() for t, ps in tails.items() if len(ps) == 1 and t not in written}


def product_mentions(
    products: Sequence[str], text: str, aliases: Mapping[str, str] | None = None
) -> list[tuple[int, int, str]]:
    """(start, end, product) of every mention of a product, by its name, one of its
    ``aliases`` (alias -> product) or its short form (a short form followed by another
    capitalized word names something else: ``Tessaly Software`` is not ``Tessaly
    Broker``); longest names win overlaps."""
    found: list[tuple[int, int, str]] = []
    names = [(p, p) for p in products] + [(a, p) for a, p in (aliases or {}).items()]
    names += list(_tails(names).items())
    for name, product in sorted(names, key=lambda n: -len(n[0])):
        for start in mentions(name, text):
            end = start + len(name)
            if not any(s < end and start < e for s, e, _ in found):
                found.append((start, end, product))
    for short, product in short_forms(products).items():
        pattern = rf"(?<![\w-]){re.escape(short)}(?![\w-])(?!\s+[A-ZÀ-Ý])"
        for m in re.finditer(pattern, text):
            if not any(s < m.end() and m.start() < e for s, e, _ in found):
                found.append((m.start(), m.end(), product))
    return sorted(found)
