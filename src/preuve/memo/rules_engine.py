"""The rules engine of workflow 1: the reader and writer roles as deterministic handlers.

Each handler reads only its request's rendered messages, as a model sees them (the pages or
the sentence catalogue for the reader, the fact lines for the writer), never gold labels,
and answers the JSON an LLM would, checked by the same verifiers. Its outputs are labelled
``engine: rules``."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from types import MappingProxyType

from preuve.memo.reader import READER_TASK, rules_reader
from preuve.memo.risk_cues import CueSet
from preuve.memo.writer import WRITER_TASK, rules_writer
from preuve.models.rules import RulesHandler, RulesModel

__all__ = ["MEMO_RULES_HANDLERS", "MEMO_RULES_VERSION", "memo_rules_model"]

MEMO_RULES_VERSION = "memo-rules-2"
"""Bump when a handler's output changes, so caches built by older rules are told apart."""

MEMO_RULES_HANDLERS: Mapping[str, RulesHandler] = MappingProxyType(
    {READER_TASK: rules_reader, WRITER_TASK: rules_writer}
)


def memo_rules_model(cues: CueSet | None = None) -> RulesModel:
    """The rules engine for the two roles of workflow 1, reading risks with ``cues`` (a
    user's, ``preuve memo --cues FILE``; the bundled ones when None). The cue set is the
    engine's own, not the process's: two engines with different cues run side by side, and
    one shipped to a remote worker takes its cues with it."""
    if cues is None:
        return RulesModel(MEMO_RULES_HANDLERS, version=MEMO_RULES_VERSION)
    handlers = {
        READER_TASK: partial(rules_reader, cues=cues),
        WRITER_TASK: partial(rules_writer, cues=cues),
    }
    return RulesModel(handlers, version=MEMO_RULES_VERSION)
