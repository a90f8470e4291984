"""The two risk categories of issue 14 (s23): activity and asset value.

An order book, orders or demand falling, or a major contract lost (``activity``); an
impairment headroom that is small, a sensitivity that would trigger an impairment, idle
assets carried without impairment, goodwill at risk (``asset_value``). Every case is in
other sectors and wording than the held-out reports; the screens (reassurance, pointers,
accounting policies, hedges) still apply, and an order book that grows is no signal.
"""

from __future__ import annotations

import pytest

from preuve.memo.cues import CATEGORIES, CATEGORY_LABELS, classify_sentence
from preuve.memo.english import CATEGORY_LABELS_EN
from preuve.memo.reader import READER_SCHEMA, READER_SYSTEM
from preuve.memo.selection import SELECT_SYSTEM, selection_schema

SIGNALS: dict[str, tuple[str, str]] = {
    # activity
    "order book down (fr, shipbuilding)": (
        "Le carnet de commandes du chantier naval a reculé de 35 % sur l'exercice, à 96 M€.",
        "activity",
    ),
    "order intake fall (fr, machinery)": (
        "Les prises de commandes sont en baisse de 22 % par rapport à 2024 dans la division"
        " machines-outils.",
        "activity",
    ),
    "fall of the orders named first (fr)": (
        "La baisse de 18 % des commandes de la grande distribution pèse sur le taux de charge"
        " des usines.",
        "activity",
    ),
    "a few months of work left (fr, printing)": (
        "Les commandes fermes de l'imprimerie ne couvrent plus que quatre mois d'activité.",
        "activity",
    ),
    "loss of the main contract (fr, cleaning)": (
        "La perte du principal contrat de nettoyage hospitalier prendra effet en avril 2026.",
        "activity",
    ),
    "backlog declined (en, defence)": (
        "Backlog declined to $1.2 billion at year end from $1.9 billion a year earlier.",
        "activity",
    ),
    "bookings down (en, software)": (
        "New bookings were down 27% in the fourth quarter as two telecom operators froze"
        " their budgets.",
        "activity",
    ),
    "decline in orders named first (en)": (
        "The 31% decline in orders from agricultural dealers reduced plant utilisation in Iowa.",
        "activity",
    ),
    "loss of a key contract (en, logistics)": (
        "The loss of a key contract with a national grocer will remove $40 million of annual"
        " revenue from 2026.",
        "activity",
    ),
    # asset value
    "headroom of a few millions (fr, hotels)": (
        "Pour le pôle hôtellerie, la valeur d'utilité ne dépasse la valeur nette comptable que"
        " de 0,8 M€.",
        "asset_value",
    ),
    "recoverable value barely above (fr, retail)": (
        "La valeur recouvrable des magasins de l'enseigne reste à peine supérieure à leur"
        " valeur comptable à la clôture.",
        "asset_value",
    ),
    "a rate rise would trigger an impairment (fr, energy)": (
        "Une hausse de 1 point du taux d'actualisation entraînerait une dépréciation de 3,4 M€"
        " des parcs éoliens.",
        "asset_value",
    ),
    "idle equipment not impaired (fr, printing)": (
        "La rotative offset, à l'arrêt depuis mars 2025, reste inscrite pour 1 150 k€ sans"
        " aucune dépréciation.",
        "asset_value",
    ),
    "low utilisation and no impairment (fr, logistics)": (
        "L'entrepôt frigorifique de Rungis, avec un taux d'occupation de 35 %, n'a pas été"
        " déprécié.",
        "asset_value",
    ),
    "goodwill at risk (fr)": (
        "Le goodwill de la filiale polonaise, soit 6,2 M€, est exposé à un risque de"
        " dépréciation si les volumes ne se redressent pas.",
        "asset_value",
    ),
    "headroom only a few percent (en, media)": (
        "The recoverable amount of the radio cash-generating unit exceeds its carrying amount"
        " by only 3%.",
        "asset_value",
    ),
    "a margin change would eliminate headroom (en, chemicals)": (
        "A decrease of 0.7 percentage points in the long-term margin would eliminate the"
        " headroom of the coatings unit.",
        "asset_value",
    ),
    "idle plant not written down (en, paper)": (
        "The idle paper mill in Maine, carried at $22 million, has not been written down.",
        "asset_value",
    ),
    "reporting unit at risk (en)": (
        "Goodwill of $85 million in the specialty retail unit is at risk of future impairment.",
        "asset_value",
    ),
}


