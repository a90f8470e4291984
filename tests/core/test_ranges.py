"""A range is no single value: its two bounds are marked, and a memo's number grounded
only on one bound of a range is not verified (made-up sentences)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.facts import parse_facts
from preuve.core.memocheck import NUMBER_NOT_IN_FACTS, Paragraph, check_memo
from preuve.core.numbers import Locale, extract_numbers

FR, EN = Locale.FR, Locale.EN

RANGES = {
    "an en dash glued to both": ("La serre se tient à 18–21 °C la nuit.", FR, ("18", "21")),
    "decimals around an en dash": ("A pump drawing 0.8–1.4 kW at full load.", EN, ("0.8", "1.4")),
    "a hyphen before the unit": ("Une remise de 4-6% sur le tarif.", FR, ("4", "6")),
    "an en dash set apart": ("Le chantier dure 8 – 10 semaines.", FR, ("8", "10")),
    "de ... à ...": ("Un délai de 2 à 4 semaines est annoncé.", FR, ("2", "4")),
    "entre ... et ...": ("Des lots entre 120 et 180 kg.", FR, ("120", "180")),
    "between ... and ...": ("Batches of between 40 and 60 units.", EN, ("40", "60")),
    "from ... to ...": ("Lead times from 6 to 9 weeks apply.", EN, ("6", "9")),
    # s29: no opener word.
    "bare ... to ...": ("Repairs take 2 to 4 hours per unit.", EN, ("2", "4")),
    "bare ... à ...": ("Le séchage demande 6 à 8 heures.", FR, ("6", "8")),
    "bare, same unit after a change word": ("Growth of 3% to 5% is planned.", EN, ("3", "5")),
}


@pytest.mark.parametrize("case", RANGES)
def test_both_bounds_of_a_range_are_marked(case: str) -> None:
    text, locale, (low, high) = RANGES[case]
    bounds = [(m.raw, m.bound, m.bounds) for m in extract_numbers(text, locale)]
    expected_bounds = (Decimal(low), Decimal(high))
    assert bounds == [(low, "low", expected_bounds), (high, "high", expected_bounds)]


def test_the_low_bound_takes_the_unit_written_after_the_high_one() -> None:
    low, high = extract_numbers("Une remise de 4-6% sur le tarif.", FR)
    assert (low.unit, high.unit) == ("%", "%")


NOT_RANGES = {
    "a change from one level to another": ("Le stock est passé de 12 à 14 tonnes.", FR),
    "an English change": ("Orders rose from 310 to 355 units.", EN),
    "a span of years": ("Le plan 2024-2026 est maintenu.", FR),
    "a date written with dashes": ("Clôture le 2025-06-30.", FR),
    "two values with their units": ("Des marges de 5 % – 7 % selon les gammes.", FR),
    "a higher number first": ("Le score passe 16-14 à la mi-temps.", FR),
    # s29: bare "X to Y" after a change word with another unit is a change and an arrival.
    "a change then an arrival": ("Sales rose 4% to $171m in the year.", EN),
    "a year before à": ("Le stock atteint en 2024 à peine 3 000 tonnes.", FR),
}


@pytest.mark.parametrize("case", NOT_RANGES)
def test_numbers_that_bound_no_range(case: str) -> None:
    text, locale = NOT_RANGES[case]
    assert all(m.bound is None and m.bounds is None for m in extract_numbers(text, locale))


FACTS = parse_facts(
    "[Q-serre-1] Serres Aubrac SARL - « La serre se tient à 18–21 °C la nuit. » (p. 3)\n"
    "[Q-serre-2] Serres Aubrac SARL - « Le chauffage consomme 21 MWh par mois. » (p. 4)\n"
)


def test_a_memo_number_taken_from_one_bound_of_a_range_is_not_verified() -> None:
    memo = [Paragraph("La serre est chauffée à 21 °C la nuit.", ("Q-serre-1",))]
    defects = check_memo(memo, FACTS, locale=FR)
    assert [d.code for d in defects] == [NUMBER_NOT_IN_FACTS]


def test_the_same_range_written_otherwise_is_verified() -> None:
    memo = [Paragraph("La nuit, la serre reste entre 18 et 21 °C.", ("Q-serre-1",))]
    assert check_memo(memo, FACTS, locale=FR) == []


def test_a_number_stated_alone_elsewhere_still_grounds_it() -> None:
    memo = [Paragraph("Le chauffage consomme 21 MWh par mois.", ("Q-serre-1", "Q-serre-2"))]
    assert check_memo(memo, FACTS, locale=FR) == []


def test_a_memo_range_made_of_two_plain_values_is_not_verified() -> None:
    facts = parse_facts("[A-serre-3] Serres Aubrac SARL - Taux de perte 2025 : 6 % (2024 : 9 %)\n")
    memo = [Paragraph("Le taux de perte des serres va de 6 à 9 % en 2025.", ("A-serre-3",))]
    codes = [d.code for d in check_memo(memo, facts, locale=FR)]
    assert codes.count(NUMBER_NOT_IN_FACTS) == 2


def test_a_bare_range_grounds_the_same_range_with_an_opener() -> None:
    facts = parse_facts(
        "[Q-serre-4] Serres Aubrac SARL - « Le séchage demande 6 à 8 heures. » (p. 5)\n"
    )
    memo = [Paragraph("Le séchage prend entre 6 et 8 heures.", ("Q-serre-4",))]
    assert check_memo(memo, facts, locale=FR) == []


def test_a_quote_facts_page_number_grounds_no_figure() -> None:
    facts = parse_facts(
        "[Q-serre-5] Serres Aubrac SARL - « Les serres couvrent 18–21 hectares. » (p. 18)\n"
    )
    figure = [Paragraph("Les serres couvrent 18 hectares.", ("Q-serre-5",))]
    assert [d.code for d in check_memo(figure, facts, locale=FR)] == [NUMBER_NOT_IN_FACTS]
    cited = [Paragraph("Le rapport (p. 18) décrit 18–21 hectares de serres.", ("Q-serre-5",))]
    assert check_memo(cited, facts, locale=FR) == []
