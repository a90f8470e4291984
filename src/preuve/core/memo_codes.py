"""The defect codes of the memo check (:mod:`preuve.core.memocheck` documents each)."""

from __future__ import annotations

__all__ = [
    "BASE_MISMATCH",
    "LINK_NOT_IN_FACTS",
    "NO_SOURCE",
    "NO_STATEMENT",
    "NUMBER_NOT_IN_FACTS",
    "NUMBER_SIGN",
    "SCALE_MISMATCH",
    "TOO_MANY_SOURCES",
    "UNIT_MISMATCH",
    "UNKNOWN_SOURCE",
]

NO_SOURCE = "no_source"
NO_STATEMENT = "no_statement"
UNKNOWN_SOURCE = "unknown_source"
NUMBER_NOT_IN_FACTS = "number_not_in_facts"
NUMBER_SIGN = "number_sign"
LINK_NOT_IN_FACTS = "link_not_in_facts"
SCALE_MISMATCH = "scale_mismatch"
UNIT_MISMATCH = "unit_mismatch"
TOO_MANY_SOURCES = "too_many_sources"
BASE_MISMATCH = "base_mismatch"
