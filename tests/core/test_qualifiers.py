"""A quote may not sever its clause's negation, exception or condition (made-up sentences,
s29): a substring of the page that says the opposite of the page is refused."""

from __future__ import annotations

import pytest

from preuve.core.qualifiers import severed_qualifier
from preuve.core.quotes import Verdict, verify_quote

PAGE_EN = (
    "The lender has not waived the cross-default clause for the Spanish unit. There is no\n"
    "pledge over the Leeds warehouse. The Group is no longer exposed to the Hartley lease.\n"
    "Every plant met its safety target, except the Toledo plant. Dividends will be paid\n"
    "unless the leverage test fails. Asked about a sale, the board said it would not. The\n"
    "Leeds warehouse will be kept until 2028."
)
PAGE_FR = (
    "Le prêteur n'a pas levé la clause de défaut croisé pour la filiale belge. Il n'existe\n"
    "aucun nantissement sur l'entrepôt de Lille. La société n'est plus liée au bail de Roubaix.\n"
    "Tous les sites ont atteint leur objectif de sécurité, sauf celui de Douai. Les dividendes\n"
    "seront versés hors période de restructuration. Le conseil n'a pas souhaité répondre. Le\n"
    "site de Lille restera ouvert en 2027."
)

SEVERED = {
    "after not": (PAGE_EN, "waived the cross-default clause for the Spanish unit", "not"),
    "after no": (PAGE_EN, "pledge over the Leeds warehouse", "no"),
    "after no longer": (PAGE_EN, "exposed to the Hartley lease", "longer"),
    "before except": (PAGE_EN, "Every plant met its safety target", "except"),
    "before unless": (PAGE_EN, "Dividends will be paid", "unless"),
    "après pas": (PAGE_FR, "levé la clause de défaut croisé pour la filiale belge", "pas"),
    "après aucun": (PAGE_FR, "nantissement sur l'entrepôt de Lille", "aucun"),
    "après n'est plus": (PAGE_FR, "liée au bail de Roubaix", "plus"),
    "avant sauf": (PAGE_FR, "Tous les sites ont atteint leur objectif de sécurité", "sauf"),
    "avant hors": (PAGE_FR, "Les dividendes seront versés", "hors"),
    "avant pas": (PAGE_FR, "Le prêteur n'a", None),  # too short to be a quote: no verdict here
}


@pytest.mark.parametrize("case", [c for c in SEVERED if SEVERED[c][2] is not None])
def test_a_quote_that_severs_a_qualifier_is_refused(case: str) -> None:
    page, quote, word = SEVERED[case]
    result = verify_quote([page], 1, quote)
    assert result.verdict is Verdict.CUTS_TOKEN
    assert f"«{word}»" in result.reason


KEPT = {
    "the whole negated sentence": (PAGE_EN, "The lender has not waived the cross-default clause"),
    "the exception kept": (PAGE_EN, "Every plant met its safety target, except the Toledo plant."),
    "a negation in the sentence before": (PAGE_EN, "The Leeds warehouse will be kept until 2028."),
    "la négation entière": (PAGE_FR, "Il n'existe aucun nantissement sur l'entrepôt de Lille."),
    "l'exception gardée": (
        PAGE_FR,
        "Tous les sites ont atteint leur objectif de sécurité, sauf celui",
    ),
    "une négation dans la phrase d'avant": (PAGE_FR, "Le site de Lille restera ouvert en 2027."),
}


@pytest.mark.parametrize("case", KEPT)
def test_a_quote_that_keeps_its_qualifier_is_verified(case: str) -> None:
    page, quote = KEPT[case]
    assert verify_quote([page], 1, quote).verified


def test_the_second_half_of_a_french_negation_after_the_quote() -> None:
    text = "La banque ne renouvellera pas la ligne."
    end = text.index(" pas")
    assert severed_qualifier(text, 0, end) == ("end", "pas")
    assert severed_qualifier("La banque renouvellera pas à pas.", 0, 21) is None


def test_plus_and_longer_negate_only_after_their_first_half() -> None:
    text = "Le coût est plus élevé en 2025."
    assert severed_qualifier(text, text.index("élevé"), len(text)) is None
    english = "It holds any longer-dated bonds."
    assert severed_qualifier(english, english.index("longer"), len(english)) is None


def test_a_negation_ending_the_table_row_above_qualifies_nothing() -> None:
    # "non" is the last cell of the row above; the quoted row is a claim of its own
    page = (
        "  Critère              Offre A      Offre B\n"
        "  Export des données   oui          non\n"
        "  Durée du contrat     36 mois      24 mois\n"
    )
    quote = "Durée du contrat 36 mois 24 mois"
    assert verify_quote([page], 1, quote).verified
    # a sentence broken across two lines keeps its negation
    prose = "There were no\noutstanding borrowings under the facility at year end."
    assert not verify_quote([prose], 1, "outstanding borrowings under the facility").verified
