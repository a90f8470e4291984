"""A piece of a grouped number is no number of the page: refused by the quote check and by
the memo number check, whatever the grouping convention (Swiss apostrophe, Indian lakh,
dot thousands with a decimal comma, spaces). Made-up texts."""

from __future__ import annotations

import pytest

from preuve.core.facts import parse_facts
from preuve.core.memocheck import Paragraph, check_memo
from preuve.core.numbers import Locale
from preuve.core.quotes import Verdict, verify_quote

PAGE = (
    "Le chiffre d'affaires net de Valbrise SA atteint 131'480 kCHF en 2025 et la perte de "
    "change \u22121\u2019260 kCHF au bilan. La filiale indienne facture INR 12,34,567 par mois "
    "à son client principal ; la filiale allemande publie 1.234.567,5 EUR de ventes."
)


@pytest.mark.parametrize(
    "quote",
    [
        "31'480 kCHF en 2025",  # starts inside 131'480
        "480 kCHF en 2025 et la perte",
        "1\u2019260 kCHF au bilan",  # drops the minus sign of −1’260
        "260 kCHF au bilan. La filiale",
        "34,567 par mois à son client",  # starts inside 12,34,567
        "4,567 par mois à son client",
        "234.567,5 EUR de ventes",
        "ventes de Valbrise SA atteint 131",  # ends inside 131'480
        "publie 1.234.567",  # ends before the decimals
    ],
)
def test_a_quote_cut_inside_a_grouped_number_is_refused(quote: str) -> None:
    result = verify_quote([PAGE], 1, quote)
    assert not result.verified
    assert result.verdict in {Verdict.CUTS_TOKEN, Verdict.NOT_FOUND}


@pytest.mark.parametrize(
    "quote",
    [
        "atteint 131'480 kCHF en 2025",
        "perte de change \u22121\u2019260 kCHF au bilan",
        "facture INR 12,34,567 par mois",
        "publie 1.234.567,5 EUR de ventes",
    ],
)
def test_a_whole_grouped_number_is_quoted(quote: str) -> None:
    assert verify_quote([PAGE], 1, quote).verified


FACTS = parse_facts(
    "[A-valbrise-1] Valbrise SA - Chiffre d'affaires net 2025 : 131'480 kCHF "
    "(2024 : 128\u2019905 kCHF)\n"
    "[A-valbrise-2] Valbrise SA - Facturation mensuelle de la filiale : INR 12,34,567\n"
    "[A-valbrise-3] Valbrise SA - Ventes de la filiale allemande : 1.234.567,5 EUR\n"
)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Valbrise réalise 480 kCHF de chiffre d'affaires en 2025.", Locale.FR),
        ("Valbrise réalise 131 kCHF de chiffre d'affaires en 2025.", Locale.FR),
        ("Valbrise réalise 31'480 kCHF de chiffre d'affaires en 2025.", Locale.FR),
        ("Valbrise réalisait 905 kCHF de chiffre d'affaires en 2024.", Locale.FR),
        ("La filiale facture INR 34,567 par mois.", Locale.FR),
        ("The subsidiary bills INR 34,567 a month.", Locale.EN),
        ("The subsidiary bills INR 4,567 a month.", Locale.EN),
        ("La filiale allemande vend pour 567,5 EUR.", Locale.FR),
        ("La filiale allemande vend pour 1.234 EUR.", Locale.FR),
    ],
)
def test_a_memo_citing_a_piece_of_a_grouped_number_is_refused(text: str, locale: Locale) -> None:
    sources = ("A-valbrise-1", "A-valbrise-2", "A-valbrise-3")
    defects = check_memo([Paragraph(text, sources)], FACTS, locale=locale)
    assert [d.code for d in defects] == ["number_not_in_facts"]


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Valbrise réalise 131'480 kCHF de chiffre d'affaires en 2025.", Locale.FR),
        ("Valbrise réalisait 128'905 kCHF de chiffre d'affaires en 2024.", Locale.FR),
        ("The subsidiary bills INR 12,34,567 a month.", Locale.EN),
        ("La filiale allemande vend pour 1 234 567,5 EUR.", Locale.FR),
    ],
)
def test_a_memo_citing_the_whole_number_is_accepted(text: str, locale: Locale) -> None:
    sources = ("A-valbrise-1", "A-valbrise-2", "A-valbrise-3")
    assert check_memo([Paragraph(text, sources)], FACTS, locale=locale) == []


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Valbrise réalise 131'480 MCHF de chiffre d'affaires en 2025.", "scale_mismatch"),
        ("Valbrise réalise 131'480 CHF de chiffre d'affaires en 2025.", "scale_mismatch"),
        ("Valbrise réalise 131'480 k€ de chiffre d'affaires en 2025.", "unit_mismatch"),
    ],
)
def test_swiss_francs_keep_their_scale(text: str, code: str) -> None:
    """ "kCHF", "MCHF", "Mio. CHF" are units with a scale: millions are no thousands."""
    defects = check_memo([Paragraph(text, ("A-valbrise-1",))], FACTS, locale=Locale.FR)
    assert [d.code for d in defects] == [code]


def test_swiss_francs_in_thousands_written_out_are_accepted() -> None:
    text = "Valbrise réalise 131'480 milliers de CHF de chiffre d'affaires en 2025."
    assert check_memo([Paragraph(text, ("A-valbrise-1",))], FACTS, locale=Locale.FR) == []
