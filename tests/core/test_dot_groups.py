"""How a table's amounts use the dot decides ``58.000`` (made-up amounts)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.dot_groups import DotReading, dot_reading, one_dot_group, read_with_dots


@pytest.mark.parametrize(
    ("raws", "expected"),
    [
        (["2.345.118", "47.900", "(12.500)"], DotReading.THOUSANDS),
        (["7.204,5", "310.000"], DotReading.THOUSANDS),
        (["12.5", "47.900"], DotReading.DECIMAL),
        (["1,204", "2.125"], DotReading.DECIMAL),
        (["47.900", "(3.250)", "810"], None),  # nothing tells
        (["1.234.567", "0.25"], None),  # both readings shown: doubtful
        ([], None),
    ],
)
def test_the_table_s_amounts_decide_the_dot(raws: list[str], expected: DotReading | None) -> None:
    assert dot_reading(raws) is expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("47.900", True),
        ("(12.500)", True),
        ("-126.450", True),
        ("1.234.567", False),
        ("12.5", False),
        ("47900", False),
        ("6.10", False),
    ],
)
def test_one_dot_group(raw: str, expected: bool) -> None:
    assert one_dot_group(raw) is expected


def test_a_one_group_amount_is_read_as_its_table_reads_dots() -> None:
    as_decimal = Decimal("-12.500")
    assert read_with_dots("(12.500)", as_decimal, DotReading.THOUSANDS) == Decimal(-12500)
    assert read_with_dots("(12.500)", as_decimal, DotReading.DECIMAL) == as_decimal
    assert read_with_dots("(12.500)", as_decimal, None) is None
    # an amount whose dot is no question keeps its value whatever the table
    assert read_with_dots("1.234.567", Decimal(1234567), None) == Decimal(1234567)
