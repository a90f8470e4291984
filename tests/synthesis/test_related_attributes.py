"""A price of 0 against an amount, and one measured quantity under two names.

Both are general mechanisms with their words in the lexicon (``[pricing]``, ``[measures]``,
the CEP qualifier); the cases are written here, not taken from a dossier.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.numbers import Locale
from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.matcher import attribute_key, related_attributes, value_key
from preuve.synthesis.pricing import FREE_KEY, charged_item, free_price, is_free
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.reader import document_reads
from preuve.synthesis.types import Finding, Statement, StatementSource

LEX = default_lexicon()


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param(
            "Le module d'export est inclus dans l'abonnement, sans surcoût, depuis 2025.",
            ("inclus dans l'abonnement, sans surcoût", "module export"),
            id="included-in-a-price-word-then-free",
        ),
        pytest.param(
            "The webhooks are available at no extra cost.",
            ("at no extra cost", "webhooks available"),
            id="english-free",
        ),
        pytest.param(
            "L'option badge est incluse car nécessaire au contrôle d'accès.",
            None,
            id="included-without-a-price-word-is-no-price",
        ),
        pytest.param(
            "Le module n'est plus compris dans l'abonnement : il devient payant.",
            None,
            id="no-longer-included-is-charged",
        ),
    ],
)
def test_free_price(sentence: str, expected: tuple[str, str] | None) -> None:
    found = free_price(sentence, LEX)
    if expected is None:
        assert found is None
        return
    assert found is not None
    value, item = found
    assert (value.display, item) == expected
    assert value.key == FREE_KEY and value.amount == Decimal(0)
    assert sentence[value.start : value.end] == value.display


def test_an_amount_after_a_charging_cue_prices_the_item_named_before() -> None:
    sentence = (
        "Dès mars, l'accès aux webhooks n'est plus compris dans les abonnements : "
        "il devient une option payante, facturée 2 € par poste et par mois."
    )
    assert charged_item(sentence, sentence.index("2 €"), LEX) == "webhooks"
    assert charged_item("Le boîtier coûte 90 €.", 17, LEX) is None


@pytest.mark.parametrize(
    ("value", "free"),
    [
        ("incluse dans l'abonnement, sans surcoût", True),
        ("gratuit", True),
        ("free of charge", True),
        ("0,50 € par mois", False),
        ("option payante", False),
    ],
)
def test_is_free(value: str, free: bool) -> None:
    assert is_free(value, LEX) is free
    assert (value_key(value, LEX) == FREE_KEY) is free


@pytest.mark.parametrize(
    ("a", "b", "related"),
    [
        pytest.param(
            ("prix module export", "inclus dans l'abonnement, sans surcoût"),
            ("prix module", "2 € HT par poste et par mois"),
            True,
            id="free-and-amount-of-one-item",
        ),
        pytest.param(
            ("prix module export", "gratuit"),
            ("prix formation", "2 € HT par poste et par mois"),
            False,
            id="free-and-amount-of-two-items",
        ),
        pytest.param(
            ("prix module", "3 € par mois"),
            ("prix module export", "2 € HT par poste et par mois"),
            False,
            id="two-amounts-are-compared-by-their-own-key",
        ),
        pytest.param(
            ("précision de mesure p50", "2,5 m"),
            ("erreur horizontale médiane", "6,8 m"),
            True,
            id="accuracy-and-error-at-p50",
        ),
        pytest.param(
            ("précision de mesure p50", "2,5 m"),
            ("erreur au 95e centile", "14 m"),
            False,
            id="other-qualifier",
        ),
        pytest.param(
            ("précision de mesure", "2,5 m"),
            ("erreur de mesure", "2 %"),
            False,
            id="other-unit",
        ),
        pytest.param(
            ("read speed", "500 MB/s"),
            ("write speed", "300 MB/s"),
            False,
            id="one-kind-word-in-both-names-two-quantities",
        ),
        pytest.param(
            ("durée de pose", "1 h"),
            ("temps de trajet", "2 h"),
            False,
            id="no-measurement-kind",
        ),
    ],
)
def test_related_attributes(a: tuple[str, str], b: tuple[str, str], related: bool) -> None:
    assert related_attributes(attribute_key(*a, LEX), attribute_key(*b, LEX), LEX) is related


def test_cep_50_is_the_median() -> None:
    assert attribute_key("précision (CEP 50)", "3 m", LEX)[2] == ("p50",)


SOURCES = {
    "a": SourceInfo("a", None, SourceType.VENDOR_NOTE),
    "b": SourceInfo("b", None, SourceType.INTERNAL_BENCHMARK),
    "c": SourceInfo("c", None, SourceType.INTERNAL_BENCHMARK),
}


def _s(subject: str, attribute: str, value: str, doc: str) -> Statement:
    return Statement(subject, attribute, value, "", (StatementSource(doc, value, value),))


def test_one_quantity_under_two_names_is_one_contradiction() -> None:
    findings = [
        Finding(
            "t",
            (
                _s("Alpha", "précision p50", "2,5 m", "a"),
                _s("Alpha", "erreur médiane", "6,8 m", "b"),
                _s("Beta", "erreur médiane", "4,1 m", "b"),
            ),
        )
    ]
    [found] = find_contradictions(findings, SOURCES)
    assert found.subject == "Alpha" and found.rule == 1
    assert found.retained is not None and found.retained.value == "6,8 m"


def test_a_document_naming_both_keeps_two_quantities() -> None:
    findings = [
        Finding(
            "t",
            (
                _s("Alpha", "précision p50", "2,5 m", "b"),
                _s("Alpha", "erreur médiane", "6,8 m", "b"),
            ),
        )
    ]
    assert find_contradictions(findings, SOURCES) == ()


def test_two_candidates_for_one_name_are_ambiguous_and_not_merged() -> None:
    findings = [
        Finding(
            "t",
            (
                _s("Alpha", "précision p50", "2,5 m", "a"),
                _s("Alpha", "erreur médiane", "6,8 m", "b"),
                _s("Alpha", "écart médian", "7,1 m", "c"),
            ),
        )
    ]
    assert find_contradictions(findings, SOURCES) == ()


def test_a_table_cell_of_words_is_a_description_never_compared() -> None:
    text = (
        "  Product   Radio              Fallback\n"
        "  Alpha     LTE-M and NB-IoT   none\n"
        "  Beta      LTE Cat-1          GSM\n"
    )
    document = {"id": "d-1", "title": "Radio note", "text": text}
    reads, _ = document_reads(document, ["Alpha", "Beta"], LEX, "en", Locale.EN)
    found = {(r.subject, r.attribute, r.value, r.context) for r in reads}
    assert ("Alpha", "Radio", "LTE-M and NB-IoT", ("description",)) in found
    assert ("Beta", "Fallback", "GSM", ("description",)) in found

    def described(value: str, doc: str) -> Statement:
        return Statement(
            "Alpha", "Radio", value, "", (StatementSource(doc, value, ""),), "description"
        )

    pair = (described("LTE-M and NB-IoT", "a"), described("LTE Cat-1", "b"))
    assert find_contradictions([Finding("t", pair)], SOURCES) == ()


def test_a_label_naming_a_concept_is_the_attribute_not_the_subject() -> None:
    text = "Alpha Box is our appliance.\n\nEnd of support: June 30, 2029."
    document = {"id": "d-1", "title": "Alpha Box lifecycle notice", "text": text}
    reads, _ = document_reads(document, ["Alpha Box", "Beta"], LEX, "en", Locale.EN)
    assert [(r.subject, r.attribute, r.value) for r in reads] == [
        ("Alpha Box", "end of support", "June 30, 2029")
    ]
