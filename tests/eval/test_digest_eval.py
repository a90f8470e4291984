"""The workflow-3 evaluation on a subset of test dossiers (the full 60 run in the benchmark)."""

from __future__ import annotations

import builtins
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from preuve.core.errors import InputError
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.build import build_digest
from preuve.digest.mutations import parse_event, run_mutations
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.serve import serve_digest
from preuve.digest.summarize import DigestSettings
from preuve.eval import digest_eval
from preuve.eval.digest_eval import gold_tuples, report_sha256, run_digest_eval
from preuve.io.documents import VersionedFolder, load_versions
from preuve.io.stores import SqliteStore

DOSSIERS = ["test-00", "test-01", "test-02"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest-eval-corpus"))


@pytest.fixture(scope="module")
def report(corpus: CorpusInfo, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("digest-eval")
    return run_digest_eval(out, corpus_root=corpus.root, dossiers=DOSSIERS)


def test_public_surface_is_pinned() -> None:
    assert digest_eval.__all__ == [
        "GOLD_FORMAT",
        "REFERENCE",
        "EvalPaths",
        "Gold",
        "evaluation_dossiers",
        "event_aliases",
        "exercise_scenario",
        "gold_for_snapshot",
        "gold_tuples",
        "read_digest_gold",
        "report_sha256",
        "run_digest_eval",
    ]


def test_mutation_figures_on_three_dossiers(report: dict[str, Any]) -> None:
    assert report["engine"] == "rules" and report["events"] == 9
    # 2 + 2 + 2 per dossier: doc-00 v2 is cut off below the root (content-based ids).
    assert report["model_calls"] == {"incremental": 18, "full": 135}
    assert report["comparisons"] == {"events": 9, "identical": 9}
    assert report["roots_after_mutation"] == {"VALID": 9}
    audit = report["audit"]
    assert audit["claims"] == audit["references_valid"] == audit["supported"] == 36
    assert audit["gold_tuples"] == 3 * (48 + 44 + 40) and audit["precision"] == 1.0
    assert report["extractive"] == {
        "initial_facts": 144,
        "post_mutation_facts": 396,
        "precision": 1.0,
        "recall": 1.0,
    }
    assert 0 < report["generated_tokens"]["incremental"] < report["generated_tokens"]["full"]


def test_exercise_scenario_in_the_report(report: dict[str, Any]) -> None:
    moved, prompt = (
        report["exercise"]["document_moved"],
        report["exercise"]["reduce_prompt_changed"],
    )
    assert moved["served_before_rebuild"] == "STALE" and moved["served_after_rebuild"] == "SERVED"
    assert moved["calls_by_task"] == {"map": 1, "reduce": 2}
    assert moved["recomputed"] == ["leaf:doc-11", "reduce:2", "root"]
    assert prompt["served_before_rebuild"] == "STALE"
    assert prompt["calls_by_task"] == {"reduce": 4} and prompt["cache_hits"] == 12
    assert moved["identical_to_full"] and prompt["identical_to_full"]
    assert report["exercise"]["main_still_served"] is True


def test_report_files_and_hashes(
    report: dict[str, Any], corpus: CorpusInfo, tmp_path: Path
) -> None:
    again = run_digest_eval(tmp_path, corpus_root=corpus.root, dossiers=DOSSIERS, exercise=False)
    written = json.loads((tmp_path / "digest-eval.json").read_text(encoding="utf-8"))
    assert written["sha256"] == report_sha256(written) == again["sha256"]
    # The exercise leaves the main figures as they were: same main hash with or without it.
    assert again["main_sha256"] == report["main_sha256"]
    assert report["sha256"] != report["main_sha256"]
    review = json.loads((tmp_path / "review-sample.json").read_text(encoding="utf-8"))
    assert review["review_status"] == "PENDING"
    assert [item["event"] for item in review["items"]] == [
        "test-00: initial",
        "test-00: after doc-00 → version 2",
        "test-00: after withdrawal of doc-04",
        "test-00: after revocation of doc-08",
    ]
    assert review["claims"] == 16
    with pytest.raises(InputError, match="already exists"):
        run_digest_eval(tmp_path, corpus_root=corpus.root, dossiers=DOSSIERS)


def test_gold_counts_only_eligible_sources(corpus: CorpusInfo) -> None:
    snapshot = load_versions(corpus.dossier_dir("test-05"))
    assert len(gold_tuples(corpus.root, "test-05", snapshot)) == 48
    doc = snapshot.documents["doc-04"]
    assert (
        len(
            gold_tuples(
                corpus.root, "test-05", snapshot.with_access("doc-04", doc.access.revoked())
            )
        )
        == 44
    )


def test_inference_never_opens_gold(
    corpus: CorpusInfo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def recording_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(os.fspath(file) if not isinstance(file, int) else f"fd:{file}")
        return real_open(file, *args, **kwargs)

    def recording_os_open(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(os.fspath(path))
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", recording_open)
    monkeypatch.setattr(io, "open", recording_open)
    monkeypatch.setattr(os, "open", recording_os_open)
    settings, model = DigestSettings(), rules_summarizer()
    with SqliteStore(tmp_path / "s.sqlite") as store:
        _, steps = run_mutations(
            VersionedFolder(corpus.dossier_dir("test-06")), model, store, settings, dossier="t"
        )
        build_digest(steps[-1].snapshot, model, store, settings, mode="full", dossier="t")
        serve_digest(steps[-1].snapshot, store, settings, identity=model.identity, dossier="t")
    assert sum(Path(p).name in {"v1.txt", "v2.txt"} for p in opened) >= 12  # the recorder saw reads
    assert not [p for p in opened if p.startswith(str(corpus.root / "gold"))]


def test_named_events_replace_specs_three(corpus: CorpusInfo, tmp_path: Path) -> None:
    events = [
        parse_event("reupload:doc-05"),
        parse_event("distractor-edit:doc-06"),
        parse_event("new-version:doc-09=2"),
        parse_event("revoke:doc-02"),
    ]
    report = run_digest_eval(
        tmp_path, corpus_root=corpus.root, dossiers=["test-04"], events=events, exercise=False
    )
    calls = [row["incremental"]["calls_by_task"] for row in report["per_event"]]
    assert calls[:2] == [{}, {"map": 1}]
    assert report["comparisons"] == {"events": 4, "identical": 4}
    # The distractor edit keeps its document's gold; the re-upload finds it by its text.
    assert report["audit"]["precision"] == 1.0 and report["extractive"]["precision"] == 1.0
    assert report["extractive"]["recall"] == 1.0
