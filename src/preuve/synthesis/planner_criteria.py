"""The criteria a committee question names: the rules planner's sub-tasks.

:func:`criteria` reads the question's enumerated segments (the part that announces them,
when one does: list lines after a colon, or a sentence enumerating with semicolons), each
without function and question words or product names; a segment naming a lexicon concept
also finds that concept's synonyms. :func:`criterion_scores` weighs a document against each
(its title counting three times). Every word list is the lexicon's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from preuve.synthesis.lexicon import Lexicon, fold, fold1
from preuve.synthesis.planner_relevance import stems as _stems
from preuve.synthesis.statements import product_mentions, stem, term_pattern

__all__ = ["Criterion", "criteria", "criterion_scores", "criterion_words"]


def _joined(words: Sequence[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) or "(?!)"


@lru_cache(maxsize=16)
def _segment(lexicon: Lexicon) -> re.Pattern[str]:
    """Where a question's enumeration splits: punctuation and the lexicon's joining words."""
    joiners = _joined(lexicon.words("enumeration_words"))
    return re.compile(rf"[,;:()\[\]?!.\n]|(?<!\S)(?:{joiners})(?=\s)", re.I)


@dataclass(frozen=True, slots=True)
class Criterion:
    """One criterion the question names: its own content words (stemmed), and the phrases
    that also find its documents (every synonym of a lexicon concept it names)."""

    id: str
    label: str
    words: frozenset[str]
    phrases: frozenset[str]


def _concept_phrases(text: str, lexicon: Lexicon) -> set[str]:
    folded = fold(text)
    return {
        term
        for concept in lexicon.concepts
        if any(re.search(term_pattern(t), folded) for t in concept.terms)
        for term in concept.terms
    }


_MAX_CRITERION_WORDS = 4


def _criterion_text(segment: str, lexicon: Lexicon) -> str:
    """A long clause keeps what follows its last criterion cue (``... compare on X``)."""
    if len(_stems(segment, lexicon)) <= 2:
        return segment
    folded = fold1(segment)
    cues = [
        m.end()
        for cue in lexicon.criteria_cues
        for m in re.finditer(rf"(?<![a-z]){re.escape(cue)}(?![a-z])", folded)
    ]
    return segment[max(cues) :] if cues else segment


def _bare_label(text: str, lexicon: Lexicon) -> str:
    """A criterion without its leading function and question words ("Comparer la ...")."""
    words = " ".join(text.split()).split(" ")
    skipped = lexicon.stopwords | lexicon.question_words | frozenset(lexicon.words("articles"))
    while words and fold(re.split(r"['’]", words[0])[-1] or words[0]) in skipped:
        words = words[1:]
    if words and re.match(r"^[^\s'’]+['’]", words[0]):  # "l'état" is "état"
        elided, rest = re.split(r"['’]", words[0], maxsplit=1)
        if fold(elided) + "'" in lexicon.words("articles") or fold(elided) in skipped:
            words[0] = rest
    return " ".join(words)


_LIST_LINE = re.compile(r"^[ \t]*(?:\d+[.)]|[-*•+])[ \t]+")


def _announced(body: str) -> str | None:
    """The part of a question that announces its criteria, when one does: the list lines
    after a colon ("… covers:" then "1. …", "2. …"), or the rest of a sentence after a
    colon when it enumerates with semicolons ("sur cinq points : … ; … ; …"). The sentences
    around it (the context: a site, a fleet, a deadline) name no criterion."""
    lines = body.splitlines()
    for index, line in enumerate(lines):
        if not line.rstrip().endswith(":"):
            continue
        items: list[str] = []
        for following in lines[index + 1 :]:
            if _LIST_LINE.match(following):
                items.append(_LIST_LINE.sub("", following))
            elif following.strip() and items:
                items[-1] += " " + following.strip()  # an item continued on the next line
            elif items or following.strip():
                break
        if len(items) >= 2:
            return "\n".join(f"{item.rstrip(' .;')}." for item in items)
    flat = " ".join(body.split())
    for sentence in re.split(r"(?<=[.?!])\s+", flat):
        _, colon, rest = sentence.partition(":")
        if colon and rest.count(";") >= 2:
            return rest
    return None


def criteria(question: str, products: Sequence[str], lexicon: Lexicon) -> tuple[Criterion, ...]:
    """The criteria named in the question: its enumerated segments (split at commas,
    parentheses, ``et``/``and``...), without function words, question words or product
    names; a segment naming a lexicon concept also finds that concept's synonyms."""
    named = {stem(w) for p in products for w in fold(p).split()}
    body = "\n".join(line for line in question.splitlines() if not line.lstrip().startswith("#"))
    announced = _announced(body)
    body = announced or body
    # the sentence that names the candidates asks which one; an introduction ("evidence
    # on:") announces the criteria: neither is one
    sentences = [s for s in re.split(r"(?<=[.?!])\s+", body) if not product_mentions(products, s)]
    segments = [
        part
        for sentence in sentences
        for part in re.split(r"[^:]*:(?=\s)", sentence)  # drop what precedes a colon
    ]
    out: list[Criterion] = []
    for segment in (piece for part in segments for piece in _segment(lexicon).split(part)):
        # an announced criterion has lost its introduction already ("covers: scan rate on …")
        text = segment if announced else _criterion_text(segment, lexicon)
        words = _stems(text, lexicon) - named
        if not words or len(words) > _MAX_CRITERION_WORDS:
            continue  # an empty segment, or a whole clause rather than a criterion
        phrases = frozenset(_concept_phrases(text, lexicon))
        label = _bare_label(text, lexicon)
        if any(c.words == words and c.phrases == phrases for c in out):
            continue
        # by position in the label, then by the word: a set's order changes with the hash seed
        order = sorted(words, key=lambda w: (fold(label).find(w[:4]), w))
        out.append(
            Criterion("-".join(order[:3]) or f"c{len(out) + 1}", label, frozenset(words), phrases)
        )
    return tuple(out)


def criterion_words(found: Sequence[Criterion], entities: Sequence[str]) -> frozenset[str]:
    """The words of the criteria, without the names of the question's entities (a site or
    the buyer named in a criterion is no topic: "the pad available at Millbrook")."""
    named = {stem(w) for e in entities for w in fold(e).split()}
    return frozenset(w for c in found for w in c.words) - named


def criterion_scores(
    title: str, text: str, found: Sequence[Criterion], lexicon: Lexicon
) -> dict[str, int]:
    """How often each criterion's words and phrases occur in a document (its title counting
    three times)."""
    scores = {}
    for criterion in found:
        score = 0
        for weight, part in ((3, title), (1, text)):
            folded = fold(part)
            stems = Counter(stem(w) for w in re.findall(r"[a-z][a-z0-9-]+", folded))
            score += weight * sum(stems[w] for w in criterion.words)
            score += weight * sum(
                len(re.findall(term_pattern(p), folded)) for p in criterion.phrases
            )
        scores[criterion.id] = score
    return scores
