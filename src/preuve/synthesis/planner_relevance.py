"""Which documents of a dossier a plan must read: relevance to the committee's question.

A document is relevant when it names a candidate (or an alias, or its short form), or what
the question decides on (:func:`decision_object`), or an identifier (an advisory id) that a
document naming a candidate carries. When most documents name a candidate, one that names
none must carry the decision object in its title: a note that only shares the dossier's
vocabulary (another project of the same organisation, a members' blog on a neighbouring
topic) is left out with its reason. Without a decision object, the question's
discriminating words decide (:func:`discriminating_words`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from preuve.synthesis.lexicon import Lexicon, fold
from preuve.synthesis.planner_decision import (
    deciding_words,
    decision_head,
    decision_object,
    stems,
)
from preuve.synthesis.planner_vendors import titled_sibling, vendor_only, vendor_siblings
from preuve.synthesis.statements import product_mentions, stem

__all__ = [
    "Relevance",
    "checked_object",
    "deciding_words",
    "decision_head",
    "decision_object",
    "discriminating_words",
    "identifiers",
    "linked_ids",
    "relevance",
    "relevance_of",
    "set_aside",
    "stems",
]

_MIN_SHARED_WORDS = 2
_MAX_SHARE = 0.5
_MIN_BODY_WORDS = 4
_STRONG_BODY_WORDS = 12


def discriminating_words(
    question: str, documents: Sequence[Mapping[str, Any]], entities: Sequence[str],
    lexicon: Lexicon,
) -> frozenset[str]:  # fmt: skip
    """The question's content words that discriminate between documents: written in at most
    :data:`_MAX_SHARE` of them, and no name of an entity (the company, a vendor)."""
    named = {stem(w) for e in entities for w in fold(e).split()}
    counts: Counter[str] = Counter()
    for document in documents:
        counts.update(stems(f"{document['title']}\n{document['text']}", lexicon))
    limit = _MAX_SHARE * max(1, len(documents))
    return frozenset(w for w in stems(question, lexicon) - named if counts[w] <= limit)


def checked_object(
    about: frozenset[str], documents: Sequence[Mapping[str, Any]], products: Sequence[str],
    lexicon: Lexicon, aliases: Mapping[str, str] | None = None,
) -> frozenset[str]:  # fmt: skip
    """``about`` when most documents name a candidate or it; else nothing: a decision
    object that leaves most of a dossier out was misread (a dossier's noise is a minority),
    and relevance falls back to the question's discriminating words."""
    kept = sum(
        1
        for d in documents
        if product_mentions(products, f"{d['title']}\n{d['text']}", aliases)
        or stems(f"{d['title']}\n{d['text']}", lexicon) & about
    )
    return about if about and 2 * kept > len(documents) else frozenset()


_STRICT_SHARE = 2 / 3


def identifiers(text: str, lexicon: Lexicon) -> set[str]:
    """The identifiers a text writes (an advisory id: lexicon ``[ids] patterns``)."""
    return {m.group() for p in lexicon.id_patterns for m in p.finditer(text)}


def set_aside(question: str, lexicon: Lexicon) -> frozenset[str]:
    """The topics the question sets aside: the content words of its sentences with a cue of
    lexicon ``[grammar] set_aside_cues`` ("Le contrat de maintenance et les travaux de
    voirie sont hors sujet") or one that says they are apart from it (``apart_cues``: "the
    kiosk works are unrelated", "n'ont rien à voir avec la décision"), that no other
    sentence of it writes."""
    cues = f"{lexicon.alternation('set_aside_cues')}|{lexicon.alternation('apart_cues')}"
    aside: set[str] = set()
    kept: set[str] = set()
    for sentence in re.split(r"(?<=[.?!])\s+|\n\s*\n", question):  # a line break ends none
        words = stems(sentence, lexicon)
        (aside if re.search(cues, fold(sentence)) else kept).update(words)
    listed = (*lexicon.words("set_aside_cues"), *lexicon.words("apart_cues"))
    cue_words = {w for c in listed for w in stems(c, lexicon)}
    return frozenset(aside - kept - cue_words)


def _type_words(lexicon: Lexicon) -> set[str]:
    """The stems of the source types' names and aliases ("quotation", "devis"): a title
    writing its own type says nothing of its topic."""
    names = [*lexicon.source_ranks, *lexicon.source_aliases, *lexicon.source_aliases.values()]
    return {w for n in names for w in stems(re.sub(r"[-_/]", " ", n), lexicon)}


def _names_brand(body: str, products: Sequence[str], aliases: Mapping[str, str]) -> bool:
    """Whether ``body`` writes the first word of a candidate or of one of its aliases (its
    brand: a quote of "Tamaris Software" or "Brantwood Labs" prices the candidate's
    vendor's offer)."""
    brands = {n.split()[0] for n in (*products, *aliases) if n.split()}
    return any(re.search(rf"(?<![\w-]){re.escape(b)}(?![\w-])", body) for b in brands)


def _names_head(body: str, head: frozenset[str], lexicon: Lexicon) -> bool:
    """Whether a sentence of ``body`` carries a word of ``head`` and no cue that sets the
    document apart from it ("is a separate effort", "sans lien avec")."""
    cues = lexicon.alternation("apart_cues")
    for sentence in re.split(r"(?<=[.?!;])\s+|\n", body):
        if stems(sentence, lexicon) & head and not re.search(cues, fold(sentence)):
            return True
    return False


def _sets_apart(body: str, words: frozenset[str], lexicon: Lexicon) -> bool:
    """Whether a sentence of ``body`` sets the document apart from something ``words``
    name ("this file is distinct from the renewal of the service vehicles")."""
    cues = lexicon.alternation("apart_cues")
    return any(
        re.search(cues, fold(sentence)) and stems(sentence, lexicon) & words
        for sentence in re.split(r"(?<=[.?!;])\s+|\n", body)
    )


_FRAMING_SHARE = 0.25


def _frames(
    body: str, words: frozenset[str], document: Mapping[str, Any], lexicon: Lexicon
) -> bool:
    """Whether a document naming no candidate speaks of the whole question: it writes at
    least a quarter of the question's discriminating words, and :data:`_STRONG_BODY_WORDS`
    at least (a kick-off's minutes, a project charter: what the committee set out to
    decide). A disclaimer in it ("service contracts are not part of the envelope") scopes
    one of its items, not the note; a third-party article is no framing note."""
    if document.get("least_reliable") or not words:
        return False
    shared = len(stems(body, lexicon) & words)
    return shared >= max(_STRONG_BODY_WORDS, _FRAMING_SHARE * len(words))


def linked_ids(
    documents: Sequence[Mapping[str, Any]], products: Sequence[str], lexicon: Lexicon,
    aliases: Mapping[str, str] | None = None,
) -> tuple[frozenset[str], bool]:  # fmt: skip
    """The identifiers written by the documents that name a candidate (a document that
    gives the fix of the advisory a candidate's bulletin names is about that candidate),
    and whether candidates are named by most documents (at least two thirds): then a
    document naming none must carry the decision object in its title (see
    :func:`relevance`)."""
    naming = [
        f"{d['title']}\n{d['text']}"
        for d in documents
        if product_mentions(products, f"{d['title']}\n{d['text']}", aliases)
    ]
    ids = frozenset(i for text in naming for i in identifiers(text, lexicon))
    return ids, bool(documents) and len(naming) >= _STRICT_SHARE * len(documents)


def relevance(
    document: Mapping[str, Any], products: Sequence[str], words: frozenset[str],
    lexicon: Lexicon, aliases: Mapping[str, str] | None = None, *,
    about: frozenset[str] = frozenset(), linked: frozenset[str] = frozenset(),
    strict: bool = False, head: frozenset[str] = frozenset(),
    topics: frozenset[str] = frozenset(), decided: frozenset[str] = frozenset(),
    asked: frozenset[str] = frozenset(), aside: frozenset[str] = frozenset(),
) -> str | None:  # fmt: skip
    """None when a document is relevant to the question, else the reason it is not: it
    names a product (or an alias, or its short form), or an identifier of ``linked`` (an
    advisory id a candidate's document writes), or what the question decides on
    (``about``, :func:`decision_object`: a document sharing only the dossier's vocabulary
    is about something else; when candidates are named by most documents, ``strict``, the
    object's ``head`` noun must be in a sentence that does not set the document apart from
    it: "home battery" is not "battery energy storage", and "not part of the storage
    project" is a disclaimer, lexicon ``[grammar] apart_cues``; or its title names a
    criterion, a word of ``topics``, and its text a word of the object); a document with
    a disclaimer about a word of the deciding sentence (``decided``: "ce dossier est
    distinct du renouvellement des véhicules") is about something else. When candidates are
    named by most documents, a document naming none is left out when it is of the least
    reliable kind (``least_reliable``: a third-party article brings no evidence on a
    candidate, nor the buyer's requirements), or when it sets itself apart from what the
    question asks (``asked``, its words). Without a decision object: its title has a
    discriminating word of the question and its text (title included) four, or its title
    two, or its text twelve."""
    title = str(document["title"])
    body = f"{title}\n{document['text']}"
    written = identifiers(body, lexicon)
    siblings = vendor_siblings(body, products, aliases or {}, lexicon, frozenset(written))
    if (  # a third-party article on a candidate's maker, not on its product nor advisory
        strict
        and document.get("least_reliable")
        and not linked & written
        and vendor_only(body, products, aliases or {}, lexicon)
    ):
        return (
            "names a candidate's vendor only, and is of the least reliable kind (a third-party"
            " article): no evidence on a candidate"
        )
    other = None if linked & written else titled_sibling(
        title, str(document["text"]), products, aliases or {}, lexicon, ids=frozenset(written),
        reference_words=frozenset(_type_words(lexicon)),
    )  # fmt: skip
    if other is not None and not stems(title, lexicon) & (topics - _type_words(lexicon)):
        # (a title naming what a criterion asks about, "Orla KG-2 gateway" when the
        # question asks about the gateways, is about a part of the candidate's offer)
        return (
            "names a candidate in passing, and its title names another product of a"
            f" candidate's maker ({other})"
        )
    if product_mentions(products, body, aliases) and not siblings:
        return None
    if siblings and len(stems(title, lexicon) & topics) >= _MIN_SHARED_WORDS:
        return None  # "new terms for X Connect remote monitoring": a service asked about
    if linked & written:
        return None
    if siblings and not about:  # with a decision object, the document must name it
        return (
            "names a candidate's vendor only, beside another of its products"
            f" ({', '.join(siblings)})"
        )
    if not siblings and _frames(body, words, document, lexicon):
        return None  # the committee's kick-off: its disclaimers scope parts of the question
    if strict and aside:
        # the title names what is set aside; or the text does, and the title nothing the
        # question asks about (minutes of the committee itself, "COPIL Automates RFID",
        # mentioning the old gates to be replaced, are about the question)
        asked_title = stems(title, lexicon) & (topics | (asked - _type_words(lexicon)))
        topic = stems(title, lexicon) & aside or (
            stems(body, lexicon) & aside if not asked_title else set()
        )
        if topic:
            return (
                "names no product of the question, and is about what the question sets aside"
                f" ({', '.join(sorted(topic))})"
            )
    if strict and document.get("least_reliable"):
        return (
            "names no product of the question, and is of the least reliable kind (a"
            " third-party article): no evidence on a candidate"
        )
    if about:
        decided_on = ", ".join(sorted(about))
        if strict:
            if _sets_apart(body, decided | about, lexicon):
                return (
                    "names no product of the question, and says it is apart from what the"
                    f" question decides on ({', '.join(sorted(about))})"
                )
            if _names_head(body, head or about, lexicon):
                return None
            if stems(title, lexicon) & topics and _names_head(body, about, lexicon):
                return None  # "GPU capacity planning" of the inference servers
            return f"names no product of the question, nor what it decides on ({decided_on})"
        if stems(body, lexicon) & about:
            return None
        return f"names no product of the question, nor what it decides on ({decided_on})"
    if (  # without a decision object, which decides otherwise
        strict
        and document.get("offer")
        and not _names_brand(body, products, aliases or {})
        and not stems(title, lexicon) & topics - _type_words(lexicon)
    ):
        return (
            "names no product of the question, and is a quote: it prices another offer than"
            " the candidates'"
        )
    if strict and _sets_apart(body, asked, lexicon):
        return "names no product of the question, and says it is apart from what the question asks"
    in_title = stems(title, lexicon) & words
    in_body = stems(body, lexicon) & words
    if (
        (in_title and len(in_body) >= _MIN_BODY_WORDS)
        or len(in_title) >= _MIN_SHARED_WORDS
        or len(in_body) >= _STRONG_BODY_WORDS  # a framing note speaks of the whole question
    ):
        return None
    shared = f" (shares only: {', '.join(sorted(in_body))})" if in_body else ""
    return (
        "names no product of the question, and its title and text share too few "
        f"discriminating words with the question{shared}"
    )


@dataclass(frozen=True, slots=True)
class Relevance:
    """What :func:`relevance` weighs a document against, derived once per dossier
    (:func:`relevance_of`): the same for the rules planner and for the coverage check."""

    products: tuple[str, ...]
    words: frozenset[str]
    lexicon: Lexicon
    aliases: Mapping[str, str]
    about: frozenset[str]
    linked: frozenset[str]
    strict: bool
    head: frozenset[str]
    topics: frozenset[str]
    decided: frozenset[str]
    asked: frozenset[str] = frozenset()
    aside: frozenset[str] = frozenset()

    def reason(self, document: Mapping[str, Any]) -> str | None:
        """None when ``document`` (its ``title`` and ``text``) is relevant, else why not."""
        return relevance(
            document,
            self.products,
            self.words,
            self.lexicon,
            self.aliases,
            about=self.about,
            linked=self.linked,
            strict=self.strict,
            head=self.head,
            topics=self.topics,
            decided=self.decided,
            asked=self.asked,
            aside=self.aside,
        )


def relevance_of(
    question: str,
    documents: Sequence[Mapping[str, Any]],
    products: Sequence[str],
    *,
    entities: Sequence[str],
    aliases: Mapping[str, str],
    topics: frozenset[str],
    lexicon: Lexicon,
) -> Relevance:
    """The :class:`Relevance` of a dossier's ``documents`` (``title`` and ``text`` each) to
    its question, its candidates and the other names of the question (``entities``)."""
    aside = set_aside(question, lexicon)
    words = discriminating_words(question, documents, entities, lexicon) - aside
    # a topic set aside that the candidates' documents write too ("installation") is no
    # topic of other documents alone
    for document in documents:
        body = f"{document['title']}\n{document['text']}"
        if product_mentions(products, body, aliases):
            aside -= stems(body, lexicon)
    about = checked_object(
        decision_object(question, lexicon), documents, products, lexicon, aliases
    )
    linked, strict = linked_ids(documents, products, lexicon, aliases)
    return Relevance(
        products=tuple(products),
        words=words,
        lexicon=lexicon,
        aliases=aliases,
        about=about,
        linked=linked,
        strict=strict,
        head=decision_head(question, lexicon) if about else frozenset(),
        topics=topics,
        decided=deciding_words(question, lexicon) if about else frozenset(),
        asked=frozenset(stems(question, lexicon)) - aside,
        aside=aside,
    )
