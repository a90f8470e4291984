"""Both sides of a contradiction read, on texts of their own (cold rooms, incubators).

Each case is a failure mechanism found on an unseen dossier, reproduced in other wording:
a temperature is a quantity (degrees Celsius), and how closely a controller keeps a
setpoint is one quantity whatever a datasheet or a trial calls it (a sensor's accuracy is
another); "up to" before a rate is its claim, not a limit; a label of common words is what
its value is, not whom it is about.
"""

from __future__ import annotations

from datetime import date

import pytest

from preuve.core.numbers import Locale
from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.reader import document_reads
from preuve.synthesis.types import Finding, Statement, StatementSource
from preuve.synthesis.values import read_values

SOURCES = {
    "sheet": SourceInfo("sheet", date(2026, 1, 12), SourceType.VENDOR_NOTE),
    "trial": SourceInfo("trial", date(2026, 5, 3), SourceType.INTERNAL_BENCHMARK),
}


def _statements(doc_id: str, title: str, text: str, products: list[str]) -> list[Statement]:
    document = {"id": doc_id, "title": title, "text": text}
    found, _ = document_reads(document, products, default_lexicon(), "en", Locale.EN)
    return [
        Statement(
            r.subject,
            r.attribute,
            r.value,
            r.text,
            (StatementSource(doc_id, r.value, r.quote),),
            " ".join(r.context),
        )
        for r in found
    ]


@pytest.mark.parametrize(
    ("text", "locale", "expected"),
    [
        pytest.param("Holds within ±0.5 °C.", Locale.EN, ("0.5 °C", "0.5")),
        pytest.param("Écart maximal : ±0,8 °C.", Locale.FR, ("0,8 °C", "0.8")),
        pytest.param("It wandered 1.5 degrees C off.", Locale.EN, ("1.5 degrees C", "1.5")),
        pytest.param("Consigne à −18 °C.", Locale.FR, ("−18 °C", "-18")),
    ],
)
def test_a_temperature_is_a_quantity(text: str, locale: Locale, expected: tuple[str, str]) -> None:
    [value] = read_values(text, None, locale, "en")
    assert (value.kind, value.unit, value.display, str(value.amount)) == (
        "quantity", "temperature", *expected,
    )  # fmt: skip


def test_a_setpoint_stability_of_a_datasheet_and_of_a_trial_are_compared() -> None:
    sheet = _statements(
        "sheet",
        "Frigel K2 cold-room controller",
        "Frigel K2\n\n- Setpoint stability: ±0.5 °C\n- Probe accuracy: ±0.1 °C\n",
        ["Frigel K2", "Polarix 9"],
    )
    trial = _statements(
        "trial",
        "Cold-room trial, April",
        "| Controller | Room | Control accuracy |\n|---|---|---|\n"
        "| Frigel K2 | C1 | ±1.2 °C |\n| Polarix 9 | C2 | ±0.7 °C |\n",
        ["Frigel K2", "Polarix 9"],
    )
    found = find_contradictions([Finding("t", (*sheet, *trial))], SOURCES)
    assert [(c.subject, c.rule) for c in found] == [("Frigel K2", 1)]
    [contradiction] = found
    assert contradiction.retained is not None
    assert (contradiction.retained.value, contradiction.retained.sources) == ("1.2 °C", ("trial",))
    assert [v.value for v in contradiction.rejected] == ["0.5 °C"]


def test_a_sensor_accuracy_is_no_setpoint_stability() -> None:
    sheet = _statements(
        "sheet", "Polarix 9 datasheet", "Polarix 9\n\n- Sensor accuracy: ±0.2 °C\n",
        ["Frigel K2", "Polarix 9"],
    )  # fmt: skip
    trial = _statements(
        "trial", "Cold-room trial", "Polarix 9 kept the room within a stability of ±0.7 °C.\n",
        ["Frigel K2", "Polarix 9"],
    )  # fmt: skip
    assert {s.value for s in (*sheet, *trial)} >= {"0.2 °C", "0.7 °C"}
    assert find_contradictions([Finding("t", (*sheet, *trial))], SOURCES) == ()


SCHEDULE = {
    "notice": SourceInfo("notice", date(2026, 2, 2), SourceType.QUOTE_ESTIMATE),
    "update": SourceInfo("update", date(2026, 6, 9), SourceType.QUOTE_ESTIMATE),
    "sheet": SOURCES["sheet"],
    "trial": SOURCES["trial"],
}
SORTERS = ["Triveo S4", "Kalmar Line"]


def test_a_claimed_rate_up_to_a_figure_is_compared_with_a_measured_one() -> None:
    # "up to 32 bins" is a limit of the configuration; "up to 900 parcels per hour" is the
    # claim of a rate, which a measurement contradicts
    sheet = _statements(
        "sheet", "Triveo S4 sorter",
        "Triveo S4\n\nThroughput: up to 900 parcels per hour, with up to 32 bins.\n",
        SORTERS,
    )  # fmt: skip
    trial = _statements(
        "trial", "Sorting trial",
        "In our depot the Triveo S4 had a throughput of 610 parcels per hour.\n", SORTERS,
    )  # fmt: skip
    [found] = find_contradictions([Finding("t", (*sheet, *trial))], SCHEDULE)
    assert found.retained is not None
    assert (found.retained.value, found.rule) == ("610 parcels per hour", 1)
    assert [v.value for v in found.rejected] == ["900 parcels per hour"]


def test_a_label_of_common_words_is_what_its_value_is_not_a_subject() -> None:
    # two vendors' quotes, each with its own lead time (each naming the other's product
    # once): no contradiction between them
    one = _statements(
        "notice", "Quote 118 - Triveo S4",
        "Triveo S4, 2 units, to replace the Kalmar Line of 2019.\n\nLead time: 3 weeks.\n",
        SORTERS,
    )  # fmt: skip
    two = _statements(
        "update", "Quote 7 - Kalmar Line",
        "Kalmar Line, 2 units, to replace the Triveo S4 of 2019.\n\nLead time: 8 weeks.\n",
        SORTERS,
    )  # fmt: skip
    subjects = {s.subject for s in (*one, *two) if "week" in s.value}
    assert subjects == {"Triveo S4", "Kalmar Line"}
    assert find_contradictions([Finding("t", (*one, *two))], SCHEDULE) == ()
