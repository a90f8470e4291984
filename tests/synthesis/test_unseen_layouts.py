"""Mechanisms found on dossiers nobody tuned on (session 25), pinned on sentences of other
domains (cold rooms, conveyors, irrigation, rail depots): who is a candidate, who a place,
which component a question names by its kind, and what two statements are about."""

from __future__ import annotations

import pytest

from preuve.core.numbers import Locale
from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.matcher import group_key
from preuve.synthesis.planner_products import detect_products, question_entities
from preuve.synthesis.planner_vendors import vendor_siblings
from preuve.synthesis.reader import document_reads
from preuve.synthesis.sentences import sentences
from preuve.synthesis.statements import with_branch
from preuve.synthesis.types import Finding, Statement, StatementSource
from tests.synthesis.test_contradictions import SOURCES

LEX = default_lexicon()


def test_a_candidate_written_without_its_brand_and_a_place_before_a_place_noun() -> None:
    question = (
        "Should Orvane Dairies' Kelby plant buy **Frostel ChillGuard CG-8** cold-room"
        " controllers for its 40 rooms?"
    )
    texts = [
        "ChillGuard CG-8 datasheet\nThe ChillGuard CG-8 holds 2 °C.",
        "Kelby plant minutes\nThe Kelby plant has 40 rooms; ChillGuard CG-8 was tested.",
    ]
    assert detect_products(question, texts) == ("ChillGuard CG-8",)


def test_a_component_the_question_names_by_its_kind_is_a_subject() -> None:
    question = "Which conveyor should we buy, and can it reuse the drives we already own?"
    texts = [
        "VX-9 drive lifecycle notice\nEnd of support: 31 March 2027.",
        "VX-9 drive - end of support extended\nSupport now runs until 2029.",
        "Belt Nova datasheet\nBelt Nova runs at 3 m/s.",
        "Q-771 quote - Belt Nova\nQ-771 prices the conveyor.",
    ]
    assert question_entities(question, texts, ("Belt Nova",)) == ("VX-9",)


def test_a_candidate_s_vendor_written_with_its_legal_form_beside_another_product() -> None:
    body = (
        "Rainwell Dock 3 datasheet\nSmart irrigation dock.\n\n"
        "Supported until 2033. Rainwell Irrigation AB."
    )
    products = ("AquaLine", "FieldPass")
    aliases = {"Rainwell Irrigation": "FieldPass"}
    assert vendor_siblings(body, products, aliases, LEX) == ("Rainwell Dock",)
    named = "FieldPass V-2 notice\nFieldPass V-2 support ends. Rainwell Irrigation AB."
    assert vendor_siblings(named, products, aliases, LEX) == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "**Depot support will continue until 30 June 2029.** This supersedes our notice of"
            " 2 May 2025.",
            [
                "**Depot support will continue until 30 June 2029.**",
                "This supersedes our notice of 2 May 2025.",
            ],
            id="a-bold-sentence-ends-at-its-period",
        ),
        pytest.param(
            "Version 3.1 ships. The rest.",
            ["Version 3.1 ships.", "The rest."],
            id="a-decimal-ends-no-sentence",
        ),
    ],
)
def test_sentence_ends(text: str, expected: list[str]) -> None:
    assert [s.text for p in sentences(text) for s in p] == expected


def test_a_longer_version_is_no_branch() -> None:
    assert with_branch("RailSig", "works with firmware 2.8.x and later") == "RailSig"
    assert with_branch("RailSig", "the 8.x branch is supported until 2029") == "RailSig 8.x"


def test_support_extended_to_a_date_is_an_end_of_support() -> None:
    text = "- Support of the DC-4 (spares, helpdesk) is extended to **30 June 2029**."
    document = {"id": "doc-01", "title": "Depot controller notice", "text": text}
    reads, _ = document_reads(document, ("DC-4",), LEX, "en", Locale.EN)
    assert [(r.subject, r.attribute, r.value) for r in reads] == [
        ("DC-4", "end of support", "30 June 2029")
    ]


def test_an_advisory_state_is_compared_whoever_it_is_said_of() -> None:
    bulletin = group_key("Advisory RSA-2026-031 revision 1", "RSA-2026-031", "No fix is available")
    notes = group_key("RailSig", "RSA-2026-031", "fixed in 4.1.2")
    assert bulletin == notes
    assert group_key("RailSig", "latency", "9 ms") != group_key("DepotNet", "latency", "9 ms")


def test_two_windows_an_action_shortens_are_two_quantities() -> None:
    def said(attribute: str, value: str, doc_id: str) -> Statement:
        return Statement("ColdBox", attribute, value, "", (StatementSource(doc_id),))

    statements = (
        said("shortens defrost window", "60 s", "doc-02"),
        said("shortens cooling window", "120 s", "doc-06"),
    )
    assert find_contradictions([Finding("cycles", statements)], SOURCES) == ()


def test_a_state_word_after_a_negated_noun_phrase_is_the_opposite_state() -> None:
    from preuve.synthesis.reader_states import status_of

    sentence = "Aucune version de micrologiciel corrigée n'est disponible."
    found = status_of(sentence, LEX, "fr", LEX.advisory_states)
    assert found is not None and found.key[:2] == ("status", "unfixed")


def test_a_bold_candidate_s_parenthesis_is_its_alias() -> None:
    from preuve.synthesis.planner_products import product_aliases

    question = "Faut-il retenir la chambre froide **Frigel CF-20** (Ardane Systèmes) pour le site ?"
    assert product_aliases(question, ("Frigel CF-20",)) == {"Ardane Systèmes": "Frigel CF-20"}
    texts = ["Frigel CF-20 fiche\nArdane Systèmes livre la Frigel CF-20."]
    assert detect_products(question, texts) == ("Frigel CF-20",)


def test_a_sheet_of_another_model_of_the_candidate_s_maker_is_no_candidate_s() -> None:
    """The title names another model (a brand word and a model code) of the maker the
    question names beside the candidate: its rows are that model's, not the candidate's."""
    document = {
        "id": "doc-01",
        "title": "Fiche technique Glacis GX-4 – armoire réfrigérée",
        "text": "**Ardane Systèmes – gamme Glacis – fiche produit 2026**\n\n"
        "| Paramètre | Valeur |\n|---|---|\n| Poids | 1,3 kg |\n",
    }
    aliases = {"Ardane Systèmes": "Frigel CF-20"}
    reads, _ = document_reads(document, ("Frigel CF-20",), LEX, "fr", Locale.FR, aliases=aliases)
    assert [(r.attribute, r.value) for r in reads] == [("poids", "1,3 kg")]
    assert not any(r.subject.startswith("Frigel") for r in reads), reads
