"""The bundled synthesis dossier: layout, determinism, and that its grid is true of its texts."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from preuve.core.numbers import Locale, extract_numbers
from preuve.corpora import synthesis_dossier
from preuve.corpora.synthesis_dossier import (
    SynthesisCorpusInfo,
    generate_synthesis_dossier,
    grid_data,
)
from preuve.corpora.synthesis_texts import DOCUMENTS
from preuve.loaders import load_dossier
from preuve.synthesis.contradictions import candidates_of
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.ranks import arbitrate
from preuve.synthesis.types import SourcedValue

PRODUCT_WORDS = ("kestrel", "tamaris", "orvet", "gpu", "inférence", "llm", "licence")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> SynthesisCorpusInfo:
    return generate_synthesis_dossier(tmp_path_factory.mktemp("synthesis"))


@pytest.fixture(scope="module")
def dossier(corpus: SynthesisCorpusInfo) -> Dossier:
    return load_dossier(corpus.dossier)


@pytest.fixture(scope="module")
def grid(corpus: SynthesisCorpusInfo) -> dict[str, object]:
    data = json.loads(corpus.grid.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def all_files(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def text_of(dossier: Dossier, doc_id: str) -> str:
    document = dossier.get(doc_id)
    assert document is not None, doc_id
    return fold(document.text)


def test_public_surface_is_pinned() -> None:
    assert set(synthesis_dossier.__all__) == {
        "GENERATOR", "GRID_FILE", "SynthesisCorpusInfo", "dossier_files",
        "generate_synthesis_dossier", "grid_data", "render_document",
    }  # fmt: skip


def test_layout_and_counts(corpus: SynthesisCorpusInfo, dossier: Dossier) -> None:
    files = all_files(corpus.root)
    assert len(files) == 34  # question, 32 documents, the grid
    assert "dossier/question.md" in files
    assert "gold/synthesis_grid.json" in files
    assert not any(name.startswith("dossier/") and "gold" in name for name in files)
    assert (corpus.documents, corpus.off_topic) == (32, 6)
    assert dossier.ids == tuple(f"doc-{n:02d}" for n in range(1, 33))
    assert len({d.source_type for d in dossier.documents}) == 11  # every type but unknown


def test_two_runs_write_identical_bytes(tmp_path: Path) -> None:
    first = generate_synthesis_dossier(tmp_path / "a")
    second = generate_synthesis_dossier(tmp_path / "b")
    assert all_files(first.root) == all_files(second.root)


def test_documents_are_french_with_a_header(corpus: SynthesisCorpusInfo) -> None:
    text = (corpus.dossier / "documents" / "doc-06.md").read_text(encoding="utf-8")
    assert text.startswith(
        "---\nid: doc-06\ntitle: Banc d'essai interne des serveurs d'inférence (protocole "
        "commun)\ndate: 2026-07-09\nsource_type: internal benchmark\n---\n\n"
    )
    assert "latence p95" in text


def test_grid_lists_the_dossier(grid: dict[str, object], dossier: Dossier) -> None:
    assert grid["documents"] == list(dossier.ids)
    assert grid["off_topic"] == ["doc-24", "doc-25", "doc-26", "doc-27", "doc-28", "doc-29"]
    assert grid["points"] == {
        "facts": 50,
        "contradictions": 30,
        "citations": 20,
        "off_topic_penalty": 5,
    }


def test_off_topic_documents_say_nothing_of_the_question(dossier: Dossier) -> None:
    for document in DOCUMENTS:
        if document.off_topic:
            lowered = text_of(dossier, document.id).lower() + document.title.lower()
            assert not any(word in lowered for word in PRODUCT_WORDS), document.id


def test_every_fact_is_stated_by_its_sources(dossier: Dossier) -> None:
    facts = grid_data()["facts"]
    assert len(facts) == 12
    for fact in facts:
        pattern = re.compile(fact["pattern"], re.IGNORECASE)
        for doc_id in fact["sources"]:
            assert pattern.search(text_of(dossier, doc_id)), (fact["id"], doc_id)


def test_fact_patterns_do_not_match_the_rejected_values() -> None:
    rejected = " ".join(v for c in grid_data()["contradictions"] for v in c["rejected"]["values"])
    for fact in grid_data()["facts"]:
        assert not re.search(fact["pattern"], rejected, re.IGNORECASE), fact["id"]


def test_planted_contradictions_are_in_their_documents(dossier: Dossier) -> None:
    contradictions = grid_data()["contradictions"]
    assert [c["id"] for c in contradictions] == ["C1", "C2", "C3", "C4"]
    for contradiction in contradictions:
        for side, other in (("retained", "rejected"), ("rejected", "retained")):
            own = re.compile(contradiction[side]["pattern"], re.IGNORECASE)
            opposite = re.compile(contradiction[other]["pattern"], re.IGNORECASE)
            for value in contradiction[side]["values"]:
                assert own.search(value) and not opposite.search(value), value
                assert any(
                    fold(value).lower() in text_of(dossier, d).lower()
                    for d in contradiction[side]["sources"]
                ), value


def test_c4_is_carried_by_doc_30_and_doc_31() -> None:
    [c4] = [c for c in grid_data()["contradictions"] if c["id"] == "C4"]
    assert {*c4["retained"]["sources"], *c4["rejected"]["sources"]} == {"doc-30", "doc-31"}


def test_code_arbitration_agrees_with_the_grid(dossier: Dossier) -> None:
    sources = dossier.source_infos()
    for contradiction in grid_data()["contradictions"]:
        retained = SourcedValue("retained", tuple(contradiction["retained"]["sources"]))
        rejected = SourcedValue("rejected", tuple(contradiction["rejected"]["sources"]))
        result = arbitrate(candidates_of([rejected, retained], sources))
        assert result.retained is not None
        assert result.retained.value == "retained", contradiction["id"]
        assert result.rule == contradiction["rules"][0], contradiction["id"]


def test_versions_are_not_read_as_figures() -> None:
    # Three-part versions and advisory ids must not become numbers a check would refuse.
    for text in ("Orvet 3.4.2", "ORV-SA-2026-004", "Kestrel Serve 2.3.1"):
        assert extract_numbers(text, Locale.FR) == [], text
