"""Fields written in a prompt as ``|`` rows read back exactly (preuve.core.cells)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.cells import cell, items, row, split_items, split_row, unescape

CASES = [
    ("plain", "Kestrel Serve", "Kestrel Serve"),
    ("a bar", "A | B", "A \\| B"),
    ("a semicolon", "Apache 2.0; gratuit", "Apache 2.0\\; gratuit"),
    ("a line break", "deux\nlignes", "deux\\nlignes"),
    ("a backslash", "C:\\dossier", "C:\\\\dossier"),
    ("empty", "", ""),
]


@pytest.mark.parametrize(("text", "written"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_cell_escapes_only_its_separators(text: str, written: str) -> None:
    assert cell(text) == written
    assert unescape(written) == text


def test_a_row_splits_at_its_separators_only() -> None:
    line = row([cell("A | B"), cell(""), cell(" spaced "), items([cell("x;y"), cell("z")])])
    assert line == "A \\| B |  |  spaced  | x\\;y ; z"
    cells = split_row(line)
    assert [unescape(c) for c in cells[:3]] == ["A | B", "", " spaced "]
    assert split_items(cells[3]) == ["x;y", "z"]
    assert split_items("") == []


@given(st.lists(st.lists(st.text(), min_size=1, max_size=4), min_size=1, max_size=5))
def test_rows_of_items_round_trip(fields: list[list[str]]) -> None:
    line = row(items(cell(value) for value in values) for values in fields)
    assert "\n" not in line
    assert [split_items(c) if c else [""] for c in split_row(line)] == [
        values if values != [""] else [""] for values in fields
    ]
