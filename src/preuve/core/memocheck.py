"""The memo check: every paragraph cites known facts, and every number in it comes from them.

A memo is a list of paragraphs, each with the ids of the facts it relies on. The check is
deterministic and per paragraph (numbered from 1):

- ``no_source``: the paragraph cites nothing;
- ``unknown_source``: it cites an id that is not among the facts;
- ``number_not_in_facts``: a number whose value is in none of the facts *it cites* (the
  years of the report are allowed anywhere);
- ``link_not_in_facts``: a link (URL) written in none of the facts it cites: a document
  may have told the model to print one, and preuve never follows links;
- ``number_sign``: the value is there but with the other sign. A number written without
  sign is accepted only if the same value exists without sign in the cited facts, or if
  its own clause carries a word that gives the sign (négatif, perte, déficit, negative,
  loss, deficit, outflow, ...) and the negative value exists. A number written with a
  minus or in parentheses must match a negative value.

A clause is the stretch of a paragraph between ``; . : ! ? ,`` (not the decimal or
thousands separators inside a number) and the conjunctions ``et``/``and``/``mais``/``but``
..., so "négatif" in one half of a sentence does not vouch for a number in the other half.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from preuve.core.claim_lexicon import DEFAULT_LEXICON, ClaimLexicon
from preuve.core.claims import review_claims
from preuve.core.defects import Defect
from preuve.core.errors import InputError
from preuve.core.facts import Fact
from preuve.core.links import unsupported_links
from preuve.core.numbers import Locale, NumberMention, extract_numbers

__all__ = [
    "LINK_NOT_IN_FACTS",
    "NO_SOURCE",
    "NUMBER_NOT_IN_FACTS",
    "NUMBER_SIGN",
    "UNKNOWN_SOURCE",
    "Paragraph",
    "check_memo",
    "ground_number",
    "has_negative_word",
    "parse_memo",
    "split_clauses",
]

NO_SOURCE = "no_source"
UNKNOWN_SOURCE = "unknown_source"
NUMBER_NOT_IN_FACTS = "number_not_in_facts"
NUMBER_SIGN = "number_sign"
LINK_NOT_IN_FACTS = "link_not_in_facts"

_MEMO_FIX = 'expected {"paragraphs": [{"text": "...", "sources": ["ID", ...]}, ...]}'


@dataclass(frozen=True, slots=True)
class Paragraph:
    """One memo paragraph and the ids of the facts it cites."""

    text: str
    sources: tuple[str, ...]


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


def _memo_error(source: str, problem: str) -> InputError:
    return InputError(f"{source}: {problem}", fix=_MEMO_FIX)


def _parse_paragraph(item: object, index: int, source: str) -> Paragraph:
    where = f"paragraphs[{index}]"
    if not isinstance(item, dict):
        raise _memo_error(source, f"{where} must be an object, got {_json_type(item)}")
    keys = {str(k) for k in item}
    if keys != {"text", "sources"}:
        missing, extra = sorted({"text", "sources"} - keys), sorted(keys - {"text", "sources"})
        problem = "; ".join(
            part
            for part in (
                f"missing {', '.join(missing)}" if missing else "",
                f"unexpected {', '.join(extra)}" if extra else "",
            )
            if part
        )
        raise _memo_error(source, f"{where}: {problem}")
    text, sources = item["text"], item["sources"]
    if not isinstance(text, str) or not text.strip():
        raise _memo_error(source, f"{where}.text must be a non-empty string")
    if not isinstance(sources, list):
        raise _memo_error(source, f"{where}.sources must be an array, got {_json_type(sources)}")
    for position, sid in enumerate(sources):
        if not isinstance(sid, str) or not sid.strip():
            raise _memo_error(source, f"{where}.sources[{position}] must be a non-empty string")
    return Paragraph(text=text, sources=tuple(sources))


def parse_memo(data: object, *, source: str = "memo") -> list[Paragraph]:
    """Paragraphs of a decoded memo JSON ``{"paragraphs": [{"text", "sources"}]}``; any
    other shape, extra key or empty memo raises ``InputError`` naming the problem."""
    if not isinstance(data, dict):
        raise _memo_error(source, f"the memo must be a JSON object, got {_json_type(data)}")
    extra = sorted(str(k) for k in data if k != "paragraphs")
    if extra:
        raise _memo_error(source, f"unexpected key(s) {', '.join(extra)}")
    if "paragraphs" not in data:
        raise _memo_error(source, "missing key paragraphs")
    items = data["paragraphs"]
    if not isinstance(items, list):
        raise _memo_error(source, f"paragraphs must be an array, got {_json_type(items)}")
    if not items:
        raise _memo_error(source, "the memo has no paragraphs")
    return [_parse_paragraph(item, index, source) for index, item in enumerate(items)]


_CLAUSE_PUNCTUATION = re.compile(r"[;.:!?,…\n]")
_CONJUNCTION = re.compile(r"\b(?i:et|and|mais|but|tandis que|alors que|whereas|while)\b")
# Matched on lowercased text without accents, so "déficit" and "deficit" both count.
_NEGATIVE_WORD = re.compile(
    r"\b(?:negati(?:f|fs|ve|ves|vement|vely)|pertes?|deficit(?:s|aire|aires)?"
    r"|loss(?:es)?|outflows?)\b"
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


def has_negative_word(clause: str) -> bool:
    """Whether the clause says the number is negative (négatif, perte, déficit, loss, ...)."""
    folded = unicodedata.normalize("NFKD", clause.casefold())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    return _NEGATIVE_WORD.search(plain) is not None


def ground_number(
    mention: NumberMention, clause: str, allowed: Sequence[NumberMention]
) -> str | None:
    """None if the number is grounded in ``allowed`` under the sign rule, else the defect
    code (``number_sign`` when only the opposite sign exists)."""
    values = {fact.value for fact in allowed}
    # Values carry their sign, so this is "same value, same sign" for -5, +5 and 5 alike.
    if mention.value in values:
        return None
    opposite_exists = -mention.value in values
    # An unsigned number may stand for a negative fact if its clause says "negative".
    if not mention.signed and opposite_exists and has_negative_word(clause):
        return None
    return NUMBER_SIGN if opposite_exists else NUMBER_NOT_IN_FACTS


def _clause_of(text: str, mention: NumberMention, clauses: Sequence[tuple[int, int]]) -> str:
    for start, end in clauses:
        if start <= mention.start < end:
            return text[start:end].strip()
    return text.strip()


def _shorten(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def _number_defect(
    code: str, mention: NumberMention, clause: str, cited: Sequence[str], index: int
) -> Defect:
    where = f"(in «{_shorten(clause)}»)"
    ids = ", ".join(f"[{sid}]" for sid in cited) or "none"
    if code == NUMBER_SIGN and mention.value < 0:
        detail = (
            f"{mention.raw} {where} is negative but the facts cited ({ids}) give it "
            "positive; remove the sign"
        )
    elif code == NUMBER_SIGN:
        detail = (
            f"{mention.raw} {where} is written without sign but the facts cited ({ids}) give "
            "it negative; write the minus sign, or say it in the same clause "
            "(négatif, perte, déficit, negative, loss)"
        )
    else:
        detail = (
            f"{mention.raw} {where} appears in none of the facts cited ({ids}); use a figure "
            "as written in a cited fact, or cite the fact that gives it; never compute one"
        )
    return Defect(code=code, detail=detail, paragraph=index)


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
) -> list[Defect]:
    """Every defect of the memo, paragraph by paragraph; an empty list means verified.
    Subject, period, direction and polarity defects come from :mod:`preuve.core.claims`."""
    by_id = {fact.id: fact for fact in facts}
    numbers_of = {fact.id: extract_numbers(fact.text, locale) for fact in facts}
    report_years = {int(year) for year in years}
    defects: list[Defect] = []
    claims = review_claims(
        [(p.text, p.sources) for p in paragraphs], facts, locale=locale, lexicon=lexicon
    )
    for index, paragraph in enumerate(paragraphs, start=1):
        defects += _source_defects(paragraph, set(by_id), index)
        cited = [sid for sid in dict.fromkeys(paragraph.sources) if sid in by_id]
        for link in unsupported_links(paragraph.text, (by_id[sid].text for sid in cited)):
            detail = f"{_shorten(link)} appears in none of the facts cited; remove the link"
            defects.append(Defect(LINK_NOT_IN_FACTS, detail, paragraph=index))
        allowed = [number for sid in cited for number in numbers_of[sid]]
        mentions = extract_numbers(paragraph.text, locale)
        clauses = split_clauses(paragraph.text, mentions)
        for mention in mentions:
            if mention.is_year and int(mention.value) in report_years:
                continue
            clause = _clause_of(paragraph.text, mention, clauses)
            code = ground_number(mention, clause, allowed)
            if code is not None:
                defects.append(_number_defect(code, mention, clause, cited, index))
        defects += claims[index - 1].defects
    return defects
