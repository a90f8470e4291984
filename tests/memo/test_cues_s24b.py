"""Risk cues for layouts of risk the first cue sets missed (general wording, written for
these tests): a contract not renewed, a supplier in insolvency proceedings, overdue
receivables rising, a going concern that rests on outside support, a thin covenant
margin, a credit line to be renewed, a narrowing impairment headroom; and the sentences
next to them that are no signal."""

from __future__ import annotations

import pytest

from preuve.memo.cues import classify_sentence

CASES = {
    "a framework agreement not renewed": (
        "L'accord-cadre passé avec le syndicat intercommunal des eaux, soit 1,2 million "
        "d'euros de ventes par an, n'a pas été renouvelé à son terme en septembre.",
        "activity",
    ),
    "a customer that will not renew": (
        "In June our second-largest distributor told us it will not renew its supply "
        "agreement, which generated $21.0 million of revenue this year.",
        "activity",
    ),
    "a supplier in receivership (French)": (
        "Notre fabricant de cartes électroniques, qui livre 60 % des composants montés, est "
        "en redressement judiciaire depuis le mois d'août.",
        "dependency",
    ),
    "a supplier in administration (English)": (
        "The subcontractor that machines most of our castings was placed into administration "
        "in February 2026.",
        "dependency",
    ),
    "overdue receivables rising": (
        "Receivables overdue by more than 90 days increased to €6.4m from €2.2m a year earlier.",
        "liquidity",
    ),
    "receivables up on late payments (French)": (
        "Les créances clients augmentent de 2,3 millions d'euros en raison de retards de "
        "paiement de deux grands comptes.",
        "liquidity",
    ),
    "continuity resting on outside support": (
        "La poursuite de l'exploitation au cours de l'exercice 2026 repose sur l'obtention "
        "d'un nouveau prêt garanti par l'État.",
        "going_concern",
    ),
    "an overdraft to be renewed": (
        "La facilité de caisse de 800 000 euros, tirée à 90 %, devra être renouvelée en mars 2026.",
        "refinancing",
    ),
    "a loan reaching its maturity": (
        "Le prêt in fine de 12 millions d'euros arrive à échéance en juillet 2026.",
        "refinancing",
    ),
    "headroom that has narrowed": (
        "Headroom on the Nordic unit narrowed to €0.9m after the rise in discount rates.",
        "asset_value",
    ),
    # No signal: a contract reaching its term is no debt to refinance, and policy text.
    "a commercial contract's term is no refinancing": (
        "Le contrat de maintenance conclu avec la ville arrive à échéance en 2027.",
        None,
    ),
    "a renewal policy is no signal": (
        "Les contrats de location sont renouvelés par tacite reconduction.",
        None,
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_classify(case: str) -> None:
    sentence, expected = CASES[case]
    found = classify_sentence(sentence)
    assert (None if found is None else found[0]) == expected
