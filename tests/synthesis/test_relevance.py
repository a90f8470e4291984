"""Relevance of a document: it names a candidate, or what the question decides on.

A document that only shares the dossier's vocabulary (another project of the same
organisation, a note on the service vehicles' car park) is left out with its reason.
"""

from __future__ import annotations

import functools

import pytest

from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.planner import (
    checked_object,
    decision_object,
    detect_products,
    product_aliases,
    relevance,
)
from preuve.synthesis.planner_products import components, question_entities
from preuve.synthesis.planner_relevance import decision_head, linked_ids, set_aside, stems
from preuve.synthesis.statements import product_mentions

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


@pytest.mark.parametrize(
    ("question", "texts", "products", "aliases"),
    [
        pytest.param(
            "Three offers remain: Orca Pump 7 from Orca Fluidics, Tern Flow TF-2 from Tern"
            " Industries, and Mako Duo, a twin-screw pump from Mako Works.",
            ["Orca Pump 7 datasheet", "Tern Flow TF-2 quote", "Mako Duo brochure",
             "Orca Fluidics, Tern Industries and Mako Works"],
            ("Orca Pump", "Tern Flow TF-2", "Mako Duo"),
            {"Orca Fluidics": "Orca Pump", "Tern Industries": "Tern Flow TF-2",
             "Mako Works": "Mako Duo"},
            id="a-maker-after-from-neither-joins-nor-breaks-the-list",
        ),
        pytest.param(
            "Deux offres restent : le Lyre L-2 de chez Fauvel Audio et le Cistre 5, piloté par"
            " Cistre Hub.",
            ["Lyre L-2 et Fauvel Audio", "Cistre 5 et Cistre Hub"],
            ("Lyre L-2", "Cistre"),
            {"Fauvel Audio": "Lyre L-2"},
            id="chez-names-a-maker-par-a-component-is-no-alias",
        ),
    ],
)  # fmt: skip
def test_makers_of_the_candidates(
    question: str, texts: list[str], products: tuple[str, ...], aliases: dict[str, str]
) -> None:
    assert detect_products(question, texts, LEX) == products
    assert product_aliases(question, products) == aliases


def test_a_date_inside_the_insertion_does_not_end_it() -> None:
    question = "The council must pick, before May 4, 2027, the fare gate system that will run."
    assert decision_object(question, LEX) == frozenset({"fare", "gate"})
    assert decision_head(question, LEX) == frozenset({"gate"})
    french = "La régie doit retenir la solution de billettique et de comptage qui équipera."
    assert decision_head(french, LEX) == frozenset({"billettiqu", "comptag"})


@pytest.mark.parametrize(
    ("title", "text", "relevant"),
    [
        pytest.param("Orca Pump 7 sheet", "Flow 40 m3/h.", True, id="names-a-candidate"),
        pytest.param(
            "Bulletin ADV-2026-0042 rev. 2", "ADV-2026-0042 is fixed in 2.1.", True,
            id="an-advisory-id-a-candidate-document-writes",
        ),
        pytest.param(
            "Requirements", "Each fare gate must open within 0.3 s.", True,
            id="the-object-head-in-a-sentence",
        ),
        pytest.param(
            "Member news: home garage doors",
            "A garage door costs $90. The fare gate project is a separate effort and is not"
            " part of this offer.", False,
            id="the-head-only-in-a-disclaimer",
        ),
        pytest.param(
            "Depot fence contract", "The depot fence costs $184,300. The fare zones stay.",
            False, id="a-modifier-of-the-object-is-not-its-head",
        ),
        pytest.param(
            "Headway planning note", "One fare every 90 s in 2027.", True,
            id="a-criterion-in-the-title-and-an-object-word",
        ),
    ],
)  # fmt: skip
def test_strict_relevance_when_most_documents_name_a_candidate(
    title: str, text: str, relevant: bool
) -> None:
    documents = [
        {"title": "Orca Pump 7 sheet", "text": "Advisory ADV-2026-0042 is open."},
        {"title": "Tern quote", "text": "Tern Flow TF-2: $12,000."},
        {"title": "Depot fence contract", "text": "The depot fence costs $184,300."},
    ]
    products = ["Orca Pump", "Tern Flow TF-2"]
    linked, strict = linked_ids(documents, products, LEX)
    assert linked == frozenset({"ADV-2026-0042"}) and strict
    reason = relevance(
        {"title": title, "text": text}, products, frozenset(), LEX, {},
        about=frozenset({"fare", "gate"}), linked=linked, strict=strict,
        head=frozenset({"gate"}), topics=frozenset({"headway"}),
    )  # fmt: skip
    assert (reason is None) is relevant


