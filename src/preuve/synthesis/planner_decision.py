"""The decision a committee question asks for: the noun phrase its decision verb governs.

"The board must pick the message broker that ...", "Quel serveur d'inférence LLM la
plateforme doit-elle retenir": :func:`decision_object` gives the stems of that phrase,
:func:`decision_head` its head noun(s), :func:`deciding_words` the content words of the
deciding sentence; :func:`stems` the content words of any text. Every word list is the
lexicon's (``[grammar]``). Relevance weighs documents against them
(:mod:`preuve.synthesis.planner_relevance`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from preuve.synthesis.lexicon import Lexicon, fold
from preuve.synthesis.statements import stem

__all__ = ["deciding_words", "decision_head", "decision_object", "stems"]


def stems(text: str, lexicon: Lexicon) -> set[str]:
    """Content words, stemmed; a hyphenated word also counts as its parts."""
    words = re.findall(r"[a-z][a-z0-9-]+", fold(text))
    words += [part for w in words if "-" in w for part in w.split("-")]
    return {
        stem(w)
        for w in words
        if len(w) >= 3 and w not in lexicon.stopwords and w not in lexicon.question_words
    }


_TOKEN = re.compile(r"[^\W_][\w-]*|['’]|[^\w\s]")


def _object_phrase(question: str, lexicon: Lexicon) -> list[tuple[str, bool]]:
    """The content words of the decision's noun phrase, in order, each with whether a
    coordinator ("et", "and") stands right before it."""
    body = " ".join(line for line in question.splitlines() if not line.lstrip().startswith("#"))
    verbs = set(lexicon.words("decision_verbs")) | set(lexicon.words("interrogatives"))
    # the first sentence that decides is the decision ("... quelle valeur est retenue" in a
    # later sentence asks about contradictions, not about the choice)
    for sentence in re.split(r"(?<=[.?!])\s+", body):
        tokens = [fold(t) for t in _TOKEN.findall(sentence)]
        start = next((i + 1 for i, t in enumerate(tokens) if t in verbs), None)
        if start is not None:
            return _object_words(tokens, start, verbs, lexicon)
    return []


def decision_object(question: str, lexicon: Lexicon) -> frozenset[str]:
    """The stems of what the question decides on: the noun phrase a decision verb governs
    ("doit retenir, avant ..., la solution de géolocalisation et de télématique qui ...",
    "must pick the message broker that ...") or an interrogative asks about ("Quel serveur
    d'inférence LLM la plateforme ..."), up to a relative word or punctuation, without
    generic nouns ("solution", "service") or generic acronyms. Every word
    list is the lexicon's (``[grammar]``); empty when the question has no such phrase."""
    return frozenset(word for word, _ in _object_phrase(question, lexicon))


def decision_head(question: str, lexicon: Lexicon) -> frozenset[str]:
    """The head noun(s) of the decision object: the last word in English ("battery energy
    storage system" is a storage), the first in French ("solution de géolocalisation"),
    and each word a coordinator joins ("de géolocalisation et de télématique")."""
    phrase = _object_phrase(question, lexicon)
    if not phrase:
        return frozenset()
    head = phrase[-1][0] if lexicon.language(question) == "en" else phrase[0][0]
    joined = {
        word
        for i, (word, after) in enumerate(phrase)
        if after or (i + 1 < len(phrase) and phrase[i + 1][1])
    }
    return frozenset({head} | joined)


def _object_words(
    tokens: Sequence[str], start: int, verbs: set[str], lexicon: Lexicon
) -> list[tuple[str, bool]]:
    """The content words of the noun phrase at ``start`` (see :func:`decision_object`)."""
    if start < len(tokens) and tokens[start] == ",":  # ", avant la commission de 2027,"
        # the closing comma, not one inside a date ("before June 30, 2026, the ...")
        closing = next(
            (
                i
                for i in range(start + 1, len(tokens))
                if tokens[i] == "," and not (i + 1 < len(tokens) and tokens[i + 1].isdigit())
            ),
            None,
        )
        start = closing + 1 if closing is not None else start
    skipped = set(lexicon.words("determiners"))
    while start < len(tokens) and (
        tokens[start] in skipped or tokens[start] in "'" or f"{tokens[start]}'" in skipped
    ):  # "l'offre": the elided article too
        start += 1
    linkers = set(lexicon.words("noun_linkers"))
    coordinators = set(lexicon.words("list_words"))
    stops = set(lexicon.words("relative_words")) | lexicon.stopwords | lexicon.question_words
    generic = set(lexicon.words("generic_nouns")) | {fold(a) for a in lexicon.generic_acronyms}
    words: list[tuple[str, bool]] = []
    coordinated = False
    for i in range(start, len(tokens)):
        token = tokens[i]
        if token in linkers or token in "'" or f"{token}'" in linkers:
            coordinated = coordinated or token in coordinators
            continue
        if not token[:1].isalnum() or token in stops or token in verbs:
            break
        if token not in generic and not token.isdigit() and stem(token) not in dict(words):
            words.append((stem(token), coordinated))
        coordinated = False
    return words


def deciding_words(question: str, lexicon: Lexicon) -> frozenset[str]:
    """The content words of the question's first deciding sentence (its decision verb's)."""
    body = " ".join(line for line in question.splitlines() if not line.lstrip().startswith("#"))
    verbs = set(lexicon.words("decision_verbs")) | set(lexicon.words("interrogatives"))
    for sentence in re.split(r"(?<=[.?!])\s+", body):
        if {fold(t) for t in _TOKEN.findall(sentence)} & verbs:
            generic = set(lexicon.words("generic_nouns"))
            return frozenset(w for w in stems(sentence, lexicon) if w not in generic)
    return frozenset()
