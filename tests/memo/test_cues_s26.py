"""Cues widened by issue 14 (session 26), on sentences written for these tests in other
sectors than any report (a battery maker, a chocolate maker, a quarry, a hospital laundry,
a software house...). What the reports nobody tuned on missed had one thing in common: a
category's cue named the risk with one word where reports use several: a floating rate by
its reference index (SOFR, Euribor) or as a margin over one; a single source by its own
noun (a foundry, an abattoir) or as "no second source"; one customer "à elle seule"; stocks
up by an amount, not a percentage; a price rise the contracts "ne permettent pas de
répercuter"; a fixed-price energy contract expiring; the fall of EBITDA that "suffirait à
dépasser le plafond". A category was missing too: internal control and audit (a material
weakness, a qualified opinion). And a dependence said to be reduced is no signal."""

from __future__ import annotations

from preuve.memo.cues import CATEGORIES, CATEGORY_LABELS, classify_sentence, page_sentences
from preuve.memo.english import CATEGORY_LABELS_EN
from preuve.memo.reader import READER_SYSTEM
from tests.memo.cue_cases import cue_case_tests

SIGNALS = {
    "a term loan at a reference index plus a margin, unhedged (English)": (
        "Our €200 million term loan bears interest at EURIBOR plus 3.25% and is not hedged.",
        "interest_rate",
    ),
    "debt over SONIA with no swap (English)": (
        "The £90 million facility bears interest at SONIA plus a margin of 2.1%, with no "
        "interest rate swaps in place.",
        "interest_rate",
    ),
    "a loan over Euribor with no hedge (French)": (
        "Le prêt de 15 M€ porte intérêt à l'Euribor 6 mois majoré d'une marge de 1,9 % et "
        "n'est pas couvert.",
        "interest_rate",
    ),
    "a single smelter (English)": (
        "We buy all of our zinc anodes from a single smelter in Peru, and no second source "
        "has been audited.",
        "dependency",
    ),
    "a single abattoir (French)": (
        "La société achète la totalité de ses carcasses auprès d'un seul abattoir, situé à Rodez.",
        "dependency",
    ),
    "an only supplier (French)": (
        "Notre unique fournisseur de cellules de batterie, situé en Chine, livre 100 % de nos "
        "besoins.",
        "dependency",
    ),
    "one customer alone (French)": (
        "Le groupement hospitalier de Lille a représenté à lui seul 29 % du chiffre "
        "d'affaires de la blanchisserie en 2025.",
        "concentration",
    ),
    "a purchasing centre's share (French)": (
        "La centrale d'achats d'un grand distributeur pèse 33 % du chiffre d'affaires.",
        "concentration",
    ),
    "the main principals' share of sales (French)": (
        "Les trois premiers donneurs d'ordre concentrent 58 % de nos ventes.",
        "concentration",
    ),
    "stocks up by an amount (French)": (
        "Les stocks de fèves et de produits finis ont augmenté de 2 300 k€ sur l'exercice.",
        "working_capital",
    ),
    "a storage period lengthening (French)": (
        "La durée moyenne de rotation des stocks de pièces détachées est passée de 95 à 140 jours.",
        "working_capital",
    ),
    "an input's share of purchases whose price rose (French)": (
        "Le cacao représente 45 % de nos achats et son cours a progressé de 80 % en 2025.",
        "price_exposure",
    ),
    "a price surge contracts cannot pass on (French)": (
        "Une flambée des prix de l'acier que nos contrats à prix ferme ne permettent pas de "
        "répercuter réduirait la marge des chantiers signés en 2025.",
        "price_exposure",
    ),
    "a fixed-price energy contract expiring (French)": (
        "Le contrat de gaz à prix fixe de nos fours expire le 31 mars 2026 ; aux prix "
        "actuels, la facture annuelle augmenterait de 600 k€.",
        "price_exposure",
    ),
    "a fixed-price power contract expiring (English)": (
        "Our fixed-price electricity contract for the Ghent plant expires in June 2026, and "
        "current forward prices are 40% higher.",
        "price_exposure",
    ),
    "purchases left unhedged (French)": (
        "Nos achats de cacao, qui représentent 45 % du coût des ventes, ne sont pas couverts "
        "et le cours a doublé en 2025.",
        "price_exposure",
    ),
    "sales in a currency not hedged (English)": (
        "About 35% of our sales are invoiced in US dollars while our costs are in euros, and "
        "we do not hedge this exposure.",
        "price_exposure",
    ),
    "a local currency's fall (French)": (
        "La filiale turque réalise 18 % du résultat et la livre turque a perdu 40 % de sa "
        "valeur en 2025.",
        "price_exposure",
    ),
    "the fall that would breach the ceiling (French)": (
        "Une baisse de l'EBITDA d'environ 400 k€ suffirait à dépasser le plafond de 3,0x.",
        "covenant",
    ),
    "a waiver granted by the banks (French)": (
        "Les banques ont accordé en décembre 2025 une dérogation au test du ratio de levier.",
        "covenant",
    ),
    "a credit line expiring (French)": (
        "La ligne de crédit renouvelable de 5 000 k€ expire en septembre 2026.",
        "refinancing",
    ),
    "a material weakness identified (English)": (
        "Our auditors identified a material weakness in our revenue recognition controls.",
        "controls",
    ),
    "controls not effective (English)": (
        "Management concluded that disclosure controls and procedures were not effective as "
        "of March 31, 2026.",
        "controls",
    ),
    "a qualified opinion (French)": (
        "Les commissaires aux comptes ont certifié les comptes avec une réserve portant sur "
        "la valorisation des stocks.",
        "controls",
    ),
    "a revolving facility fully drawn (English)": (
        "Our revolving credit facility was fully drawn at year end.",
        "liquidity",
    ),
    "a programme only partly funded (English)": (
        "The company expects to spend $45 million on the new plant in 2026, of which only "
        "$15 million is funded.",
        "liquidity",
    ),
    "a permit expiring and contested (English)": (
        "The operating permit for our landfill expires in 2026 and the renewal application "
        "has been contested by local residents.",
        "regulatory",
    ),
    "a recall of units (French)": (
        "Le rappel de 120 000 unités décidé en août 2025 a coûté 2,4 M€.",
        "regulatory",
    ),
    "remediation costs not provided for (French)": (
        "Les coûts de dépollution du site de Saint-Fons, estimés à 3,5 M€, ne sont pas "
        "provisionnés.",
        "regulatory",
    ),
    "warranty claims rising (English)": (
        "Warranty claims rose 48% to $9.1 million after a defect in the 2024 compressor line.",
        "activity",
    ),
    "delisted by retailers (French)": (
        "La perte de la certification de l'usine en juillet 2025 a entraîné le "
        "déréférencement de nos produits par deux enseignes.",
        "activity",
    ),
    "equity below half the share capital (French)": (
        "Les capitaux propres sont devenus inférieurs à la moitié du capital social au 31 "
        "décembre 2025.",
        "going_concern",
    ),
    "a main outlet's share of deliveries (French)": (
        "Le groupe Marelli, notre premier débouché, a absorbé 41 % de nos livraisons en 2025.",
        "concentration",
    ),
    "a rate rise that would wipe out a headroom (English)": (
        "A 50 basis point increase in the discount rate would reduce the headroom of the "
        "Retail unit to nil.",
        "asset_value",
    ),
    "retirement obligations in deficit (French)": (
        "Le déficit des engagements de retraite non couverts par des actifs atteint 7,8 M€.",
        "pension",
    ),
    "a contract lost (English)": (
        "The group lost the Midlands rail maintenance contract, which generated £14 million "
        "of revenue in 2025.",
        "activity",
    ),
    "a conciliation with the banks (French)": (
        "La société a ouvert une procédure de conciliation avec ses partenaires bancaires en "
        "novembre 2025.",
        "going_concern",
    ),
    "a forbearance agreement (English)": (
        "The company entered into a forbearance agreement with its lenders in December 2025.",
        "going_concern",
    ),
    "losses three years running (French)": (
        "La société a enregistré une perte nette pour le troisième exercice consécutif.",
        "going_concern",
    ),
    "a shareholder loan repayable on demand (French)": (
        "Le compte courant d'associé de 2 500 k€ est remboursable à première demande de "
        "l'actionnaire.",
        "liquidity",
    ),
    "tariffs only partly passed on (English)": (
        "Tariffs on imported aluminum added $6.2 million to our cost of sales in 2025, and we "
        "have been able to pass only part of this increase on to customers.",
        "price_exposure",
    ),
    "sales to a named customer (English)": (
        "Sales to Northwind Grocers made up 36% of our revenue in fiscal 2025.",
        "concentration",
    ),
    "no availability left (English)": (
        "As of December 31, 2025, we had $3.2 million of cash and no remaining availability "
        "under our revolving credit facility.",
        "liquidity",
    ),
    "days sales outstanding up (English)": (
        "Days sales outstanding increased to 74 days from 58 days, reflecting slower payments "
        "from our two largest distribution customers.",
        "working_capital",
    ),
    "a labour agreement expiring (English)": (
        "Approximately 62% of our hourly workforce is covered by a collective bargaining "
        "agreement that expires in February 2026.",
        "workforce",
    ),
    "a headroom stated as a small percentage (English)": (
        "The headroom on our Specialty Chemicals reporting unit was 4%.",
        "asset_value",
    ),
    "a main contract manufacturer's share (English)": (
        "Our primary contract manufacturer produces about 85% of our finished goods.",
        "dependency",
    ),
    "a currency move that would raise costs (English)": (
        "At current exchange rates, the weakening of the Mexican peso against the dollar would "
        "increase our Monterrey costs by $3 million a year.",
        "price_exposure",
    ),
}

