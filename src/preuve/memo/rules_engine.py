"""The rules engine of workflow 1: the reader and writer roles as deterministic handlers.

Each handler reads only its request's rendered messages, as a model sees them (the pages or
the sentence catalogue for the reader, the fact lines for the writer), never gold labels,
and answers the JSON an LLM would, checked by the same verifiers. Its outputs are labelled
``engine: rules``."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from preuve.memo.reader import READER_TASK, rules_reader
from preuve.memo.writer import WRITER_TASK, rules_writer
from preuve.models.rules import RulesHandler, RulesModel

__all__ = ["MEMO_RULES_HANDLERS", "MEMO_RULES_VERSION", "memo_rules_model"]

MEMO_RULES_VERSION = "memo-rules-2"
"""Bump when a handler's output changes, so caches built by older rules are told apart."""

MEMO_RULES_HANDLERS: Mapping[str, RulesHandler] = MappingProxyType(
    {READER_TASK: rules_reader, WRITER_TASK: rules_writer}
)


def memo_rules_model() -> RulesModel:
    """The rules engine for the two roles of workflow 1."""
    return RulesModel(MEMO_RULES_HANDLERS, version=MEMO_RULES_VERSION)
