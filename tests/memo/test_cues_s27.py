"""Cues widened by issue 14 (session 27), on sentences written for these tests in other
sectors than any report (a kayak maker, a cheese dairy, a glass-vial filler, a paint shop,
a bakery...). What the reports nobody tuned on missed: a debt "still exposed" to floating
rates after its swaps; notices an authority serves and major non-conformities an audit
raises; goods that "come from" one source named by its own noun; a fixed-price energy
contract that has ended (not only one that ends); the franc among the currencies whose rise
cuts earnings; a credit line that "vient à échéance" and a renewal the banks have not
confirmed; a pension fund's recovery measures in Swiss wording. And "bris de glace" is
insurance cover, not a covenant breach."""

from __future__ import annotations

from tests.memo.cue_cases import cue_case_tests

SIGNALS = {
    "debt left exposed to floating rates (French)": (
        "Après les swaps conclus en 2024, 30 M€ de la dette bancaire restent exposés aux "
        "taux variables.",
        "interest_rate",
    ),
    "prohibition notices served (English)": (
        "In March 2025 the county's environmental inspectorate served two prohibition notices "
        "on our paint shop after solvent emissions exceeded permitted levels.",
        "regulatory",
    ),
    "major non-conformities (French)": (
        "L'audit de renouvellement de notre certification a relevé trois non-conformités "
        "majeures sur la traçabilité des lots à l'usine de Vierzon.",
        "regulatory",
    ),
    "a certificate that could be suspended (English)": (
        "During its March 2025 audit our notified body raised two major nonconformities in "
        "sterilisation validation, and our CE certificate could be suspended if they are not "
        "closed by June.",
        "regulatory",
    ),
    "cocoa butter from a sole processor (English)": (
        "Our cocoa butter comes almost entirely from a sole processor in Ghana.",
        "dependency",
    ),
    "the franc's rise would cut the margin (French)": (
        "Un renchérissement du franc de 5 % face au dollar réduirait notre marge brute "
        "d'environ 3 millions.",
        "price_exposure",
    ),
    "a fixed-price gas contract that ended (English)": (
        "Our fixed-price gas contract for the Leeds bakery ended on 30 September 2025, and the "
        "site now buys at spot prices.",
        "price_exposure",
    ),
    "a fixed-price electricity contract that has ended (French)": (
        "Le contrat d'électricité à prix bloqué de la fromagerie a pris fin en juin 2025.",
        "price_exposure",
    ),
    "a credit line falling due (French)": (
        "La ligne de crédit renouvelable de 12 M€, dont 7 M€ étaient utilisés au 31 décembre "
        "pour financer les stocks saisonniers, vient à échéance en avril 2026.",
        "refinancing",
    ),
    "a pension fund's extraordinary contributions (French)": (
        "La caisse de pensions de l'entreprise est en sous-couverture et son conseil a décidé "
        "des cotisations extraordinaires de l'employeur de CHF 0.8 million par an.",
        "pension",
    ),
}

NOT_SIGNALS = {
    "glass breakage insured (French)": (
        "Les risques de bris de glace et de vol dans nos magasins sont couverts par une police "
        "d'assurance multirisque."
    ),
    "variable-rate debt swapped to fixed (English)": (
        "The group's borrowings bear variable interest rates, which it fixes with swaps for "
        "their full term."
    ),
    "a certification renewed without a non-conformity (French)": (
        "La certification ISO 9001 de notre site a été renouvelée en 2025 sans aucune "
        "non-conformité."
    ),
    "packaging from several suppliers (French)": (
        "Nos emballages proviennent de plusieurs fournisseurs européens."
    ),
}


test_widened_cues_name_the_risk, test_the_same_words_without_the_risk_are_no_signal = (
    cue_case_tests(SIGNALS, NOT_SIGNALS)
)
