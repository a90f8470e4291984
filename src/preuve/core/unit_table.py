"""The declared unit table, ``preuve/core/data/units.toml``: one file, one schema, for every
reader of a unit written after a number.

- the quote check (:mod:`preuve.core.units`) reads every symbol and word, and the
  unconverted symbols, to see where a unit ends;
- the memo check (:mod:`preuve.core.measures`) reads the units with their dimension and
  exact factor, to compare a memo figure's unit with its fact's or accept a conversion;
- the synthesis lexicon (``preuve.synthesis.lexicon``) reads the ``[units]`` tables,
  extended by a dossier's own lexicon (:func:`parse_units` on the merged data).

A unit is ``[units.DIMENSION] NAME = { factor = "F", symbols = [...], words = [...] }``:
``F`` a decimal string read exactly, symbols matched with their case as written, words in
any case; ``base`` names the unit at factor 1. The file is package data, read once at
import like the code beside it; no user file is read here.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from importlib import resources
from typing import Any

__all__ = ["UNIT_TABLE", "DeclaredUnit", "UnitTable", "declared_unit_data", "parse_units"]


@dataclass(frozen=True, slots=True)
class DeclaredUnit:
    """One unit: its name, dimension, exact factor to the dimension's base unit, its
    symbols (case as written) and its words (any case)."""

    name: str
    dimension: str
    factor: Decimal
    symbols: tuple[str, ...]
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UnitTable:
    """The whole declared table: units, and the rules that tell a unit from a word."""

    units: tuple[DeclaredUnit, ...]
    unconverted: frozenset[str]  # symbols with no factor: a measure, never converted
    singular_only: frozenset[str]  # quote check: a unit only after a value below 2
    not_after_year: frozenset[str]  # quote check: words not read after a year
    count_dimensions: frozenset[str]  # quote check: counted things, not read after a year
    only_in: Mapping[str, str]  # memo check: words read only in a text of that language


def parse_units(table: Mapping[str, Any]) -> tuple[DeclaredUnit, ...]:
    """The units of a ``[units]`` table (dimension → ``base`` and units); a malformed
    entry raises ``KeyError``, ``TypeError`` or ``ArithmeticError``."""
    out = []
    for dimension, units in table.items():
        for name, spec in units.items():
            if name == "base":
                continue
            out.append(
                DeclaredUnit(
                    str(name),
                    str(dimension),
                    Decimal(str(spec["factor"])),
                    tuple(str(s) for s in spec.get("symbols", ())),
                    tuple(str(w) for w in spec.get("words", ())),
                )
            )
    return tuple(out)


_DATA: dict[str, Any] = tomllib.loads(
    resources.files("preuve.core").joinpath("data/units.toml").read_text("utf-8")
)


def declared_unit_data() -> dict[str, Any]:
    """The ``[units]`` tables as parsed TOML (a copy the caller may extend and parse)."""
    return copy.deepcopy(_DATA["units"])


UNIT_TABLE = UnitTable(
    units=parse_units(_DATA["units"]),
    unconverted=frozenset(_DATA["unconverted"]["symbols"]),
    singular_only=frozenset(_DATA["ambiguous"]["singular_only"]),
    not_after_year=frozenset(_DATA["ambiguous"]["not_after_year"]),
    count_dimensions=frozenset(_DATA["ambiguous"]["count_dimensions"]),
    only_in={str(k): str(v) for k, v in _DATA["ambiguous"]["only_in"].items()},
)
