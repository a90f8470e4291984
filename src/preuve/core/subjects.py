"""Which company a stretch of text names, by declared aliases, never by a list of companies.

A :class:`SubjectIndex` is built from the subjects the facts name (``Maison Ferlac SAS``,
``Solvéa Énergies SA``) plus the aliases a user declares. Each subject is known by:

- its name as written, folded (case, accents, apostrophes: ``Solvea Energies SA``);
- its name without a legal form (``SA``, ``SAS``, ``plc``, ``Inc.``, ``GmbH``, ``S.A.`` ...);
- its name without generic leading words (``Maison``, ``Groupe``, ``The``): ``Ferlac``;
- its first distinctive word when it has four letters or more (``Solvéa``), unless two
  subjects share it.

A name of another company is also found when it ends with a legal form (``Delmar
Industries GmbH``) even if no fact names it: that is enough to know it is not the fact's
subject. A one-word alias only counts when written with a capital, so ``orange`` the
colour is not ``Orange SA``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from preuve.core.claim_lexicon import DEFAULT_LEXICON, ClaimLexicon
from preuve.core.claimtext import fold

__all__ = ["SubjectIndex", "SubjectMention", "subject_key"]

_MIN_SHORT_NAME = 4
_TOKEN = re.compile(r"[^\W_]+(?:&[^\W_]+)*")


def _tokens(name: str) -> list[str]:
    # "S.A." and "Inc." lose their dots so that they read as the words sa and inc.
    undotted = re.sub(r"(?<=\b\w)\.(?=\w\b\.?)|(?<=\b\w)\.", "", fold(name))
    return _TOKEN.findall(undotted)


def subject_key(name: str, lexicon: ClaimLexicon = DEFAULT_LEXICON) -> str:
    """The folded name without legal forms: the identity two spellings of a subject share."""
    tokens = _tokens(name)
    suffixes = set(lexicon.legal_suffixes)
    while len(tokens) > 1 and tokens[-1] in suffixes:
        tokens.pop()
    return " ".join(tokens)


def _variants(name: str, lexicon: ClaimLexicon) -> set[str]:
    key = subject_key(name, lexicon).split()
    generic = set(lexicon.generic_name_words)
    variants = {" ".join(_tokens(name)), " ".join(key)}
    stripped = list(key)
    while len(stripped) > 1 and stripped[0] in generic:
        stripped.pop(0)
    variants.add(" ".join(stripped))
    return {v for v in variants if v}


@dataclass(frozen=True, slots=True)
class SubjectMention:
    """A subject named at ``text[start:end]``; ``key`` is :func:`subject_key` of its
    canonical name, ``name`` that name as the facts (or the text) write it."""

    start: int
    end: int
    key: str
    name: str


@dataclass(frozen=True, slots=True)
class SubjectIndex:
    """Aliases of known subjects, longest first, each mapped to its subject's key."""

    aliases: tuple[tuple[str, str], ...]
    names: tuple[tuple[str, str], ...]
    lexicon: ClaimLexicon

    @classmethod
    def of(cls, subjects: Iterable[str], lexicon: ClaimLexicon = DEFAULT_LEXICON) -> SubjectIndex:
        """The index of ``subjects`` (as facts name them) and the lexicon's aliases."""
        declared = dict(lexicon.aliases)
        all_names = list(dict.fromkeys([*subjects, *declared]))
        by_alias: dict[str, set[str]] = {}
        names: dict[str, str] = {}
        for name in all_names:
            key = subject_key(name, lexicon)
            names.setdefault(key, name)
            spellings = _variants(name, lexicon)
            spellings |= {a for other in declared.get(name, ()) for a in _variants(other, lexicon)}
            distinctive = [t for t in key.split() if t not in set(lexicon.generic_name_words)]
            if distinctive and len(distinctive[0]) >= _MIN_SHORT_NAME:
                spellings.add(distinctive[0])
            for spelling in spellings:
                by_alias.setdefault(spelling, set()).add(key)
        unique = [(a, next(iter(k))) for a, k in by_alias.items() if len(k) == 1]
        unique.sort(key=lambda pair: (-len(pair[0]), pair[0]))
        return cls(tuple(unique), tuple(sorted(names.items())), lexicon)

    def name_of(self, key: str) -> str:
        return dict(self.names).get(key, key)

    def knows(self, key: str) -> bool:
        return key in dict(self.names)

    def mentions(self, text: str, skip: Sequence[tuple[int, int]] = ()) -> list[SubjectMention]:
        """Subjects named in ``text`` outside the ``skip`` spans (quoted passages), in order:
        known subjects by alias, and unknown names that end with a legal form."""
        folded = fold(text)
        taken: list[tuple[int, int]] = list(skip)
        found: list[SubjectMention] = []
        for alias, key in self.aliases:
            if alias.split()[0] not in folded:
                continue  # cheap test first: a paragraph names few of many subjects
            pattern = r"[\s.-]+".join(re.escape(part) for part in alias.split())
            suffix = "|".join(
                r"\.?".join(map(re.escape, s)) for s in self.lexicon.legal_suffixes
            )  # "sa" also as "S.A."
            regex = re.compile(rf"(?<![\w-]){pattern}(?:\s+(?:{suffix})\b\.?)?(?![\w-])")
            for match in regex.finditer(folded):
                start, end = match.span()
                if any(s < end and start < e for s, e in taken):
                    continue
                if " " not in alias and not text[start].isupper():
                    continue  # a one-word alias must be a proper noun
                taken.append((start, end))
                found.append(SubjectMention(start, end, key, self.name_of(key)))
        found += self._unknown_names(text, taken)
        return sorted(found, key=lambda m: m.start)

    def _unknown_names(self, text: str, taken: list[tuple[int, int]]) -> list[SubjectMention]:
        suffixes = "|".join(
            re.escape(s) for s in sorted(self.lexicon.legal_suffixes, key=len, reverse=True)
        )
        upper = r"[A-ZÀ-ÖØ-Þ][\w&'’.-]*"
        pattern = re.compile(
            rf"(?<![\w-])((?:{upper}\s+){{1,4}}(?i:{suffixes}|s\.a\.s?\.?|inc\.)\.?)(?![\w-])"
        )
        found = []
        position = 0
        while (match := pattern.search(text, position)) is not None:
            start, end = match.span(1)
            overlap = [e for s, e in taken if s < end and start < e]
            if overlap:
                position = max(start + 1, min(overlap))
                continue
            position = end
            words = match.group(1).split()
            if len(words[-1].strip(".")) <= 2 and not words[-1].isupper():
                continue  # "Le Co" or "En As": a capital word before a short lower word
            key = subject_key(match.group(1), self.lexicon)
            if not set(key.split()) - set(self.lexicon.generic_name_words):
                continue  # "The Corporation": no name in it
            found.append(SubjectMention(start, end, key, match.group(1).strip()))
        return found
