"""One unit table serves the quote check, the memo check and the synthesis lexicon: its
schema holds (exact factors, symbols apart from words) and no spelling means two units."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from preuve.core.unit_table import UNIT_TABLE, declared_unit_data, parse_units


def test_every_factor_is_an_exact_decimal_string() -> None:
    for dimension, units in declared_unit_data().items():
        assert isinstance(units["base"], str), dimension
        for name, spec in units.items():
            if name != "base":
                assert isinstance(spec["factor"], str), (dimension, name)
                assert set(spec) == {"factor", "symbols", "words"}, (dimension, name)


def test_each_dimension_has_its_base_at_factor_one() -> None:
    for dimension, units in declared_unit_data().items():
        base = [u for u in parse_units({dimension: units}) if u.name == units["base"]]
        assert [u.factor for u in base] == [Decimal(1)], dimension


def test_no_spelling_names_two_units() -> None:
    symbols = Counter(s for u in UNIT_TABLE.units for s in u.symbols)
    words = Counter(w.casefold() for u in UNIT_TABLE.units for w in u.words)
    assert [s for s, n in symbols.items() if n > 1] == []
    assert [w for w, n in words.items() if n > 1] == []
    assert set(symbols) & UNIT_TABLE.unconverted == set()