def test_candidates_introduced_by_clauses_that_open_alike() -> None:
    question = (
        "Trois offres restent : celle de Rivo Transit, qui propose la rame Lyre L-2, celle de"
        " Norbus, avec le Cistre 5, et celle d'Ondal Rail, pilotée par Ondal Hub."
    )
    texts = ["Rivo Transit et Lyre L-2.", "Norbus : Cistre 5.", "Ondal Rail, Ondal Hub."]
    products = detect_products(question, texts, LEX)
    assert products == ("Rivo Transit", "Norbus", "Ondal Rail")
    assert product_aliases(question, products) == {"Lyre L-2": "Rivo Transit", "Cistre": "Norbus"}


def test_an_elided_article_opens_the_decision_object() -> None:
    question = "La régie doit retenir, lors de sa séance du 3 mars 2027, l'offre de billettique."
    assert decision_object(question, LEX) == frozenset({"billettiqu"})


def test_a_document_that_says_it_is_apart_from_the_decision_is_left_out() -> None:
    documents = [
        {"title": "Orca Pump 7 sheet", "text": "Orca Pump 7."},
        {"title": "Tern quote", "text": "Tern Flow TF-2: $12,000."},
        {"title": "Fare gate memo", "text": "Fare gate refits. This file is distinct from the"
         " renewal of the fare gates."},
    ]  # fmt: skip
    products = ["Orca Pump", "Tern Flow TF-2"]
    linked, strict = linked_ids(documents, products, LEX)
    reason = relevance(
        documents[2], products, frozenset(), LEX, {}, about=frozenset({"fare", "gate"}),
        linked=linked, strict=strict, head=frozenset({"gate"}),
        decided=frozenset({"renewal", "fare", "gate"}),
    )  # fmt: skip
    assert reason == (
        "names no product of the question, and says it is apart from what the question"
        " decides on (fare, gate)"
    )


def test_a_component_named_in_a_candidate_s_clause_makes_a_document_relevant() -> None:
    question = (
        "Deux offres restent : le Lyre L-2 de Fauvel Rail, piloté par le logiciel LyreHub, et"
        " le Cistre 5 de Norbus, piloté par Cistre Fleet."
    )
    products = ("Lyre L-2", "Cistre")
    assert product_aliases(question, products) == {}  # a component keeps its own subject
    assert components(question, products) == {"LyreHub": "Lyre L-2", "Cistre Fleet": "Cistre"}
    bulletin = {"title": "Bulletin LyreHub", "text": "LyreHub 4.8.1 corrige CVE-2026-1111."}
    seen = components(question, products)
    assert relevance(bulletin, products, frozenset(), LEX, seen, strict=True) is None


_VENDOR_PRODUCTS = ["Halden Core 5", "Ostra Mill"]
_VENDOR_ALIASES = {"Halden Systems": "Halden Core 5", "Ostra SAS": "Ostra Mill"}


@pytest.mark.parametrize(
    ("title", "text", "reason"),
    [
        pytest.param(
            "Halden Systems launches Halden Grid",
            "Halden Systems today announced Halden Grid, a metering suite for utilities.",
            "names a candidate's vendor only, beside another of its products (Halden Grid)",
            id="vendor-alias-beside-another-product",
        ),
        pytest.param(
            "Mill news",
            "Ostra Flow, the new pump of the brand, ships in May; Ostra support is unchanged.",
            "names a candidate's vendor only, beside another of its products (Ostra Flow)",
            id="brand-word-beside-another-product",
        ),
        pytest.param(
            "Halden Systems quotation",
            "Halden Core 5 perpetual licence: £9,000. Halden Grid is not quoted.",
            None,
            id="the-product-itself-is-named",
        ),
        pytest.param(
            "Halden Systems advisory",
            "Halden HSA-2026-0101: fixed in release 5.2.",
            None,
            id="an-advisory-id-after-the-brand-is-no-product",
        ),
        pytest.param(
            "Ostra SAS price list",
            "Ostra SAS and Ostra SAS Ltd list their support fees.",
            None,
            id="company-names-alone-name-the-candidate",
        ),
        pytest.param(
            "Halden Systems note",
            "Halden Core is sold in two editions.",
            None,
            id="the-candidate-without-its-version-is-no-other-product",
        ),
        pytest.param(
            "Depot board minutes",
            "Ostra's unit and Halden's unit were both tested; Ostra Cloud is now a paid add-on.",
            None,
            id="the-vendors-of-two-candidates-compare-them",
        ),
    ],
)
def test_a_candidate_s_vendor_beside_another_of_its_products(
    title: str, text: str, reason: str | None
) -> None:
    got = relevance(
        {"title": title, "text": text}, _VENDOR_PRODUCTS, frozenset(), LEX, _VENDOR_ALIASES,
        strict=True,
    )  # fmt: skip
    assert got == reason


