"""Workflow 3 benchmark: incremental vs full rebuilds, early cutoff vs child keys, planning time.

1. **The 60 test mutations** (20 test dossiers × doc-00 v2, withdrawal of doc-04,
   revocation of doc-08): model calls and new generated tokens of the incremental builds
   against the independent full rebuilds, and every node-by-node comparison. Reference:
   140 vs 900 calls, 29 689 vs 104 024 tokens. The same events are also counted under
   the reference key scheme (parents keyed on their children's *keys*).
2. **Early cutoff** against the child-key scheme, on every test dossier: a map-prompt
   edit that changes no leaf's output, an identical re-upload (same version number), an
   identical re-upload *as a new version*, an edit appended to the last line (cited by no
   claim), and an edit of an early line that shifts the offsets of every later line. Each
   incremental build is also compared with a full rebuild.
3. **Planning** a 10 000-document dossier after one change: time to recompute the
   expected keys against the store and mark what is stale, and the incremental build.
4. **Held-out dossiers** (``tests/heldout/digest``, written by someone who never saw the
   code), when present: their events replayed, incremental vs full calls, comparisons.

The summarizer is the rules engine: its token counts are the declared estimate
(characters / 3.5, chat template included), so calls and tokens are comparable to an
LLM's; its time is not, so no wall-clock comparison with the reference is made.

Run: ``.venv/bin/python benchmarks/digest.py [--documents 10000]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from preuve.core.documents import Document, Snapshot
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus, generate_dossier
from preuve.digest.build import build_digest, plan_digest
from preuve.digest.keys import reference_keys
from preuve.digest.mutations import (
    Mutation,
    MutationKind,
    apply_mutation,
    compare_builds,
    run_mutations,
)
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import DigestSettings
from preuve.digest.tree import NodeKind, Tree, build_tree
from preuve.eval.digest_dossier import evaluate_dossier
from preuve.io.documents import VersionedFolder, load_versions
from preuve.io.stores import SqliteStore
from preuve.loaders import events_from_file
from preuve.models.base import Model

__all__ = [
    "CutoffRow",
    "child_key_calls",
    "cutoff_scenarios",
    "heldout_figures",
    "large_dossier",
    "main",
    "mutation_figures",
]

REFERENCE = {"incremental_calls": 140, "full_calls": 900, "incremental_tokens": 29_689}
REFERENCE_FULL_TOKENS = 104_024


def _ineligible(tree: Tree, snapshot: Snapshot, node_id: str) -> bool:
    node = tree.node(node_id)
    return not any(snapshot.documents[doc].access.usable for doc in node.sources)


def child_key_calls(
    snapshot: Snapshot, settings: DigestSettings, model: Model, seen: set[str]
) -> list[str]:
    """Nodes the child-key scheme would send to the model, given the keys it has ``seen``."""
    tree = build_tree((doc.doc_id for doc in snapshot), settings.fan_in)
    keys = reference_keys(tree, snapshot, settings.key_settings(model.identity, "default"))
    called = [
        node_id
        for node_id, key in keys.items()
        if key not in seen and not _ineligible(tree, snapshot, node_id)
    ]
    seen.update(keys.values())
    return called


def mutation_figures(corpus: CorpusInfo, model: Model, store_dir: Path) -> dict[str, int]:
    settings = DigestSettings()
    totals = dict.fromkeys(
        (
            "events",
            "identical",
            "inc_calls",
            "full_calls",
            "inc_tokens",
            "full_tokens",
            "child_calls",
            "child_tokens",
        ),
        0,
    )
    with SqliteStore(store_dir / "mutations.sqlite") as store:
        for name in corpus.test:
            folder = corpus.dossier_dir(name)
            seen: set[str] = set()
            child_key_calls(load_versions(folder), settings, model, seen)
            _, steps = run_mutations(VersionedFolder(folder), model, store, settings, dossier=name)
            for step in steps:
                called = child_key_calls(step.snapshot, settings, model, seen)
                tokens = {n.node_id: n.generated_tokens for n in step.full_build.nodes}
                totals["events"] += 1
                totals["identical"] += step.compared.identical
                totals["inc_calls"] += step.incremental.counters.model_calls
                totals["full_calls"] += step.full_build.counters.model_calls
                totals["inc_tokens"] += step.incremental.counters.generated_tokens
                totals["full_tokens"] += step.full_build.counters.generated_tokens
                totals["child_calls"] += len(called)
                totals["child_tokens"] += sum(tokens[node] for node in called)
    return totals


def _touch_uncited_line(doc: Document) -> Document:
    # The last line of a corpus document is a distribution list, cited by no claim.
    page = doc.pages[-1].rstrip("\n") + " Archive copy.\n"
    return Document(
        doc.doc_id,
        doc.version,
        doc.title,
        doc.date,
        doc.source_type,
        (*doc.pages[:-1], page),
        doc.access,
    )


Scenario = Callable[[Path, Snapshot, DigestSettings], tuple[Snapshot, DigestSettings]]


def _map_prompt_edit(
    folder: Path, snap: Snapshot, cfg: DigestSettings
) -> tuple[Snapshot, DigestSettings]:
    return snap, replace(cfg, map_prompt=cfg.map_prompt + "\nQuote nothing; cite ids only.")


def _identical_reupload(
    folder: Path, snap: Snapshot, cfg: DigestSettings
) -> tuple[Snapshot, DigestSettings]:
    return load_versions(folder), cfg


def _uncited_line_edit(
    folder: Path, snap: Snapshot, cfg: DigestSettings
) -> tuple[Snapshot, DigestSettings]:
    return snap.with_document(_touch_uncited_line(snap.documents["doc-05"])), cfg


def _reupload_as_new_version(
    folder: Path, snap: Snapshot, cfg: DigestSettings
) -> tuple[Snapshot, DigestSettings]:
    # The same bytes uploaded as version 3 of doc-05.
    return apply_mutation(
        snap, Mutation(MutationKind.REUPLOAD, "doc-05"), VersionedFolder(folder)
    ), cfg


def _offset_shifting_edit(
    folder: Path, snap: Snapshot, cfg: DigestSettings
) -> tuple[Snapshot, DigestSettings]:
    # An early line that states no fact is lengthened: every later offset moves.
    return apply_mutation(
        snap, Mutation(MutationKind.DISTRACTOR_EDIT, "doc-05"), VersionedFolder(folder)
    ), cfg


SCENARIOS: tuple[tuple[str, Scenario], ...] = (
    ("map prompt edit, outputs unchanged", _map_prompt_edit),
    ("identical re-upload", _identical_reupload),
    ("edit of a line no claim cites", _uncited_line_edit),
    ("identical re-upload as a new version", _reupload_as_new_version),
    ("edit shifting every later offset", _offset_shifting_edit),
)


@dataclass(frozen=True, slots=True)
class CutoffRow:
    scenario: str
    cutoff: int
    child_keys: int
    identical: int
    reduce_calls: int = 0


def cutoff_scenarios(corpus: CorpusInfo, model: Model, store_dir: Path) -> list[CutoffRow]:
    rows: list[CutoffRow] = []
    for label, scenario in SCENARIOS:
        cutoff = child = identical = reduces = 0
        with SqliteStore(store_dir / f"cutoff-{len(rows)}.sqlite") as store:
            for name in corpus.test:
                folder = corpus.dossier_dir(name)
                snapshot, settings = load_versions(folder), DigestSettings()
                seen: set[str] = set()
                child_key_calls(snapshot, settings, model, seen)
                build_digest(snapshot, model, store, settings, dossier=name)
                after, changed = scenario(folder, snapshot, settings)
                inc = build_digest(after, model, store, changed, dossier=name)
                full = build_digest(after, model, store, changed, mode="full", dossier=name)
                cutoff += inc.counters.model_calls
                reduces += inc.counters.calls_by_task.get("reduce", 0)
                child += len(child_key_calls(after, changed, model, seen))
                identical += compare_builds(inc, full).identical
        rows.append(CutoffRow(label, cutoff, child, identical, reduces))
    return rows


def _large_snapshot(count: int) -> Snapshot:
    texts = [
        version.text
        for name in ("dev-00", "dev-01", "dev-02")
        for doc in generate_dossier(name).documents
        for version in doc.versions
    ]
    return Snapshot.of(
        Document(f"doc-{i:05d}", 1, f"Document {i}", "", "note", (texts[i % len(texts)],))
        for i in range(count)
    )


def large_dossier(count: int, model: Model, store_dir: Path) -> dict[str, float]:
    snapshot = _large_snapshot(count)
    settings = DigestSettings()
    with SqliteStore(store_dir / "large.sqlite") as store:
        started = time.perf_counter()
        build_digest(snapshot, model, store, settings, dossier="large")
        initial = time.perf_counter() - started
        doc = snapshot.documents[f"doc-{count // 2:05d}"]
        moved = Document(
            doc.doc_id, 2, doc.title, "", "note", (doc.text.replace("Product", "Item", 1),)
        )
        changed = snapshot.with_document(moved)
        started = time.perf_counter()
        plan = plan_digest(changed, store, settings, model.identity)
        planning = time.perf_counter() - started
        started = time.perf_counter()
        report = build_digest(changed, model, store, settings, dossier="large")
        rebuild = time.perf_counter() - started
    tree = build_tree(d.doc_id for d in snapshot)
    return {
        "documents": count,
        "nodes": len(tree),
        "levels": tree.depth + 1,
        "initial_build_s": initial,
        "plan_s": planning,
        "stale_after_plan": len(plan.stale),
        "incremental_build_s": rebuild,
        "incremental_calls": report.counters.model_calls,
        "leaves": sum(n.kind is NodeKind.LEAF for n in tree),
    }


HELDOUT = Path(__file__).resolve().parent.parent / "tests" / "heldout" / "digest"


def heldout_figures(store_dir: Path) -> dict[str, dict[str, Any]]:
    """The held-out dossiers' events replayed (nothing when the folder is absent)."""
    found: dict[str, dict[str, Any]] = {}
    if not HELDOUT.is_dir():
        return found
    for folder in sorted(p for p in HELDOUT.iterdir() if p.is_dir() and p.name.startswith("hd-")):
        events = events_from_file(HELDOUT / f"{folder.name}.events.json")
        with SqliteStore(store_dir / f"heldout-{folder.name}.sqlite") as store:
            found[folder.name] = evaluate_dossier(
                folder, HELDOUT / f"{folder.name}.gold.json", events, rules_summarizer(), store
            )
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--documents", type=int, default=10_000)
    args = parser.parse_args(argv)
    model = rules_summarizer()
    with tempfile.TemporaryDirectory(prefix="preuve-digest-bench-") as tmp:
        work = Path(tmp)
        corpus = generate_digest_corpus(work / "corpus")
        m = mutation_figures(corpus, model, work)
        print(f"60 test mutations ({m['events']} events), engine: rules (estimated tokens)")
        print(
            f"  model calls      incremental {m['inc_calls']:6d}  full {m['full_calls']:7d}"
            f"  child-key scheme {m['child_calls']:4d}   reference 140 vs 900"
        )
        print(
            f"  new gen. tokens  incremental {m['inc_tokens']:6d}  full {m['full_tokens']:7d}"
            f"  child-key scheme {m['child_tokens']:5d}  reference 29 689 vs 104 024"
        )
        print(f"  comparisons identical: {m['identical']}/{m['events']}")
        print("early cutoff vs child keys (model calls over the 20 test dossiers):")
        rows = cutoff_scenarios(corpus, model, work)
        for row in rows:
            print(
                f"  {row.scenario:<38} cutoff {row.cutoff:4} ({row.reduce_calls} reduce)"
                f"  child keys {row.child_keys:4}  identical to full {row.identical}/"
                f"{len(corpus.test)}"
            )
        large = large_dossier(args.documents, model, work)
        print(
            f"{large['documents']:.0f}-document dossier ({large['nodes']:.0f} nodes, "
            f"{large['levels']:.0f} levels): initial build {large['initial_build_s']:.1f} s"
        )
        print(
            f"  after one change: plan {large['plan_s'] * 1000:.0f} ms "
            f"({large['stale_after_plan']:.0f} nodes stale), incremental build "
            f"{large['incremental_build_s'] * 1000:.0f} ms, {large['incremental_calls']:.0f} calls"
        )
        heldout = heldout_figures(work)
        for name, figures in heldout.items():
            print(
                f"held-out {name}: {figures['events']} events, calls incremental "
                f"{figures['incremental_calls']} vs full {figures['full_calls']}, identical "
                f"{figures['identical_to_full']}/{figures['events']}, re-upload "
                f"{figures['calls_by_event'].get('reupload', [])}, distractor edit "
                f"{figures['calls_by_event'].get('distractor_edit', [])}"
            )
    dossiers = len(corpus.test)
    goals = (
        m["inc_calls"] <= REFERENCE["incremental_calls"]
        and m["identical"] == m["events"]
        and rows[0].cutoff < rows[0].child_keys
        and rows[2].cutoff < rows[2].child_keys
        and rows[1].cutoff == 0
        and rows[3].cutoff == 0
        and rows[4].cutoff <= dossiers
        and rows[4].reduce_calls == 0
        and all(row.identical == dossiers for row in rows)
        and all(f["identical_to_full"] == f["events"] for f in heldout.values())
    )
    print(
        "goals (≤ 140 calls, all identical, fewer than child keys, 0 on re-uploads, ≤ 1 map"
        " and 0 reduce on an offset-shifting edit):",
        "met" if goals else "MISSED",
    )
    return 0 if goals else 1


if __name__ == "__main__":
    sys.exit(main())
