"""A claim's value must be stated by the lines it cites (workflow 3's value check)."""

from __future__ import annotations

import pytest

from preuve.core.stated import unstated

LINE = "Product P-10-36 quantity: 2,100 units."
DATE = "Product P-10-36 delivery: 10 December 2026."
FR = "Produit P-7 : quantité livrée 1 250,5 tonnes."


@pytest.mark.parametrize(
    ("value", "lines", "stated"),
    [
        pytest.param("2,100 units", [LINE], True, id="copied"),
        pytest.param("2100 units", [LINE], True, id="same-number-other-format"),
        pytest.param("10 December 2026", [DATE], True, id="date"),
        pytest.param("1 250,5 tonnes", [FR], True, id="french-decimal"),
        pytest.param("Units", [LINE], True, id="case-folded"),
        pytest.param("2,345.67", [LINE], False, id="rewritten-figure"),
        pytest.param(".2, ", [LINE], False, id="fragment-of-a-number"),
        pytest.param(", ", [LINE], False, id="no-word-no-number"),
        pytest.param("2,100 pallets", [LINE], False, id="word-of-the-model"),
        pytest.param("21 units", [LINE], False, id="digits-cut-from-a-number"),
        pytest.param("11 December 2026", [DATE], False, id="day-changed"),
        pytest.param("1 250,5 tonnes", [LINE, FR], True, id="second-line-states-it"),
    ],
)
def test_a_value_is_stated_by_its_cited_lines(value: str, lines: list[str], stated: bool) -> None:
    why = unstated(value, lines)
    assert (why is None) is stated, why
    if not stated:
        assert why is not None and repr(value) in why