NOT_SIGNALS = {
    "a dependence being reduced (French)": (
        "Le référencement obtenu auprès d'une troisième enseigne commence à réduire notre "
        "dépendance à l'égard de notre premier client."
    ),
    "a floating rate swapped to fixed (English)": (
        "We entered into interest rate swaps that fix the rate on 80% of our SOFR-based term loan."
    ),
    "a loan over Euribor fully hedged (French)": (
        "L'emprunt indexé sur l'Euribor est intégralement couvert par un swap de taux."
    ),
    "a margin over SOFR stated alone (English)": (
        "Our term loan bears interest at SOFR plus a margin of 1.75%."
    ),
    "controls effective (English)": (
        "Management concluded that our internal control over financial reporting was "
        "effective as of December 31, 2025."
    ),
    "a material weakness defined (English)": (
        "A material weakness is a deficiency, or a combination of deficiencies, in internal "
        "control over financial reporting."
    ),
    "an audit's procedures (English)": (
        "Our audit included obtaining an understanding of internal control over financial "
        "reporting, assessing the risk that a material weakness exists, and testing the "
        "design of controls."
    ),
    "a clean opinion (French)": (
        "Les commissaires aux comptes ont certifié les comptes sans réserve."
    ),
    "stocks down (French)": (
        "Les stocks ont diminué de 800 k€ grâce au plan de réduction engagé en 2024."
    ),
    "share-based pay up (English)": (
        "Stock-based compensation expense increased by $4.2 million to $18.6 million."
    ),
    "a fixed-price contract renewed (French)": (
        "Le contrat d'électricité à prix fixe a été renouvelé jusqu'en décembre 2028."
    ),
    "purchases hedged (French)": (
        "Nos achats de matières premières sont couverts à 90 % par des contrats à terme."
    ),
    "a credit line extended (French)": (
        "La ligne de crédit renouvelable de 5 000 k€ a été prolongée jusqu'en 2029."
    ),
    "no waiver needed (French)": (
        "Les banques ont confirmé qu'aucune dérogation n'était nécessaire."
    ),
    "revenue from customers (English)": (
        "The laundry derives substantially all of its revenue from service contracts with "
        "hospitals."
    ),
    "tax credits expiring (English)": (
        "Research tax credits of $3.0 million carried forward expire in 2031."
    ),
    "a successor named (French)": (
        "Le président a désigné en 2025 un successeur, qui a rejoint la direction générale."
    ),
    "remediation provided for (French)": (
        "Les coûts de dépollution du site sont intégralement provisionnés pour 1 200 k€."
    ),
    "a warranty policy (English)": (
        "Warranty costs are accrued at the time of sale based on historical claims experience."
    ),
    "retirement obligations measured (French)": (
        "Les engagements de retraite sont évalués selon la méthode des unités de crédit projetées."
    ),
    "retirement indemnities disclosed (French)": (
        "Les indemnités de départ à la retraite, estimées à 410 k€, ne sont pas provisionnées."
    ),
    "a segment's share of sales (English)": (
        "Net sales from our helicopter programs represented 10% of consolidated net sales."
    ),
    "the company's own plant's share (English)": (
        "The Dayton facility is a key producer of coatings and makes nearly 25 percent of our "
        "coatings."
    ),
    "sales to a sector (English)": (
        "Sales to the automotive sector represented 22% of net sales in 2025."
    ),
    "a storage period stable (French)": "La durée moyenne de stockage est restée stable à 11 mois.",
}


