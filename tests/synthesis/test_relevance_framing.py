"""Relevance on unseen dossiers: a criterion label is no candidate, a framing note of the whole
question stays in scope, and a document about another product of a candidate's maker (its
title names that product) is set aside though it mentions the candidate in passing."""

from __future__ import annotations

import functools

import pytest

from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.planner import detect_products, relevance
from preuve.synthesis.planner_relevance import set_aside, stems

LEX = default_lexicon()


def test_a_criterion_label_of_a_numbered_list_is_no_candidate() -> None:
    """ "3. Prix : ..." opens a list item like a candidate does; a capitalized word the
    texts write in lowercase, inflected ("prix", "délais"), is a common word, not a name."""
    question = (
        "Trois broyeurs restent en lice :\n\n- **Maltor B4** (Sorel SA)\n"
        "- **Grindex 20** (Harl)\n- **Vassa Mill** (Quern Ltd)\n\n## Critères\n"
        "1. Débit mesuré.\n2. Délai : livré avant mars.\n3. Prix : tenir dans le budget."
    )
    texts = ["Maltor B4 : 2 t/h.", "Grindex 20 : devis.", "Vassa Mill : fiche.", "Les délais"
             " de livraison.", "Délai annoncé : 6 semaines."]  # fmt: skip
    assert detect_products(question, texts, LEX) == ("Maltor B4", "Grindex 20", "Vassa Mill")


_QUESTION_WORDS = frozenset(
    stems(
        "mill throughput grinding tonnes hour noise operator cabin dust filter budget capital"
        " delivery spring commissioning warranty service hopper motor power conveyor silo"
        " maintenance contract safety guard",
        LEX,
    )
)


def test_a_framing_note_that_writes_much_of_the_question_stays_despite_a_disclaimer() -> None:
    """The committee's kick-off speaks of the whole question (many of its words): a
    disclaimer about one of its items ("the service contract is not part of the budget")
    does not set the note apart; a short note with the same disclaimer is apart."""
    framing = {
        "title": "Works committee - launch meeting",
        "text": (
            "We replace the grinding mill before spring. The capital budget covers delivery,"
            " commissioning and the hopper; throughput in tonnes per hour, noise at the"
            " operator cabin, dust filter, motor power, conveyor and silo links, safety guard"
            " and warranty are the criteria. The maintenance contract is not part of the"
            " capital budget."
        ),
    }
    short = {"title": "Note", "text": "The maintenance contract is not part of the budget."}
    weigh = functools.partial(relevance, strict=True, asked=_QUESTION_WORDS)
    assert weigh(framing, ["Maltor B4"], _QUESTION_WORDS, LEX, {}) is None
    assert weigh(short, ["Maltor B4"], _QUESTION_WORDS, LEX, {}) is not None


def test_a_framing_note_stays_though_its_title_names_a_word_set_aside() -> None:
    """ "Les projets suivants ... sont hors sujet" sets aside its list, and "projet" with it;
    the kick-off of "le projet broyeur" writes much of the question: it stays."""
    question = (
        "Quel broyeur la coopérative doit-elle commander ?\n\nLes projets suivants sont hors"
        " sujet : la chaudière du séchoir, la clôture du parc."
    )
    aside = set_aside(question, LEX)
    assert "projet" in aside
    framing = {
        "title": "Lancement du projet broyeur",
        "text": (
            "Mill throughput in tonnes per hour, noise at the operator cabin, dust filter,"
            " hopper, motor power, conveyor, silo, safety guard, warranty, delivery in spring"
            " and commissioning, within the capital budget."
        ),
    }
    got = relevance(
        framing, ["Maltor B4"], _QUESTION_WORDS, LEX, {}, strict=True, aside=aside,
        asked=_QUESTION_WORDS,
    )  # fmt: skip
    assert got is None


def test_a_third_party_article_is_no_framing_note() -> None:
    article = {
        "title": "Ten trends in mills",
        "text": "Mill throughput tonnes hour noise operator cabin dust filter budget capital"
        " delivery spring commissioning warranty service hopper motor power conveyor.",
        "least_reliable": True,
    }
    got = relevance(article, ["Maltor B4"], _QUESTION_WORDS, LEX, {}, strict=True)
    assert got is not None


