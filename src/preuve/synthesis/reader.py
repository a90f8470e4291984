"""The rules sub-agent's reading of one document: every statement it makes, with its quote.

Values come from :mod:`preuve.synthesis.statements` (quantities, money, counts, dates of a
date attribute) and from the two readers here: licences (a licence name of the lexicon, or
an acronym, next to a licence word; the kind alone when stated as the product's licence;
``une licence commerciale`` is a requirement and ``n'est plus sous licence`` the past) and
the state of an identified advisory (``CVE-2026-1234`` with a status word of the lexicon,
the last one written winning; a state written in the sentence after an id without one).

A value reported from another document (``selon la fiche éditeur``, ``according to doc-02``)
is attributed to that document when the dossier's catalogue identifies it (by id, or by its
source type with its month or title words): the original speaks for itself, so the
reporting document does not become a second source of a value it only quotes. A reported
value whose origin is not identified keeps its reporting document, in a context of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from preuve.core.numbers import Locale
from preuve.synthesis.lexicon import Concept, Lexicon, fold, fold1, normalize_type_name
from preuve.synthesis.price_items import free_attribute, part_of, price_of
from preuve.synthesis.pricing import charged_item, free_price
from preuve.synthesis.statements import (
    Read,
    Sentence,
    attribute_of,
    product_mentions,
    product_words,
    sentences,
    setup_context,
    table_sentences,
    term_pattern,
    values_in,
    with_branch,
    year_context,
)
from preuve.synthesis.values import Value

__all__ = [
    "CatalogueEntry",
    "document_reads",
    "licence_values",
    "main_product",
    "product_at",
    "status_of",
]

# "corrigée dans le firmware NV-200 version 2.14.1", "fixed in 5.8.3": a dotted version
# within a few words after the state
_VERSION = re.compile(
    r"\s*(?:[^\s.;]+\s+){0,6}?v?(?P<v>\d+(?:\.\d+){1,3})(?!\d|\.\d)", re.IGNORECASE
)
_ACRONYM = re.compile(
    r"^\s*(?::\s*)?(?:de\s+|of\s+)?(?P<n>[A-Z][A-Z0-9]{1,7}(?:[ -]?v?\d+(?:\.\d+)?)?)\b"
)


@lru_cache(maxsize=16)
def _licence_grammar(lexicon: Lexicon) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(before a licence word: a requirement or the past; before it: the product's own)."""
    not_current = lexicon.alternation("not_current_licence")
    under = lexicon.alternation("licence_of")
    return (
        re.compile(rf"{not_current}(?:\s+\w+)?\s+(?:{under}\s+)?$"),
        re.compile(rf"{under}\s*$"),
    )


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """What the reader knows of every document of the dossier (metadata only)."""

    doc_id: str
    title: str
    date: str
    source_type: str


def product_at(
    products: Sequence[str], text: str, aliases: Mapping[str, str] | None = None
) -> list[tuple[int, str]]:
    """(offset, product) for every product mention, longest names winning overlaps."""
    return [(s, p) for s, _, p in product_mentions(products, text, aliases)]


def main_product(
    products: Sequence[str], title: str, text: str, aliases: Mapping[str, str] | None = None
) -> str | None:
    """The product a document names most (the title counting too), first listed on ties."""
    at = [p for _, p in product_at(products, f"{title}\n{text}", aliases)]
    named = [(c, -products.index(p), p) for p in products if (c := at.count(p))]
    return max(named)[2] if named else None


def _nominal(label: str | None) -> str | None:
    if label is None or len(label.split()) > 6 or not re.search(r"[^\W\d]", label):
        return None
    return label


# --- licences and statuses -------------------------------------------------------------------


def _licence_terms(lexicon: Lexicon) -> tuple[str, ...]:
    concept = lexicon.concept("licence")
    return concept.terms if concept else ("licence", "license")


def _find(folded: str, word: str, start: int = 0) -> list[int]:
    pattern = rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])"
    return [m.start() for m in re.compile(pattern).finditer(folded, start)]