test_widened_cues_name_the_risk, test_the_same_words_without_the_risk_are_no_signal = (
    cue_case_tests(SIGNALS, NOT_SIGNALS)
)


def test_internal_control_is_a_declared_category() -> None:
    assert "controls" in CATEGORIES
    assert CATEGORY_LABELS["controls"] == "Contrôle interne et audit"
    assert CATEGORY_LABELS_EN["controls"] == "Internal control and audit"
    assert "controls (faiblesse du contrôle interne" in READER_SYSTEM


RISK_LIST = (
    "Principaux risques\n\n"
    "• Notre premier client représente 38 % du chiffre d'affaires.\n"
    "• Le prêt de 4 M€ arrive à échéance en juin 2026 et n'est pas refinancé.\n"
    "– Le contrat d'électricité à prix fixe expire le 30 juin 2026.\n"
)
FACTOR_LIST = (
    "Important factors that could cause actual results to differ include the following:\n"
    "• the loss of key customers or a reduction in their orders;\n"
    "• litigation, including product liability claims; and\n"
    "• changes in interest rates and foreign exchange rates.\n"
)


def test_each_item_of_a_risk_list_is_a_sentence() -> None:
    sentences = page_sentences(RISK_LIST)
    assert [RISK_LIST[s.start : s.end] for s in sentences] == [s.text for s in sentences]
    assert [(s.text[:20], classify_sentence(s.text)) for s in sentences] == [
        ("Notre premier client", ("concentration", 5)),
        ("Le prêt de 4 M€ arri", ("refinancing", 5)),
        ("Le contrat d'électri", ("price_exposure", 3)),
    ]


def test_the_items_of_a_listed_sentence_are_no_sentences() -> None:
    # lower case, ending on ";" or "and": fragments of the sentence that opens the list
    assert [s.text[:30] for s in page_sentences(FACTOR_LIST)] == ["Important factors that could c"]
