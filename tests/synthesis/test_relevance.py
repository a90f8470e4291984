"""Relevance of a document: it names a candidate, or what the question decides on.

A document that only shares the dossier's vocabulary (another project of the same
organisation, a note on the service vehicles' car park) is left out with its reason.
"""

from __future__ import annotations

import pytest

from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.planner import (
    checked_object,
    decision_object,
    detect_products,
    product_aliases,
    relevance,
)

LEX = default_lexicon()


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        pytest.param(
            "Quel serveur d'inférence LLM la plateforme interne doit-elle retenir : A ou B ?",
            {"serveur", "inferenc"},
            id="interrogative-stops-at-an-article",
        ),
        pytest.param(
            "Le comité doit retenir, avant la commission de mars, la solution de cartographie"
            " et de routage qui équipera les agents. Trois offres restent en lice.",
            {"cartographi", "routag"},
            id="verb-skips-an-insertion-and-a-generic-noun-stops-at-qui",
        ),
        pytest.param(
            "The board must pick, before the budget freeze, the ticketing system that will"
            " replace HelpLine.",
            {"ticket"},
            id="english-stops-at-that",
        ),
        pytest.param(
            "The board must choose the backup service for our file servers in 2027.",
            {"backup"},
            id="generic-noun-dropped-stops-at-our",
        ),
        pytest.param("Compare A and B on latency.", set(), id="no-decision-phrase"),
        pytest.param(
            "Le comité doit recommander une de ces offres. Lorsque deux documents divergent,"
            " il veut savoir quelle valeur est retenue.",
            set(),
            id="only-the-first-deciding-sentence-counts",
        ),
    ],
)
def test_decision_object(question: str, expected: set[str]) -> None:
    assert decision_object(question, LEX) == frozenset(expected)


@pytest.mark.parametrize(
    ("title", "text", "relevant"),
    [
        pytest.param("Fiche produit", "Alpha Track : 2,5 m.", True, id="names-a-candidate"),
        pytest.param("Note de cadrage", "Aucune cartographie aujourd'hui.", True, id="object"),
        pytest.param(
            "Stationnement des véhicules de service",
            "Les agents d'astreinte et les véhicules de service du comité se garent ici.",
            False,
            id="shares-vocabulary-only",
        ),
    ],
)
def test_relevance_needs_a_candidate_or_the_decision_object(
    title: str, text: str, relevant: bool
) -> None:
    about = frozenset({"cartographi", "routag"})
    words = frozenset({"vehicul", "servic", "agent", "astreint", "comit"})
    reason = relevance({"title": title, "text": text}, ["Alpha Track"], words, LEX, {}, about=about)
    assert (reason is None) is relevant
    if not relevant:
        assert reason == (
            "names no product of the question, nor what it decides on (cartographi, routag)"
        )


def test_a_generic_acronym_in_parentheses_is_no_alias() -> None:
    question = "Trois offres : Alpha (plateforme SaaS et boîtier AX-3) et Beta Pro."
    assert product_aliases(question, ["Alpha", "Beta Pro"]) == {"AX-3": "Alpha"}


def test_an_object_that_leaves_most_documents_out_was_misread() -> None:
    documents = [
        {"title": "Note", "text": "Alpha Track mesure 2 m."},
        {"title": "Cadrage", "text": "Projet de cartographie."},
        {"title": "Devis", "text": "Prix unitaire 90 €."},
    ]
    about = frozenset({"cartographi"})
    assert checked_object(about, documents, ["Alpha Track"], LEX) == about
    assert checked_object(frozenset({"valeur"}), documents, ["Zeta"], LEX) == frozenset()


def test_candidates_written_one_per_list_item_and_their_components() -> None:
    question = (
        "Two offers remain:\n\n"
        "- **Alpha Data** — ArcBox 9 appliance running AlphaOS;\n"
        "- **Beta Systems** : Vault X4 appliance.\n\n"
        "1. restore time measured in our lab;\n"
    )
    texts = ["Alpha Data ships ArcBox 9.", "Beta Systems and Vault X4.", "AlphaOS 8.3 is out."]
    products = detect_products(question, texts, LEX)
    assert products == ("Alpha Data", "Beta Systems")
    assert product_aliases(question, products) == {
        "ArcBox": "Alpha Data",
        "AlphaOS": "Alpha Data",
        "Vault X4": "Beta Systems",
    }
