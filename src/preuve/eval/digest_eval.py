"""Evaluation of workflow 3 on the digest corpus: the 60 mutations, the exercise, the audit.

For each test dossier: an incremental build of the initial snapshot, then the three SPEC
events in order (version 2 of doc-00, withdrawal of doc-04, revocation of doc-08), each
followed by an incremental build and an independent full build compared node by node.
Then the exercise scenario on the first test dossier (doc-11 moved: one leaf and two
ancestors; then only the reduce prompt: three reduces and the root), each step compared
with a fresh full build, and the old summary refused as STALE before rebuilding.

This is the one place of workflow 3 that reads gold labels (``gold/<dossier>.json``):
the root claims after each event are audited against the gold of the documents that are
currently eligible, and the extractive baseline is scored the same way.

The report is JSON with the reference figures beside ours. ``sha256`` covers every figure
except timings, so two runs compare by hash; ``main_sha256`` covers the main figures only,
which the exercise (run afterwards, in the same store) must leave served and unchanged.
"""

from __future__ import annotations

import copy
import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from preuve.core.documents import Snapshot
from preuve.core.errors import InputError
from preuve.corpora.digest_corpus import generate_digest_corpus
from preuve.digest.audit import ReviewEntry, RootAudit, audit_claims, pool_audits, review_sample
from preuve.digest.build import BuildReport, Outcome, build_digest
from preuve.digest.extractive import extract_facts
from preuve.digest.keys import canonical_json
from preuve.digest.mutations import (
    SPEC_MUTATIONS,
    Mutation,
    MutationKind,
    MutationStep,
    apply_mutation,
    compare_builds,
    run_mutations,
)
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.run_files import ComparisonEntry
from preuve.digest.serve import ServeResult, ServeStatus, serve_digest
from preuve.digest.summarize import DigestSettings
from preuve.eval.digest_gold import (
    GOLD_FORMAT,
    Gold,
    event_aliases,
    gold_for_snapshot,
    gold_tuples,
    read_digest_gold,
)
from preuve.io.documents import VersionedFolder, load_versions
from preuve.io.records import dump_record
from preuve.io.runfolder import RunFolder
from preuve.io.stores import SqliteStore
from preuve.models.base import Model

