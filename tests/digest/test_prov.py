"""A build exported as W3C PROV (JSON-LD): entities, activities and their relations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest import prov as prov_module
from preuve.digest.build import build_digest
from preuve.digest.mutations import SPEC_MUTATIONS, apply_mutation
from preuve.digest.prov import build_prov
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import VersionedFolder, load_versions
from preuve.io.stores import SqliteStore

SETTINGS = DigestSettings()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest-prov"))


def types(item: dict[str, Any]) -> set[str]:
    kind = item["@type"]
    return {kind} if isinstance(kind, str) else set(kind)


def refs(value: object) -> list[str]:
    """Every ``{"@id": ...}`` reference inside ``value``."""
    if isinstance(value, dict):
        found = [value["@id"]] if set(value) == {"@id"} else []
        return found + [r for v in value.values() for r in refs(v)]
    if isinstance(value, list):
        return [r for v in value for r in refs(v)]
    return []


@pytest.fixture
def exported(corpus: CorpusInfo, tmp_path: Path) -> dict[str, Any]:
    folder = corpus.dossier_dir("test-06")
    model = rules_summarizer()
    snapshot = load_versions(folder)
    with SqliteStore(tmp_path / "s.sqlite") as store:
        build_digest(snapshot, model, store, SETTINGS)
        for mutation in SPEC_MUTATIONS[:2]:  # doc-00 v2, then doc-04 withdrawn
            snapshot = apply_mutation(snapshot, mutation, VersionedFolder(folder))
        report = build_digest(snapshot, model, store, SETTINGS)
        return build_prov(store, report.run_id)


def test_public_surface_is_pinned() -> None:
    assert prov_module.__all__ == ["PROV_CONTEXT", "build_prov"]


def test_document_is_json_ld_with_the_prov_namespace(exported: dict[str, Any]) -> None:
    assert exported["@context"]["prov"] == "http://www.w3.org/ns/prov#"
    json.dumps(exported)  # plain JSON all the way down
    ids = [item["@id"] for item in exported["@graph"]]
    assert len(ids) == len(set(ids))
    assert set(refs(exported["@graph"])) <= set(ids)  # every reference resolves


def test_entities_activities_and_relations(exported: dict[str, Any]) -> None:
    graph = {item["@id"]: item for item in exported["@graph"]}
    docs = [
        i
        for i in graph.values()
        if i["@id"].startswith("preuve:document/") and "preuve:textSha256" in i
    ]
    assert len(docs) == 12
    v2 = graph["preuve:document/doc-00@2"]
    assert v2["prov:wasRevisionOf"] == {"@id": "preuve:document/doc-00@1"}
    withdrawn = graph["preuve:document/doc-04@1"]
    change = graph[withdrawn["prov:wasInvalidatedBy"]["@id"]]
    assert "preuve:Withdrawal" in types(change)
    calls = [i for i in graph.values() if {"preuve:MapCall", "preuve:ReduceCall"} & types(i)]
    results = [i for i in graph.values() if "preuve:Summary" in types(i)]
    generations = [i for i in graph.values() if "preuve:Generation" in types(i)]
    assert len(calls) == len(results) >= 16
    # Every call but the INELIGIBLE leaf's sent something to the model.
    assert len(generations) == len(results) - 1
    ineligible = next(r for r in results if r["preuve:status"] == "INELIGIBLE")
    activity = graph[ineligible["prov:wasGeneratedBy"]["@id"]]
    assert "prov:used" not in activity and "prov:wasAssociatedWith" not in activity
    leaf = next(
        r
        for r in results
        if r["preuve:node"] == "leaf:doc-00"
        and r["preuve:status"] == "VALID"
        and {"@id": "preuve:document/doc-00@2"} in r["prov:wasDerivedFrom"]
    )
    assert any(ref["@id"].startswith("preuve:generation/") for ref in leaf["prov:wasDerivedFrom"])
    root = next(r for r in results if r["preuve:node"] == "root" and r["preuve:status"] == "VALID")
    used = graph[root["prov:wasGeneratedBy"]["@id"]]["prov:used"]
    assert len(used) == 3 and all(u["@id"].startswith("preuve:result/") for u in used)
