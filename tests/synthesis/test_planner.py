"""The planner role: products, topics, the rules plan, and the check of a plan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preuve.core.jsonout import check_schema
from preuve.corpora.synthesis_texts import DOCUMENTS
from preuve.io.records import dump_record
from preuve.models import LoopStatus, ScriptedModel
from preuve.models.base import Completion
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.entries import plan_entry
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.planner import (
    PLANNER_TASK,
    check_plan,
    criteria,
    criterion_scores,
    detect_products,
    make_plan,
    plan_from_dict,
    planner_request,
    rendered_planning,
    rules_plan,
)
from preuve.synthesis.types import Plan


@pytest.mark.parametrize(
    ("question", "texts", "expected"),
    [
        pytest.param(
            "Quel serveur LLM retenir : Kestrel Serve, Tamaris Inference ou Orvet ?",
            ["Kestrel Serve et Orvet tournent sur GPU.", "Tamaris Inference aussi."],
            ("Kestrel Serve", "Tamaris Inference", "Orvet"),
            id="named-in-question",
        ),
        pytest.param(
            "Faut-il choisir TGI ou Zephyr pour le LLM ? Question ouverte.",
            ["TGI sert le LLM.", "Zephyr aussi. Une question se pose."],
            ("TGI", "Zephyr"),
            id="acronym-product-kept-generic-dropped",
        ),
        pytest.param(
            "Quel Moteur retenir ?",
            ["Le moteur Alpha Core est rapide.", "Alpha Core coûte cher.", "Alpha Core, encore."],
            ("Alpha Core",),
            id="fallback-recurring-names",
        ),
        pytest.param(
            "Quel outil retenir : Gamma ?", ["Rien à voir."], (), id="named-but-never-in-docs"
        ),
        pytest.param(
            "Two bids are left: the Osprey X2 of Dunmore Labs, sold with Nestkit, and the "
            "Wren 5 of Caldor Inc, run by Wrenctl. Both must talk to our ERP Halden.",
            ["Osprey X2 ships in May.", "Wren costs less.", "Nestkit and Wrenctl.", "ERP Halden."],
            ("Osprey X2", "Wren"),
            id="introduced-one-clause-each-maker-dropped",
        ),
        pytest.param(
            "Quelle offre, avec ou sans le module ERP Halden ? Coût de ERP et ERP Halden.",
            ["ERP Halden coûte peu.", "ERP seul."],
            ("ERP Halden",),
            id="a-name-inside-a-longer-one-is-no-list",
        ),
        pytest.param(
            "# Depot board: heat pumps for the Brell depot\n\nOf the shortlisted air-source"
            " heat pumps, which one should the Depot Board buy?",
            [
                "Thermia TX-90 datasheet\nThe Thermia TX-90 gives 42 kW.",
                "Calvo C-12 quotation\nCalvo C-12: £18,000. Ref. QX-2031-07.",
                "Site trial\nTX-90 and C-12 ran on the Brell depot loop for the Depot Board.",
                "Minutes\nThe TX-90 is quieter than the C-12.",
                "Advisory CAL-SA-2027-03\nCalvo CAL-SA-2027-03 affects the C-12; QX-2031-07.",
                "Bolt note\nTighten M8 bolts. Tighten M8 again, then Tighten M8 once more.",
            ],
            ("Calvo C-12", "Thermia TX-90"),  # most documented first (the advisory names C-12)
            id="the-question-names-its-setting-only-models-of-the-documents",
        ),
        pytest.param(
            "Which one should the Depot Board buy: Thermia or Calvo?",
            [
                "Thermia TX-90 datasheet\nThermia TX-90.",
                "Calvo C-12 quotation\nCalvo C-12.",
                "Trial\nTX-90 and C-12 for the Depot Board.",
                "Minutes\nTX-90, C-12.",
            ],
            ("Thermia", "Calvo"),
            id="a-question-naming-the-makers-keeps-them",
        ),
    ],
)
def test_detect_products(question: str, texts: list[str], expected: tuple[str, ...]) -> None:
    assert detect_products(question, texts) == expected


def test_bundled_products(products: tuple[str, ...]) -> None:
    assert products == ("Kestrel Serve", "Tamaris Inference", "Orvet")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        pytest.param(
            "Quel outil retenir : Alpha ou Beta ? Comparer la latence p95, le débit et le coût.",
            ["latence p95", "débit", "coût"],
            id="french-enumeration",
        ),
        pytest.param(
            "The board wants evidence on: sustained throughput; licence terms; migration effort.",
            ["sustained throughput", "licence terms", "migration effort"],
            id="english-after-a-cue",
        ),
        pytest.param("Which one, Alpha or Beta?", [], id="no-criterion"),
        pytest.param(
            "Our 12 depots (two shifts a day) renew their scanners before June. Alpha or Beta?\n"
            "The review covers:\n1. scan rate on our floor;\n2. yearly cost,\n   spares included."
            "\n\nSay which value you keep.",
            ["scan rate on our floor", "yearly cost", "spares included"],
            id="numbered-list-announced-context-ignored",
        ),
        pytest.param(
            "Le site compte 40 quais et trois équipes. Alpha ou Beta ? Le jury tranchera sur "
            "trois points : le débit réel ; la consommation ; la garantie.",
            ["débit réel", "consommation", "garantie"],
            id="semicolons-after-a-colon-context-ignored",
        ),
    ],
)
def test_criteria_come_from_the_question(question: str, expected: list[str]) -> None:
    found = criteria(question, ["Alpha", "Beta"], default_lexicon())
    assert [c.label for c in found] == expected


@pytest.mark.parametrize(
    ("title", "text", "best"),
    [
        pytest.param("Banc d'essai", "latence p95 de 340 ms, débit 1 900 tok/s", "latenc-p95"),
        pytest.param("Devis", "prix de 38 000 € HT par an", "cout"),
        pytest.param("Fiche produit", "temps de réponse : 8 ms", "latenc-p95", id="a-synonym"),
        pytest.param("Product sheet", "The p95 latency is 8 ms.", "latenc-p95", id="english"),
    ],
)
def test_criterion_scores(title: str, text: str, best: str) -> None:
    found = criteria("Comparer la latence p95, le débit et le coût.", [], default_lexicon())
    scores = criterion_scores(title, text, found, default_lexicon())
    assert max(scores, key=lambda c: scores[c]) == best


def rules_plan_of(dossier: Dossier, products: tuple[str, ...]) -> Plan:
    text = rules_plan(planner_request(dossier, products))
    checked = check_plan(Completion(text, "stop", 1, 1), dossier.question, dossier.ids)
    assert checked.value is not None, checked.defects
    return checked.value


def test_rules_plan_covers_every_relevant_document_and_leaves_noise_out(
    dossier: Dossier, products: tuple[str, ...]
) -> None:
    plan = rules_plan_of(dossier, products)
    noise = {d.id for d in DOCUMENTS if d.off_topic}
    assert set(plan.uncovered(dossier.ids)) == noise
    by_id = {t.id: t.scope for t in plan.subtasks}
    # sub-tasks are the question's own criteria ("l'état de sécurité", "le coût", ...)
    assert {"doc-16", "doc-17", "doc-13"} <= set(by_id["etat-securit"])
    assert {"doc-07", "doc-08"} <= set(by_id["cout"]) | set(by_id["licenc"])
    assert all("Kestrel Serve" in t.question for t in plan.subtasks)


def test_rules_plan_is_deterministic(dossier: Dossier, products: tuple[str, ...]) -> None:
    request = planner_request(dossier, products)
    assert rules_plan(request) == rules_plan(request)


def test_the_request_gives_every_document_whole(
    dossier: Dossier, products: tuple[str, ...]
) -> None:
    request = planner_request(dossier, products)
    assert request.task == PLANNER_TASK
    user = request.messages[1].content
    assert '<document id="doc-31" date="2026-09-15" type="official announcement" rank="2"' in user
    assert "Source ranks: from 0 (least reliable) to 3 (most reliable)." in user
    assert request.payload == {}  # no side channel: the rules planner reads these messages
    shown = rendered_planning(request)
    assert (shown.question, shown.products) == (dossier.question, products)
    assert [(b.doc_id, b.title, b.text) for b in shown.documents] == [
        (d.doc_id, d.title, d.text) for d in dossier.documents
    ]
    assert shown.least_rank == 0
    # A model decoding under the schema can only name the dossier's documents.
    assert request.response_schema is not None
    scope = request.response_schema["properties"]["subtasks"]["items"]["properties"]["scope"]
    assert scope["items"] == {"type": "string", "enum": list(dossier.ids)}
    # ... and no more of them than there are (unique items, which a grammar cannot say)
    assert scope["maxItems"] == len(dossier.ids) and scope["uniqueItems"] is True
    check_schema(request.response_schema)


def answer(*subtasks: dict[str, object]) -> Completion:
    return Completion(json.dumps({"subtasks": list(subtasks)}), "stop", 1, 1)


@pytest.mark.parametrize(
    ("completion", "codes"),
    [
        pytest.param(
            answer({"id": "a", "question": "q", "scope": ["doc-01", "doc-77"]}),
            ["unknown_document"],
            id="doc-77",
        ),
        pytest.param(
            answer(
                {"id": "a", "question": "q", "scope": ["doc-01"]},
                {"id": "a", "question": "q", "scope": ["doc-02"]},
            ),
            ["duplicate_subtask"],
            id="duplicate-id",
        ),
        pytest.param(answer({"id": "a", "question": "q", "scope": []}), ["schema"], id="no-scope"),
        pytest.param(answer(), ["schema"], id="no-subtask"),
        pytest.param(Completion("Voici le plan : ...", "stop", 1, 1), ["not_json"], id="prose"),
        pytest.param(Completion('{"subtasks": [', "length", 1, 1), ["truncated"], id="truncated"),
    ],
)
def test_check_plan_defects(completion: Completion, codes: list[str], dossier: Dossier) -> None:
    checked = check_plan(completion, dossier.question, dossier.ids)
    assert [d.code for d in checked.defects] == codes


def test_unknown_id_is_re_asked_then_fixed(dossier: Dossier, products: tuple[str, ...]) -> None:
    bad = answer({"id": "a", "question": "q", "scope": ["doc-77"]})
    good = answer({"id": "a", "question": "q", "scope": ["doc-06"]})
    model = ScriptedModel([bad, good])
    result = make_plan(dossier, model, products)
    assert result.status is LoopStatus.VALID
    assert result.value is not None and result.value.subtasks[0].scope == ("doc-06",)
    assert "doc-77" in model.requests[1].messages[-1].content


def test_still_unknown_after_the_re_ask_is_refused(
    dossier: Dossier, products: tuple[str, ...]
) -> None:
    bad = answer({"id": "a", "question": "q", "scope": ["doc-77"]})
    result = make_plan(dossier, ScriptedModel([bad, bad]), products)
    assert result.status is LoopStatus.REFUSED
    assert [d.code for d in result.defects] == ["unknown_document"]


def test_plan_round_trip(dossier: Dossier, products: tuple[str, ...], tmp_path: Path) -> None:
    plan = rules_plan_of(dossier, products)
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(dump_record(plan_entry(plan))), encoding="utf-8")
    assert plan_from_dict(plan.question, json.loads(path.read_text(encoding="utf-8"))) == plan
