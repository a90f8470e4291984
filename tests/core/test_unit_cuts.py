"""A quote that stops between a number and its physical, time or counted unit drops what the
number measures (made-up pages, s30); years, page numbers, counts followed by a noun and
acronyms after a year keep verifying."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.numbers import unit_extents
from preuve.core.quotes import Verdict, verify_quote
from preuve.core.text import normalize
from preuve.core.unit_table import declared_unit_data
from preuve.core.units import unit_end

PAGE = (
    "Relevé du poste de compression\n"
    "Au terme de 2024 l'atelier comptait 9 mécaniciens. Le compresseur principal consomme\n"
    "75 kW en charge et débite 12 m³/min sous 8 bar ; sa tension d'alimentation est de 400 V\n"
    "et son courant de démarrage atteint 180 A. La révision complète a lieu toutes les\n"
    "8 000 heures, la garantie couvre 24 mois et l'arrêt annuel dure 3 jours. Le niveau\n"
    "sonore mesuré est de 71 dB à un mètre ; le réservoir d'air fait 900 L et pèse 0,4 t.\n"
    "The dryer cuts dew point to 3 °C, costs 0.12 €/kWh to run and needs 15 min to purge.\n"
    "In 2023 an inspector checked the 2023 US standards; the 2024 events drew 40 visitors.\n"
    "Sur les filtres posés, 3 s'encrassent vite (voir page 7 et la note 2).\n"
    "Lecture de 14 h à 16 h par 1 an de données."
)

CUT = {
    "kW": ("Le compresseur principal consomme 75", "75 kW"),
    "m³/min": ("en charge et débite 12", "12 m³/min"),
    "per unit dropped": ("en charge et débite 12 m³", "12 m³/min"),
    "bar": ("débite 12 m³/min sous 8", "8 bar"),
    "volts": ("sa tension d'alimentation est de 400", "400 V"),
    "amperes": ("son courant de démarrage atteint 180", "180 A"),
    "heures across a line break": ("La révision complète a lieu toutes les 8 000", "8 000"),
    "mois": ("la garantie couvre 24", "24 mois"),
    "jours": ("et l'arrêt annuel dure 3", "3 jours"),
    "dB": ("Le niveau sonore mesuré est de 71", "71 dB"),
    "litres": ("le réservoir d'air fait 900", "900 L"),
    "tonnes": ("fait 900 L et pèse 0,4", "0,4 t"),
    "°C": ("The dryer cuts dew point to 3", "3 °C"),
    "€ per kWh": ("The dryer cuts dew point to 3 °C, costs 0.12 €", "0.12 €/kwh"),
    "min": ("costs 0.12 €/kWh to run and needs 15", "15 min"),
    "the high bound's unit": ("Lecture de 14 h à 16", "16 h"),
}


@pytest.mark.parametrize("case", CUT)
def test_a_quote_that_drops_a_unit_is_refused(case: str) -> None:
    quote, token = CUT[case]
    result = verify_quote([PAGE], 1, quote)
    assert result.verdict is Verdict.CUTS_TOKEN, result.reason
    assert token.lower() in result.reason.lower()


WHOLE = (
    "Au terme de 2024",  # a year before "l'": elision, no litre
    "l'atelier comptait 9",  # a count before a noun that is no unit
    "Le compresseur principal consomme 75 kW en charge",
    "débite 12 m³/min sous 8 bar",
    "la garantie couvre 24 mois",
    "In 2023 an inspector checked",  # "an", the English article after a year
    "an inspector checked the 2023",  # "US" after a year: an acronym, not microseconds
    "the 2024 events drew 40",  # counted things are no unit of a year
    "Sur les filtres posés, 3",  # "s'" is an elision, not seconds
    "(voir page 7",
    "Lecture de 14 h à 16 h par 1 an de données",
)


@pytest.mark.parametrize("quote", WHOLE)
def test_a_quote_that_keeps_its_units_or_ends_at_no_unit_is_verified(quote: str) -> None:
    result = verify_quote([PAGE], 1, quote)
    assert result.verified, result.reason


TABLE = "Organe | Garantie | Puissance\nVentilateur | 30 mois | 5,5 kW\nMoteur | 48 mois | 90 kW"


def test_a_table_cell_cut_from_its_unit_is_refused() -> None:
    assert verify_quote([TABLE], 1, "Ventilateur | 30").verdict is Verdict.CUTS_TOKEN
    assert verify_quote([TABLE], 1, "Moteur 48 mois 90").verdict is Verdict.CUTS_TOKEN
    assert verify_quote([TABLE], 1, "Ventilateur | 30 mois | 5,5 kW").verified


def test_a_row_label_on_the_next_line_is_no_unit() -> None:
    page = "Exercice clos en 2025\nMois de référence : décembre"
    assert verify_quote([page], 1, "Exercice clos en 2025").verified
    assert verify_quote(
        ["Durée prévue 36\nmois selon le contrat"], 1, "Durée prévue 36"
    ).verdict is (Verdict.CUTS_TOKEN)


@pytest.mark.parametrize(
    ("text", "value", "year", "unit"),
    [
        ("37 kW de plus", "37", False, " kW"),
        ("1 an plus tard", "1", False, " an"),
        ("2 an plus tard", "2", False, ""),  # "an" after 2 is the English article
        ("2025 SEC filing", "2025", True, ""),  # capitals: an acronym
        ("3 SEC filings", "3", False, ""),
        ("2025 second-half", "2025", True, ""),
        ("5 années", "5", False, " années"),  # accents as written
        ("5 µs", "5", False, " µs"),
        ("5 μs", "5", False, " μs"),  # the Greek mu for the micro sign
        ("140 m³/h", "140", False, " m³/h"),
        ("7 Hz", "7", False, " Hz"),
        ("7 hz", "7", False, ""),  # a symbol keeps its case
    ],
)
def test_unit_end(text: str, value: str, year: bool, unit: str) -> None:
    end = unit_end(text, len(value), Decimal(value), year=year)
    assert text[len(value) : end] == unit


def test_unit_extents_cover_a_range_to_its_unit() -> None:
    text = "entre 14–16 °C"
    assert (6, len(text)) in unit_extents(text)


def test_the_extents_are_mapped_onto_the_normalized_page() -> None:
    page = "La  Pompe\u00a0absorbe 37\u202fkW."
    normalized = normalize(page)
    start, end = next(iter(unit_extents(page)))
    mapped = normalized.text[normalized.from_original(start) : normalized.from_original(end)]
    assert mapped == "37 kw"


def test_the_declared_units_are_a_copy() -> None:
    units = declared_unit_data()
    units["time"].clear()
    assert declared_unit_data()["time"]