_PRESS = ["Torvik Press 3", "Salmo Line"]
_PRESS_ALIASES = {"Halmer Industrie": "Torvik Press 3", "Brova SA": "Salmo Line"}


@pytest.mark.parametrize(
    ("title", "text", "relevant"),
    [
        pytest.param(
            "Halmer lance la cisaille HC-8",
            "Halmer Industrie présente la HC-8, pilotée depuis le portail des Torvik Press 3."
            " La HC-8 coûte 4 000 € HT.",
            False,
            id="another-product-of-the-maker-in-the-title",
        ),
        pytest.param(
            "Halmer Shear SX-2 - product sheet",
            "# Halmer Shear SX-2\n\nShares the Torvik Press 3 controller. SX-2: 2 kW.",
            False,
            id="its-datasheet-in-english",
        ),
        pytest.param(
            "Ticket INC-4411 - Halmer engineer visit",
            "The Torvik Press 3 of hall B was serviced by Halmer Industrie.",
            True,
            id="a-ticket-reference-is-no-product",
        ),
        pytest.param(
            "Halmer TorvikLink 4 - release notes",
            "TorvikLink 4 runs the Torvik Press 3; TorvikLink 4.1 fixes the login.",
            True,
            id="a-component-named-after-the-candidate",
        ),
        pytest.param(
            "Ticket 88 - HL7 interface with the ERP",
            "The Torvik Press 3 of Halmer sends HL7 messages to the ERP (HL7 v2.5).",
            True,
            id="a-standard-is-no-product",
        ),
        pytest.param(
            "Halmer lance la gamme de projecteurs Ténor Patrimoine",
            "Halmer Industrie présente **Ténor Patrimoine**, une gamme de projecteurs. Elle ne"
            " se pilote pas depuis le portail des Torvik Press 3. Garantie 7 ans.",
            False,
            id="a-range-the-maker-launches-without-a-model-code",
        ),
        pytest.param(
            "Halmer unveils the Torvik Press 3 at the fair",
            "Halmer Industrie showed the Torvik Press 3: 40 strokes a minute.",
            True,
            id="the-maker-unveils-the-candidate-itself",
        ),
        pytest.param(
            "Essai en atelier - Halmer",
            "La Torvik Press 3 a tenu 40 coups par minute ; la Salmo Line 38. Torvik Press 3 :"
            " 2 arrêts.",
            True,
            id="a-title-naming-no-other-product",
        ),
    ],
)
def test_a_title_naming_another_product_of_a_candidate_s_maker(
    title: str, text: str, relevant: bool
) -> None:
    reason = relevance(
        {"title": title, "text": text}, _PRESS, frozenset(), LEX, _PRESS_ALIASES, strict=True
    )
    assert (reason is None) is relevant, reason


def test_another_product_the_question_asks_about_is_part_of_the_offer() -> None:
    """The candidate reuses its maker's gateways and a criterion asks about them: the
    gateway's notice is about the offer, not about another product."""
    notice = {
        "title": "Halmer HG-2 gateway - end of support",
        "text": "HG-2 gateways, used by the Torvik Press 3, are supported until 2029. HG-2: v4.",
    }
    weigh = functools.partial(relevance, strict=True)
    assert weigh(notice, _PRESS, frozenset(), LEX, _PRESS_ALIASES) is not None
    got = weigh(notice, _PRESS, frozenset(), LEX, _PRESS_ALIASES, topics=frozenset({"gateway"}))
    assert got is None


@pytest.mark.parametrize(
    ("question", "aside"),
    [
        pytest.param(
            "Which kiln should the pottery buy?\n\nThe kiosk and car-wash works are unrelated"
            " to this purchase.",
            {"kiosk", "car-wash", "wash"},
            id="english-unrelated",
        ),
        pytest.param(
            "Quel four la poterie doit-elle acheter ? Le kiosque et la station de lavage n'ont"
            " rien à voir avec cet achat.",
            {"kiosqu", "station", "lavag"},
            id="french-nothing-to-do-with",
        ),
    ],
)
def test_a_question_saying_topics_are_apart_sets_them_aside(question: str, aside: set[str]) -> None:
    assert aside <= set_aside(question, LEX)
    assert not {"kiln", "four", "poteri", "potter"} & set_aside(question, LEX)