def test_a_listed_candidate_keeps_its_version_number() -> None:
    question = (
        "Two platforms remain:\n\n- **Halden Core 5** (Halden Systems), on our servers;\n"
        "- **Ostra Mill** (Ostra SAS), hosted.\n\nWhich should the board recommend?"
    )
    texts = ["Halden Core 5 datasheet.", "Halden Core 5.2 and Ostra Mill quotes."]
    products = detect_products(question, texts, LEX)
    assert products == ("Halden Core 5", "Ostra Mill")
    assert product_aliases(question, products) == _VENDOR_ALIASES


@pytest.mark.parametrize(
    ("text", "named"),
    [
        pytest.param("The AF-900 ships in May.", ["Orla AF-900"], id="model-code"),
        pytest.param("GridBlock units arrive.", ["Tarn GridBlock"], id="coined-word"),
        pytest.param("The Pump arrives.", [], id="a-common-word-is-no-tail"),
    ],
)
def test_a_two_word_name_s_model_code_names_it(text: str, named: list[str]) -> None:
    products = ["Orla AF-900", "Tarn GridBlock", "Mako Pump"]
    assert [p for _, _, p in product_mentions(products, text)] == named


@pytest.mark.parametrize(
    ("text", "relevant"),
    [
        pytest.param(
            "Core switches for both sites. The choice of the gateways is not covered by this"
            " quote.",
            False,
            id="not-covered",
        ),
        pytest.param(
            "The web filter of the citizen portal is not in the scope of the gateway renewal.",
            False,
            id="not-in-the-scope",
        ),
        pytest.param(
            "Kick-off of the gateway renewal: both sites need 8 Gbit/s, a five-year cost and"
            " a supported model; the committee renews the gateways in 2027.",
            True,
            id="a-framing-note-stays",
        ),
    ],
)
def test_a_document_naming_no_candidate_that_sets_itself_apart(text: str, relevant: bool) -> None:
    reason = relevance(
        {"title": "Gateway renewal note", "text": text}, _VENDOR_PRODUCTS,
        frozenset({"gateway", "renew", "site", "cost", "committe"}), LEX, _VENDOR_ALIASES,
        strict=True, asked=frozenset({"gateway", "renew", "site", "cost", "committe"}),
    )  # fmt: skip
    assert (reason is None) is relevant, reason


@pytest.mark.parametrize(
    ("least_reliable", "strict", "relevant"),
    [
        pytest.param(True, True, False, id="a-third-party-article-naming-no-candidate"),
        pytest.param(False, True, True, id="the-buyer-s-own-note"),
        pytest.param(True, False, True, id="when-few-documents-name-a-candidate"),
    ],
)
def test_a_third_party_article_naming_no_candidate(
    least_reliable: bool, strict: bool, relevant: bool
) -> None:
    document = {
        "title": "Five trends for gateway renewal and site costs",
        "text": "Gateway renewal, site costs and committee choices: what changes in 2026.",
        "least_reliable": least_reliable,
    }
    words = frozenset({"gateway", "renew", "site", "cost", "committe"})
    reason = relevance(
        document, _VENDOR_PRODUCTS, words, LEX, _VENDOR_ALIASES, strict=strict, asked=words
    )
    assert (reason is None) is relevant, reason


@pytest.mark.parametrize(
    ("question", "kept", "dropped"),
    [
        pytest.param(
            "Les passerelles de la Régie Ondine doivent filtrer avec la prévention"
            " d'intrusion (IPS) activée, comme le demande la DSIO.",
            {"Régie Ondine", "DSIO"},
            {"IPS"},
            id="an-acronym-after-a-common-word-is-a-term",
        ),
        pytest.param(
            "Our board, at Harl Water, asks for certifications (CSPN, FIPS) and the BNCR report.",
            {"BNCR"},
            {"CSPN", "FIPS"},
            id="a-list-of-acronyms-in-parentheses",
        ),
        pytest.param(
            "# Depot board: HVAC renewal\n\nThe heating, ventilation and air conditioning (HVAC)"
            " of the Brell depot is replaced; which HVAC units should the board buy?",
            set(),
            {"HVAC"},
            id="an-acronym-defined-once-then-used-as-a-word",
        ),
    ],
)
def test_an_acronym_defining_a_common_word_is_no_entity(
    question: str, kept: set[str], dropped: set[str]
) -> None:
    texts = [f"{question} IPS DSIO CSPN FIPS BNCR"]
    found = set(question_entities(question, texts, ()))
    assert kept <= found
    assert not dropped & found