@pytest.mark.parametrize("case", SIGNALS)
def test_activity_and_asset_value_signals(case: str) -> None:
    sentence, category = SIGNALS[case]
    found = classify_sentence(sentence)
    assert (found[0] if found else None) == category


NOT_SIGNALS: dict[str, str] = {
    # activity: growth, stability and plain measures are no risk
    "order book grows (fr)": "Le carnet de commandes progresse de 14 % et atteint 212 M€,"
    " soit dix-huit mois de production.",
    "order intake up (fr)": "Les prises de commandes sont en hausse de 9 % sur l'exercice.",
    "backlog increased (en)": "Backlog increased to $3.4 billion, up 12% from the prior year.",
    "backlog stated without a direction (en)": "Our backlog was $640 million at December 31,"
    " 2025, compared with $610 million a year earlier.",
    "order book as a policy (fr)": "Le carnet de commandes comprend les commandes fermes"
    " signées et non encore exécutées.",
    "a generic hypothetical with no figure (en)": "A decline in customer demand could"
    " adversely affect our results of operations.",
    "a list of impairment triggers (en)": "Triggering events include, but are not limited"
    " to, a sharp decline in orders from our largest markets.",
    "demand as a modifier (en)": "The decrease in demand generation spending reflects fewer"
    " trade shows in Europe.",
    # asset value: reassurance, accounting policies, impairments already booked
    "no indication of impairment (fr)": "À la clôture, il n'existe aucune indication de perte"
    " de valeur sur les immobilisations corporelles.",
    "no indicator of impairment (en)": "Management identified no indicators of impairment"
    " of the group's intangible assets in 2025.",
    "annual test as a policy (fr)": "Les UGT font l'objet d'un test annuel, même en"
    " l'absence d'indice de perte de valeur.",
    "annual test as a policy (en)": "Goodwill is tested for impairment annually at the"
    " reporting unit level.",
    "impairment defined (fr)": "Une dépréciation est constatée lorsque la valeur recouvrable"
    " d'un actif devient inférieure à sa valeur nette comptable.",
    "impairment defined (en)": "An impairment loss is recognised when the carrying amount of"
    " an asset exceeds its recoverable amount.",
    "no reasonable change would impair (fr)": "Pour les autres pôles, aucune baisse"
    " raisonnable du taux de croissance ne rendrait nécessaire une dépréciation.",
    "no reasonable change would impair (en)": "For the other units, no reasonably possible"
    " change in key assumptions would cause an impairment.",
    "ample headroom (en)": "The recoverable amount of each unit exceeds its carrying amount"
    " by more than 40%.",
    "sensitivity that would not impair (en)": "An increase of 1 percentage point in the"
    " discount rate would not result in an impairment of any unit.",
}


@pytest.mark.parametrize("case", NOT_SIGNALS)
def test_growth_policies_and_reassurance_are_no_signal(case: str) -> None:
    assert classify_sentence(NOT_SIGNALS[case]) is None


def test_the_new_categories_are_named_everywhere_the_reader_lists_them() -> None:
    for category in ("activity", "asset_value"):
        assert category in CATEGORIES
        assert category in CATEGORY_LABELS and category in CATEGORY_LABELS_EN
        assert f"{category} (" in READER_SYSTEM and f"{category} (" in SELECT_SYSTEM
        assert (
            category
            in READER_SCHEMA["properties"]["signals"]["items"]["properties"]["category"]["enum"]
        )
        assert (
            category
            in selection_schema([])["properties"]["signals"]["items"]["properties"]["category"][
                "enum"
            ]
        )
