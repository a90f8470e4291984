"""A memo figure carries the unit its fact gives (or a declared conversion of it, with the
converted value) and the base its fact gives (before or after tax, calendar or working
days); made-up facts, s30."""

from __future__ import annotations

import pytest

from preuve.core.facts import parse_facts
from preuve.core.measures import measure_after
from preuve.core.memocheck import BASE_MISMATCH, UNIT_MISMATCH, Paragraph, check_memo
from preuve.core.numbers import Locale, extract_numbers

FACTS = parse_facts(
    "[S-fan-1] Extraction fan EF-7 - «The fan motor draws 22 kW and moves 900 m³/h of air at"
    " 250 Pa.» (p. 4)\n"
    "[S-fan-2] Extraction fan EF-7 - «The filter holds 180 g of carbon and lasts 18 months.»"
    " (p. 4)\n"
    "[S-four-1] Four F-2 - « Le four consomme 22 kW et tient 6 bar pendant 45 min. » (p. 3)\n"
    "[C-bail-1] Bail du dépôt - « Le loyer est de 84 000 € HT, soit 100 800 € TTC. » (p. 2)\n"
    "[C-bail-2] Bail du dépôt - « Une indemnité de 150 € est due par jour calendaire de"
    " retard. » (p. 2)\n"
    "[C-lease-3] Depot lease - «Rent is due within 10 business days of the invoice.» (p. 2)\n"
)


@pytest.mark.parametrize(
    ("text", "symbol", "dimension"),
    [
        ("draws 22 kW", "kW", "power"),
        ("rated 22 kVA", "kVA", "apparent_power"),
        ("moves 900 m³/h", "m³/h", "volume/time"),
        ("moves 900 m3/day", "m3/day", "volume/time"),
        ("holds 6 bar", "bar", "pressure"),
        ("lasts 18 months", "months", "time"),
        ("dure 18 mois", "mois", "time"),
        ("pèse 180 mg", "mg", "mass"),
    ],
)
def test_the_unit_after_a_number(text: str, symbol: str, dimension: str) -> None:
    mention = extract_numbers(text, Locale.EN)[0]
    measure = measure_after(text, mention, Locale.EN)
    assert measure is not None
    assert (measure.written, measure.dimension) == (symbol, dimension)


def test_no_unit_after_a_word_that_goes_on() -> None:
    text = "12 hats and 5 mgmt staff"
    mentions = extract_numbers(text, Locale.EN)
    assert [measure_after(text, m, Locale.EN) for m in mentions] == [None, None]


REFUSED = {
    "kVA for kW": ("The EF-7 motor draws 22 kVA.", "S-fan-1", Locale.EN, UNIT_MISMATCH),
    "per day for per hour": ("EF-7 moves 900 m³/day of air.", "S-fan-1", Locale.EN, UNIT_MISMATCH),
    "kPa for Pa": ("EF-7 works at 250 kPa.", "S-fan-1", Locale.EN, UNIT_MISMATCH),
    "mg for g": ("The EF-7 filter holds 180 mg of carbon.", "S-fan-2", Locale.EN, UNIT_MISMATCH),
    "weeks for months": ("The EF-7 filter lasts 18 weeks.", "S-fan-2", Locale.EN, UNIT_MISMATCH),
    "kPa pour bar": ("Le four F-2 tient 6 kPa.", "S-four-1", Locale.FR, UNIT_MISMATCH),
    "heures pour minutes": ("Le four F-2 tient 6 bar pendant 45 h.", "S-four-1", Locale.FR,
                            UNIT_MISMATCH),
    "TTC pour HT": ("Le loyer du dépôt est de 84 000 € TTC.", "C-bail-1", Locale.FR,
                    BASE_MISMATCH),
    "jour ouvré pour calendaire": ("Une indemnité de 150 € est due par jour ouvré de retard.",
                                   "C-bail-2", Locale.FR, BASE_MISMATCH),
    "calendar for business days": ("Rent is due within 10 calendar days of the invoice.",
                                   "C-lease-3", Locale.EN, BASE_MISMATCH),
}  # fmt: skip


@pytest.mark.parametrize("case", REFUSED)
def test_another_unit_or_base_is_refused(case: str) -> None:
    text, source, locale, code = REFUSED[case]
    defects = check_memo([Paragraph(text, (source,))], FACTS, locale=locale)
    assert [d.code for d in defects] == [code]


ACCEPTED = {
    "the same unit": ("The EF-7 motor draws 22 kW.", "S-fan-1", Locale.EN),
    "a unit word for its symbol": ("The EF-7 motor draws 22 kilowatts.", "S-fan-1", Locale.EN),
    "no unit written": ("The EF-7 motor is rated 22.", "S-fan-1", Locale.EN),
    "a declared conversion": ("EF-7 works at 0.25 kPa.", "S-fan-1", Locale.EN),
    "converted time": ("The EF-7 filter lasts 1.5 years.", "S-fan-2", Locale.EN),
    "un débit converti": ("Le four F-2 tient 600 kPa.", "S-four-1", Locale.FR),
    "la même base": ("Le loyer du dépôt est de 84 000 € HT.", "C-bail-1", Locale.FR),
    "l'autre montant sur son base": ("Le loyer TTC est de 100 800 € TTC.", "C-bail-1", Locale.FR),
    "sans base écrite": ("Le loyer du dépôt est de 84 000 €.", "C-bail-1", Locale.FR),
    "le même jour": ("Une indemnité de 150 € est due par jour calendaire de retard.", "C-bail-2",
                     Locale.FR),
}  # fmt: skip


@pytest.mark.parametrize("case", ACCEPTED)
def test_the_same_unit_and_base_are_accepted(case: str) -> None:
    text, source, locale = ACCEPTED[case]
    assert check_memo([Paragraph(text, (source,))], FACTS, locale=locale) == []
