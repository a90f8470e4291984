"""A range a document states for a quantity, and the operating points inside it (ranges),
on sentences of domains no dossier here is about (dosing pumps, cold rooms, conveyors)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.ranges import range_of
from preuve.synthesis.types import Finding, Statement, StatementSource
from tests.synthesis.test_contradictions import SOURCES


@pytest.mark.parametrize(
    ("value", "passage", "expected"),
    [
        pytest.param(
            "1 200 m3/h",
            "| Plage de dosage | 0,5 à 1 200 m3/h |",
            ("0.5", "1200"),
            id="french-range-in-a-table-row",
        ),
        pytest.param(
            "25 kg",
            "Payload: -5 to 25 kg (counterweight)",
            ("-5", "25"),
            id="english-range-with-a-negative-low-bound",
        ),
        pytest.param(
            "3 m/s",
            "Belt speed 0.2 – 3 m/s, set per line",
            ("0.2", "3"),
            id="a-dash-closes-a-range",
        ),
        pytest.param("3 m/s", "Belt speed up to 3 m/s", None, id="a-bound-is-no-range"),
        pytest.param("12 m/s", "Belt speed 15 to 12 m/s", None, id="a-low-bound-above-is-none"),
        pytest.param("1 200 m3/h", "dosing at 1 200 m3/h for 4 h", None, id="a-single-value"),
    ],
)
def test_range_of(value: str, passage: str, expected: tuple[str, str] | None) -> None:
    found = range_of(value, passage)
    if expected is None:
        assert found is None
    else:
        assert found is not None
        low, high = expected
        assert found[2] / found[1] == Decimal(high) / Decimal(low)  # in a base unit


def _said(value: str, quote: str, doc_id: str) -> Statement:
    return Statement("Dosa P4", "débit", value, quote, (StatementSource(doc_id, quote=quote),))


def test_operating_points_inside_a_stated_range_contradict_no_one() -> None:
    """The pump's sheet gives its flow as a range; a test run at 25 m3/h and an incident at
    125 m3/h are points inside it, no claim about the flow; a maximum of 1 500 m3/h of
    another document still contradicts the sheet's 1 200."""
    sheet = _said("1 200 m3/h", "| Plage de débit | 0,1 à 1 200 m3/h |", "doc-02")
    test = _said("25 m3/h", "essai de débit à 25 m3/h sur 10 % des pompes", "doc-06")
    stop = "Pendant le dosage (débit 125 m3/h), la pompe s'est arrêtée"
    incident = _said("125 m3/h", stop, "doc-09")
    assert find_contradictions([Finding("flow", (sheet, test, incident))], SOURCES) == ()
    claim = _said("1 500 m3/h", "Débit maximal : 1 500 m3/h", "doc-05")
    [found] = find_contradictions([Finding("flow", (sheet, test, incident, claim))], SOURCES)
    assert [v.value for v in found.values] == ["1 500 m3/h", "1 200 m3/h"]
