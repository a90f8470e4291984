"""Sub-agent patterns and planner cues on wording the bundled dossier never uses."""

from __future__ import annotations

import json
from typing import Any

import pytest

from preuve.core.documents import Document
from preuve.core.numbers import Locale
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.planner import criteria, criterion_scores
from preuve.synthesis.reader import document_reads
from preuve.synthesis.subagent import rules_findings, subagent_request
from preuve.synthesis.types import SubTask

Row = tuple[str, str, str]


def read(sentence: str) -> list[Row]:
    document = {"id": "u-1", "title": "Note", "text": sentence}
    reads, _ = document_reads(document, ["Lumen"], default_lexicon(), "fr", Locale.FR)
    return [(r.kind, r.attribute, r.value) for r in reads]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param(
            "Lumen répond à une requête de similarité en 8 ms au 99e centile.",
            [("quantity", "répond requête similarité p99", "8 ms")],
            id="duration-at-a-percentile",
        ),
        pytest.param(
            "Lumen affiche un temps de requête de 31 ms.",
            [("quantity", "latence", "31 ms")],
            id="temps-de-requete",
        ),
        pytest.param(
            "L'éditeur garantit la maintenance du produit jusqu'en 2031.",
            [("date", "fin de support", "2031")],
            id="maintenance-until-a-year",
        ),
        pytest.param(
            "The vendor will provide support for the 4.x line through March 2029.",
            [("date", "fin de support", "March 2029")],
            id="support-through-a-month",
        ),
        pytest.param(
            "La compilation dure 40 s sur le poste.",
            [("quantity", "compilation dure", "40 s")],
            id="a-duration-with-its-words",
        ),
    ],
)
def test_general_reader_on_new_wording(sentence: str, expected: list[Row]) -> None:
    assert read(sentence) == expected


def _findings(text: str) -> Any:
    document = Document("b-1", 1, "Bulletin", "2026-03-02", "security bulletin", (text,))
    task = SubTask("securite", "Sécurité et vulnérabilités de Lumen", ("b-1",))
    request = subagent_request(task, [document], "Quels risques ?", ["Lumen"])
    return json.loads(rules_findings(request))


def test_advisory_state_after_a_semicolon_belongs_to_the_advisory_named_before() -> None:
    text = (
        "La vulnérabilité LX-2026-11 de Lumen permet une exécution de code à distance ; "
        "aucun correctif n'est disponible à ce jour."
    )
    rows = [(s["subject"], s["attribute"], s["value"]) for s in _findings(text)["statements"]]
    assert rows == [("Lumen", "LX-2026-11", "aucun correctif")]  # as written


def test_a_state_is_given_once_to_a_pending_advisory() -> None:
    text = (
        "La vulnérabilité LX-2026-11 touche Lumen ; aucun correctif n'est disponible. "
        "Un autre défaut d'affichage est corrigé."
    )
    rows = [(s["attribute"], s["value"]) for s in _findings(text)["statements"]]
    assert rows == [("LX-2026-11", "aucun correctif")]


@pytest.mark.parametrize(
    ("title", "text", "best"),
    [
        pytest.param(
            "Fiche produit",
            "Le moteur tient 5 000 requêtes par seconde, à 8 ms au 99e centile.",
            "debit",
            id="requests-per-second-is-throughput",
        ),
        pytest.param(
            "Compte rendu",
            "L'éditeur garantit la maintenance du produit jusqu'en 2031.",
            "fin-support",
            id="maintenance-until-is-end-of-support",
        ),
    ],
)
def test_criteria_find_their_synonyms(title: str, text: str, best: str) -> None:
    found = criteria("Comparer la latence, le débit et la fin de support.", [], default_lexicon())
    scores = criterion_scores(title, text, found, default_lexicon())
    assert max(scores, key=lambda c: scores[c]) == best
    assert scores[best] > 0
