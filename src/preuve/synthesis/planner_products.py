"""The candidates a committee question compares, and the other names it writes.

:func:`detect_products` reads the question (and the documents, which must use a name for it
to count): candidates written one per list item, side by side (``A, B and C``; a maker after
``from``/``by``, lexicon ``[grammar] maker_words``, belongs to the name before it), or one
clause each after a colon. :func:`product_aliases` gives the other names of a candidate (a
parenthesis after it, its list item, its maker), :func:`question_entities` the names that are
no candidate (the buyer, a site). Every word list is the lexicon's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from preuve.synthesis.lexicon import Lexicon, default_lexicon, fold
from preuve.synthesis.planner_items import VERSION, listed_items
from preuve.synthesis.planner_models import documented_models, names_none
from preuve.synthesis.statements import mentions, short_forms

__all__ = [
    "components",
    "detect_products",
    "name_candidates",
    "product_aliases",
    "question_entities",
]

# A name: capitalized words, possibly joined by a lowercase connector ("Régie des Eaux du
# Val d'Aubrac", "Bank of Ireland").
_NAME = re.compile(
    r"\b[A-ZÀ-Ý][\w-]*(?:(?:[ \u00a0](?:(?:de|des|du|of|the|la|le|von|van)[ \u00a0])?"
    r"|[ \u00a0]d['’])[A-ZÀ-Ý][\w-]*)*"
)
# Lowercase words of the texts, outside addresses and links ("flotteo.fr" is no sentence).
_LOWERCASE = re.compile(r"(?<![\w@./-])[a-zà-ÿ][\w-]*(?![\w@/-]|\.\w)")
_MIN_RECURRING = 3


def name_candidates(text: str) -> list[str]:
    return [" ".join(m.group().split()) for m in _NAME.finditer(text)]


def _plausible(name: str, vocabulary: set[str], lexicon: Lexicon) -> bool:
    """A name that is no generic acronym, no unit symbol (``MW``, ``MWh``), and no single
    capitalized common word (one that also appears in lowercase: a sentence start)."""
    if len(name) <= 1 or name.rstrip("s") in lexicon.generic_acronyms:
        return False
    if any(name == u.word or fold(name) == u.word for u in lexicon.units):
        return False
    if " " in name:
        return True
    lowered = fold(name)
    common = lowered in lexicon.stopwords or lowered in lexicon.question_words
    return not (common or lowered in lexicon.months or _inflected(name.lower()) & vocabulary)


def _inflected(word: str) -> set[str]:
    """A word and its plural or singular ("coût", "coûts"; "délai", "délais"): a capitalized
    word that the texts write only inflected in lowercase is still a common word (a
    criterion's label opening a numbered item, "3. Coût : ..."), no name."""
    forms = {word, f"{word}s", f"{word}x"}
    return forms | ({word[:-1]} if len(word) > 3 and word[-1] in "sx" else set())


def _joined(words: Sequence[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) or "(?!)"


@lru_cache(maxsize=16)
def _list_join(lexicon: Lexicon) -> re.Pattern[str]:
    """What may stand between two names of a list: punctuation and the lexicon's list words,
    one of them at least (two names side by side, "Halloran Ridge Winery" in a heading and
    "Halloran Ridge" opening the next paragraph, are no list), no paragraph break, and
    emphasis marks around the names ("**A**, **B** and **C**"); a model number the name
    pattern left out may come first ("**VatLogic 400**, ...")."""
    words = _joined(lexicon.words("list_words"))
    return re.compile(
        rf"^(?:[ \t\u00a0]+[\w.-]*\d[\w.-]*)?(?![\s\S]*\n[ \t]*\n)[\s*_]*"
        rf"(?:[,;/]|(?<![\w.])(?:{words})(?![\w]))"
        rf"[\s*_]*(?:(?:{words}|[,;/])[\s*_]*)*$",
        re.I,
    )


def _outermost(found: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """Mentions that no longer mention contains: "WMS" inside "WMS Sylve" is no second
    name written beside the first."""
    return [
        (start, name)
        for start, name in found
        if not any(
            (s, n) != (start, name) and s <= start and start + len(name) <= s + len(n)
            for s, n in found
        )
    ]


_PARALLEL_SPLIT = re.compile(r"\s*[,;]\s*(?:(?:et|and|ou|or)\s+)?|\s+(?:et|and|ou|or)\s+")


def components(question: str, products: Sequence[str]) -> dict[str, str]:
    """Every name the question writes in a candidate's clause (its aliases, and components
    such as the software "piloté par" which it runs): a document naming one is about that
    candidate's offer, though its statements keep their own subject."""
    found = {
        name: product
        for product, asides in parallel_clauses(question, products, components=True)
        for name in asides
        if name not in products
    }
    return {**found, **product_aliases(question, products)}


def parallel_clauses(
    question: str, names: Sequence[str], *, components: bool = False
) -> list[tuple[str, list[str]]]:
    """Candidates introduced after a colon by clauses that open alike, each with the names
    of the asides between them ("…: celle de A, qui propose la X, celle de B, avec la Y, et
    celle de C, avec la Z" gives A with X, B with Y, C with Z: the offers and their
    vehicles). Empty when no opener repeats."""
    for sentence in re.split(r"(?<=[.?!])\s+", question):
        _, colon, rest = sentence.partition(":")
        clauses = [c for c in _PARALLEL_SPLIT.split(rest) if c.strip()] if colon else []
        if not clauses or not clauses[0].strip()[:1].islower():
            continue
        opener = _opener(clauses[0])
        out: list[tuple[str, list[str]]] = []
        for clause in clauses:
            found = _outermost(sorted((m, n) for n in names for m in mentions(n, clause)))
            first = _opener(clause)
            if first == opener and found:
                out.append((found[0][1], []))
            elif out and (components or not re.search(r"(?<!\w)(?:par|by)(?!\w)", clause)):
                # "qui propose la X": another name of the offer; "piloté par X" (its fleet
                # software) is a component of its own, as after a maker word
                out[-1][1].extend(n for n in name_candidates(clause) if n not in names)
        if len(out) >= 2 and sum(_opener(c) == opener for c in clauses) == len(out):
            return out
    return []


def _opener(clause: str) -> str:
    """The first word of a clause, every determiner alike (lexicon ``[grammar]
    determiners``): "l'automate X de A, l'automate Y de B et la Z de C" opens three clauses
    alike, one candidate each."""
    first = re.split(r"[\s'’]", fold(clause.strip()), maxsplit=1)[0]
    determiners = set(default_lexicon().words("determiners"))
    return "" if first in determiners or f"{first}'" in determiners else first


def _introduced(question: str, names: Sequence[str]) -> tuple[str, ...]:
    """The candidates a sentence introduces after a colon, one clause each ("Two offers
    remain: the A of X, run by B, and the C of Y"): the first name of each clause, or of
    each clause that opens alike (:func:`parallel_clauses`)."""
    parallel = parallel_clauses(question, names)
    if parallel:
        return tuple(dict.fromkeys(name for name, _ in parallel))
    for sentence in re.split(r"(?<=[.?!])\s+", question):
        _, colon, rest = sentence.partition(":")
        if not colon:
            continue
        clauses = re.split(r";|,?\s+(?:et|and|ou|or|versus|vs\.?)\s+", rest)
        firsts = []
        for clause in clauses:
            found = _outermost(sorted((m, n) for n in names for m in mentions(n, clause)))
            if found:
                firsts.append(found[0][1])
        chosen = tuple(dict.fromkeys(firsts))
        if len(chosen) >= 2 and len(chosen) == len(firsts):
            return chosen
    return ()


def _documented_head(name: str, texts: Sequence[str]) -> str | None:
    """``name``, or its head before a connector ("Trellis T-600 d'Ormeau Robotique" is the
    Trellis T-600 of its maker) when only the head is what documents write."""
    if any(mentions(name, t) for t in texts):
        return name
    head = re.split(r"[ \u00a0](?:d['’]|(?:de|des|du|of)[ \u00a0])", name, maxsplit=1)[0]
    if head != name and any(mentions(head, t) for t in texts):
        return head
    # without its brand word ("Kestrel VibraSense VS-40" is written "VibraSense VS-40"): a
    # name of two words at least, one of them a model code or a coined word
    first, _, rest = name.partition(" ")
    if (
        len(rest.split()) >= 2
        and fold(first) not in default_lexicon().stopwords  # "Should X Y": a sentence start
        and any(mentions(rest, t) for t in texts)
    ):
        return rest
    return None


@lru_cache(maxsize=16)
def _maker_join(lexicon: Lexicon) -> re.Pattern[str]:
    """What stands between a candidate and its maker ("A from X", "B 4 chez Y": a model
    number the name pattern left out may come first)."""
    makers = _joined(lexicon.words("maker_words"))
    return re.compile(rf"^(?:\s+[\w.-]*\d[\w.-]*)?\s*(?:{makers})\s+$", re.I)


def _enumerated(
    question: str, names: Sequence[str], lexicon: Lexicon | None = None
) -> tuple[str, ...]:
    """The longest run of ``names`` the question writes as a list ("A, B and C", "A ou B"),
    parenthesized remarks aside; other names (the company, a vendor, the system to replace)
    are entities, not candidates. A name right after a maker word ("A from X, B from Y and
    C") is the maker of the name before it: it neither joins nor breaks the run."""
    lex = lexicon or default_lexicon()
    bare = re.sub(r"\([^()]*\)", " ", question)
    found = _outermost(sorted((m, name) for name in names for m in mentions(name, bare)))
    best: list[str] = []
    run: list[str] = []
    end = 0
    for start, name in found:
        gap = bare[end:start]
        if run and _maker_join(lex).match(gap):
            end = start + len(name)  # the maker of the last candidate
            continue
        if run and _list_join(lex).match(gap):
            run.append(name)
        else:
            run = [name]
        end = start + len(name)
        if len(run) > len(best):
            best = list(run)
    return tuple(dict.fromkeys(best))


def _makers(question: str, products: Sequence[str], lexicon: Lexicon) -> dict[str, str]:
    """The maker the question names after a product ("Sarnia Helix, a flow system from Sarnia
    Flow Technologies"): a maker word, then a name, before the next product or the end of
    the clause."""
    makers = _joined(lexicon.words("maker_words"))
    out: dict[str, str] = {}
    for product in products:
        for start in mentions(product, question):
            after = question[start + len(product) :]
            nexts = [m for other in products if other != product for m in mentions(other, after)]
            after = re.split(r"[.;:?!](?:\s|$)", after[: min(nexts, default=len(after))])[0]
            for found in re.finditer(rf"(?<!\w)(?:{makers})\s+(?=[A-ZÀ-Ý])", after):
                names = name_candidates(after[found.end() :])
                if names and after[found.end() :].startswith(names[0]):
                    out.setdefault(names[0], product)
    return out


# A list item of the question that starts with a name ("- **Aquanote** : compteur ...",
# "* Beta Pro — appliance ..."): the name, and what the item says of it.
def product_aliases(question: str, products: Sequence[str]) -> dict[str, str]:
    """Names the question writes in parentheses right after a product ("Géolis Track
    (boîtier GT-40)"), or in the list item a product opens ("- **Halvard Data** — ArcBox 9
    appliance running ArcOS"): other names of that product (a model, an edition, a
    component), or its maker (:func:`_makers`)."""
    aliases: dict[str, str] = {}
    generic_acronyms = default_lexicon().generic_acronyms
    for product, rest in listed_items(question, products):
        for name in name_candidates(rest):
            if _qualifier_of_noun(name, rest, default_lexicon()):
                continue
            if name not in products and len(name) > 1 and name.rstrip("s") not in generic_acronyms:
                aliases.setdefault(name, product)
    for product in products:
        for start in mentions(product, question):
            after = question[start + len(product) :]
            # ("**A** (B)" too, and "**A 400** (B)": a model number the name left out)
            remark = re.match(r"(?:[ \u00a0]+v?\d[\w.-]*)?[*_]*\s*\(([^()]*)\)", after)
            if remark is None:
                continue
            # a name the line wraps ("(Oakhurst\nInstruments)") is one name
            said = " ".join(remark.group(1).split())
            for name in name_candidates(said):
                generic = name.rstrip("s") in default_lexicon().generic_acronyms  # "SaaS"
                if _qualifier_of_noun(name, said, default_lexicon()):
                    continue  # "(X GmbH, via its Irish distributor)": an unnamed party
                if name not in products and len(name) > 1 and not generic:
                    aliases.setdefault(name, product)
    for product, asides in parallel_clauses(question, products):
        for name in asides:
            if name not in products:
                aliases.setdefault(name, product)
    for name, product in _makers(question, products, default_lexicon()).items():
        if name not in products and name.rstrip("s") not in generic_acronyms:
            aliases.setdefault(name, product)
    return aliases


def _qualifier_of_noun(name: str, text: str, lexicon: Lexicon) -> bool:
    """Whether every mention of ``name`` in ``text`` comes after a possessive (lexicon
    ``[grammar] possessive_words``) and before a lowercase word: "its Irish distributor"
    qualifies a party it does not name."""
    possessives = _joined(lexicon.words("possessive_words"))
    starts = mentions(name, text)
    return bool(starts) and all(
        re.search(rf"(?<!\w)(?:{possessives})\s+$", fold(text[:start]))
        and re.match(r"\s+[a-zà-ÿ]", text[start + len(name) :])
        for start in starts
    )


def question_entities(
    question: str, texts: Sequence[str], products: Sequence[str]
) -> tuple[str, ...]:
    """Names of the question, other than the products, that documents use (a company, a
    vendor, the system to replace): subjects of their own, never merged into a product."""
    lex = default_lexicon()
    lowercase_words = set(_LOWERCASE.findall(" ".join((question, *texts))))
    aliases = product_aliases(question, products)
    setting = _setting(question, lex)
    shortened = short_forms(products)  # "Lumora" for "Lumora Capture": the product itself
    named = tuple(
        name
        for name in dict.fromkeys(name_candidates(question))
        if name not in products
        and name not in aliases
        and name not in shortened
        and name not in setting
        and not any(p.startswith(name) and VERSION.fullmatch(p[len(name) :]) for p in products)
        and not _defined_term(name, question)
        and not _qualifier_of_noun(name, question, lex)
        and _plausible(name, lowercase_words, lex)
        and any(mentions(name, t) for t in texts)
    )
    known = [*products, *aliases, *named]
    return named + tuple(
        code for code in _kind_instances(question, texts) if not any(code in k for k in known)
    )


_MODEL_CODE = re.compile(r"(?<![\w-])([A-Z][A-Za-z]*-?\d[\w.-]*)[ \u00a0]+([a-zà-ÿ][\w-]*)")


def _kind_instances(question: str, texts: Sequence[str]) -> tuple[str, ...]:
    """Model codes that the titles of two documents at least write before a kind of thing
    the question names in lowercase ("the gateways we would reuse"; titles "KG-2 gateway –
    lifecycle notice", "coverage with existing KG-2 gateways"): a component the question
    names by its kind only, a subject of its own."""
    kinds = {w.rstrip("s") for w in _LOWERCASE.findall(question) if len(w) >= 4}
    counts: Counter[str] = Counter()
    for text in texts:
        title = text.split("\n", 1)[0]
        counts.update(
            {m.group(1) for m in _MODEL_CODE.finditer(title) if m.group(2).rstrip("s") in kinds}
        )
    return tuple(code for code, count in counts.most_common() if count >= 2)


_ACRONYM_WORD = re.compile(r"[A-Z][A-Z0-9]{1,7}")


def _parenthesized(name: str, names: Sequence[str], question: str) -> bool:
    """Whether every mention of ``name`` in the question is a parenthesis right after
    another of ``names`` ("la pompe **Perfalis VP-300** (Medivance Systèmes)")."""
    starts = mentions(name, question)
    others = [re.escape(o) for o in names if o != name]
    if not starts or not others:
        return False
    before = re.compile(rf"(?:{'|'.join(others)})[*_]*\s*\(\s*$")
    return all(before.search(question[:start]) for start in starts)


def _defined_term(name: str, question: str) -> bool:
    """An acronym the question defines in parentheses after a common word ("la prévention
    d'intrusion (IPS)", "certifications (CSPN, ...)", "the ultraviolet (UV) disinfection",
    then "UV systems"): the abbreviation of a term, no organisation or product to be a
    subject of its own."""
    if not _ACRONYM_WORD.fullmatch(name):
        return False
    starts = mentions(name, question)
    return bool(starts) and any(
        re.search(r"[a-zà-ÿ][\w'’-]*\s*\((?:[^()]*[,;]\s*)?$", question[:start]) for start in starts
    )


def _setting(question: str, lexicon: Lexicon) -> set[str]:
    """The names of the question that are the setting of the decision, not subjects of
    values: who decides (the names before the first decision verb: "The committee of Harrow
    Cooperative (HVEC) must pick") and where (a name after a place word: "built at the
    Northfield depot", "à Saint-Quentin"), or before a place noun ("the Leyburn plant":
    lexicon ``[grammar] place_nouns``). A document's "HVEC test bay measured 86.4 %"
    is a measurement of the candidate it names, not of the buyer."""
    verbs = _joined([*lexicon.words("decision_verbs")])
    found: set[str] = set()
    for sentence in re.split(r"(?<=[.?!])\s+", question):
        verb = re.search(rf"(?<!\w)(?:{verbs})(?!\w)", fold(sentence))
        if verb is not None:
            found.update(name_candidates(sentence[: verb.start()]))
            break
    places = _joined(lexicon.words("place_words"))
    folded = fold(question)
    if len(folded) != len(question):
        return found
    nouns = _joined(lexicon.words("place_nouns"))
    for name in name_candidates(question):  # "the Leyburn plant", "Northfield depot"
        for start in mentions(name, question):
            after = folded[start + len(name) :]
            if re.match(rf"\s+(?:{nouns})(?!\w)", after):
                found.add(name)
    for match in re.finditer(rf"(?<!\w)(?:{places})\s+", folded):
        if not question[match.end() : match.end() + 1].isupper():
            continue
        names = name_candidates(question[match.end() :])
        if names and question[match.end() :].startswith(names[0]):
            found.add(names[0])
    return found


def _named_candidates(
    question: str, in_question: Sequence[str], texts: Sequence[str], lex: Lexicon
) -> tuple[str, ...]:
    """The candidates among the question's documented names: listed one per line, side by
    side, introduced one clause each, or else every such name but who decides and where."""
    items = tuple(dict.fromkeys(name for name, _ in listed_items(question, in_question, texts)))
    if len(items) >= 2:
        return items  # the candidates the question lists one per line
    listed = _enumerated(question, in_question, lex)
    if len(listed) >= 2:
        return listed  # the candidates the question lists side by side
    introduced = _introduced(question, in_question)
    if len(introduced) >= 2:
        return introduced  # the candidates a sentence introduces, one clause each
    setting = _setting(question, lex)  # who decides and where are no candidates, nor a name
    return tuple(  # in parentheses after another ("**A** (its maker)"): an alias
        n for n in in_question if n not in setting and not _parenthesized(n, in_question, question)
    ) or tuple(in_question)


def detect_products(
    question: str, texts: Sequence[str], lexicon: Lexicon | None = None
) -> tuple[str, ...]:
    """The products the dossier compares: capitalized names of the question that documents
    also use; when those are none of the product models the documents recur on (the
    question names its setting only: :mod:`preuve.synthesis.planner_models`), those models;
    when the question names nothing, capitalized names that recur in several documents.
    Longest name first among equals (``Orvet Pro`` is matched before ``Orvet``)."""
    lex = lexicon or default_lexicon()
    lowercase_words = set(_LOWERCASE.findall(" ".join((question, *texts))))
    in_question = list(
        dict.fromkeys(
            head
            for name in dict.fromkeys(name_candidates(question))
            if _plausible(name, lowercase_words, lex)
            and (head := _documented_head(name, texts)) is not None
        )
    )
    named = _named_candidates(question, in_question, texts, lex)
    models = documented_models(texts, lowercase_words)
    if names_none(named, models):
        return models  # the question names its setting only: the documents' product models
    if named:
        return named
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(set(name_candidates(text)))
    return tuple(
        name
        for name, count in counts.most_common()
        if count >= _MIN_RECURRING and _plausible(name, lowercase_words, lex)
    )
