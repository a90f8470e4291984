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

from preuve.core.numbers import Locale
from preuve.core.patterns import compiled
from preuve.synthesis.lexicon import Concept, Lexicon, fold, names_sum
from preuve.synthesis.price_items import (
    free_attribute,
    part_of,
    price_of,
    sum_row,
    titled_item,
)
from preuve.synthesis.pricing import charged_item, free_price, free_tier
from preuve.synthesis.reader_layout import (
    claimed_bound,
    extensive,
    row_quote,
    section_products,
    written_names,
)
from preuve.synthesis.reader_origin import CatalogueEntry, dates_a_document, origin
from preuve.synthesis.reader_states import advisories, licence_values, property_values, status_of
from preuve.synthesis.sentences import label_condition
from preuve.synthesis.statements import (
    LabelledSentence,
    Read,
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


def product_at(
    products: Sequence[str], text: str, aliases: Mapping[str, str] | None = None
) -> list[tuple[int, str]]:
    """(offset, product) for every product mention, longest names winning overlaps."""
    return [(s, p) for s, _, p in product_mentions(products, text, aliases)]


def main_product(
    products: Sequence[str], title: str, text: str, aliases: Mapping[str, str] | None = None
) -> str | None:
    """The product a document is about: the one its title names (the one it names most if
    the title names several), or the one it names twice as often as any other; None for a
    document about several alike (a requirements note naming every candidate: a sentence
    of it naming none is about none)."""
    at = [p for _, p in product_at(products, f"{title}\n{text}", aliases)]
    in_title = {p for _, p in product_at(products, title, aliases)}
    named = sorted(
        ((c, -products.index(p), p) for p in products if (c := at.count(p))), reverse=True
    )
    if not named:
        return None
    if in_title:
        return next(p for _, _, p in named if p in in_title)
    if _other_model(title, text, {*products, *(aliases or {})}):
        return None  # "Fiche technique Nutralis NE-20": about a product that is no candidate
    if len(named) == 1 or named[0][0] >= _DOMINANT * named[1][0]:
        return named[0][2]
    return None


_DOMINANT = 2
_MODEL = re.compile(r"(?<![\w-])([A-ZÀ-Ý][\w]+)[ \u00a0]([A-Z][A-Za-z]*-?\d[\w.-]*)(?![\w-])")


def _other_model(title: str, text: str, known: set[str]) -> bool:
    """Whether the title names a model that no candidate is: a brand word (one the text
    never writes in lowercase) and a model code ("Nutralis NE-20")."""
    for found in _MODEL.finditer(title):
        name = found.group(0)
        if any(name in k or k in name for k in known):
            continue
        if not re.search(rf"(?<![\w-]){re.escape(found.group(1).lower())}(?![\w-])", text):
            return True
    return False


def _nominal(label: str | None) -> str | None:
    if label is None or len(label.split()) > 6 or not re.search(r"[^\W\d]", label):
        return None
    return label


# --- one document ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Doc:
    doc_id: str
    title: str
    text: str
    main: str | None


def _subject(
    position: int, sentence: LabelledSentence, products: Sequence[str], fallback: str | None,
    attribute: str, *, aliases: Mapping[str, str], fallback_is_title: bool = True,
    lexicon: Lexicon,
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
    if label is not None and _names_attribute(label, attribute, lexicon):
        label = None  # "CVE-2026-1 : fixed", "Total HT : 355 700 €": what the value is
    if label is not None and asides and any(a < len(label) for a, _ in asides):
        label = None  # "support (X and firmware) : ...": a component described, not who
    return (before[-1] if before else None) or (after[0] if after else None) or label or fallback


def _common_words(label: str | None) -> bool:
    """Whether a line's label is a common noun phrase ("Lead time", "Délai de livraison"),
    no name ("Parc GPU", "Site de Lyon"): several words, none after the first capitalized or
    with a digit."""
    words = (label or "").split()
    return len(words) > 1 and not any(w[:1].isupper() or re.search(r"\d", w) for w in words[1:])


def _names_attribute(label: str, attribute: str, lexicon: Lexicon) -> bool:
    """Whether a line's label names the attribute of its value, not a subject: the same
    words, or a sum's with a tax word ("Total HT", "Subtotal": lexicon ``[pricing]
    aggregates``)."""
    if fold(label) == fold(attribute):
        return True
    return names_sum(label, lexicon)


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


def _names_concept(sentence: LabelledSentence, lexicon: Lexicon) -> bool:
    """True when the label of a ``label : value`` line names a concept of the lexicon."""
    return (
        sentence.label is not None
        and not sentence.table
        and any(
            compiled(term_pattern(t)).search(fold(sentence.label))
            for c in lexicon.concepts
            for t in c.terms
        )
    )


_Found = tuple[str, tuple[Hashable, ...], tuple[str, ...]]


def _amount_attribute(
    sentence: LabelledSentence, value: Value, found: _Found, subject: str | None, *,
    words: frozenset[str], lexicon: Lexicon, price_label: str, aliases: Mapping[str, str] | None,
) -> _Found:  # fmt: skip
    """What an amount is the price of (:func:`~preuve.synthesis.price_items.price_of`); a
    sheet's row named as a sum ("Total excl. VAT | 48 900.00") gives that sum."""
    summed = sum_row(sentence.label if sentence.table else None, value, found, lexicon)
    if summed is not None or value.kind != "money":
        return summed or found
    item = charged_item(sentence.text, value.start, lexicon, words)
    return price_of(
        found, item, value, subject, sentence=sentence.text, price_label=price_label,
        aliases=aliases,
    )  # fmt: skip


def _rows(
    sentence: LabelledSentence,
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
    # spec sheet: the label is what the quantity measures, not who it is about; so is a
    # label of common words in a document naming others too ("Lead time: 6 weeks" in a
    # quote that names a rival offer)
    label = (
        sentence.label
        if (one_product or (names_product and _common_words(sentence.label))) and not sentence.table
        else None
    )
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
        found = _amount_attribute(
            sentence, value, found, subject, words=words, lexicon=lexicon,
            price_label=price_label, aliases=aliases,
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
        shown, claim = claimed_bound(sentence, value, modality, lexicon)
        context = _context(sentence, claim, lexicon)
        rows.append(
            (shown, about, attribute, (*context, *year_context(sentence.text, value, lexicon)))
        )
    label = next((c.label(lang) for c in lexicon.concepts if c.id == "licence"), "licence")
    for value in licence_values(sentence.text, lexicon):
        subject = subject_of(value.start, label)
        if subject is not None:  # "the 5.x branch remains under ...": that branch's licence
            rows.append((value, with_branch(subject, sentence.text), label, ()))
    free = free_price(sentence.text, lexicon, skip)
    if free is not None and not [v for v in values if v.kind == "money"]:
        subject = subject_of(free[0].start, "")
        if subject is not None and names_product:
            attribute = free_attribute(
                free[1], subject, part_of(sentence.text, free[0].start),
                price_label=price_label, aliases=aliases, lexicon=lexicon,
            )  # fmt: skip
            rows.append((free[0], subject, attribute, free_tier(sentence.text, lexicon)))
    elif not [v for v in values if v.kind != "date"]:  # no quantity: maybe a yes/no property
        for value, attribute in property_values(sentence.text, lexicon, lang):
            subject = subject_of(value.start, attribute)
            if subject is not None and names_product:
                rows.append((value, subject, attribute, ()))
    stated = advisories(sentence.text, lexicon, lang) or _pending_states(
        pending, sentence.text, lexicon, lang
    )
    for advisory, state in stated:
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


def _context(
    sentence: LabelledSentence, modality: Sequence[str], lexicon: Lexicon
) -> tuple[str, ...]:
    """A value's context from its sentence: its modality, the condition of its table row
    ("at 0.25C"), the setup a label names."""
    stated = sentence.condition or label_condition(sentence.label)
    condition = (f"at {stated}",) if stated else ()
    return (*modality, *condition, *setup_context(sentence.label, lexicon))


def _described(sentence: LabelledSentence) -> bool:
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
    skip = product_words([*products, *aliases])
    single = len({p for _, p in product_at(products, f"{title}\n{text}", aliases)}) == 1
    reads: list[Read] = []
    gaps: list[str] = []
    written = written_names(products, f"{title}\n{text}", aliases)
    prose = sentences(text)
    headings = section_products(text, prose, products, aliases)
    if product is None and _other_model(title, text, {*products, *aliases}):
        # about another model ("Fiche technique Nutralis NE-20"): a heading naming the
        # candidate's maker ("Medivance Systèmes – gamme Nutrition") says whose range it is
        headings = [(at, None, scope) for at, _, scope in headings]
    price_label = next((c.label(lang) for c in lexicon.concepts if c.id == "price"), "price")
    item = titled_item(title, product, [a for a, p in aliases.items() if p == product], lexicon)
    for paragraph in [*prose, *table_sentences(text, products)]:
        carried: str | None = None
        pending: list[str] = []
        section, scope = next(
            ((p, sc) for at, p, sc in reversed(headings) if at <= paragraph[0].start), (None, ())
        )
        for sentence in paragraph:
            if _is_heading(text, sentence.start) and not sentence.table:
                # a heading names a section ("### Fixed"): never the quote of a statement,
                # nor the state of an advisory named just before it
                pending = []
                continue
            quote = row_quote(text, sentence)  # a short one with the line before it

            def subject_of(
                position: int, attribute: str, sentence: LabelledSentence = sentence,
                fallback: str = carried or section or main,
            ) -> str:  # fmt: skip
                found = _subject(
                    position, sentence, products, fallback, attribute,
                    aliases=aliases, fallback_is_title=product is None, lexicon=lexicon,
                )  # fmt: skip
                return found or main

            for value, subject, attribute, context in _rows(
                sentence, subject_of, lexicon=lexicon, locale=locale, lang=lang, skip=skip,
                pending=pending,
                names_product=product is not None or bool(product_at(products, sentence.text)),
                one_product=single, topic=(*_heading_before(text, sentence.start), title),
                document=text, aliases=aliases,
            ):  # fmt: skip
                if dates_a_document(sentence.text, value, catalogue, doc_id):
                    continue  # "(see the notice of 20 May 2026)": that document's date
                source, reference = origin(sentence.text, value, catalogue, lexicon, doc_id)
                if source is not None:
                    continue  # the original document states it itself
                # a bare price, in a document whose title names another offer of the brand
                titled = item and value.kind == "money" and attribute == price_label
                priced = f"{price_label} {item}" if titled else attribute
                scoped = scope if extensive(value) else ()
                full = (*context, *scoped, reference) if reference else (*context, *scoped)
                shown = written.get(subject, subject)
                reads.append(Read(shown, priced, (), value.display, value.key, full,
                                  sentence.text, quote, doc_id, value.kind))  # fmt: skip
            ids = [m.group() for p in lexicon.id_patterns for m in p.finditer(sentence.text)]
            stated = advisories(sentence.text, lexicon, lang)
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


def _is_heading(text: str, position: int) -> bool:
    """Whether ``position`` is on a Markdown heading line: a heading is never a quote."""
    line = text[text.rfind("\n", 0, position) + 1 :].split("\n", 1)[0]
    return _HEADING.match(line) is not None


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
            if _is_heading(text, sentence.start):
                continue  # "### Fixed" names a section of a changelog: no quote of a state
            state = status_of(sentence.text, lexicon, lang, lexicon.advisory_states)
            if state is not None:
                found.append((state.key[2] is not None, sentence, state))
    if not found:
        return []
    # the last state written, a state with its version ("fixed in 5.8.3") first
    _, sentence, state = max(enumerate(found), key=lambda f: (f[1][0], f[0]))[1]
    named = product_at(products, sentence.text)
    subject = named[-1][1] if named else main
    quote = row_quote(text, sentence)  # "Résolu." with what comes before it on its line
    return [
        Read(subject, advisory, (), state.display, state.key, (), sentence.text, quote, doc_id,
             "status")
        for advisory in ids
    ]  # fmt: skip
