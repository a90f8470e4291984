"""The digest corpus generator: counts, layout, gold, determinism, and its text rules."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from preuve.corpora import digest_corpus
from preuve.corpora.digest_corpus import (
    CorpusInfo,
    dossier_names,
    generate_digest_corpus,
    generate_dossier,
)
from preuve.io.documents import load_versions

FACT_LINE = re.compile(r"Product (P-[0-9]{2}-[0-9]{2}) (delivery|status|quantity|site): (.+)\.")
HOSTILE_CUES = ("Ignore", "Disregard", "OVERRIDE", "forget", "maintenance mode")
LONG_DATE = re.compile(
    r"\b[0-9]{1,2} (?:January|February|March|April|May|June|July|August|September|October"
    r"|November|December) [0-9]{4}\b"
)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest"))


def all_files(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_public_surface_is_pinned() -> None:
    assert digest_corpus.__all__ == [
        "DOCUMENTS_PER_DOSSIER",
        "FIELDS",
        "SEED",
        "CorpusInfo",
        "GeneratedDocument",
        "GeneratedDossier",
        "GoldFact",
        "VersionText",
        "dossier_names",
        "generate_digest_corpus",
        "generate_dossier",
    ]


def test_dossier_names_and_splits(corpus: CorpusInfo) -> None:
    assert corpus.dev == tuple(f"dev-{i:02d}" for i in range(10))
    assert corpus.test == tuple(f"test-{i:02d}" for i in range(20))
    assert corpus.dossiers == dossier_names()
    manifest = json.loads((corpus.root / "corpus.json").read_text(encoding="utf-8"))
    assert manifest["splits"] == {"dev": list(corpus.dev), "test": list(corpus.test)}


def test_counts_30_dossiers_of_12_documents_in_2_versions(corpus: CorpusInfo) -> None:
    texts = sorted((corpus.root / "dossiers").glob("*/*/v*.txt"))
    assert len(texts) == 720 == corpus.texts
    assert len(list((corpus.root / "dossiers").glob("*/*/v1.txt"))) == 360 == corpus.documents
    assert len(list((corpus.root / "dossiers").glob("*/*/meta.json"))) == 360
    for name in corpus.dossiers:
        docs = sorted(p.name for p in corpus.dossier_dir(name).iterdir())
        assert docs == [f"doc-{i:02d}" for i in range(12)]
        assert corpus.gold_path(name).is_file()


def test_gold_has_four_facts_per_version_one_per_field(corpus: CorpusInfo) -> None:
    for name in corpus.dossiers:
        gold = json.loads(corpus.gold_path(name).read_text(encoding="utf-8"))
        assert gold["dossier"] == name
        assert gold["split"] == name.split("-")[0]
        subjects = set()
        for doc_id, versions in gold["documents"].items():
            assert sorted(versions) == ["1", "2"], doc_id
            for facts in versions.values():
                assert [f["field"] for f in facts] == ["delivery", "status", "quantity", "site"]
                assert len({f["subject"] for f in facts}) == 1
            subjects.add(versions["1"][0]["subject"])
        index = dossier_names().index(name)
        assert len(subjects) == 12
        assert all(s.startswith(f"P-{index:02d}-") for s in subjects)


def test_version_2_moves_only_the_delivery_date(corpus: CorpusInfo) -> None:
    for name in corpus.dossiers:
        gold = json.loads(corpus.gold_path(name).read_text(encoding="utf-8"))
        for doc_id, versions in gold["documents"].items():
            v1, v2 = versions["1"], versions["2"]
            assert v1[0]["value"] != v2[0]["value"], (name, doc_id)
            assert v1[1:] == v2[1:]
            folder = corpus.dossier_dir(name) / doc_id
            old = (folder / "v1.txt").read_text(encoding="utf-8")
            new = (folder / "v2.txt").read_text(encoding="utf-8")
            assert f"{v1[0]['value']} given in the previous version no longer holds." in new
            assert old != new


def value_pattern(value: str) -> re.Pattern[str]:
    # Boundaries so that "160 units" is not found inside "1,160 units", nor 3 in 23.
    return re.compile(rf"(?<![0-9,]){re.escape(value)}\b")


def test_each_fact_is_stated_on_exactly_one_line_its_fact_line(corpus: CorpusInfo) -> None:
    checked = 0
    for name in corpus.dossiers:
        gold = json.loads(corpus.gold_path(name).read_text(encoding="utf-8"))
        for doc_id, versions in gold["documents"].items():
            for version, facts in versions.items():
                text = (corpus.dossier_dir(name) / doc_id / f"v{version}.txt").read_text(
                    encoding="utf-8"
                )
                lines = text.splitlines()
                for fact in facts:
                    expected = f"Product {fact['subject']} {fact['field']}: {fact['value']}."
                    pattern = value_pattern(fact["value"])
                    assert [ln for ln in lines if pattern.search(ln)] == [expected]
                    checked += 1
                fact_lines = [ln for ln in lines if FACT_LINE.fullmatch(ln)]
                assert len(fact_lines) == 4
    assert checked == 30 * 12 * 2 * 4


def test_every_version_negates_an_older_date_and_archives_a_quoted_instruction(
    corpus: CorpusInfo,
) -> None:
    for name in corpus.dossiers:
        for text_path in sorted(corpus.dossier_dir(name).glob("*/v*.txt")):
            lines = text_path.read_text(encoding="utf-8").splitlines()
            negated = [
                ln
                for ln in lines
                if LONG_DATE.search(ln)
                and not FACT_LINE.fullmatch(ln)
                and re.search(r"no longer|ruled out|rejected|replaced", ln)
            ]
            hostile = [ln for ln in lines if any(cue in ln for cue in HOSTILE_CUES)]
            assert negated, text_path
            assert len(hostile) == 1, text_path
            assert re.search(r"[\"\u201c].+[\"\u201d]", hostile[0]), hostile[0]
            assert not FACT_LINE.fullmatch(hostile[0])


def test_some_hostile_lines_embed_fact_shaped_text(corpus: CorpusInfo) -> None:
    # The hard case for an extractor that searches instead of matching whole lines.
    embedded = [
        ln
        for path in sorted((corpus.root / "dossiers").glob("*/*/v1.txt"))
        for ln in path.read_text(encoding="utf-8").splitlines()
        if FACT_LINE.search(ln) and not FACT_LINE.fullmatch(ln)
    ]
    assert len(embedded) > 20
    assert all('"' in ln for ln in embedded)


def test_meta_json_gives_title_source_type_and_a_date_per_version(corpus: CorpusInfo) -> None:
    meta = json.loads(
        (corpus.dossier_dir("test-00") / "doc-11" / "meta.json").read_text(encoding="utf-8")
    )
    assert set(meta) == {"title", "source_type", "versions"}
    dates = [meta["versions"][v]["date"] for v in ("1", "2")]
    assert all(re.fullmatch(r"2026-[0-9]{2}-[0-9]{2}", d) for d in dates)
    assert dates[0] < dates[1]


def test_generation_is_deterministic_to_the_byte(tmp_path: Path, corpus: CorpusInfo) -> None:
    again = generate_digest_corpus(tmp_path / "again")
    first, second = all_files(corpus.root), all_files(again.root)
    assert len(first) == 720 + 360 + 30 + 1
    assert first == second


def test_dossiers_differ_from_each_other() -> None:
    texts = {name: generate_dossier(name).documents[0].versions[0].text for name in dossier_names()}
    assert len(set(texts.values())) == 30


def test_unknown_dossier_name_is_refused() -> None:
    with pytest.raises(ValueError, match="test-20"):
        generate_dossier("test-20")


def test_written_texts_load_back_as_generated(corpus: CorpusInfo) -> None:
    snapshot = load_versions(corpus.dossier_dir("test-00"), default="latest")
    memory = generate_dossier("test-00")
    assert [d.versions[1].text for d in memory.documents] == [d.text for d in snapshot]
    assert [d.versions[1].date for d in memory.documents] == [d.date for d in snapshot]
