"""Licences, statuses and yes/no properties a sentence states (the rules sub-agent's readers
of what is no quantity).

Licences: a licence name of the lexicon, or an acronym, next to a licence word; the kind
alone when stated as the product's licence; ``une licence commerciale`` is a requirement and
``n'est plus sous licence`` the past. The state of an identified advisory: ``CVE-2026-1234``
with a status word of the lexicon, the last one written winning. Yes/no properties: a
declared cue of that answer (``holds a SOC 2 Type II attestation``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from preuve.core.patterns import compiled
from preuve.synthesis.lexicon import Lexicon, fold, fold1
from preuve.synthesis.values import Value

__all__ = ["advisories", "licence_values", "property_values", "status_of"]

# "corrigée dans le firmware NV-200 version 2.14.1", "fixed in 5.8.3": a dotted version
# within a few words after the state
_VERSION = re.compile(
    r"\s*(?:[^\s.;]+\s+){0,6}?v?(?P<v>\d+(?:\.\d+){1,3})(?!\d|\.\d)", re.IGNORECASE
)
# "version 4.8.1, released on 2 June, fixes ...": a dotted version a few words before the state,
# in its clause
_VERSION_BEFORE = re.compile(
    r"(?<![\w.])v?(?P<v>\d+(?:\.\d+){1,3})(?![\w.]|\.\d)[^;.:]{0,60}$", re.IGNORECASE
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


def _licence_terms(lexicon: Lexicon) -> tuple[str, ...]:
    concept = lexicon.concept("licence")
    return concept.terms if concept else ("licence", "license")


def _find(folded: str, word: str, start: int = 0) -> list[int]:
    pattern = rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])"
    return [m.start() for m in compiled(pattern).finditer(folded, start)]


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
            (abs(p - te), -len(alias), aliases[0])
            for aliases in lexicon.licence_names
            for alias in aliases[1:]
            for p in _find(folded, alias)
            if near(p, p + len(alias))
        ]
        return min(hits)[2] if hits else None

    kinds_end = te + _kinds_length(folded[te:], lexicon)
    acronym = _ACRONYM.match(sentence[kinds_end:])
    # a name after the word ("licence MIT"), or containing it ("Business Source License"),
    # else one the document declares ("the Orla Fair Use Licence (OFUL)"), else an acronym
    # after it ("licence TSL"), else a name just before ("MIT license")
    canonical = named(lambda p, e: te - 1 <= p <= kinds_end + 25 or p <= ts < te <= e)
    declared = _declared_licence(sentence, ts, te) if canonical is None else None
    if declared is not None:
        return declared
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


# "the Orla Fair Use Licence (OFUL) 1.0": capitalized words ending with the licence word, then
# an acronym in parentheses and a version, both optional
_DECLARED_NAME = re.compile(r"(?:(?<=[\s(])|^)(?P<name>(?:[A-Z][\w-]*\s+){1,5})$")
_DECLARED_TAIL = re.compile(
    r"^\**\s*(?:\((?P<acronym>[A-Z][A-Za-z0-9-]{1,9})\))?\**\s*(?:v(?:ersion\s+)?)?"
    r"(?P<version>\d+(?:\.\d+)*)?(?!\w|\.\d)"
)


def _declared_licence(sentence: str, ts: int, te: int) -> Value | None:
    """A licence a document names itself: capitalized words ending with the licence word
    ("the Orla Fair Use Licence (OFUL) 1.0"), keyed by its acronym when it declares one (the
    document then writes "OFUL"), with its version."""
    head = _DECLARED_NAME.search(sentence[:ts].replace("*", " "))
    if head is None or not sentence[ts : ts + 1].isupper():
        return None
    if sentence[: head.start()].rstrip().endswith("("):
        return None  # "licence TSL (Tessa Source License)": the expansion of a name before
    tail = _DECLARED_TAIL.match(sentence[te:])
    acronym = tail.group("acronym") if tail else None
    version = tail.group("version") if tail else None
    if acronym is None and len(head.group("name").split()) < 2:
        return None  # "Désignation Licence ...": a label, not a name ("Orla Fair Use Licence")
    name = " ".join(f"{head.group('name')}{sentence[ts:te]}".split())
    shown = " ".join(x for x in (acronym or name, version) if x)
    end = te + (tail.end() if tail else 0)
    return Value("licence", ts, end, shown, ("licence", fold(shown)))


_COPULA_LICENCE = re.compile(
    r"(?:\bis|\best|\bunder|\bsous|\bremains under|\breste sous)\s+(?:(?:the|la|le)\s+|l')?$"
)


def _bare_licences(sentence: str, folded: str, lexicon: Lexicon) -> list[Value]:
    """A licence name of the lexicon stated without a licence word, after a copula ("Orla is
    GPLv3", "reste sous AGPL"): the product's licence."""
    out: list[Value] = []
    for aliases in lexicon.licence_names:
        for alias in aliases[1:]:
            for p in _find(folded, alias):
                before = folded[:p]
                if _COPULA_LICENCE.search(before):
                    not_current, _ = _licence_grammar(lexicon)
                    if not not_current.search(before):
                        written = sentence[p : p + len(alias)]  # the check finds it so
                        out.append(
                            Value("licence", p, p + len(alias), written,
                                  ("licence", fold(aliases[0])))
                        )  # fmt: skip
    # the longest name at a place ("MPL 2.0", not also its "MPL")
    return [v for v in out if not any(o.start <= v.start and v.end < o.end for o in out)]


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
    keys = {v.key for v in out}
    out += [v for v in _bare_licences(sentence, folded, lexicon) if v.key not in keys]
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


def _negated(
    folded: str, hit: tuple[int, int, str], lexicon: Lexicon
) -> tuple[int, int, str] | None:
    """A state word right after a negator, or after the noun phrase it opens ("no fixed
    firmware is available", "aucune version corrigée", "aucune version de firmware
    corrigée"), is the opposite advisory state; another state negated is none."""
    negators = lexicon.alternation("status_negators")
    begin = max(0, hit[0] - 40)
    negator = re.search(rf"{negators}\s+(?:[\w'-]+\s+){{0,3}}$", folded[begin : hit[0]])
    if negator is None:
        return hit
    states = lexicon.advisory_states
    if len(states) > 1 and hit[2] == states[0]:
        start = begin + negator.start()  # the state shown with its negator: "no fixed"
        return (start, hit[1] - (hit[0] - start), states[1])
    return None


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
    kept = [n for h in kept if (n := _negated(folded, h, lexicon)) is not None]
    if not kept:
        return None
    start, negative_length, group = max(kept, key=lambda h: (h[0], -h[1]))
    end = start - negative_length
    version = _VERSION.match(sentence[end:]) if group in lexicon.advisory_states else None
    written = " ".join(sentence[start:end].split())
    before = _VERSION_BEFORE.search(sentence[:start]) if group in lexicon.advisory_states else None
    if version is None and before is not None:
        # "la version 4.8.1, publiée le 2 juin 2026, corrige la vulnérabilité"
        shown = " ".join(sentence[before.start("v") : end].split())
        return Value("status", before.start("v"), end, shown, ("status", group, before.group("v")))
    if version is not None:
        shown = " ".join(sentence[start : end + version.end()].split())
        return Value("status", start, end, shown, ("status", group, version.group("v")))
    negators = lexicon.alternation("status_negators")
    if re.match(negators, folded[start:end]) and folded[start:end] not in set(
        lexicon.statuses.get(group, ())
    ):  # a state negated ("no fixed"), not a state word of its own ("aucun correctif")
        # a negated state is shown with the rest of its clause, as written ("no fixed
        # firmware is available"): "no fixed" alone says less than the document
        rest = _NEGATED_REST.match(sentence[end:])
        written = " ".join(sentence[start : end + (rest.end() if rest else 0)].split())
    return Value("status", start, end, written, ("status", group, None))


_NEGATED_REST = re.compile(r"(?:[ \t]+(?![\d.])[^\s,;:.()!?]+){0,6}")


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


def advisories(sentence: str, lexicon: Lexicon, lang: str) -> list[tuple[str, Value]]:
    ids = [m.group() for p in lexicon.id_patterns for m in p.finditer(sentence)]
    state = status_of(sentence, lexicon, lang, lexicon.advisory_states) if ids else None
    return [] if state is None else [(i, state) for i in dict.fromkeys(ids)]