def _licence_at(
    sentence: str, folded: str, span: tuple[int, int], spans: Sequence[tuple[int, int]],
    lexicon: Lexicon,
) -> Value | None:  # fmt: skip
    """The licence a licence word at ``span`` states, if it states a current one."""
    ts, te = span
    previous = max((e for _, e in spans if e <= ts), default=0)
    boundary = max((m.end() for m in re.finditer(r"[,;()]", folded[:ts])), default=0)
    clause = folded[max(previous, boundary) : ts]
    not_current, licence_of = _licence_grammar(lexicon)
    if not_current.search(folded[:ts]) or any(_past(clause, c, lexicon) for c in lexicon.past_cues):
        return None  # "previously under MIT", "converts to Apache 2.0 after four years"

    def named(near: Callable[[int, int], bool]) -> str | None:
        hits = [
            (abs(p - te), aliases[0])
            for aliases in lexicon.licence_names
            for alias in aliases[1:]
            for p in _find(folded, alias)
            if near(p, p + len(alias))
        ]
        return min(hits)[1] if hits else None

    kinds_end = te + _kinds_length(folded[te:], lexicon)
    acronym = _ACRONYM.match(sentence[kinds_end:])
    # a name after the word ("licence MIT"), or containing it ("Business Source License"),
    # else an acronym after it ("licence TSL"), else a name just before ("MIT license")
    canonical = named(lambda p, e: te - 1 <= p <= kinds_end + 25 or p <= ts < te <= e)
    if canonical is None and acronym is not None:
        name = acronym.group("n")
        if name.split()[0].rstrip("s") not in lexicon.generic_acronyms:
            return Value("licence", ts, te, name, ("licence", fold(name)))
    canonical = canonical or named(lambda p, e: ts - 3 <= e <= ts + 1)
    if canonical is not None:
        return Value("licence", ts, te, canonical, ("licence", fold(canonical)))
    if licence_of.search(folded[:ts]) or folded[:ts].strip() == "":
        kinds = _kinds(folded[te:], lexicon)
        if kinds:
            written = " ".join(sentence[te : te + _kinds_length(folded[te:], lexicon)].split())
            return Value("licence", ts, te, written.strip(" :"),
                         ("licence-kind", " ".join(kinds)))  # fmt: skip
    return None


def _past(clause: str, cue: str, lexicon: Lexicon) -> bool:
    """True when ``cue`` makes the licence after it a past one; "from X to Y" leaves Y the
    current one (the cue governs X, and a "to" stands between)."""
    at = clause.find(cue)
    if at < 0:
        return False
    starts_a_change = cue.rsplit(maxsplit=1)[-1] in {"from", "de", "du", "quitte"}
    change = re.compile(lexicon.alternation("change_words"))
    return not (starts_a_change and change.search(clause, at + len(cue)))


def licence_values(sentence: str, lexicon: Lexicon) -> list[Value]:
    """The current licences a sentence states (see the module docstring)."""
    folded = fold1(sentence)
    spans = sorted(
        (ts, ts + len(term)) for term in _licence_terms(lexicon) for ts in _find(folded, term)
    )
    out = [v for span in spans if (v := _licence_at(sentence, folded, span, spans, lexicon))]
    return sorted({(v.start, v.display): v for v in out}.values(), key=lambda v: v.start)


def _kinds_length(rest: str, lexicon: Lexicon) -> int:
    return _kinds_scan(rest, lexicon)[1]


def _kinds(rest: str, lexicon: Lexicon) -> list[str]:
    return _kinds_scan(rest, lexicon)[0]


def _kinds_scan(rest: str, lexicon: Lexicon) -> tuple[list[str], int]:
    found: list[str] = []
    cursor = 0
    while True:
        tail = rest[cursor:]
        lead = len(tail) - len(tail.lstrip(" :"))
        tail = tail[lead:]
        if tail.startswith(("et ", "and ")):
            lead += tail.index(" ") + 1
            tail = tail[tail.index(" ") + 1 :]
        hit = next(
            ((group[0], alias) for group in lexicon.licence_kinds for alias in group[1:]
             if tail.startswith(alias) and not tail[len(alias):len(alias) + 1].isalpha()),
            None,
        )  # fmt: skip
        if hit is None:
            return found, cursor
        found.append(hit[0])
        cursor += lead + len(hit[1])


