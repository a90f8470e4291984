"""Sub-agent patterns and planner cues on wording the bundled dossier never uses."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from preuve.synthesis.dossier import DossierDocument
from preuve.synthesis.findings import SubTask
from preuve.synthesis.planner import topic_scores
from preuve.synthesis.ranks import SourceType
from preuve.synthesis.subagent import rules_findings, subagent_request
from preuve.synthesis.subagent_patterns import extract_values

Row = tuple[str, str, str]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param(
            "Lumen répond à une requête de similarité en 8 ms au 99e centile.",
            [("measure", "latence p99", "8 ms")],
            id="duration-at-a-percentile-is-a-latency",
        ),
        pytest.param(
            "Lumen affiche un temps de requête de 31 ms.",
            [("measure", "latence", "31 ms")],
            id="temps-de-requete",
        ),
        pytest.param(
            "L'éditeur garantit la maintenance du produit jusqu'en 2031.",
            [("support", "fin de support", "2031")],
            id="maintenance-until-a-year",
        ),
        pytest.param(
            "The vendor will provide support for the 4.x line through March 2029.",
            [("support", "fin de support", "mars 2029")],
            id="support-through-a-month",
        ),
        pytest.param("La compilation dure 40 s sur le poste.", [], id="duration-without-cue"),
    ],
)
def test_general_patterns_on_new_wording(sentence: str, expected: list[Row]) -> None:
    assert [(f.kind, f.attribute, f.value) for f in extract_values(sentence)] == expected


def _findings(text: str) -> Any:
    document = DossierDocument(
        "b-1", "Bulletin", date(2026, 3, 2), SourceType("security bulletin"), text
    )
    task = SubTask("securite", "Sécurité et vulnérabilités de Lumen", ("b-1",))
    request = subagent_request(task, [document], "Quels risques ?", ["Lumen"])
    return json.loads(rules_findings(request))


def test_advisory_state_after_a_semicolon_belongs_to_the_advisory_named_before() -> None:
    text = (
        "La vulnérabilité LX-2026-11 de Lumen permet une exécution de code à distance ; "
        "aucun correctif n'est disponible à ce jour."
    )
    rows = [(s["subject"], s["attribute"], s["value"]) for s in _findings(text)["statements"]]
    assert rows == [("Lumen", "LX-2026-11", "sans correctif")]


def test_a_state_is_given_once_to_a_pending_advisory() -> None:
    text = (
        "La vulnérabilité LX-2026-11 touche Lumen ; aucun correctif n'est disponible. "
        "Un autre défaut d'affichage est corrigé."
    )
    rows = [(s["attribute"], s["value"]) for s in _findings(text)["statements"]]
    assert rows == [("LX-2026-11", "sans correctif")]


@pytest.mark.parametrize(
    ("title", "text", "best"),
    [
        pytest.param(
            "Fiche produit",
            "Le moteur répond en 8 ms au 99e centile et tient 5 000 requêtes par seconde.",
            "performance",
            id="percentile-and-requests-per-second",
        ),
        pytest.param(
            "Compte rendu",
            "L'éditeur garantit la maintenance du produit jusqu'en 2031.",
            "perennite",
            id="maintenance-until",
        ),
    ],
)
def test_topic_cues_on_new_wording(title: str, text: str, best: str) -> None:
    scores = topic_scores(title, text)
    assert max(scores, key=lambda topic: scores[topic]) == best
    assert scores[best] > 0
