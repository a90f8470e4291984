"""A quote that starts with a number may not drop the bound or approximation written
before it ("at least", "environ"), nor cut the parentheses of a negative amount, nor stop
before a tax base when the page gives the figure on another base (made-up pages, s30)."""

from __future__ import annotations

import pytest

from preuve.core.quotes import Verdict, verify_quote

PAGE_EN = (
    "The depot must hold at least 40 spare axles at all times. The refit will cost roughly\n"
    "EUR 2.5 million. Each unit weighs up to 18 tonnes when loaded. Operating loss was\n"
    "(EUR 7.2 million), against a profit of EUR 1.1 million a year earlier. The fee is\n"
    "EUR 90,000 excl. VAT, or EUR 108,000 incl. VAT. Some 12 drivers joined in May."
)
PAGE_FR = (
    "L'entrepôt doit compter au moins 40 essieux de réserve. La rénovation coûtera environ\n"
    "2,5 M€. Chaque module pèse jusqu'à 18 tonnes en charge. Le loyer annuel est de 90 000 €\n"
    "HT, soit 108 000 € TTC. Le site emploie plus de 300 personnes."
)

SEVERED = {
    "after at least": (PAGE_EN, "40 spare axles at all times", "at least"),
    "after roughly": (PAGE_EN, "EUR 2.5 million. Each unit", "roughly"),
    "after up to": (PAGE_EN, "18 tonnes when loaded", "up to"),
    "after some": (PAGE_EN, "12 drivers joined in May", "some"),
    "inside accounting parentheses": (PAGE_EN, "EUR 7.2 million), against a profit", "("),
    "before excl. VAT": (PAGE_EN, "The fee is EUR 90,000", "excl. vat"),
    "après au moins": (PAGE_FR, "40 essieux de réserve", "au moins"),
    "après environ": (PAGE_FR, "2,5 M€. Chaque module", "environ"),
    "après jusqu'à": (PAGE_FR, "18 tonnes en charge", "jusqu'à"),
    "après plus de": (PAGE_FR, "300 personnes", "plus de"),
    "avant HT": (PAGE_FR, "Le loyer annuel est de 90 000 €", "ht"),
}


@pytest.mark.parametrize("case", SEVERED)
def test_a_quote_that_drops_its_bound_is_refused(case: str) -> None:
    page, quote, word = SEVERED[case]
    result = verify_quote([page], 1, quote)
    assert result.verdict is Verdict.CUTS_TOKEN, result.reason
    assert f"«{word}»" in result.reason.lower()


KEPT = {
    "the bound kept": (PAGE_EN, "at least 40 spare axles at all times"),
    "a quote inside the parentheses": (PAGE_EN, "EUR 7.2 million"),
    "the whole amount with its parentheses": (PAGE_EN, "(EUR 7.2 million), against a profit"),
    "a word, not a number, after the bound": (PAGE_EN, "spare axles at all times"),
    "the base kept": (PAGE_EN, "The fee is EUR 90,000 excl. VAT"),
    "la borne gardée": (PAGE_FR, "au moins 40 essieux de réserve"),
    "la base gardée": (PAGE_FR, "Le loyer annuel est de 90 000 €\nHT"),
}


@pytest.mark.parametrize("case", KEPT)
def test_a_quote_that_keeps_its_bound_is_verified(case: str) -> None:
    page, quote = KEPT[case]
    result = verify_quote([page], 1, quote)
    assert result.verified, result.reason


def test_a_tax_base_severs_only_when_the_page_gives_another_base() -> None:
    page = "Le loyer annuel est de 90 000 € HT et reste stable sur la durée du bail."
    assert verify_quote([page], 1, "Le loyer annuel est de 90 000 €").verified