def status_of(
    sentence: str, lexicon: Lexicon, lang: str, groups: Sequence[str] = ()
) -> Value | None:
    """The state a sentence gives (the last one written wins), or None; with ``groups``,
    only the states of those groups (an advisory is fixed or not, whatever else is
    "available")."""
    folded = fold1(sentence)
    hits: list[tuple[int, int, str]] = []
    for group, words in lexicon.statuses.items():
        if groups and group not in groups:
            continue
        for word in words:
            hits += [(p, -len(word), group) for p in _find(folded, word)]
    hits = [h for h in hits if not _conditional(folded, h[0], lexicon)]
    if not hits:
        return None
    # at one place the longest word wins ("aucun correctif" over "correctif")
    kept = [h for h in sorted(hits) if not any(o[0] < h[0] < o[0] - o[1] for o in hits)]
    start, negative_length, group = max(kept, key=lambda h: (h[0], -h[1]))
    end = start - negative_length
    version = _VERSION.match(sentence[end:]) if group in lexicon.advisory_states else None
    written = " ".join(sentence[start:end].split())
    if version is not None:
        shown = " ".join(sentence[start : end + version.end()].split())
        return Value("status", start, end, shown, ("status", group, version.group("v")))
    return Value("status", start, end, written, ("status", group, None))


_OBJECT_LEAD = re.compile(r"\s+(?:for|pour|with|avec|to|aux|au|a)(?=\s)")
_OBJECT_END = re.compile(r"[,;:.()]|\s(?:and|et|but|mais|with|avec|for|pour|since|depuis)\s")


def property_values(sentence: str, lexicon: Lexicon, lang: str) -> list[tuple[Value, str]]:
    """(yes or no, what it is about) for a yes/no property a sentence states: "X holds a SOC
    2 Type II attestation" is (yes, "SOC 2 Type II attestation")."""
    folded = fold1(sentence)
    yes, no = (lexicon.yes_no or {}).get(lang, ("yes", "no"))
    hits = [(p, c, no) for c in lexicon.deny_cues for p in _find(folded, c)]
    taken = [(p, p + len(c)) for p, c, _ in hits]
    hits += [
        (p, c, yes) for c in lexicon.affirm_cues for p in _find(folded, c)
        if not any(s <= p < e or s < p + len(c) <= e for s, e in taken)
    ]  # fmt: skip
    out: list[tuple[Value, str]] = []
    for position, cue, answer in sorted(hits, key=lambda h: (h[0], -len(h[1]))):
        start = position + len(cue)
        if out and start <= out[-1][0].end:
            continue
        # "certified for X", "compatible avec X": the object follows its preposition
        lead = _OBJECT_LEAD.match(folded, start)
        start = lead.end() if lead else start
        stop = _OBJECT_END.search(folded, start)
        words = sentence[start : stop.start() if stop else len(sentence)].split()
        words = [w for w in words if fold(w) not in lexicon.words("articles")][:8]
        if not words or _conditional(folded, position, lexicon):
            continue
        about = " ".join(words).strip(" .")
        out.append((Value("property", position, start, answer, ("property", answer)), about))
    for cue in lexicon.passive_cues:
        for position in _find(folded, cue):
            begin = max((m.end() for m in re.finditer(r"[,;:.]", folded[:position])), default=0)
            written = sentence[begin:position].split()
            words = [w for w in written if fold(w) not in lexicon.words("articles")][-8:]
            if words and not _conditional(folded, position, lexicon):
                value = Value("property", position, position + len(cue), yes, ("property", yes))
                out.append((value, " ".join(words).strip(" .")))
    return out


