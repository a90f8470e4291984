"""Affirmed facts only: read each fact line in its context before treating it as current.

A line may be shaped like a fact and still not be one: it sits inside a quoted message,
a struck or withdrawn entry kept for the record, a hypothetical ("if ..., the line would
read:"), a reported or negated claim, or an archived instruction. :func:`line_contexts`
reads a document's lines in order, with the blank lines between them, and says for each
line which fact it states (:class:`~preuve.digest.grammar.FactGrammar`) and whether that
fact is affirmed. What puts a line out of the current record:

- a **delimited block** it stands in: a fence (```` ``` ````), a ``BEGIN ... / END ...``
  marker, an opening tag (``<blockquote>``, ``[quote]``, ``<del>``), or a quotation opened
  by a quote mark on an earlier line and not yet closed;
- a **heading** (``# ...``, ``== ... ==``) whose words carry a cue, until the next heading;
- an **introducing line** carrying a cue and ending with ``:`` or pointing forward
  ("the following", "below"): it governs the fact lines right after it, up to a blank
  line or a line that is not a fact line;
- a **note pointing back** ("the line above was struck") governing the fact lines right
  before it;
- a cue inside the **value** itself ("if approved", "reportedly").

The cues are declared data (``data/affirmation.json``), grouped by context, never words
of one corpus; the first context whose cue matches names the reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from preuve.digest.grammar import FactGrammar, FactTuple

__all__ = [
    "DEFAULT_CUES",
    "AffirmationCues",
    "LineContext",
    "cues_from_data",
    "line_contexts",
]

_HEADING = re.compile(r"#{1,6}\s+\S.*|([=*_-]{2,})\s*\S.*?\s*\1|\[[^\]]+\]")
_DECORATED_BEGIN = re.compile(r"[-=*#<\[~_|(]+\s*(?:begin|start)\b.*", re.IGNORECASE)
_UPPER_BEGIN = re.compile(r"[\W_]*(?:BEGIN|START)\b.*")
_DECORATED_END = re.compile(r"[-=*#<\[~_|(]+\s*end\b.*", re.IGNORECASE)
_UPPER_END = re.compile(r"[\W_]*END\b.*")
# Headings and block markers are short lines; a long line is never read as one (and the
# patterns, with their backreference, stay linear).
_MARKER_LENGTH = 160
_ENDS = re.compile(r"\b(?:end|ends|ended|stop)\b", re.IGNORECASE)


def _words(items: Sequence[str]) -> re.Pattern[str] | None:
    if not items:
        return None
    ordered = sorted(items, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(i) for i in ordered) + r")(?!\w)", re.I)


@dataclass(frozen=True, slots=True)
class AffirmationCues:
    """Compiled cues: per context, the words that take a line out of the current record."""

    data: Mapping[str, Any]
    contexts: tuple[tuple[str, re.Pattern[str]], ...]
    value_contexts: frozenset[str]
    forward: re.Pattern[str] | None
    backward: re.Pattern[str] | None
    quote_pairs: tuple[tuple[str, str], ...]
    straight_quotes: tuple[str, ...]
    line_quote_prefixes: tuple[str, ...]
    fences: tuple[str, ...]
    open_tags: tuple[str, ...]
    close_tags: tuple[str, ...]

    def context_of(self, text: str, only: frozenset[str] | None = None) -> str | None:
        """The first context whose cue occurs in ``text`` (among ``only`` when given)."""
        for name, pattern in self.contexts:
            if (only is None or name in only) and pattern.search(text):
                return name
        return None


def _strings(data: Mapping[str, Any], name: str) -> tuple[str, ...]:
    value = data.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"affirmation cues: {name!r} must be a list of non-empty strings")
    return tuple(value)


def cues_from_data(data: Mapping[str, Any]) -> AffirmationCues:
    """Compile cue ``data`` (format ``preuve.digest.affirmation/1``)."""
    contexts = data.get("contexts")
    if not isinstance(contexts, dict) or not contexts:
        raise ValueError("affirmation cues: 'contexts' must be a non-empty object")
    compiled: list[tuple[str, re.Pattern[str]]] = []
    for name in contexts:
        pattern = _words(_strings(contexts, name))
        if pattern is not None:
            compiled.append((name, pattern))
    pairs = data.get("quote_pairs", [])
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(c, str) and c for c in p)
        for p in pairs
    ):
        raise ValueError("affirmation cues: 'quote_pairs' must be a list of [open, close]")
    return AffirmationCues(
        data=data,
        contexts=tuple(compiled),
        value_contexts=frozenset(_strings(data, "value_contexts")),
        forward=_words(_strings(data, "forward_references")),
        backward=_words(_strings(data, "backward_references")),
        quote_pairs=tuple((str(a), str(b)) for a, b in pairs),
        straight_quotes=_strings(data, "straight_quotes"),
        line_quote_prefixes=_strings(data, "line_quote_prefixes"),
        fences=_strings(data, "fences"),
        open_tags=tuple(t.lower() for t in _strings(data, "open_tags")),
        close_tags=tuple(t.lower() for t in _strings(data, "close_tags")),
    )


def _default() -> AffirmationCues:
    text = resources.files("preuve.digest").joinpath("data", "affirmation.json").read_text("utf-8")
    return cues_from_data(json.loads(text))


DEFAULT_CUES = _default()


@dataclass(frozen=True, slots=True)
class LineContext:
    """One line read in its document: the fact it states, if any, and why it is not affirmed."""

    fact: FactTuple | None
    context: str | None = None
    reason: str = ""

    @property
    def affirmed(self) -> bool:
        """True when the line states a fact and nothing around it takes it back."""
        return self.fact is not None and self.context is None


@dataclass(slots=True)
class _Scope:
    """A context in force, where it came from."""

    context: str
    source: str


@dataclass(slots=True)
class _State:
    block: _Scope | None = None
    block_end: str = ""  # "fence:```", "tag", "marker", "quote"
    depth: int = 0
    section: _Scope | None = None
    intro: _Scope | None = None
    results: list[LineContext] = field(default_factory=list)


def _preview(text: str) -> str:
    return repr(text if len(text) <= 70 else text[:67] + "...")


def _quote_balance(text: str, cues: AffirmationCues, *, opening: bool = True) -> int:
    """How many quotations ``text`` leaves open (negative: closes earlier ones).

    Paired marks count open minus close; a straight mark toggles, so an odd count opens
    a quotation when none is open (``opening``) and closes one otherwise.
    """
    balance = 0
    for start, end in cues.quote_pairs:
        if start != end:
            balance += text.count(start) - text.count(end)
    odd = sum(text.count(mark) % 2 for mark in cues.straight_quotes)
    return balance + odd if opening else balance - odd


def _opens_block(text: str, cues: AffirmationCues) -> tuple[str, str] | None:
    """``(end rule, context)`` when ``text`` opens a delimited block."""
    lowered = text.lower()
    for fence in cues.fences:
        if text.startswith(fence):
            return f"fence:{fence}", cues.context_of(text[len(fence) :]) or "quotation"
    for tag in cues.open_tags:
        # Only a tag on a line of its own opens a block; "[struck] text" marks that line.
        if lowered == tag:
            strike = tag.strip("<>[]") in ("del", "s", "strike", "struck")
            return "tag", "struck" if strike else cues.context_of(text) or "quotation"
    if len(text) <= _MARKER_LENGTH and (
        _DECORATED_BEGIN.fullmatch(text) or _UPPER_BEGIN.fullmatch(text)
    ):
        return "marker", cues.context_of(text) or "quotation"
    return None


def _closes_block(text: str, state: _State, cues: AffirmationCues) -> bool:
    rule = state.block_end
    if rule.startswith("fence:"):
        return text.startswith(rule[6:])
    if rule == "tag":
        lowered = text.lower()
        return any(tag in lowered for tag in cues.close_tags)
    if rule == "marker":
        short = len(text) <= _MARKER_LENGTH
        return short and bool(_DECORATED_END.fullmatch(text) or _UPPER_END.fullmatch(text))
    state.depth += _quote_balance(text, cues, opening=False)
    return state.depth <= 0


def _in_block(text: str, state: _State, cues: AffirmationCues, fact: FactTuple | None) -> bool:
    """Handle a line inside (or opening, or closing) a delimited block; True if it was."""
    if state.block is not None:
        scope = state.block
        if _closes_block(text, state, cues):
            state.block, state.depth = None, 0
        state.results.append(LineContext(fact, scope.context, f"inside a block {scope.source}"))
        return True
    opened = _opens_block(text, cues)
    if opened is not None:
        rule, context = opened
        state.block = _Scope(context, f"opened by {_preview(text)}")
        state.block_end = rule
        state.results.append(LineContext(fact, context, f"opens a block: {_preview(text)}"))
        return True
    balance = _quote_balance(text, cues) if fact is None else 0
    if balance > 0:
        # A quotation opened here and not closed on this line runs on to later lines.
        state.block = _Scope("quotation", f"quoted from {_preview(text)}")
        state.block_end, state.depth = "quote", balance
        state.results.append(LineContext(fact, "quotation", "opens a quotation"))
        return True
    return False


def _governs_forward(text: str, cues: AffirmationCues) -> bool:
    return text.endswith((":", "：")) or (
        cues.forward is not None and bool(cues.forward.search(text))
    )


def _look_back(text: str, state: _State, cues: AffirmationCues) -> None:
    """A note pointing back ("the line above was struck") governs the fact lines before it."""
    if cues.backward is None or not cues.backward.search(text):
        return
    context = cues.context_of(text)
    if context is None:
        return
    index = len(state.results) - 1
    while index >= 0 and state.results[index].fact is not None:
        before = state.results[index]
        if before.context is None:
            state.results[index] = LineContext(
                before.fact, context, f"taken back by the note {_preview(text)}"
            )
        index -= 1


def line_contexts(
    rows: Sequence[tuple[str, bool]],
    grammar: FactGrammar,
    cues: AffirmationCues = DEFAULT_CUES,
) -> tuple[LineContext, ...]:
    """One :class:`LineContext` per row ``(line text, blank line before it)``, in order."""
    state = _State()
    for raw, after_blank in rows:
        text = raw.strip()
        fact = grammar.parse(text)
        if after_blank:
            state.intro = None
        if _in_block(text, state, cues, fact):
            continue
        if text.startswith(cues.line_quote_prefixes):
            state.results.append(LineContext(fact, "quotation", "a quoted line"))
            continue
        if fact is None and len(text) <= _MARKER_LENGTH and _HEADING.fullmatch(text):
            # A decorated "end of ..." line closes what its opening line began.
            context = None if _ENDS.search(text) else cues.context_of(text)
            state.section = (
                _Scope(context, f"under the heading {_preview(text)}") if context else None
            )
            state.intro = None
            state.results.append(LineContext(None))
            continue
        if fact is None:
            _look_back(text, state, cues)
            state.results.append(LineContext(None))
            context = cues.context_of(text) if _governs_forward(text, cues) else None
            state.intro = _Scope(context, f"introduced by {_preview(text)}") if context else None
            continue
        scope = state.section or state.intro
        if scope is not None:
            state.results.append(LineContext(fact, scope.context, scope.source))
            continue
        in_value = cues.context_of(fact.value, cues.value_contexts)
        if in_value is not None:
            state.results.append(LineContext(fact, in_value, f"its value {fact.value!r}"))
            continue
        state.results.append(LineContext(fact))
    return tuple(state.results)
