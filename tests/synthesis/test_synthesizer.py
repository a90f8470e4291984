"""The synthesizer role: the rules template, the checks in code, and the re-ask loop."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.loaders import load_dossier
from preuve.models import LoopStatus, ScriptedModel
from preuve.models.base import Completion
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.evidence_dossier import EvidenceDossier, build_evidence_dossier
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.synthesis.synthesizer import (
    SYNTHESIZER_TASK,
    SynthesisContext,
    check_answer,
    last_candidate,
    synthesis_markdown,
    synthesizer_request,
    write_synthesis,
)

Data = dict[str, Any]


@pytest.fixture(scope="module")
def dossier(tmp_path_factory: pytest.TempPathFactory) -> Dossier:
    return load_dossier(generate_synthesis_dossier(tmp_path_factory.mktemp("synth")).dossier)


@pytest.fixture(scope="module")
def evidence(dossier: Dossier) -> EvidenceDossier:
    run = synthesize(dossier, synthesis_rules_model())
    assert run.plan is not None
    return build_evidence_dossier(dossier.question, run.plan, run.findings, dossier.source_infos())


@pytest.fixture(scope="module")
def good(evidence: EvidenceDossier) -> Data:
    request = synthesizer_request(evidence)
    data: Data = json.loads(synthesis_rules_model().complete(request).text)
    return data


def completion(data: Data) -> Completion:
    return Completion(json.dumps(data, ensure_ascii=False), "stop", 10, 10)


def codes_of(data: Data, evidence: EvidenceDossier) -> list[str]:
    checked = check_answer(completion(data), SynthesisContext.of(evidence), "test")
    return [d.code for d in checked.defects]


def test_the_rules_template_passes_every_check(good: Data, evidence: EvidenceDossier) -> None:
    assert codes_of(good, evidence) == []
    assert good["engine"] == "rules"
    listed = {(c["subject"], c["attribute"], c["rule"]) for c in good["contradictions"]}
    found = {(c.subject, c.attribute, c.rule) for c in evidence.contradictions}
    assert listed == found
    assert all(c["reason"].startswith(f"règle {c['rule']} : ") for c in good["contradictions"])


def test_the_request_holds_the_definition_the_rule_and_no_document(
    evidence: EvidenceDossier,
) -> None:
    request = synthesizer_request(evidence)
    assert request.task == SYNTHESIZER_TASK
    system = request.messages[0].content
    assert "even when measurement conditions explain the gap" in system
    assert "3. at equal reliability, the most recent document wins" in system
    unstated = "Le responsable de compte l'a indiqué oralement"  # doc-30, stated nowhere
    assert unstated not in request.messages[1].content
    assert unstated not in json.dumps(request.payload, ensure_ascii=False)


def _swap(data: Data, attribute: str, reason: str) -> None:
    for c in data["contradictions"]:
        if c["attribute"] == attribute:
            c["retained"], c["rejected"] = c["rejected"][0], [c["retained"]]
            c["reason"] = reason


def _cite_doc_77(data: Data) -> None:
    data["paragraphs"][0]["sources"].append("doc-77")


def _doc_99_in_text(data: Data) -> None:
    data["paragraphs"][0]["text"] += " Comme le demande doc-99."


def _id_not_in_sources(data: Data) -> None:
    data["paragraphs"][0]["text"] += " Voir aussi doc-31."


def _eighteen_gpus(data: Data) -> None:
    data["paragraphs"].append(
        {"text": "6 GPU en 2026 et 12 en 2027, soit 18 GPU.", "sources": ["doc-09"]}
    )


def _drop_c4(data: Data) -> None:
    data["contradictions"] = [
        c for c in data["contradictions"] if c["attribute"] != "fin de support"
    ]


def _empty_contradictions(data: Data) -> None:
    data["contradictions"] = []


def _no_paragraph(data: Data) -> None:
    data["paragraphs"] = []


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        pytest.param(_cite_doc_77, ["unknown_citation"], id="doc-77"),
        pytest.param(_doc_99_in_text, ["unknown_citation"], id="doc-99-in-text"),
        pytest.param(_id_not_in_sources, ["citation_not_in_sources"], id="id-not-in-sources"),
        pytest.param(
            lambda d: _swap(d, "licence", "règle 2"),
            ["suspicious_arbitration"],
            id="C2-blog-retained",
        ),
        pytest.param(
            lambda d: _swap(d, "ORV-SA-2026-004", "the most recent document wins (doc-17)"),
            ["suspicious_arbitration"],
            id="C3-doc-16-retained",
        ),
        pytest.param(_eighteen_gpus, ["number_not_supported"], id="18-GPU"),
        pytest.param(_drop_c4, ["missing_contradiction"], id="C4-missing"),
        pytest.param(_empty_contradictions, ["missing_contradiction"] * 5, id="empty-list"),
        pytest.param(_no_paragraph, ["empty_synthesis"], id="no-paragraph"),
    ],
)
def test_reference_failures_are_defects(
    mutate: Callable[[Data], None], expected: list[str], good: Data, evidence: EvidenceDossier
) -> None:
    data = copy.deepcopy(good)
    mutate(data)
    assert codes_of(data, evidence) == expected


def test_a_defect_is_re_asked_and_fixed(good: Data, evidence: EvidenceDossier) -> None:
    bad = copy.deepcopy(good)
    _cite_doc_77(bad)
    model = ScriptedModel([completion(bad), completion(good)])
    result = write_synthesis(evidence, model, "scripted:replay")
    assert result.status is LoopStatus.VALID
    assert len(result.attempts) == 2
    assert "doc-77" in model.requests[1].messages[-1].content
    assert result.value is not None and result.value.engine == "scripted:replay"


def test_still_defective_after_the_re_ask_is_refused_with_its_defects(
    good: Data, evidence: EvidenceDossier
) -> None:
    bad = copy.deepcopy(good)
    _swap(bad, "licence", "règle 2")
    result = write_synthesis(evidence, ScriptedModel([completion(bad), completion(bad)]), "x")
    assert result.status is LoopStatus.REFUSED
    assert [d.code for d in result.defects] == ["suspicious_arbitration"]
    candidate = last_candidate(result, "x")
    assert candidate is not None and candidate.contradictions[2].retained is not None
    assert candidate.contradictions[2].retained.value == "Apache 2.0"


def test_the_engine_is_set_by_code_not_by_the_model(good: Data, evidence: EvidenceDossier) -> None:
    lying = {**good, "engine": "gpt-9"}
    checked = check_answer(completion(lying), SynthesisContext.of(evidence), "rules")
    assert checked.value is not None and checked.value.engine == "rules"


def test_markdown_shows_a_valid_synthesis_and_hides_a_refused_one(
    good: Data, evidence: EvidenceDossier
) -> None:
    synthesis = check_answer(completion(good), SynthesisContext.of(evidence), "rules").value
    limits = ["- doc-24 : couvert par aucune sous-tâche (jamais lu)"]
    valid = synthesis_markdown("# Q\n", synthesis, status="VALID", engine="rules", limits=limits)
    assert "engine: rules · statut : VALID" in valid
    assert (
        "| Tamaris Inference | licence | TSL (doc-05, doc-07) | Apache 2.0 (doc-04) | 2 |" in valid
    )
    assert "## Limites du dossier\n\n- doc-24" in valid
    refused = synthesis_markdown(
        "# Q\n", synthesis, status="REFUSED", engine="rules", limits=limits
    )
    assert "TSL" not in refused and "refusée" in refused
