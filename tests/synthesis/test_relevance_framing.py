"""Relevance on unseen dossiers: a criterion label is no candidate, a framing note of the whole
question stays in scope, and a document about another product of a candidate's maker (its
title names that product) is set aside though it mentions the candidate in passing."""

from __future__ import annotations

import functools

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
