"""Units of the value reader: a unit over another, exponents, joules and days.

Sentences of other domains (solar panels, boilers, street lighting, irrigation): a unit
written over another that is no period is a quantity of its own dimension, compared by
value; a superscript is an exponent, never a value.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.numbers import Locale
from preuve.synthesis.values import read_values, same_meaning


@pytest.mark.parametrize(
    ("text", "locale", "expected"),
    [
        pytest.param(
            "Irradiation: 1 kWh/m² on a clear day.",
            Locale.EN,
            [("1 kWh/m²", "energy/area", Decimal(3600000))],
            id="energy-over-area",
        ),
        pytest.param(
            "The lantern gives 142 lm/W at 4000 K.",
            Locale.EN,
            [("142 lm/W", "light/power", Decimal(142))],
            id="efficacy-lumens-per-watt",
        ),
        pytest.param(
            "Débit nominal : 12 m³/h.",
            Locale.FR,
            [("12 m³/h", "volume", Decimal(12) / Decimal(3600))],
            id="volume-per-hour-is-a-period",
        ),
        pytest.param(
            "Tank of 40 litres.",
            Locale.EN,
            [("40 litres", "volume", Decimal("0.04"))],
            id="litres-are-a-volume",
        ),
        pytest.param(
            "Délai de paiement : 30 j.",
            Locale.FR,
            [("30 j", "time", Decimal(2592000))],
            id="a-lowercase-j-is-days",
        ),
        pytest.param(
            "Pulse energy 10 J per shot.",
            Locale.EN,
            [("10 J", "energy", Decimal(10))],
            id="a-capital-j-is-joules",
        ),
        pytest.param(
            "Panels are rated per m² of roof; 1 mJ/cm² equals 10 J/m².",
            Locale.EN,
            [("1 mJ/cm²", "energy/area", Decimal(10)), ("10 J/m²", "energy/area", Decimal(10))],
            id="a-superscript-is-an-exponent-no-value",
        ),
    ],
)
def test_units_read(text: str, locale: Locale, expected: list[tuple[str, str, Decimal]]) -> None:
    found = [(v.display, v.unit, v.amount) for v in read_values(text, None, locale, "en")]
    assert found == expected


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        pytest.param("52 mJ/cm²", "520 J/m²", True, id="dose-two-units"),
        pytest.param("5.0 MWh", "5000 kWh", True, id="energy-scales"),
        pytest.param("310 m3/h", "310 m³/h", True, id="exponent-as-digit-or-superscript"),
        pytest.param("142 lm/W", "142 W", False, id="an-efficacy-is-no-power"),
        pytest.param("65 mJ/cm2", "47 mJ/cm²", False, id="two-doses"),
    ],
)
def test_compound_units_compared_by_value(a: str, b: str, same: bool) -> None:
    assert same_meaning(a, b) is same