__all__ = [
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

REFERENCE: Mapping[str, Any] = {
    "incremental_calls": 140,
    "full_calls": 900,
    "incremental_generated_tokens": 29_689,
    "full_generated_tokens": 104_024,
    "comparisons": 62,
    "roots_after_mutation": {"VALID": 4, "PARTIAL": 30, "INVALID": 26},
    "root_claims": 132,
    "supported": 63,
    "precision": 0.512,
    "recall": 0.0246,
    "extractive_initial_facts": 960,
    "extractive_post_mutation_facts": 2640,
}
EXERCISE_DOC = "doc-11"
_UNHASHED = ("sha256", "main_sha256", "seconds", "exercise")


@dataclass(frozen=True, slots=True)
class EvalPaths:
    report: Path
    review: Path
    store: Path


def report_sha256(report: dict[str, Any], *, main_only: bool = False) -> str:
    """SHA-256 of the report without timings and hashes (and without the exercise when
    ``main_only``): two runs with one hash gave the same figures."""
    skip = _UNHASHED if main_only else _UNHASHED[:3]
    content = {key: value for key, value in report.items() if key not in skip}
    return hashlib.sha256(canonical_json(content).encode("utf-8")).hexdigest()


def evaluation_dossiers(corpus_root: Path) -> list[str]:
    """The names of the corpus's test split, in the manifest's order."""
    manifest = corpus_root / "corpus.json"
    try:
        return list(json.loads(manifest.read_text(encoding="utf-8"))["splits"]["test"])
    except (OSError, ValueError, KeyError) as err:
        raise InputError(
            f"{manifest}: not a digest corpus ({err})",
            fix="generate one with preuve.corpora.digest_corpus.generate_digest_corpus",
        ) from None


def _extractive(
    corpus_root: Path,
    dossier: str,
    snapshot: Snapshot,
    aliases: Mapping[tuple[str, int], int] | None = None,
) -> tuple[int, int, int]:
    """``(facts found, true positives, gold facts)`` of the extractive baseline."""
    found = {fact.fact for fact in extract_facts(snapshot)}
    gold = gold_tuples(corpus_root, dossier, snapshot, aliases)
    return len(found), len(found & gold), len(gold)


def _step_row(step: MutationStep, audit: RootAudit) -> dict[str, Any]:
    return {
        "dossier": step.dossier,
        "event": step.mutation.label(),
        "incremental": dump_record(step.incremental.counters),
        "full": dump_record(step.full.counters) if step.full else None,
        "recomputed": _computed(step.incremental),
        "identical": step.comparison.identical if step.comparison else None,
        "differences": dump_record(ComparisonEntry.of(step.comparison))["differences"]
        if step.comparison
        else [],
        "root_status": step.incremental.root.status.value,
        "audit": dump_record(audit.figures()),
    }


def _computed(report: BuildReport) -> list[str]:
    return [node.node_id for node in report.nodes if node.outcome is Outcome.COMPUTED]


def exercise_scenario(
    folder: Path,
    model: Model,
    store: SqliteStore,
    settings: DigestSettings,
    *,
    dossier: str,
    concurrency: int = 4,
    on_serve: Callable[[str, ServeResult], None] | None = None,
) -> dict[str, Any]:
    """SPEC's exercise: doc-11 moved, then only the reduce prompt; each served, built, compared.

    ``on_serve`` receives every serve answer with a label (for a viewer's history)."""
    label = f"{dossier}#exercise"
    snapshot = load_versions(folder)
    identity = model.identity

    def served(step_label: str, current: Snapshot, config: DigestSettings) -> ServeResult:
        answer = serve_digest(current, store, config, identity=identity, dossier=label)
        if on_serve is not None:
            on_serve(step_label, answer)
        return answer

    def step(name: str, current: Snapshot, config: DigestSettings) -> dict[str, Any]:
        before = served(f"{name}, before rebuilding", current, config)
        incremental = build_digest(
            current, model, store, config, concurrency=concurrency, dossier=label
        )
        full = build_digest(
            current, model, store, config, mode="full", concurrency=concurrency, dossier=label
        )
        after = served(f"{name}, after rebuilding", current, config)
        return {
            "served_before_rebuild": before.status.value,
            "calls_by_task": dict(incremental.counters.calls_by_task),
            "recomputed": _computed(incremental),
            "cache_hits": incremental.counters.cache_hits,
            "identical_to_full": compare_builds(incremental, full).identical,
            "served_after_rebuild": after.status.value,
        }

    build_digest(snapshot, model, store, settings, concurrency=concurrency, dossier=label)
    served("initial build", snapshot, settings)
    moved = apply_mutation(
        snapshot, Mutation(MutationKind.NEW_VERSION, EXERCISE_DOC, 2), VersionedFolder(folder)
    )
    first = step(f"{EXERCISE_DOC} v2", moved, settings)
    prompt = replace(settings, reduce_prompt=settings.reduce_prompt + "\nKeep field diversity.")
    second = step("reduce prompt changed", moved, prompt)
    return {"dossier": dossier, "document_moved": first, "reduce_prompt_changed": second}


def _prepare(out_dir: Path, corpus_root: Path | None) -> tuple[Path, EvalPaths]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = EvalPaths(
        out_dir / "digest-eval.json", out_dir / "review-sample.json", out_dir / "digest-eval.sqlite"
    )
    if paths.store.exists():
        # A store holding an earlier evaluation would turn every build into cache hits.
        raise InputError(
            f"{paths.store} already exists", fix="remove it or choose another output folder"
        )
    root = (
        corpus_root if corpus_root is not None else generate_digest_corpus(out_dir / "corpus").root
    )
    return root, paths


def run_digest_eval(
    out_dir: Path,
    *,
    corpus_root: Path | None = None,
    model: Model | None = None,
    settings: DigestSettings | None = None,
    dossiers: Sequence[str] | None = None,
    concurrency: int = 4,
    exercise: bool = True,
    on_dossier: Callable[[str], None] | None = None,
    events: Sequence[Mutation] | None = None,
    full: bool = True,
) -> dict[str, Any]:
    """Run the evaluation, write the report and the review sample, return the report.

    Without ``full``, each event is built incrementally only (no node-by-node comparison;
    see :func:`~preuve.digest.mutations.run_mutations`).

    ``on_dossier`` is called with each dossier's name once its events are done (progress).
    """
    started = time.perf_counter()
    root, paths = _prepare(out_dir, corpus_root)
    chosen = list(dossiers) if dossiers is not None else evaluation_dossiers(root)
    summarizer = model if model is not None else rules_summarizer()
    config = settings if settings is not None else DigestSettings()
    steps: list[MutationStep] = []
    audits: list[RootAudit] = []
    rows: list[dict[str, Any]] = []
    review: list[ReviewEntry] = []
    extractive = Counter[str]()
    with SqliteStore(paths.store) as store:
        for name in chosen:
            folder = root / "dossiers" / name
            initial, done = run_mutations(
                VersionedFolder(folder),
                summarizer,
                store,
                config,
                dossier=name,
                concurrency=concurrency,
                mutations=tuple(events) if events else SPEC_MUTATIONS,
                full=full,
            )
            aliases = event_aliases(done)
            start = load_versions(folder)
            found, hits, gold = _extractive(root, name, start)
            extractive.update(initial_found=found, initial_hits=hits, initial_gold=gold)
            if name == chosen[0]:
                review.append(
                    ReviewEntry(f"{name}: initial", initial.run_id, start, initial.root.claims)
                )
            for step in done:
                audit = audit_claims(
                    step.incremental.root.claims,
                    step.snapshot,
                    gold_tuples(root, name, step.snapshot, aliases),
                )
                found, hits, gold = _extractive(root, name, step.snapshot, aliases)
                extractive.update(post_found=found, post_hits=hits, post_gold=gold)
                steps.append(step)
                audits.append(audit)
                rows.append(_step_row(step, audit))
                if name == chosen[0]:
                    label = f"{name}: after {step.mutation.label()}"
                    review.append(
                        ReviewEntry(
                            label,
                            step.incremental.run_id,
                            step.snapshot,
                            step.incremental.root.claims,
                        )
                    )
            if on_dossier is not None:
                on_dossier(name)
        report = _report(summarizer, steps, audits, rows, extractive)
        # The main figures' own hash: the exercise below must leave them as they are.
        report["main_sha256"] = report_sha256(report, main_only=True)
        if exercise and chosen:
            report["exercise"] = exercise_scenario(
                root / "dossiers" / chosen[0],
                summarizer,
                store,
                config,
                dossier=chosen[0],
                concurrency=concurrency,
            )
            report["exercise"]["main_still_served"] = _still_served(
                store, steps, summarizer, config
            )
        report["sha256"] = report_sha256(report)
    report["seconds"] = round(time.perf_counter() - started, 3)
    run_folder = RunFolder(paths.report.parent)  # both written atomically
    run_folder.write_json(paths.report.name, report)
    run_folder.write_json(paths.review.name, review_sample(review))
    return report


def _still_served(
    store: SqliteStore, steps: Sequence[MutationStep], model: Model, settings: DigestSettings
) -> bool:
    """After the exercise, each dossier's last summary is still served, claims unchanged."""
    last = {step.dossier: step for step in steps}
    for name, step in last.items():
        served = serve_digest(step.snapshot, store, settings, identity=model.identity, dossier=name)
        if served.status is not ServeStatus.SERVED or served.claims != step.incremental.root.claims:
            return False
    return True


def _report(
    model: Model,
    steps: Sequence[MutationStep],
    audits: Sequence[RootAudit],
    rows: list[dict[str, Any]],
    extractive: Counter[str],
) -> dict[str, Any]:
    incremental = [s.incremental.counters for s in steps]
    full = [s.full.counters for s in steps if s.full is not None]
    compared = [s.comparison for s in steps if s.comparison is not None]
    identity = model.identity
    return {
        "engine": identity.backend,
        "model": identity.label(),
        "events": len(steps),
        "dossiers": len({s.dossier for s in steps}),
        "model_calls": {
            "incremental": sum(c.model_calls for c in incremental),
            "full": sum(c.model_calls for c in full),
        },
        "generated_tokens": {
            "incremental": sum(c.generated_tokens for c in incremental),
            "full": sum(c.generated_tokens for c in full),
        },
        "prompt_tokens": {
            "incremental": sum(c.prompt_tokens for c in incremental),
            "full": sum(c.prompt_tokens for c in full),
        },
        "recomputed_nodes": sum(c.recomputed for c in incremental),
        "cache_hits": sum(c.cache_hits for c in incremental),
        "comparisons": {
            "events": len(compared),
            "identical": sum(c.identical for c in compared),
            # events whose full rebuild was not asked for (the key only when there are some)
            **({"skipped": len(steps) - len(compared)} if len(compared) < len(steps) else {}),
        },
        "roots_after_mutation": dict(
            sorted(Counter(s.incremental.root.status.value for s in steps).items())
        ),
        "audit": dump_record(pool_audits(audits)),
        "extractive": {
            "initial_facts": extractive["initial_found"],
            "post_mutation_facts": extractive["post_found"],
            "precision": _ratio(
                extractive["initial_hits"] + extractive["post_hits"],
                extractive["initial_found"] + extractive["post_found"],
            ),
            "recall": _ratio(
                extractive["initial_hits"] + extractive["post_hits"],
                extractive["initial_gold"] + extractive["post_gold"],
            ),
        },
        "reference": copy.deepcopy(dict(REFERENCE)),
        "per_event": rows,
    }


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None