def _conditional(folded: str, position: int, lexicon: Lexicon) -> bool:
    """True when the clause of ``position`` opens with a condition ("until a patched ...")."""
    start = max((m.end() for m in re.finditer(r"[,;.:()]", folded[:position])), default=0)
    clause = folded[start:position]
    return any(
        re.search(rf"(?<![a-z']){re.escape(cue)}(?![a-z])", clause)
        for cue in lexicon.condition_cues
    )


def _advisories(sentence: str, lexicon: Lexicon, lang: str) -> list[tuple[str, Value]]:
    ids = [m.group() for p in lexicon.id_patterns for m in p.finditer(sentence)]
    state = status_of(sentence, lexicon, lang, lexicon.advisory_states) if ids else None
    return [] if state is None else [(i, state) for i in dict.fromkeys(ids)]


# --- reported values -------------------------------------------------------------------------


def _mentioned_types(clause: str, lexicon: Lexicon) -> set[str]:
    name = normalize_type_name(clause)
    found = {
        canonical
        for alias, canonical in lexicon.source_aliases.items()
        if re.search(rf"(?<![a-z]){re.escape(alias)}(?![a-z])", name)
    }
    return found | {
        t for t in lexicon.source_ranks if re.search(rf"(?<![a-z]){re.escape(t)}\b", name)
    }


def _names_id(folded: str, doc_id: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(doc_id.lower())}(?![\w-])", folded) is not None


def _identify(
    clause: str, types: set[str], catalogue: Sequence[CatalogueEntry], lexicon: Lexicon, own: str
) -> str | None:
    folded = fold(clause)
    literal = [e.doc_id for e in catalogue if e.doc_id != own and _names_id(folded, e.doc_id)]
    if len(literal) == 1:
        return literal[0]
    months = {m for m in lexicon.months if re.search(rf"\b{m}\b", folded)}
    clause_words = set(re.findall(r"[a-z]{4,}", folded))
    scored = []
    for entry in catalogue:
        if entry.doc_id == own:
            continue
        score = 2 * (normalize_type_name(entry.source_type) in types)
        score += 2 * bool(_month_of(entry.date) & months)
        score += len(set(re.findall(r"[a-z]{4,}", fold(entry.title))) & clause_words) // 2
        scored.append((score, entry.doc_id))
    best = max((score for score, _ in scored), default=0)
    winners = [doc for score, doc in scored if score == best]
    return winners[0] if best >= 4 and len(winners) == 1 else None