def test_a_vendor_s_service_the_question_asks_about_is_no_other_product() -> None:
    """A sibling product whose document's title carries two criterion words of the question
    (its remote monitoring, its subscription) is a service of the candidate asked about; a
    sibling whose title carries one is another product of the vendor."""
    document = {
        "title": "Ostra announcement: new terms for Ostra Cloud remote monitoring",
        "text": "Ostra Cloud moves to a yearly subscription of £900 per site.",
    }
    sibling = {
        "title": "Ostra Breeze fans for offices: product note",
        "text": "Ostra presents Ostra Breeze, a ceiling fan that shares the Ostra Cloud portal.",
    }
    topics = frozenset({"remot", "monitor", "subscription", "fan"})
    got = [
        relevance(d, _VENDOR_PRODUCTS, frozenset(), LEX, _VENDOR_ALIASES, topics=topics)
        for d in (document, sibling)
    ]
    assert got == [
        None,
        "names a candidate's vendor only, beside another of its products"
        " (Ostra Breeze, Ostra Cloud)",
    ]


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        pytest.param(
            {"title": "Quotation - office chairs", "text": "24 chairs: £4,800.", "offer": True},
            "names no product of the question, and is a quote: it prices another offer than"
            " the candidates'",
            id="a-quote-of-another-purchase",
        ),
        pytest.param(
            {"title": "Quotation - office chairs", "text": "24 chairs: £4,800.", "offer": False},
            None,
            id="a-note-on-the-same-words",
        ),
        pytest.param(
            {"title": "Quotation - fan chairs", "text": "24 chairs: £4,800.", "offer": True},
            None,
            id="a-quote-whose-title-names-a-criterion",
        ),
        pytest.param(
            {"title": "Quotation - office chairs", "text": "Ostra Ltd: 24 chairs.", "offer": True},
            None,
            id="a-quote-of-a-candidate-s-vendor",
        ),
    ],
)
def test_a_quote_naming_no_candidate(document: dict[str, object], reason: str | None) -> None:
    got = relevance(
        document, _VENDOR_PRODUCTS, frozenset({"offic", "chair", "fan"}), LEX, _VENDOR_ALIASES,
        strict=True, topics=frozenset({"fan", "cost"}),
    )  # fmt: skip
    assert got == reason


def test_topics_the_question_sets_aside() -> None:
    """The words of a question's sentence that sets topics aside are those topics (not the
    words of its other sentences); a document naming no candidate about one is left out."""
    question = (
        "Which ventilation unit should the depot buy?\n\nDocuments about the forklifts or"
        " the canteen\nare not the subject of the question. Ventilation cost matters."
    )
    assert set_aside(question, LEX) == {"forklift", "canteen"}
    document = {"title": "Forklift battery renewal", "text": "Four forklifts: new batteries."}
    got = relevance(
        document, _VENDOR_PRODUCTS, frozenset({"ventil"}), LEX, _VENDOR_ALIASES, strict=True,
        aside=set_aside(question, LEX),
    )  # fmt: skip
    assert got == (
        "names no product of the question, and is about what the question sets aside (forklift)"
    )


@pytest.mark.parametrize(
    ("question", "aside"),
    [
        pytest.param(
            "Which dryer should the laundry buy?\n\nDisregard the greenhouse and the"
            " loading-dock projects, which are separate projects.",
            {"greenhous", "loading-dock", "dock"},
            id="english-disregard",
        ),
        pytest.param(
            "Quel séchoir la blanchisserie doit-elle acheter ? La serre et le quai de"
            " chargement sont hors sujet.",
            {"serr", "quai", "charg"},
            id="french-off-topic",
        ),
    ],
)
def test_other_wordings_that_set_topics_aside(question: str, aside: set[str]) -> None:
    assert aside <= set_aside(question, LEX)
    assert not {"dryer", "sechoir", "blanchisseri", "laundry"} & set_aside(question, LEX)


