"""A figure for the first months of a year is no full-year figure, and a year a change is
compared with is not its period (made-up facts, s30)."""

from __future__ import annotations

import pytest

from preuve.core.claims import WRONG_PERIOD
from preuve.core.claimtext import period_mentions
from preuve.core.facts import parse_facts
from preuve.core.memocheck import Paragraph, check_memo
from preuve.core.numbers import Locale


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("Sales for the nine months to September 2026 were $40.2m.", "2026-9M"),
        ("Sales for the nine months ended 30 September 2026 were $40.2m.", "2026-9M"),
        ("Sales in the first nine months of 2026 were $40.2m.", "2026-9M"),
        ("Les ventes des neuf premiers mois de 2026 atteignent 40,2 M€.", "2026-9M"),
        ("Sur les 9 premiers mois de l'exercice 2026, les ventes atteignent 40,2 M€.", "2026-9M"),
        ("Les ventes des neuf mois clos le 30 septembre 2026 atteignent 40,2 M€.", "2026-9M"),
        ("Sales for the six months ended June 30, 2026 were $40.2m.", "2026-H1"),
        ("Sales 9M 2026: $40.2m.", "2026-9M"),
    ],
)
def test_the_first_months_of_a_year_are_a_period_of_their_own(text: str, period: str) -> None:
    assert [p.period for p in period_mentions(text) if p.period] == [period]


FACTS = parse_facts(
    "[Q-orme-1] Orme Logistique SA - « Sur les neuf premiers mois de 2026, les ventes "
    "atteignent 40,2 M€. » (p. 2)\n"
    "[Q-elm-1] Elm Freight Ltd - «Sales for the nine months to September 2026 were "
    "$40.2m.» (p. 2)\n"
    "[K-elm-2] Elm Freight Ltd - Defect rate 2026: 1.8% (2025: 2.6%); change: -0.8 pts\n"
)


@pytest.mark.parametrize(
    ("text", "source", "locale"),
    [
        ("Orme réalise 40,2 M€ de ventes sur l'exercice 2026.", "Q-orme-1", Locale.FR),
        ("Elm made $40.2m of sales in 2026.", "Q-elm-1", Locale.EN),
        ("Elm made $40.2m of full-year sales in 2026.", "Q-elm-1", Locale.EN),
    ],
)
def test_a_part_of_the_year_written_as_the_year_is_refused(
    text: str, source: str, locale: Locale
) -> None:
    defects = check_memo([Paragraph(text, (source,))], FACTS, locale=locale)
    assert [d.code for d in defects] == [WRONG_PERIOD]


@pytest.mark.parametrize(
    ("text", "source", "locale"),
    [
        (
            "Sur les neuf premiers mois de 2026, Orme réalise 40,2 M€ de ventes.",
            "Q-orme-1",
            Locale.FR,
        ),
        ("Elm made $40.2m of sales in the nine months to September 2026.", "Q-elm-1", Locale.EN),
        ("Elm's defect rate was 1.8% in 2026, a change of -0.8 pts on 2025.", "K-elm-2", Locale.EN),
    ],
)
def test_the_same_period_is_accepted(text: str, source: str, locale: Locale) -> None:
    assert check_memo([Paragraph(text, (source,))], FACTS, locale=locale) == []


HALF = parse_facts("[A-elm-3] Elm Freight Ltd - Sales H1 2026: $21.7m; sales 2026: $44.9m\n")


def test_a_whole_year_phrase_without_its_year_is_no_half_year() -> None:
    refused = [Paragraph("Elm's full-year sales were $21.7m.", ("A-elm-3",))]
    assert [d.code for d in check_memo(refused, HALF, locale=Locale.EN)] == [WRONG_PERIOD]
    accepted = [Paragraph("Elm's full-year sales were $44.9m.", ("A-elm-3",))]
    assert check_memo(accepted, HALF, locale=Locale.EN) == []
