"""A scale word with its currency spelled out is one unit ("2,3 millions d'euros" is
2,3 M€), and a number joined to a word by a hyphen ("a 142-patient cohort") is a figure,
not an identifier (made-up texts, s30)."""

from __future__ import annotations

import pytest

from preuve.core.facts import parse_facts
from preuve.core.memocheck import Paragraph, check_memo
from preuve.core.numbers import Locale, extract_numbers


@pytest.mark.parametrize(
    ("text", "locale", "unit"),
    [
        ("un budget de 4,8 millions d'euros", Locale.FR, "M€"),
        ("un budget de 4,8 millions d’euros", Locale.FR, "M€"),
        ("un budget de 1,2 milliard d'euros", Locale.FR, "Md€"),
        ("un budget de 600 milliers d'euros", Locale.FR, "k€"),
        ("a budget of 4.8 million euros", Locale.EN, "M€"),
        ("a budget of 4.8 million dollars", Locale.EN, "M$"),
        ("a budget of 4.8 million", Locale.EN, "million"),
    ],
)
def test_a_scale_with_its_currency_spelled_out(text: str, locale: Locale, unit: str) -> None:
    assert [m.unit for m in extract_numbers(text, locale)] == [unit]


def test_a_memo_may_write_the_scale_with_a_symbol() -> None:
    facts = parse_facts(
        "[T-lot-1] Lot 4 - « Le lot est estimé à 4,8 millions d'euros HT. » (p. 1)\n"
    )
    memo = [Paragraph("Le lot 4 est estimé à 4,8 M€ HT.", ("T-lot-1",))]
    assert check_memo(memo, facts, locale=Locale.FR) == []
    wrong = [Paragraph("Le lot 4 est estimé à 4,8 k€ HT.", ("T-lot-1",))]
    assert [d.code for d in check_memo(wrong, facts, locale=Locale.FR)] == ["scale_mismatch"]


def test_a_number_joined_to_a_word_is_a_figure() -> None:
    numbers = extract_numbers("a 142-patient cohort over a 12-month window", Locale.EN)
    assert [m.raw for m in numbers] == ["142", "12"]
    facts = parse_facts("[Q-trial-1] Trial - «The cohort (n = 142) was followed up.» (p. 2)\n")
    memo = [Paragraph("The 142-patient cohort was followed up.", ("Q-trial-1",))]
    assert check_memo(memo, facts, locale=Locale.EN) == []
    wrong = [Paragraph("The 152-patient cohort was followed up.", ("Q-trial-1",))]
    assert [d.code for d in check_memo(wrong, facts, locale=Locale.EN)] == ["number_not_in_facts"]
