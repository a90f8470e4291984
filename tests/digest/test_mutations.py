"""The SPEC events and the node-by-node comparison with an independent full build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preuve.core.errors import InputError
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest import mutations as mutations_module
from preuve.digest.build import build_digest
from preuve.digest.mutations import (
    SPEC_MUTATIONS,
    Mutation,
    MutationKind,
    apply_mutation,
    compare_builds,
    run_mutations,
    spec_events,
    stored_nodes,
)
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.run_files import ComparisonEntry
from preuve.digest.schema import NodeStatus
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import VersionedFolder, load_versions
from preuve.io.records import dump_record
from preuve.io.stores import SqliteStore
from preuve.models.base import Request
from preuve.models.scripted import FunctionModel

SETTINGS = DigestSettings()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest-mutations"))


def test_public_surface_is_pinned() -> None:
    assert mutations_module.__all__ == [
        "EVENT_NAMES",
        "SPEC_MUTATIONS",
        "Comparable",
        "Comparison",
        "Mutation",
        "MutationKind",
        "MutationStep",
        "NodeDifference",
        "StoredNode",
        "VersionSource",
        "apply_mutation",
        "compare_builds",
        "distractor_line",
        "events_from_data",
        "parse_event",
        "run_mutations",
        "spec_events",
        "stored_nodes",
    ]


def test_sixty_events_on_the_twenty_test_dossiers(corpus: CorpusInfo) -> None:
    events = spec_events(corpus.test)
    assert len(events) == 60
    assert [m.label() for _, m in events[:3]] == [
        "doc-00 → version 2",
        "withdrawal of doc-04",
        "revocation of doc-08",
    ]


def test_each_event_changes_what_it_says(corpus: CorpusInfo) -> None:
    folder = VersionedFolder(corpus.dossier_dir("test-03"))
    snapshot = folder.snapshot()
    moved = apply_mutation(snapshot, SPEC_MUTATIONS[0], folder)
    assert moved.documents["doc-00"].version == 2
    assert moved.documents["doc-00"].text != snapshot.documents["doc-00"].text
    withdrawn = apply_mutation(moved, SPEC_MUTATIONS[1], folder)
    assert withdrawn.documents["doc-04"].access.active is False
    assert withdrawn.documents["doc-04"].access.access_revision == 1
    revoked = apply_mutation(withdrawn, SPEC_MUTATIONS[2], folder)
    assert revoked.documents["doc-08"].access.eligible is False
    # A later version keeps the document's access state.
    again = apply_mutation(revoked, Mutation(MutationKind.NEW_VERSION, "doc-08", 2), folder)
    assert again.documents["doc-08"].access == revoked.documents["doc-08"].access
    with pytest.raises(InputError, match="no document"):
        apply_mutation(snapshot, Mutation(MutationKind.WITHDRAWAL, "doc-99"), folder)


@pytest.mark.parametrize("name", ["test-00", "test-07", "test-19"])
def test_every_comparison_is_identical_and_costs_what_it_should(
    corpus: CorpusInfo, tmp_path: Path, name: str
) -> None:
    with SqliteStore(tmp_path / "s.sqlite") as store:
        initial, steps = run_mutations(
            VersionedFolder(corpus.dossier_dir(name)),
            rules_summarizer(),
            store,
            SETTINGS,
            dossier=name,
        )
    assert initial.counters.model_calls == 16
    assert [s.compared.identical for s in steps] == [True, True, True]
    assert [s.compared.nodes for s in steps] == [16, 16, 16]
    # doc-00 v2 moves only its delivery date; the reduce keeps doc-00's site claim, whose
    # content-based evidence id is unchanged, so the root is cut off: 2 calls, not 3.
    assert [s.incremental.counters.model_calls for s in steps] == [2, 2, 2]
    assert [s.full_build.counters.model_calls for s in steps] == [16, 15, 14]
    assert [s.incremental.counters.recomputed for s in steps] == [2, 3, 3]
    assert steps[1].incremental.node("leaf:doc-04").status is NodeStatus.INELIGIBLE
    assert steps[2].incremental.node("leaf:doc-08").status is NodeStatus.INELIGIBLE


def swapped(request: Request) -> str:
    """A summarizer that answers like the rules engine, claims in reverse order."""
    data = json.loads(rules_summarizer().complete(request).text)
    return json.dumps({"claims": data["claims"][::-1]})


def test_differences_are_published_not_forced_equal(corpus: CorpusInfo, tmp_path: Path) -> None:
    snapshot = load_versions(corpus.dossier_dir("test-04"))
    with SqliteStore(tmp_path / "s.sqlite") as store:
        rules = build_digest(snapshot, rules_summarizer(), store, SETTINGS)
        other = build_digest(
            snapshot, FunctionModel(swapped, name="swapped"), store, SETTINGS, mode="full"
        )
        comparison = compare_builds(rules, other)
        assert not comparison.identical
        aspects = {(d.node_id, d.aspect) for d in comparison.differences}
        assert ("leaf:doc-00", "key") in aspects and ("leaf:doc-00", "claims") in aspects
        assert ("leaf:doc-00", "token_ids") in aspects  # rules has ids, a function model none
        stored = compare_builds(
            stored_nodes(store, rules.run_id), stored_nodes(store, other.run_id)
        )
        assert stored == comparison
        assert compare_builds(stored_nodes(store, rules.run_id), rules).identical
    assert dump_record(ComparisonEntry.of(comparison))["identical"] is False


def test_a_missing_node_is_a_difference(corpus: CorpusInfo, tmp_path: Path) -> None:
    snapshot = load_versions(corpus.dossier_dir("test-05"))
    with SqliteStore(tmp_path / "s.sqlite") as store:
        whole = build_digest(snapshot, rules_summarizer(), store, SETTINGS)
        smaller = build_digest(snapshot.without("doc-11"), rules_summarizer(), store, SETTINGS)
    presence = [d for d in compare_builds(whole, smaller).differences if d.aspect == "presence"]
    assert [(d.node_id, d.incremental, d.full) for d in presence] == [
        ("leaf:doc-11", "True", "False")
    ]