def test_minutes_of_the_question_s_own_committee_are_not_set_aside() -> None:
    """A set-aside word in the text of a document whose title names what the question asks
    about (the committee's own minutes mention the old gates to be replaced) leaves it in;
    a document whose title names nothing the question asks is left out on its text."""
    question = (
        "Le comité « Séchoirs textiles » doit retenir un séchoir. Les portiques de sécurité"
        " sont hors sujet."
    )
    aside = set_aside(question, LEX)
    asked = frozenset(stems(question, LEX)) - aside
    minutes = {"title": "Compte rendu du comité Séchoirs textiles", "text": "Les portiques"
               " actuels seront remplacés plus tard. Budget : 40 000 €."}  # fmt: skip
    ticket = {"title": "Ticket 4411 - panne", "text": "Le portique de l'entrée est en panne."}
    words = frozenset(stems("séchoirs textiles", LEX))
    weigh = functools.partial(relevance, strict=True, aside=aside, asked=asked)
    assert weigh(minutes, ["Orme Box"], words, LEX, {}) is None
    assert weigh(ticket, ["Orme Box"], words, LEX, {}) == (
        "names no product of the question, and is about what the question sets aside (portiqu)"
    )


def test_bold_candidates_with_model_numbers_are_a_list_a_heading_name_is_not() -> None:
    """ "**A 200** (its maker), **B X** (...) and **C Pro** (...)" lists three candidates
    (emphasis marks and a model number the name pattern leaves out stand between them); the
    buyer's name in the heading and again opening the next paragraph is no list."""
    question = (
        "# Question to the Works Board — Pellmoor Dairy\n\nPellmoor Dairy has to replace its"
        " pasteuriser probes. Three systems remain: **Kelvo 200** (Arden Labs), **Miro X**"
        " (Sallow\nMetrics) and **Tansy Pro** (Quern Devices)."
    )
    texts = [
        "Kelvo 200 datasheet.",
        "Miro X quote.",
        "Tansy Pro notice.",
        "Pellmoor Dairy minutes.",
    ]
    products = detect_products(question, texts, LEX)
    assert products == ("Kelvo", "Miro X", "Tansy Pro")
    assert product_aliases(question, products) == {
        "Arden Labs": "Kelvo", "Sallow Metrics": "Miro X", "Quern Devices": "Tansy Pro",
    }  # fmt: skip


def test_clauses_opening_with_different_determiners_introduce_one_candidate_each() -> None:
    question = (
        "Trois offres restent en lice : l'automate **Voxa 2** de Brill, le trieur **TX-9** de"
        " Harl et la **Orme Box** de Pell SAS. Laquelle retenir ?"
    )
    texts = ["Fiche Voxa 2.", "Devis TX-9.", "Orme Box : fiche.", "Brill, Harl, Pell SAS."]
    products = detect_products(question, texts, LEX)
    assert products == ("Voxa", "TX-9", "Orme Box")
    assert components(question, products) == {}  # the third offer is no aside of the second


def test_a_candidate_s_brand_word_inside_another_product_s_name() -> None:
    """ "Halden Meter Hub" opens with the brand of the candidate Halden Core 5 and names
    another product of its vendor; a document writing only it is about that product."""
    document = {"title": "Halden Meter Hub - changelog", "text": "Halden Meter Hub 1.2: fixes."}
    assert relevance(document, _VENDOR_PRODUCTS, frozenset(), LEX, _VENDOR_ALIASES) == (
        "names a candidate's vendor only, beside another of its products (Halden Meter Hub)"
    )


def test_a_third_party_article_on_a_candidate_s_maker_only() -> None:
    """When most documents name a candidate, a third-party article naming a candidate's
    vendor only is about the maker, not its product; one that writes an advisory id a
    candidate's document writes is about that advisory."""
    news = {"title": "Ostra SAS buys a start-up", "text": "Ostra SAS has acquired Pivlo, a"
            " maker of flow meters.", "least_reliable": True}  # fmt: skip
    assert relevance(news, _VENDOR_PRODUCTS, frozenset(), LEX, _VENDOR_ALIASES, strict=True) == (
        "names a candidate's vendor only, and is of the least reliable kind (a third-party"
        " article): no evidence on a candidate"
    )
    flaw = {"title": "Ostra SAS: still no fix", "text": "OSA-2026-0042 is still open at Ostra"
            " SAS.", "least_reliable": True}  # fmt: skip
    linked = frozenset({"OSA-2026-0042"})
    got = relevance(
        flaw, _VENDOR_PRODUCTS, frozenset(), LEX, _VENDOR_ALIASES, strict=True, linked=linked
    )
    assert got is None
    assert relevance(news, _VENDOR_PRODUCTS, frozenset(), LEX, _VENDOR_ALIASES) is None
