"""Risk categories added by issue 14 (session 25) and the screens beside them, on sentences
written for these tests in other sectors than any report (a hotel group, a dairy, a
software house, a hospital caterer...): a cyber incident that happened, a regulator's
notice, a pension deficit with its amount, floating-rate debt with no hedge, an energy or
commodity price left unhedged, working capital (stock build-up, late payers), staff
shortages; and the sentences that name the same words with no risk: a threat described in
general, a hedge in place, a risk lifted, an inspection without findings, a definition, a
bare liquidity description."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preuve.core.errors import InputError
from preuve.loaders import load_cues
from preuve.memo.cues import CATEGORIES, CATEGORY_INFO, CATEGORY_LABELS, classify_sentence
from preuve.memo.english import CATEGORY_LABELS_EN
from preuve.memo.reader import READER_SCHEMA, READER_SYSTEM
from preuve.memo.risk_cues import parse_cues

SIGNALS = {
    "ransomware that stopped a plant (English)": (
        "In March 2026 a ransomware attack encrypted the scheduling servers of our two "
        "dairies, and collection from farms was suspended for three days.",
        "cyber",
    ),
    "an intrusion that exposed data (French)": (
        "En juin 2025, une cyberattaque a paralysé la réservation en ligne de nos hôtels "
        "pendant quatre jours et a exposé les coordonnées de 8 400 clients.",
        "cyber",
    ),
    "a payment fraud suffered (French)": (
        "Au cours de l'exercice, une fraude au président a conduit la filiale belge à "
        "virer 95 000 euros vers un compte étranger.",
        "cyber",
    ),
    "a regulator's formal notice (French)": (
        "La DREAL a mis en demeure la société de réduire les rejets de sa station "
        "d'épuration avant décembre 2026.",
        "regulatory",
    ),
    "an agency's inquiry (English)": (
        "The Environment Agency opened an investigation in May 2025 into discharges from "
        "our Leeds bottling plant.",
        "regulatory",
    ),
    "a fine with its amount (English)": (
        "The competition authority fined the Group €2.8 million for price coordination "
        "with two other caterers.",
        "regulatory",
    ),
    "a pension scheme deficit (English)": (
        "The actuarial valuation of the defined benefit scheme showed a deficit of £12.5 "
        "million at 31 March 2025.",
        "pension",
    ),
    "a pension fund in deficit (French)": (
        "Le fonds de pension britannique présente un déficit de 6,2 M€, que la filiale doit "
        "combler par des versements sur cinq ans.",
        "pension",
    ),
    "floating-rate debt unhedged (French)": (
        "L'emprunt de 40 M€ est à taux variable et n'est couvert par aucun swap, alors que "
        "l'Euribor a progressé de 150 points de base sur l'exercice.",
        "interest_rate",
    ),
    "floating-rate debt unhedged (English)": (
        "Our $120 million term loan carries a floating rate and is unhedged.",
        "interest_rate",
    ),
    "energy left unhedged (English)": (
        "Only 25% of our expected gas consumption for 2026 is hedged, and the rest will be "
        "bought at market prices.",
        "price_exposure",
    ),
    "a share of gas hedged, the rest open (French)": (
        "Seuls 30 % des volumes de gaz prévus pour 2026 sont couverts.",
        "price_exposure",
    ),
    "dollar sales with no hedge (French)": (
        "Les ventes en dollars, soit 28 % du chiffre d'affaires, ne font l'objet d'aucune "
        "couverture.",
        "price_exposure",
    ),
    "dollar sales not hedged (English)": (
        "About 45% of our sales are invoiced in US dollars and are not hedged.",
        "price_exposure",
    ),
    "floating-rate debt with no hedge (French, another wording)": (
        "La dette bancaire, intégralement à taux variable, n'a pas fait l'objet de couverture.",
        "interest_rate",
    ),
    "a key person with no successor (French)": (
        "Le groupe dépend fortement de son président fondateur, et aucun plan de succession "
        "n'a été arrêté.",
        "dependency",
    ),
    "a loss at completion on a contract (French)": (
        "Une perte à terminaison de 1 800 k€ a été constatée sur le chantier du tramway, dont "
        "le coût final dépasse le prix du marché.",
        "activity",
    ),
    "cost overruns with their amount (English)": (
        "We recorded $38 million of cost overruns on the transit signalling contract in 2025.",
        "activity",
    ),
    "a fire that destroyed a plant (French)": (
        "Un incendie a détruit en août 2025 l'atelier de cuisson de Vire, dont la production "
        "a été transférée sur deux autres sites.",
        "activity",
    ),
    "a product recall carried out (French)": (
        "En avril 2025, le groupe a procédé au rappel de 14 lots de compotes après la "
        "détection d'une contamination.",
        "regulatory",
    ),
    "the standard going-concern formula (French)": (
        "Il existe une incertitude significative susceptible de jeter un doute important sur "
        "la capacité de la société à poursuivre son exploitation.",
        "going_concern",
    ),
    "the standard going-concern formula (English)": (
        "There is a material uncertainty that may cast significant doubt on the Group's "
        "ability to continue as a going concern.",
        "going_concern",
    ),
    "a major contract expiring and put out to tender (French)": (
        "Le contrat de maintenance conclu avec l'exploitant ferroviaire, qui représente 9,4 M€ "
        "de chiffre d'affaires annuel, expire en mars 2026 et fait l'objet d'un appel d'offres.",
        "activity",
    ),
    "a guarantee given for a subsidiary (French)": (
        "Le groupe a consenti une garantie à première demande de 6 M€ au profit de la banque "
        "de sa filiale brésilienne.",
        "liquidity",
    ),
    "a key manager gone and not replaced (French)": (
        "Le départ du directeur technique en janvier 2026 n'a pas encore été compensé.",
        "dependency",
    ),
    "cash that covers a few months (English)": (
        "Cash and cash equivalents declined to $8.2 million, which covers less than three "
        "months of operating expenses.",
        "liquidity",
    ),
    "a tax adjustment contested (English)": (
        "The tax authority issued a notice of proposed adjustment of $12.4 million relating "
        "to our transfer pricing, which we are contesting.",
        "litigation",
    ),
    "open positions (English)": (
        "We had 85 open driver positions at year end, and overtime costs rose 22%.",
        "workforce",
    ),
    "milk price not passed on (French)": (
        "La hausse de 12 % du prix du lait payé aux producteurs n'a pas été répercutée aux "
        "enseignes de la grande distribution.",
        "price_exposure",
    ),
    "stock build-up in months of sales (French)": (
        "Les stocks de fromages affinés représentent six mois de ventes à fin 2025, contre "
        "quatre mois un an plus tôt.",
        "working_capital",
    ),
    "days of inventory rising (English)": (
        "Days inventory outstanding increased to 96 days from 71 days as licence sales slowed.",
        "working_capital",
    ),
    "customers paying later (French)": (
        "Les délais de paiement des hôpitaux sont passés de 55 à 84 jours sur le second semestre.",
        "working_capital",
    ),
    "vacancies (French)": (
        "Fin 2025, 120 postes de cuisinier restaient vacants dans nos cuisines centrales.",
        "workforce",
    ),
    "a strike that stopped work (English)": (
        "A strike by drivers halted deliveries from our Midlands depot for 11 days in "
        "October 2025.",
        "workforce",
    ),
}

NOT_SIGNALS = {
    "a cyber threat in general": (
        "Hackers and criminal groups increasingly target companies like ours with "
        "ransomware and phishing campaigns."
    ),
    "a cyber insurance policy": (
        "Le groupe a souscrit une assurance cyber d'un plafond de 5 M€ par sinistre."
    ),
    "a hedge in place (French)": (
        "Le risque de taux est entièrement couvert par un swap jusqu'en 2028."
    ),
    "debt fixed by swaps (English)": (
        "Interest on 80% of the term loan is fixed by swaps until June 2027."
    ),
    "a currency exposure mostly hedged": (
        "Le groupe est exposé au risque de change sur ses achats en dollars, couverts à 80 % "
        "par des achats à terme."
    ),
    "a pension accounting method": (
        "Les engagements de retraite sont évalués selon la méthode des unités de crédit projetées."
    ),
    "a loss-at-completion policy": "Une perte à terminaison est provisionnée dès qu'elle est "
    "probable.",
    "a fire that could happen": "A fire or flood at one of our plants could disrupt production.",
    "a recall completed": (
        "The voluntary recall of three lots announced last year was completed and all costs "
        "were recovered from our insurer."
    ),
    "cost overruns as a contract type": (
        "We carry the entire burden of cost overruns under fixed-price contracts."
    ),
    "a contract won from a competitor": (
        "Le groupe a remporté en 2025 le contrat de maintenance du réseau de Lille, "
        "auparavant attribué à un concurrent."
    ),
    "how covenants are calculated": (
        "Les covenants sont calculés sur la base des comptes consolidés annuels."
    ),
    "a gas purchase hedge in place": (
        "We hedge approximately 90% of our anticipated natural gas purchases for the next "
        "twelve months."
    ),
    "a rate rise that changes nothing": (
        "All our borrowings bear fixed rates, so a rise in Euribor would not change our "
        "interest charge."
    ),
    "a risk said to be lifted": (
        "Le risque de perte de l'agrément sanitaire, signalé l'an dernier, est écarté depuis "
        "la visite de mars."
    ),
    "an inspection without findings": (
        "The inspection of our kitchens by the food standards agency closed with no major findings."
    ),
    "a French inspection with no notice": (
        "Les contrôles de 2025 n'ont donné lieu à aucune mise en demeure."
    ),
    "a bare liquidity description (French)": (
        "Au 31 décembre 2025, le groupe disposait de 4 500 k€ de disponibilités et d'une "
        "ligne de crédit non tirée de 10 000 k€."
    ),
    "a bare liquidity description (English)": (
        "At year end we held cash of $62 million and $150 million of undrawn revolving credit."
    ),
    "a net cash definition": (
        "La trésorerie nette s'entend des disponibilités diminuées des découverts bancaires."
    ),
    "a covenant test frequency": (
        "The loan carries two financial covenants, tested semi-annually on a rolling basis."
    ),
    "no other litigation (French)": (
        "Il n'existe aucun autre litige ou procédure susceptible d'avoir une incidence "
        "significative sur les comptes."
    ),
    "a second ratio also met": (
        "Le groupe respectait également le ratio de gearing prévu au contrat de prêt."
    ),
    "an unfunded plan stated as a fact of its kind": (
        "Our supplementary executive retirement plans are unfunded."
    ),
    "staff shortages in a list of factors": (
        "Volatility reflects a variety of factors, including labour shortages and energy "
        "costs across the industry in 2025."
    ),
    "stock-based compensation": (
        "The tax benefit from excess stock option deductions of $3.1 million is recorded in equity."
    ),
}


@pytest.mark.parametrize(("sentence", "category"), SIGNALS.values(), ids=SIGNALS.keys())
def test_new_categories_name_the_risk(sentence: str, category: str) -> None:
    found = classify_sentence(sentence)
    assert found is not None and found[0] == category


@pytest.mark.parametrize("sentence", NOT_SIGNALS.values(), ids=NOT_SIGNALS.keys())
def test_the_same_words_without_a_risk_are_no_signal(sentence: str) -> None:
    assert classify_sentence(sentence) is None


def test_the_categories_are_the_declared_data() -> None:
    data = json.loads(
        Path(__file__)
        .parents[2]
        .joinpath("src", "preuve", "memo", "data", "cues.json")
        .read_text(encoding="utf-8")
    )
    names = tuple(entry["category"] for entry in data["categories"])
    assert names == CATEGORIES
    assert {"cyber", "regulatory", "pension", "interest_rate", "price_exposure"} <= set(names)
    assert {"working_capital", "workforce"} <= set(names)
    assert CATEGORY_LABELS["pension"] == "Retraites"
    assert CATEGORY_LABELS_EN["pension"] == "Pension deficit"
    item = READER_SCHEMA["properties"]["signals"]["items"]
    assert item["properties"]["category"]["enum"] == list(names)
    for info in CATEGORY_INFO:  # the LLM reader is told what each category covers
        assert f"{info.name} ({info.describe})" in READER_SYSTEM


def test_a_category_requirement_holds_back_its_cues() -> None:
    # the cyber cue matches, but no incident is dated or said to have happened
    assert classify_sentence("Ransomware is a growing threat to manufacturers.") is None
    assert classify_sentence("A ransomware attack halted our two plants for a week.") == (
        "cyber",
        1,
    )


CUE_FILE = {
    "categories": [{"category": "workforce", "cues": ["\\bturnover of drivers\\b"]}],
}


def test_a_user_file_adds_cues_to_a_new_category(tmp_path: Path) -> None:
    path = tmp_path / "cues.json"
    path.write_text(json.dumps(CUE_FILE), encoding="utf-8")
    cues = load_cues(path)
    assert cues.described == CATEGORY_INFO  # labels and descriptions stay the bundled ones
    found = classify_sentence("The turnover of drivers reached 38% in 2025.", cues)
    assert found == ("workforce", 3)  # its cue, plus the figure's bonus; the figure meets
    # the bundled requirement (a staffing figure)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        pytest.param(
            {"category": "x", "cues": ["a"], "describe": "d"},
            "'label' must give the category's 'fr' and 'en' labels",
            id="no-label",
        ),
        pytest.param(
            {"category": "x", "cues": ["a"], "label": {"fr": "X", "en": ""}, "describe": "d"},
            "'label' must give the category's 'fr' and 'en' labels",
            id="empty-english-label",
        ),
        pytest.param(
            {"category": "x", "cues": ["a"], "label": {"fr": "X", "en": "X"}},
            "'describe' must say what the category covers",
            id="no-description",
        ),
        pytest.param(
            {
                "category": "x",
                "cues": ["a"],
                "label": {"fr": "X", "en": "X"},
                "describe": "d",
                "requires": ["("],
            },
            "bad cue pattern",
            id="bad-requirement",
        ),
    ],
)
def test_a_malformed_category_is_one_clear_error(entry: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        parse_cues({"categories": [entry]}, "cues.json")
