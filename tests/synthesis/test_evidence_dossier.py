"""The evidence dossier built in code: what the synthesizer sees, and what it never sees."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.loaders import load_dossier
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.evidence_dossier import (
    EvidenceDossier,
    build_evidence_dossier,
    compute_values,
    describe_source,
)
from preuve.synthesis.evidence_reading import DocumentSeen, read_evidence
from preuve.synthesis.types import Finding, Statement
from tests.synthesis import reference


@pytest.fixture(scope="module")
def dossier(tmp_path_factory: pytest.TempPathFactory) -> Dossier:
    return load_dossier(generate_synthesis_dossier(tmp_path_factory.mktemp("evidence")).dossier)


def evidence_of(dossier: Dossier, findings: tuple[Finding, ...]) -> EvidenceDossier:
    return build_evidence_dossier(
        dossier.question, reference.plan(), findings, dossier.source_infos()
    )


@pytest.fixture(scope="module")
def evidence(dossier: Dossier) -> EvidenceDossier:
    return evidence_of(dossier, reference.findings())


def test_each_statement_shows_date_and_type_of_each_source(evidence: EvidenceDossier) -> None:
    text = evidence.render()
    assert (
        "  - Kestrel Serve | latence p95 |  | 340 ms | « Kestrel Serve : latence p95 de 340 ms. » "
        "| doc-06 (2026-07-09, internal benchmark, rang 3)"
    ) in text
    assert "doc-17 (2026-06-24, security bulletin, rang 2) ; doc-13 (2026-06-26, changelog" in text


def test_contradictions_are_listed_with_their_rule(evidence: EvidenceDossier) -> None:
    rules = {(c.subject, c.attribute): c.rule for c in evidence.contradictions}
    assert rules == {
        ("Kestrel Serve", "latence p95"): 1,
        ("Kestrel Serve", "débit"): 1,
        ("Tamaris Inference", "licence"): 2,
        ("Orvet", "ORV-SA-2026-004"): 3,
        ("Kestrel Serve 2.x", "fin de support"): 3,
    }
    text = evidence.render()
    assert "- Tamaris Inference | licence |  | règle 2\n  - retenu | TSL | doc-05 (" in text
    assert "\n  - rejeté | Apache 2.0 | doc-04 (2026-03-05, blog, rang 0)\n" in text


def test_computed_values_come_from_code_and_never_sum_a_fleet(evidence: EvidenceDossier) -> None:
    values = {c.label: c.value for c in evidence.computed}
    totals = {label: value for label, value in values.items() if label.startswith("coût annuel")}
    assert totals == {
        "coût annuel de 6 GPU en 2026": Decimal(165600),
        "coût annuel de 12 GPU en 2027": Decimal(331200),
    }
    assert Decimal(18) not in values.values()
    assert values["Location de GPU, prix par an"] == Decimal(27600)  # a unit conversion
    assert values["Kestrel Serve, latence p95 : rapport retenu / rejeté"] == Decimal("2.83")
    assert "12 GPU x 2 300 € HT par GPU et par mois x 12 mois" in evidence.render()


def test_two_prices_without_arbitration_compute_nothing() -> None:
    fleet = Statement.of("Parc", "nombre de GPU en 2027", "12 GPU en 2027", "", "doc-09")
    price_a = Statement.of("Location", "prix", "2 300 € HT par GPU et par mois", "", "doc-21")
    price_b = Statement.of("Hébergeur B", "prix", "2 100 € HT par GPU et par mois", "", "doc-08")
    findings = (Finding("x", (fleet, price_a, price_b), docs_read=("doc-09", "doc-21", "doc-08")),)
    computed = compute_values(findings, ())
    assert [c.label for c in computed if c.label.startswith("coût annuel")] == []
    assert {c.value for c in computed} == {Decimal(27600), Decimal(25200)}  # per year, each


def test_failures_gaps_and_unused_documents_are_shown(dossier: Dossier) -> None:
    perf, cost, _, longevity, capacity = reference.findings()
    failed = Finding.not_investigated("security", "timeout after 60 s")
    with_gap = replace(longevity, gaps=("fin de support d'Orvet : rien",))
    text = evidence_of(dossier, (perf, cost, failed, with_gap, capacity)).render()
    assert "SOUS-TÂCHE security | Sécurité\n  NOT INVESTIGATED : timeout after 60 s" in text
    assert "  - fin de support d'Orvet : rien" in text
    assert "Lus mais non utilisés : doc-01, doc-20" in text
    assert "- doc-24 : couvert par aucune sous-tâche (jamais lu)" in text


def test_a_merged_statement_is_flagged_with_each_value_read(dossier: Dossier) -> None:
    perf, cost, _, longevity, capacity = reference.findings()
    findings = (perf, cost, reference.merged_security_finding(), longevity, capacity)
    evidence = evidence_of(dossier, findings)
    text = evidence.render()
    assert "valeur lue : « vulnérabilité critique, aucun correctif disponible »" in text
    assert "[FUSION : les sources donnent des valeurs différentes]" in text
    assert any(c.attribute == "ORV-SA-2026-004" for c in evidence.contradictions)


def test_the_synthesizer_never_sees_a_document_text(
    evidence: EvidenceDossier, dossier: Dossier
) -> None:
    seen = evidence.render()
    stated = {s.text for f in evidence.findings for s in f.statements}
    for document in dossier.documents:
        for line in document.text.splitlines():
            sentence = line.strip()
            if len(sentence) > 40 and not any(sentence in s for s in stated):
                assert sentence not in seen, document.doc_id


def test_what_the_rules_synthesizer_reads_back_is_the_dossier(evidence: EvidenceDossier) -> None:
    read = read_evidence(evidence.render())
    assert read.contradictions == [replace(c, reason="") for c in evidence.contradictions]
    assert read.computed == list(evidence.computed)
    assert [t.id for t in read.subtasks] == [t.id for t in reference.plan().subtasks]
    assert read.documents["doc-04"] == DocumentSeen("2026-03-05", "blog")


def test_describe_source_of_an_unknown_document(evidence: EvidenceDossier) -> None:
    assert describe_source("doc-77", evidence.sources) == "doc-77 (non daté, unknown, rang 1)"