def _origin(
    sentence: str, value: Value, catalogue: Sequence[CatalogueEntry], lexicon: Lexicon, own: str
) -> tuple[str | None, str | None]:
    """(the document a value is reported from, when the catalogue identifies it; else a
    context naming the kind of source it is reported from), or (None, None) when the value
    is the document's own. A value is reported when its clause holds an attribution cue
    followed by a source, or names a source while another clause of the sentence names
    another one (two sources side by side)."""
    clause = _clause_of(sentence, value, lexicon)
    folded = fold(clause)
    cue = next(
        (m for c in lexicon.attribution_cues
         if (m := re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", folded))),
        None,
    )  # fmt: skip
    own_type = next((e.source_type for e in catalogue if e.doc_id == own), "")
    # a document naming its own type ("this quote is valid 90 days") reports nothing
    types = _mentioned_types(clause, lexicon) - {normalize_type_name(own_type), own_type}
    literal = any(_names_id(folded, e.doc_id) for e in catalogue if e.doc_id != own)
    side_by_side = bool(types) and len(_clauses_with_sources(sentence, lexicon, own_type)) >= 2
    if not (literal or (cue is not None and types) or side_by_side):
        return None, None
    origin = _identify(clause, types, catalogue, lexicon, own)
    if origin is not None:
        return origin, None
    return None, "reported " + " ".join(sorted(types))


def _clauses_with_sources(sentence: str, lexicon: Lexicon, own_type: str) -> list[str]:
    parts = re.split(_strong(lexicon).pattern, fold1(sentence))
    own = {normalize_type_name(own_type), own_type}
    return [p for p in parts if _mentioned_types(p, lexicon) - own]


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")  # fmt: skip
_MOIS = ("janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre",
         "octobre", "novembre", "decembre")  # fmt: skip


def _month_of(day: str) -> set[str]:
    """The month of an ISO date, named in both languages."""
    try:
        index = int(day[5:7]) - 1
    except ValueError:
        return set()
    return {_MOIS[index], _MONTHS[index]} if 0 <= index < 12 else set()


# --- one document ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Doc:
    doc_id: str
    title: str
    text: str
    main: str | None


def _subject(
    position: int, sentence: Sentence, products: Sequence[str], fallback: str | None,
    attribute: str, *, aliases: Mapping[str, str], fallback_is_title: bool = True,
) -> str | None:  # fmt: skip
    # a product named in an aside ("support (X and firmware) : until ...") is what the
    # value covers, not whose it is
    asides = [m.span() for m in re.finditer(r"\([^()]*\)", sentence.text)]
    named = [
        (s, p) for s, p in product_at(products, sentence.text, aliases)
        if not any(a <= s < b for a, b in asides) or _inside(position, asides)
    ]  # fmt: skip
    before = [p for s, p in named if s <= position]
    after = [p for s, p in named if s > position]
    # a "label : value" line names its subject ("Parc GPU : 12 GPU en 2027"), unless it is
    # one word in a document about a product: a heading ("Sécurité : CVE-... corrigée")
    label = _nominal(sentence.label)
    if label is not None and not (sentence.table or fallback_is_title or " " in label.strip()):
        label = None
    if label is not None and fold(label) == fold(attribute):
        label = None  # "CVE-2026-1 : fixed": the label is what the value is about, not who
    if label is not None and asides and any(a < len(label) for a, _ in asides):
        label = None  # "support (X and firmware) : ...": a component described, not who
    return (before[-1] if before else None) or (after[0] if after else None) or label or fallback


def _inside(position: int, spans: Sequence[tuple[int, int]]) -> bool:
    """True when ``position`` is inside one of ``spans``."""
    return any(a <= position < b for a, b in spans)


def _pending_states(
    pending: list[str], sentence: str, lexicon: Lexicon, lang: str
) -> list[tuple[str, Value]]:
    """The state a sentence gives to advisories named just before it without one."""
    if not pending or any(p.search(sentence) for p in lexicon.id_patterns):
        return []
    state = status_of(sentence, lexicon, lang, lexicon.advisory_states)
    return [] if state is None else [(i, state) for i in pending]


_Attributed = tuple[Value, str | None, str, tuple[Hashable, ...], tuple[str, ...]]


def _inherit_qualifiers(read: list[_Attributed], lexicon: Lexicon, lang: str) -> list[_Attributed]:
    """Values of one concept in one sentence share its qualifiers when only some are written
    with them: "the brief gives 4 ms at p99, whereas we measured 11.5 ms" (both p99)."""
    out = []
    for value, subject, attribute, key, modality in read:
        shown, inherited = attribute, key
        if key[0] == "concept" and not key[2]:
            given = {k[2] for _, _, _, k, _ in read if k[:2] == key[:2] and k[2]}
            concept = lexicon.concept(str(key[1]))
            if len(given) == 1 and concept is not None:
                qualifiers = given.pop()
                inherited = (*key[:2], qualifiers)
                written = qualifiers if isinstance(qualifiers, tuple) else ()
                shown = " ".join([concept.label(lang), *(str(q) for q in written)])
        out.append((value, subject, shown, inherited, modality))
    return out


def _strip_qualifiers(shown: str, lexicon: Lexicon) -> str:
    kept = [w for w in shown.split() if not _qualifier_word(w, lexicon)]
    return " ".join(kept)


def _qualifier_word(word: str, lexicon: Lexicon) -> bool:
    return any(q.pattern.search(fold(word)) for q in lexicon.qualifiers)


def _topic_concept(value: Value, topic: Sequence[str], lexicon: Lexicon) -> Concept | None:
    for text in topic:
        folded = fold(text)
        hits = [
            (m.start(), concept.id)
            for concept in lexicon.concepts
            if concept.dimension is None or concept.dimension == value.unit
            for term in concept.terms
            if (m := re.search(term_pattern(term), folded))
        ]
        if hits:
            return lexicon.concept(min(hits)[1])
    return None


def _inherit_quantity(
    read: list[_Attributed], topic: Sequence[str], lexicon: Lexicon, lang: str,
    skip: frozenset[str],
) -> list[_Attributed]:  # fmt: skip
    """A value whose attribute names only a qualifier ("median 1.1 s" in an aside, a table
    column headed "p95") measures what the value before it in the sentence measures (of the
    same dimension), else the quantity its section heading or its document's title names
    ("## Response time"), else what that heading's words say."""
    out: list[_Attributed] = []
    for value, subject, attribute, key, modality in read:
        if key[0] != "qualifier":
            out.append((value, subject, attribute, key, modality))
            continue
        qualifiers = key[2] if isinstance(key[2], tuple) else ()
        written = [str(q) for q in qualifiers]
        previous = [
            r for r in out
            if r[0].end <= value.start and r[0].unit == value.unit
            and r[3][0] in {"concept", "words"}
        ]  # fmt: skip
        if previous:
            base = _strip_qualifiers(previous[-1][2], lexicon)
            shown = " ".join([base, *written])
            out.append((value, subject, shown, (*previous[-1][3][:2], qualifiers), modality))
            continue
        concept = _topic_concept(value, topic, lexicon)
        if concept is not None:
            shown = " ".join([concept.label(lang), *written])
            out.append((value, subject, shown, ("concept", concept.id, qualifiers), modality))
            continue
        words = [
            w.lower() for w in re.findall(r"[^\W\d_][\w'’-]*", topic[0] if topic else "")
            if len(w) >= 3 and fold(w) not in lexicon.stopwords and fold(w) not in skip
            and not _qualifier_word(w, lexicon)
        ][-5:]  # fmt: skip
        shown = " ".join([*words, *written])
        out.append((value, subject, shown, ("words", frozenset(words), qualifiers), modality))
    return out


def _names_concept(sentence: Sentence, lexicon: Lexicon) -> bool:
    """True when the label of a ``label : value`` line names a concept of the lexicon."""
    return (
        sentence.label is not None
        and not sentence.table
        and any(
            re.search(term_pattern(t), fold(sentence.label))
            for c in lexicon.concepts
            for t in c.terms
        )
    )


def _rows(
    sentence: Sentence,
    subject_of: Callable[[int, str], str | None],
    *,
    lexicon: Lexicon,
    locale: Locale,
    lang: str,
    skip: frozenset[str],
    pending: list[str],
    names_product: bool = False,
    one_product: bool = False,
    topic: Sequence[str] = (),
    document: str = "",
    aliases: Mapping[str, str] | None = None,
) -> list[tuple[Value, str, str, tuple[str, ...]]]:
    """(value, subject, attribute, context) of every value of a sentence."""
    rows: list[tuple[Value, str, str, tuple[str, ...]]] = []
    values = values_in(sentence, lexicon, locale, lang)
    price_label = next((c.label(lang) for c in lexicon.concepts if c.id == "price"), "price")
    read = []
    # in a document about a product, "Précision de positionnement : 2,5 m" is a line of its
    # spec sheet: the label is what the quantity measures, not who it is about
    label = sentence.label if one_product and not sentence.table else None
    colon = sentence.text.find(":")
    # a label naming a concept of the lexicon ("End of support: June 30, 2029") is what its
    # value is, never who it is about
    conceptual = _names_concept(sentence, lexicon)
    for value in values:
        spec_line = label is not None and value.kind == "quantity" and 0 <= colon < value.start
        hint = sentence.label if (spec_line or conceptual) and 0 <= colon < value.start else None
        subject = subject_of(value.start, hint or "")
        named = re.split(r"[\s'’]+", fold(subject)) if subject else []
        words = skip | frozenset(named)
        found = attribute_of(sentence.text, value, values, lexicon=lexicon, skip=words, lang=lang)
        if value.kind == "money":
            item = charged_item(sentence.text, value.start, lexicon, words)
            found = price_of(
                found, item, value, subject, sentence=sentence.text, price_label=price_label,
                aliases=aliases,
            )  # fmt: skip
        read.append((value, subject, *found))
    read = _inherit_quantity(read, topic, lexicon, lang, skip)
    for value, subject, attribute, key, modality in _inherit_qualifiers(read, lexicon, lang):
        if value.kind == "date" and key[0] != "concept":
            continue  # a date is a statement only as the value of a date attribute
        if subject is None:
            continue
        about = (
            with_branch(subject, sentence.text, document)
            if key[:2] == ("concept", "end_of_support")
            else subject
        )
        context = (*modality, *setup_context(sentence.label, lexicon))
        rows.append(
            (value, about, attribute, (*context, *year_context(sentence.text, value, lexicon)))
        )
    label = next((c.label(lang) for c in lexicon.concepts if c.id == "licence"), "licence")
    for value in licence_values(sentence.text, lexicon):
        subject = subject_of(value.start, label)
        if subject is not None:
            rows.append((value, subject, label, ()))
    free = free_price(sentence.text, lexicon, skip)
    if free is not None and not [v for v in values if v.kind == "money"]:
        subject = subject_of(free[0].start, "")
        if subject is not None and names_product:
            attribute = free_attribute(
                free[1], subject, part_of(sentence.text, free[0].start),
                price_label=price_label, aliases=aliases, lexicon=lexicon,
            )  # fmt: skip
            rows.append((free[0], subject, attribute, ()))
    elif not [v for v in values if v.kind != "date"]:  # no quantity: maybe a yes/no property
        for value, attribute in property_values(sentence.text, lexicon, lang):
            subject = subject_of(value.start, attribute)
            if subject is not None and names_product:
                rows.append((value, subject, attribute, ()))
    advisories = _advisories(sentence.text, lexicon, lang) or _pending_states(
        pending, sentence.text, lexicon, lang
    )
    for advisory, state in advisories:
        subject = subject_of(state.start, advisory)
        if subject is not None:
            rows.append((state, subject, advisory, ()))
    if not rows and names_product and _described(sentence):
        # a table cell of words ("LTE-M (4G Cat-M1) et NB-IoT") describes its subject: it
        # is reported as written, in a context that is never compared
        at = sentence.text.rfind(sentence.cell)
        cell = Value(
            "text", at, at + len(sentence.cell), sentence.cell, ("text", fold(sentence.cell))
        )
        subject = subject_of(at, sentence.head)
        if subject is not None and at >= 0:
            rows.append((cell, subject, sentence.head, ("description",)))
    return rows


def _described(sentence: Sentence) -> bool:
    return (
        sentence.table
        and bool(sentence.head.strip())
        and bool(re.search(r"[^\W\d_]{2}", sentence.cell))
        and not re.search(r"\d", sentence.head)
    )


def document_reads(
    document: Mapping[str, object],
    products: Sequence[str],
    lexicon: Lexicon,
    lang: str,
    locale: Locale,
    *,
    catalogue: Sequence[CatalogueEntry] = (),
    aliases: Mapping[str, str] | None = None,
) -> tuple[list[Read], list[str]]:
    """Every statement of one document (see the module docstring), and its gaps."""
    doc_id, title, text = str(document["id"]), str(document["title"]), str(document["text"])
    aliases = aliases or {}
    product = main_product(products, title, text, aliases)
    main = product or _nominal(title) or title
    skip = product_words(products)
    single = len({p for _, p in product_at(products, f"{title}\n{text}", aliases)}) == 1
    reads: list[Read] = []
    gaps: list[str] = []
    for paragraph in [*sentences(text), *table_sentences(text, products)]:
        carried: str | None = None
        pending: list[str] = []
        for sentence in paragraph:
            quote = " ".join(text[sentence.start : sentence.end].split())

            def subject_of(
                position: int, attribute: str, sentence: Sentence = sentence,
                fallback: str = carried or main,
            ) -> str:  # fmt: skip
                found = _subject(
                    position, sentence, products, fallback, attribute,
                    aliases=aliases, fallback_is_title=product is None,
                )  # fmt: skip
                return found or main

            for value, subject, attribute, context in _rows(
                sentence, subject_of, lexicon=lexicon, locale=locale, lang=lang, skip=skip,
                pending=pending,
                names_product=product is not None or bool(product_at(products, sentence.text)),
                one_product=single, topic=(*_heading_before(text, sentence.start), title),
                document=text, aliases=aliases,
            ):  # fmt: skip
                source, reference = _origin(sentence.text, value, catalogue, lexicon, doc_id)
                if source is not None:
                    continue  # the original document states it itself
                full = (*context, reference) if reference else context
                reads.append(Read(subject, attribute, (), value.display, value.key, full,
                                  sentence.text, quote, doc_id, value.kind))  # fmt: skip
            ids = [m.group() for p in lexicon.id_patterns for m in p.finditer(sentence.text)]
            stated = _advisories(sentence.text, lexicon, lang)
            if ids:
                # "X was unfixed; its revision says it is fixed": the id carries over a ";"
                pending = ids if not stated or sentence.text.endswith(";") else []
            elif status_of(sentence.text, lexicon, lang, lexicon.advisory_states) is not None:
                pending = []
            named = product_at(products, sentence.text, aliases)
            carried = named[-1][1] if named else carried
    reads += _document_advisory(
        doc_id, text, reads, products=products, main=main, lexicon=lexicon, lang=lang
    )
    return reads, gaps


_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+(?P<h>.+?)[ \t#]*$", re.MULTILINE)


def _heading_before(text: str, position: int) -> tuple[str, ...]:
    """The last Markdown heading before ``position``, if any."""
    found = [m.group("h") for m in _HEADING.finditer(text, 0, position)]
    return (found[-1],) if found else ()


_MAX_DOCUMENT_IDS = 3  # a bulletin names its own reference and the CVE it is about


def _document_advisory(
    doc_id: str, text: str, reads: Sequence[Read], *, products: Sequence[str], main: str,
    lexicon: Lexicon, lang: str,
) -> list[Read]:  # fmt: skip
    """In a document that names few advisory ids (a bulletin: its reference, the CVE) and
    gives none a state in its sentence, the last advisory state the document writes is
    theirs (a bulletin names the id in its header and says "no fixed release" below)."""
    ids = sorted({m.group() for p in lexicon.id_patterns for m in p.finditer(text)})
    if not ids or len(ids) > _MAX_DOCUMENT_IDS or any(r.attribute in ids for r in reads):
        return []
    found = []
    for paragraph in sentences(text):
        for sentence in paragraph:
            state = status_of(sentence.text, lexicon, lang, lexicon.advisory_states)
            if state is not None:
                found.append((state.key[2] is not None, sentence, state))
    if not found:
        return []
    # the last state written, a state with its version ("fixed in 5.8.3") first
    _, sentence, state = max(enumerate(found), key=lambda f: (f[1][0], f[0]))[1]
    named = product_at(products, sentence.text)
    subject = named[-1][1] if named else main
    quote = " ".join(text[sentence.start : sentence.end].split())
    return [
        Read(subject, advisory, (), state.display, state.key, (), sentence.text, quote, doc_id,
             "status")
        for advisory in ids
    ]  # fmt: skip


@lru_cache(maxsize=16)
def _strong(lexicon: Lexicon) -> re.Pattern[str]:
    """Strong boundaries: ";", a contrast word, or ", and"."""
    joiners = lexicon.alternation("clause_words")
    return re.compile(rf";|{lexicon.alternation('contrast_words')}|,\s+{joiners}")


def _clause_of(sentence: str, value: Value, lexicon: Lexicon) -> str:
    """The part of the sentence that speaks of ``value``: from the previous strong boundary
    (``;``, ``alors que``, ``whereas``, ``but``) to the next one."""
    folded = fold1(sentence)
    strong = _strong(lexicon)
    left = max((m.end() for m in strong.finditer(folded, 0, value.start)), default=0)
    right = strong.search(folded, value.end)
    return sentence[left : right.start() if right else len(sentence)]
