"""The memo check: every paragraph cites known facts, and every number in it comes from them.

A memo is a list of paragraphs, each with the ids of the facts it relies on. The check is
deterministic and per paragraph (numbered from 1):

- ``no_source``: the paragraph cites nothing;
- ``no_statement``: its text, fact ids left out (and id-shaped tokens such as a mangled
  ``R-helien-levier``), has fewer than :data:`MIN_WORDS` words and numbers: a title
  ("Exercices") or an id written as the text (SmolLM2 wrote the paragraph
  "R-helvane-levier") states nothing a reader can check, so it is not passed off as a
  verified paragraph;
- ``unknown_source``: it cites an id that is not among the facts;
- ``number_not_in_facts``: a number whose value is in none of the facts *it cites* (the
  years of the report are allowed anywhere);
- ``too_many_sources``: it cites more than :data:`MAX_SOURCES` facts (then its numbers are
  not checked: it is refused as it is);
- ``link_not_in_facts``: a link (URL) written in none of the facts it cites: a document
  may have told the model to print one, and preuve never follows links;
- ``number_sign``: the value is there but with the other sign. A number written without
  sign is accepted only if the same value exists without sign in the cited facts, or if
  its own clause carries a word that gives the sign (négatif, perte, déficit, negative,
  loss, deficit, outflow, ...), not negated in that clause ("n'est pas négatif", "sans
  perte", "no loss"), and the negative value exists. A number written with any Unicode
  minus or dash as its sign, or in parentheses, must match a negative value;
- ``scale_mismatch`` / ``unit_mismatch``: the value is in a cited fact, but with another
  scale (k€ vs M€, million vs billion) or another unit (% vs points vs x, € vs $, a day of
  another month, an ordinal). A number written without a unit is compared by value only
  (a declared limit); a unit it writes must be the fact's. Physical and time units
  (``kW`` vs ``kVA``, ``m³/h`` vs ``m³/day``, ``mois`` vs ``semaines``) are compared
  too (:mod:`preuve.core.measures`), a declared conversion with its converted value
  accepted (``16 bar`` as ``1 600 kPa``);
- ``base_mismatch``: the figure, or its clause, is written on another base than its fact
  (before or after tax, ``HT``/``TTC``; calendar or working days).

Every number token counts: glued to letters, a currency or a scale word (``$9.9m``,
``9,9m€``, ``USD9.9``), after a month name (``En décembre 15 %``), days of dates and
ordinals. Digits that are references or identifiers (``3.4.2``, ``31/12/2025``,
``ORV-SA-2026-004``, ``note 9``) are no figures, but they must appear in a cited fact or be
a cited id (``number_not_in_facts`` otherwise).

A clause is the stretch of a paragraph between ``; . : ! ? ,`` (not the decimal or
thousands separators inside a number) and the conjunctions ``et``/``and``/``mais``/``but``
..., so "négatif" in one half of a sentence does not vouch for a number in the other half.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from preuve.core.claim_lexicon import DEFAULT_LEXICON, ClaimLexicon
from preuve.core.claims import review_claims
from preuve.core.defects import Defect
from preuve.core.facts import Fact
from preuve.core.links import unsupported_links
from preuve.core.measures import Terms
from preuve.core.memo_codes import (
    BASE_MISMATCH,
    LINK_NOT_IN_FACTS,
    NO_SOURCE,
    NO_STATEMENT,
    NUMBER_NOT_IN_FACTS,
    NUMBER_SIGN,
    SCALE_MISMATCH,
    TOO_MANY_SOURCES,
    UNIT_MISMATCH,
    UNKNOWN_SOURCE,
)
from preuve.core.memo_json import Paragraph, parse_memo
from preuve.core.memo_terms import (
    base_defects,
    ids,
    measured_code,
    shorten,
    terms_all,
    terms_defect,
)
from preuve.core.number_units import report_dollar
from preuve.core.numbers import (
    Locale,
    NumberMention,
    extract_numbers,
    reference_tokens,
    same_dimensions,
)

__all__ = [
    "BASE_MISMATCH",
    "LINK_NOT_IN_FACTS",
    "MAX_SOURCES",
    "MIN_WORDS",
    "NO_SOURCE",
    "NO_STATEMENT",
    "NUMBER_NOT_IN_FACTS",
    "NUMBER_SIGN",
    "SCALE_MISMATCH",
    "TOO_MANY_SOURCES",
    "UNIT_MISMATCH",
    "UNKNOWN_SOURCE",
    "Paragraph",
    "check_memo",
    "ground_number",
    "has_negative_word",
    "parse_memo",
    "split_clauses",
]


MIN_WORDS = 2
"""A paragraph states something in at least this many words (of two letters or more) and
numbers ("Revenue reached $9.9B." is three, "Exercices" one)."""

_WORD = re.compile(r"[^\W\d_]{2,}")
_TOKEN = re.compile(r"[\w][\w.-]*[\w]|\w")
_ID_SHAPED = re.compile(r"[A-Z]-\w+(?:-\w+)+")  # the shape of preuve's fact ids: R-slug-name

MAX_SOURCES = 100
"""A paragraph citing more facts than this is refused (a paragraph citing everything would
make "numbers from the cited facts" mean "numbers from anywhere")."""

_CLAUSE_PUNCTUATION = re.compile(r"[;.:!?,…\n]")
_CONJUNCTION = re.compile(r"\b(?i:et|and|mais|but|tandis que|alors que|whereas|while)\b")
# Matched on lowercased text without accents, so "déficit" and "deficit" both count.
_NEGATIVE_WORD = re.compile(
    r"\b(?:negati(?:f|fs|ve|ves|vement|vely)|pertes?|deficit(?:s|aire|aires)?"
    r"|loss(?:es)?|outflows?)\b"
)
# A negation in the clause takes the sign away: "n'est pas négatif", "sans perte", "non
# déficitaire", "no loss", "not negative", "non-negative", "aucune perte", "ni perte".
_NEGATION = re.compile(
    r"(?:\b(?:pas|sans|non|aucune?s?|ni|jamais|nullement|not|no|none|without|never|neither"
    r"|nor)\b|\bn'|n't\b|\bnon-)"
)


def split_clauses(text: str, mentions: Sequence[NumberMention]) -> list[tuple[int, int]]:
    """``(start, end)`` of each clause of ``text``, in order, covering it without overlap
    except for the separators. Separators inside a number (``3,4``, ``1,577.5``) do not
    split."""
    inside = {index for m in mentions for index in range(m.start, m.end)}
    cuts = [sep.span() for sep in _CLAUSE_PUNCTUATION.finditer(text) if sep.start() not in inside]
    cuts += [conj.span() for conj in _CONJUNCTION.finditer(text)]
    clauses, position = [], 0
    for cut_start, cut_end in sorted(cuts):
        if cut_start >= position:
            clauses.append((position, cut_start))
        position = max(position, cut_end)
    clauses.append((position, len(text)))
    return clauses


def _plain(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.casefold().replace("\u2019", "'"))
    return "".join(c for c in folded if not unicodedata.combining(c))


def has_negative_word(clause: str) -> bool:
    """Whether the clause says the number is negative (négatif, perte, déficit, loss, ...),
    with no negation in the clause that takes it back ("sans perte", "no loss")."""
    plain = _plain(clause)
    return _NEGATIVE_WORD.search(plain) is not None and _NEGATION.search(plain) is None


class _Allowed:
    """The numbers of the cited facts, indexed by absolute value (built once a paragraph)."""

    __slots__ = ("_by_magnitude",)

    def __init__(self, numbers: Iterable[NumberMention]) -> None:
        self._by_magnitude: dict[object, list[NumberMention]] = {}
        for number in numbers:
            self._by_magnitude.setdefault(abs(number.value), []).append(number)

    def same_magnitude(self, mention: NumberMention) -> list[NumberMention]:
        return self._by_magnitude.get(abs(mention.value), [])


def ground_number(
    mention: NumberMention,
    clause: str,
    allowed: Sequence[NumberMention] | _Allowed,
    *,
    dollar: str = "US$",
) -> str | None:
    """None if the number is grounded in ``allowed`` under the sign rule, by value and by
    unit and scale, else the defect code: ``number_sign`` when only the opposite sign
    exists, ``scale_mismatch``/``unit_mismatch`` when the value exists with another scale
    or unit (a bare ``$`` stands for ``dollar``), ``number_not_in_facts`` otherwise."""
    index = allowed if isinstance(allowed, _Allowed) else _Allowed(allowed)
    # A bound of a range ("14–16 °C") is no value of its own: it grounds only the same
    # bound of the same range ("entre 14 et 16 °C"), never a number written alone; and a
    # bound written in the memo needs that range in a fact (two values of two years do not
    # make "entre 10 et 12 %").
    candidates = [
        number
        for number in index.same_magnitude(mention)
        if (number.bounds, number.bound) == (mention.bounds, mention.bound)
    ]
    if not candidates:
        return NUMBER_NOT_IN_FACTS
    fitting = [n for n in candidates if same_dimensions(mention, n, dollar=dollar) is None]
    if not fitting:
        kinds = {same_dimensions(mention, number, dollar=dollar) for number in candidates}
        return UNIT_MISMATCH if "unit" in kinds else SCALE_MISMATCH
    values = {number.value for number in fitting}
    # Values carry their sign, so this is "same value, same sign" for -5, +5 and 5 alike.
    if mention.value in values:
        return None
    # An unsigned number may stand for a negative fact if its clause says "negative".
    if not mention.signed and has_negative_word(clause):
        return None
    return NUMBER_SIGN


def _clause_of(text: str, mention: NumberMention, clauses: Sequence[tuple[int, int]]) -> str:
    for start, end in clauses:
        if start <= mention.start < end:
            return text[start:end].strip()
    return text.strip()


_PAGE_BEFORE = re.compile(r"(?i)(?:^|\W)p\.\s*$")


def _page_ref(text: str, mention: NumberMention) -> bool:
    """Whether the number is a page reference: ``p. 14``, as a quote fact cites its page."""
    return mention.unit is None and bool(
        _PAGE_BEFORE.search(text[max(0, mention.start - 4) : mention.start])
    )


def _as_written(number: NumberMention) -> str:
    unit = number.unit or ""
    if not unit or unit == number.currency:
        return number.raw
    return f"{number.raw}{unit}" if unit == "x" else f"{number.raw} {unit}"


def _number_defect(
    code: str,
    mention: NumberMention,
    clause: str,
    cited: Sequence[str],
    index: int,
    *,
    allowed: _Allowed,
) -> Defect:
    where = f"(in «{shorten(clause)}»)"
    cited_ids = ids(cited)
    given = ", ".join(dict.fromkeys(_as_written(n) for n in allowed.same_magnitude(mention)))
    if code == NUMBER_SIGN and mention.value < 0:
        detail = (
            f"{mention.raw} {where} is negative but the facts cited ({cited_ids}) give it "
            "positive; remove the sign"
        )
    elif code == NUMBER_SIGN:
        detail = (
            f"{mention.raw} {where} is written without sign but the facts cited ({cited_ids}) give "
            "it negative; write the minus sign, or say it in the same clause "
            "(négatif, perte, déficit, negative, loss), not negated"
        )
    elif code in (SCALE_MISMATCH, UNIT_MISMATCH):
        what = "scale" if code == SCALE_MISMATCH else "unit"
        detail = (
            f"{_as_written(mention)} {where} has the value of a cited fact but not its {what}:"
            f" the facts cited ({cited_ids}) give {given}; write the figure with the {what} the"
            " fact gives"
        )
    else:
        detail = (
            f"{mention.raw} {where} appears in none of the facts cited ({cited_ids}); use a figure "
            "as written in a cited fact, or cite the fact that gives it; never compute one"
        )
    return Defect(code=code, detail=detail, paragraph=index)


def _reference_defects(
    text: str, cited: Sequence[str], sources: Sequence[str], index: int
) -> list[Defect]:
    """References and identifiers with digits (``3.4.2``, ``ORV-SA-2026-004``, ``note 9``)
    that no cited fact writes as a reference and that are no cited id."""
    written = reference_tokens(text)
    if not written:
        return []
    known = {_plain(sid) for sid in cited}
    known |= {_plain(token) for source in sources for _, _, token in reference_tokens(source)}
    defects = []
    for _, _, token in written:
        if _plain(token) in known:
            continue
        detail = (
            f"{token} appears in none of the facts cited ({ids(cited)}); copy references,"
            " dates and identifiers as a cited fact writes them"
        )
        defects.append(Defect(NUMBER_NOT_IN_FACTS, detail, paragraph=index))
    return defects


def _statement_defects(text: str, known: set[str], index: int) -> list[Defect]:
    """``no_statement`` when the text, ids left out, has fewer than :data:`MIN_WORDS` words
    and numbers."""
    folded = {sid.casefold() for sid in known}
    kept = [
        token
        for token in (m.group() for m in _TOKEN.finditer(text))
        if token.casefold() not in folded and not _ID_SHAPED.fullmatch(token)
    ]
    words = [w for token in kept for w in _WORD.findall(token)]
    numbers = [token for token in kept if any(c.isdigit() for c in token)]
    if len(words) + len(numbers) >= MIN_WORDS:
        return []
    detail = (
        f"the paragraph states nothing ({shorten(text) or 'no text'}); write at least one"
        " sentence that says what the cited facts show"
    )
    return [Defect(NO_STATEMENT, detail, paragraph=index)]


def _source_defects(paragraph: Paragraph, known: set[str], index: int) -> list[Defect]:
    if not paragraph.sources:
        return [Defect(NO_SOURCE, "the paragraph cites no fact; cite the ids it relies on", index)]
    unknown = [sid for sid in dict.fromkeys(paragraph.sources) if sid not in known]
    return [
        Defect(UNKNOWN_SOURCE, f"[{sid}] is not a fact id; cite only ids of the facts given", index)
        for sid in unknown
    ]


def check_memo(
    paragraphs: Sequence[Paragraph],
    facts: Sequence[Fact],
    *,
    locale: Locale,
    years: Iterable[int] = (),
    lexicon: ClaimLexicon = DEFAULT_LEXICON,
    currency: str | None = None,
) -> list[Defect]:
    """Every defect of the memo, paragraph by paragraph; an empty list means verified.
    Subject, period, direction and polarity defects come from :mod:`preuve.core.claims`.
    ``currency`` declares the report's currency (``S$``, ``SGD``, ``A$``...): a bare ``$``
    then stands for that dollar; by default it is the US dollar (``US$``, ``USD``), so a
    bare ``$`` never grounds another country's dollar a fact writes."""
    dollar = report_dollar(currency)
    by_id = {fact.id: fact for fact in facts}
    numbers_of: dict[str, list[NumberMention]] = {}  # only the facts some paragraph cites
    terms_of_fact: dict[str, list[Terms]] = {}
    report_years = {int(year) for year in years}
    defects: list[Defect] = []
    # A paragraph that cites too many facts is refused as it is: its claims are not read.
    claims = review_claims(
        [(p.text, p.sources if len(p.sources) <= MAX_SOURCES else ()) for p in paragraphs],
        facts,
        locale=locale,
        lexicon=lexicon,
    )
    for index, paragraph in enumerate(paragraphs, start=1):
        defects += _source_defects(paragraph, set(by_id), index)
        defects += _statement_defects(paragraph.text, set(by_id), index)
        cited = [sid for sid in dict.fromkeys(paragraph.sources) if sid in by_id]
        if len(cited) > MAX_SOURCES:
            detail = (
                f"the paragraph cites {len(cited)} facts, more than {MAX_SOURCES}; cite only"
                " the facts it relies on"
            )
            defects.append(Defect(TOO_MANY_SOURCES, detail, paragraph=index))
            continue
        sources = [by_id[sid].text for sid in cited]
        for link in unsupported_links(paragraph.text, sources):
            detail = f"{shorten(link)} appears in none of the facts cited; remove the link"
            defects.append(Defect(LINK_NOT_IN_FACTS, detail, paragraph=index))
        for sid in cited:
            if sid not in numbers_of:
                numbers_of[sid] = extract_numbers(by_id[sid].text, locale)
        # A page reference ("(p. 14)") grounds only a page reference, never a figure.
        cited_numbers = [
            (n, _page_ref(by_id[sid].text, n)) for sid in cited for n in numbers_of[sid]
        ]
        pages = {n.value for n, is_page in cited_numbers if is_page}
        allowed = _Allowed(n for n, is_page in cited_numbers if not is_page)
        for sid in cited:
            if sid not in terms_of_fact:
                terms_of_fact[sid] = terms_all(
                    by_id[sid].text,
                    numbers_of[sid],
                    split_clauses(by_id[sid].text, numbers_of[sid]),
                    locale,
                )
        measured = [
            (n, terms)
            for sid in cited
            for n, terms in zip(numbers_of[sid], terms_of_fact[sid], strict=True)
            if not _page_ref(by_id[sid].text, n)
        ]
        mentions = extract_numbers(paragraph.text, locale)
        clauses = split_clauses(paragraph.text, mentions)
        written_terms = terms_all(paragraph.text, mentions, clauses, locale)
        for mention, terms in zip(mentions, written_terms, strict=True):
            if mention.is_year and int(mention.value) in report_years:
                continue
            if _page_ref(paragraph.text, mention) and mention.value in pages:
                continue
            clause = _clause_of(paragraph.text, mention, clauses)
            by_value = ground_number(mention, clause, allowed, dollar=dollar)
            code = measured_code(by_value, mention, terms, measured)
            if code is not None and code != by_value:
                defects.append(
                    terms_defect(
                        code,
                        mention,
                        terms=terms,
                        clause=clause,
                        cited=cited,
                        index=index,
                        measured=measured,
                    )
                )
            elif code is not None:
                defects.append(_number_defect(code, mention, clause, cited, index, allowed=allowed))
        if not any(d.code == BASE_MISMATCH and d.paragraph == index for d in defects):
            defects += base_defects(paragraph.text, sources, cited, index)
        defects += _reference_defects(paragraph.text, cited, sources, index)
        defects += claims[index - 1].defects
    return defects
