"""The covenant ratio a report publishes, its threshold and the headroom computed in code."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.numbers import Locale
from preuve.memo.company import Company
from preuve.memo.covenant import Covenant, covenant_ratio, find_covenant

FILLER = "Le groupe exerce ses activités en France et en Europe depuis de nombreuses années."

CASES: dict[str, tuple[str, Covenant | None]] = {
    "french maximum, ratio in the next sentence, prior year in parentheses": (
        "Le contrat de crédit impose un ratio dette nette / EBITDA ajusté inférieur ou égal à "
        "3,0x, testé chaque année.\nSelon cette définition, le ratio ressort à 2,9x au 31 "
        "décembre 2025 (2,3x au 31 décembre 2024).",
        Covenant(Decimal("2.9"), Decimal("3.0"), True, 1, 1),
    ),
    "french, published ratio before its ceiling": (
        "Le ratio de levier calculé selon la définition contractuelle atteint 2,9x pour un "
        "plafond de 3,0x à la clôture de l'exercice.",
        Covenant(Decimal("2.9"), Decimal("3.0"), True, 1, 1),
    ),
    "french minimum (debt service cover)": (
        "Les financements de projet imposent un ratio de couverture du service de la dette "
        "d'au moins 1,15x, et les parcs affichaient un ratio de 1,18x à la clôture.",
        Covenant(Decimal("1.18"), Decimal("1.15"), False, 1, 2),
    ),
    "english maximum, breached": (
        "Our credit agreement requires a leverage ratio not to exceed 3.50 times at each "
        "quarter end.\nAt December 31, 2025 the ratio was 3.75x and we obtained a waiver.",
        Covenant(Decimal("3.75"), Decimal("3.50"), True, 1, 2),
    ),
    "english 'not more than ... to 1.00', ratio in the same sentence": (
        "The loan agreement requires a total net leverage ratio of not more than 4.00 to 1.00;"
        " the ratio was 2.85 to 1.00 as of March 29, 2025 and 2.40 to 1.00 a year earlier.",
        Covenant(Decimal("2.85"), Decimal("4.00"), True, 1, 2),
    ),
    "without x, the published figure after the threshold's dates and an aside": (
        "Le prêt impose un ratio de levier qui ne doit pas excéder 3,25 à compter de "
        "l'exercice 2026 (3,50 auparavant) et s'élève à 2,95 au 30 juin 2025.",
        Covenant(Decimal("2.95"), Decimal("3.25"), True, 1, 2),
    ),
    "without x, a second threshold after the dates is not the published ratio": (
        "Le prêt impose un ratio de levier qui ne doit pas excéder 3,25 en 2026 puis 3,00 en 2027.",
        None,
    ),
    "a threshold without a published ratio": (
        "Le contrat de crédit impose un ratio dette nette / EBITDA au plus égal à 3,5x chaque "
        "année à la clôture.",
        None,
    ),
    "without x, the published ratio before its contractual ceiling (s29)": (
        "Fin 2025, le ratio de levier bancaire s'établit à 1,85 pour un plafond contractuel de "
        "2,50, contre 1,40 un an plus tôt.",
        Covenant(Decimal("1.85"), Decimal("2.50"), True, 1, 2),
    ),
    "without x, a ceiling with its adjective and no published ratio (s29)": (
        "Le crédit de la télécabine impose un ratio de levier sous un plafond contractuel de "
        "2,50 à chaque clôture.",
        None,
    ),
    "a ratio printed without x, named in both sentences": (
        "Le prêt impose que le ratio A, égal à la dette nette sur l'EBE, ne doit pas excéder "
        "2,5 à chaque clôture.\nÀ la clôture, le ratio A ressort à 2,1 (1,9 un an plus tôt).",
        Covenant(Decimal("2.1"), Decimal("2.5"), True, 1, 1),
    ),
    "without x, another ratio's figure is not the published one": (
        "Le contrat prévoit que le ratio B ne doit pas excéder 2,5 chaque année.\nLe ratio C "
        "s'établit à 1,3 au 31 décembre 2025.",
        None,
    ),
    "without x, a threshold in the next sentence is not the published ratio": (
        "Le prêt impose un ratio de gearing qui ne doit pas excéder 1,5 chaque année.\nLe "
        "ratio ressort à 1,1 pour un plafond de 1,5 et est respecté.",
        Covenant(Decimal("1.1"), Decimal("1.5"), True, 1, 1),
    ),
    "without x, an amount is no threshold": (
        "Le contrat prévoit que le ratio de levier et la dette ne doivent pas excéder 3,5 M€."
        "\nLe ratio de levier s'établit à 2,4 à la clôture.",
        None,
    ),
    "a second covenant's threshold is not the first one's published ratio": (
        "The revolving facility covenant caps net debt to EBITDA at no more than 2.75x. Its "
        "fixed charge cover must be at least 1.5x at every test date.\nAt the year end the "
        "leverage ratio stood at 2.40x and fixed charge cover at 1.9x.",
        Covenant(Decimal("2.40"), Decimal("2.75"), True, 1, 2),
    ),
    "a US credit agreement's 'to 1.00' figures, the threshold in parentheses": (
        "Under the credit agreement, the consolidated net leverage ratio was 2.61 to 1.00 "
        "(maximum 3.25 to 1.00) at the end of the fiscal year.",
        Covenant(Decimal("2.61"), Decimal("3.25"), True, 1, 2),
    ),
    "a threshold's schedule is not the published ratio": (
        "The maximum net leverage ratio steps down from 3.25 to 1.00 to 3.00 to 1.00 from "
        "the second quarter of 2026.\nThe company expects to remain within it.",
        None,
    ),
    "a sentence naming leverage, published ratio after the threshold": (
        "Under the loan agreement, leverage is net debt over EBITDA; it must not exceed "
        "3.00x, and was 2.48x at the year end (2.20x a year earlier).",
        Covenant(Decimal("2.48"), Decimal("3.00"), True, 1, 2),
    ),
    "without x, the published ratio after the threshold in its sentence": (
        "Le ratio de levier défini au contrat de prêt ne doit pas excéder 3,50 ; il s'établit "
        "à 2,95 à la clôture contre 2,40 un an plus tôt.",
        Covenant(Decimal("2.95"), Decimal("3.50"), True, 1, 2),
    ),
    "without x, the published ratio two sentences later, far from the word ratio": (
        "Le ratio A rapporte la dette nette à l'EBE ; il doit rester inférieur ou égal à 2,00."
        "\nLe ratio B rapporte la dette nette aux fonds propres et ne doit pas excéder 1,00."
        "\nÀ la clôture, le ratio A calculé selon la définition du contrat ressort à 1,72.",
        Covenant(Decimal("1.72"), Decimal("2.00"), True, 1, 2),
    ),
    "without x, the published ratio in the past tense after the threshold": (
        "La convention de crédit fixe un ratio de levier, dette nette sur EBITDA, qui ne doit"
        " pas dépasser 3.25 ; mesuré selon le contrat, il se situait à 2.87 à la fin de "
        "l'exercice (2.31 un an plus tôt).",
        Covenant(Decimal("2.87"), Decimal("3.25"), True, 1, 2),
    ),
    "a bound that names no ratio": (
        "La société vise une croissance du chiffre d'affaires d'au moins 2x en cinq ans et "
        "l'a atteinte à 2,2x cette année.",
        None,
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_find_covenant(case: str) -> None:
    text, expected = CASES[case]
    assert find_covenant([f"{FILLER}\n{text}\n{FILLER}"]) == expected


def test_the_covenant_fact_states_threshold_and_headroom() -> None:
    page = CASES["english maximum, breached"][0]
    ratio = covenant_ratio([page], Company("Acme Inc.", "acme"), 2025, Locale.EN)
    assert ratio is not None
    assert ratio.render() == (
        "[R-acme-covenant] Acme Inc. - Covenant ratio (contract definition, as published) "
        "2025: 3.75x; formula: ratio published by the report (p. 1); maximum 3.50x, "
        "headroom -0.25x"
    )
    assert [v.value for v in ratio.structure().values] == [
        Decimal("3.75"),
        Decimal("3.50"),
        Decimal("-0.25"),
    ]


def test_no_covenant_fact_without_a_year() -> None:
    page = CASES["french, published ratio before its ceiling"][0]
    assert covenant_ratio([page], Company("Acme SA", "acme"), None) is None
