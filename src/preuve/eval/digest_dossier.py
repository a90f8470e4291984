"""Workflow 3 measured on one dossier of any corpus, with its gold and its events.

For a dossier folder, a gold file (``preuve.digest.gold/1``, with the ``not_affirmed``
lines of each version) and a list of named events, :func:`evaluate_dossier` reports:

- **builds**: an incremental build of the initial snapshot, then every event followed by
  an incremental build and an independent full build, compared node by node; the model
  calls of each incremental build by task, per event kind;
- **claims from non-affirmed lines**: leaf and root claims (each distinct result once)
  citing a line the gold lists as not affirmed;
- **grammar coverage**: genuine fact lines the grammar parses to their gold tuple, and
  those the extractive reader keeps once context is read (claimable); fact-shaped
  not-affirmed lines, and how many the extractive reader wrongly keeps;
- **audit** of each root after an event against the gold of the current sources.

It reads the gold, so it lives in :mod:`preuve.eval`; the summarizer never sees it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from preuve.core.errors import InputError
from preuve.digest.audit import audit_claims, pool_audits
from preuve.digest.build import BuildReport
from preuve.digest.extractive import extract_document_facts
from preuve.digest.grammar import FactTuple
from preuve.digest.mutations import Mutation, run_mutations
from preuve.digest.summarize import DigestSettings
from preuve.digest.tree import NodeKind
from preuve.eval.digest_gold import Gold, event_aliases, gold_for_snapshot, read_digest_gold
from preuve.io.documents import VersionedFolder, list_versions, load_version
from preuve.io.records import dump_record
from preuve.io.stores import SqliteStore
from preuve.models.base import Model

__all__ = ["GoldLines", "evaluate_dossier", "read_gold_lines"]


@dataclass(frozen=True, slots=True)
class GoldLines:
    """Per ``(doc_id, version)``: genuine fact lines with their tuple, not-affirmed lines."""

    facts: Mapping[tuple[str, str], tuple[tuple[str, FactTuple], ...]]
    not_affirmed: Mapping[tuple[str, str], tuple[tuple[str, str], ...]]


def read_gold_lines(path: Path) -> GoldLines:
    """The ``line`` of each gold fact and the ``not_affirmed`` lines, per version."""
    data = json.loads(path.read_bytes().decode("utf-8"))
    facts: dict[tuple[str, str], tuple[tuple[str, FactTuple], ...]] = {}
    denied: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
    for doc_id, versions in data["documents"].items():
        for version, entry in versions.items():
            if not isinstance(entry, dict):
                continue
            key = (doc_id, str(version))
            facts[key] = tuple(
                (str(f["line"]), FactTuple(f["subject"], f["field"], f["value"]))
                for f in entry.get("facts", [])
                if "line" in f
            )
            denied[key] = tuple(
                (str(item["line"]), str(item.get("reason", "")))
                for item in entry.get("not_affirmed", [])
            )
    return GoldLines(facts, denied)


def _claims_from_denied(
    builds: Sequence[BuildReport], denied: Mapping[tuple[str, str], tuple[tuple[str, str], ...]]
) -> dict[str, Any]:
    seen: set[str] = set()
    counts: Counter[str] = Counter()
    examples: list[dict[str, str]] = []
    for build in builds:
        for node in build.nodes:
            if node.key in seen:
                continue
            seen.add(node.key)
            kind = (
                "leaf" if node.kind is NodeKind.LEAF else "root" if node.node_id == "root" else ""
            )
            if not kind:
                continue
            quotes = {span.id: span for span in node.spans}
            for claim in node.claims:
                counts[f"{kind}_claims"] += 1
                for evidence_id in claim.evidence:
                    span = quotes.get(evidence_id)
                    if span is None:
                        continue
                    lines = denied.get((span.doc_id, str(span.version)), ())
                    reason = next((r for line, r in lines if line.strip() == span.quote), None)
                    if reason is not None:
                        counts[f"{kind}_from_not_affirmed"] += 1
                        examples.append({"claim": claim.value, "reason": reason})
                        break
    return {**{k: counts[k] for k in sorted(counts)}, "examples": examples[:10]}


def _coverage(folder: Path, lines: GoldLines, settings: DigestSettings) -> dict[str, Any]:
    grammar = settings.grammar
    counts: Counter[str] = Counter()
    missed: list[str] = []
    for doc_id, versions in list_versions(folder).items():
        for version in versions:
            key = (doc_id, str(version))
            doc = load_version(folder, doc_id, version)
            extracted = extract_document_facts(doc, grammar)
            kept = {fact.fact for fact in extracted}
            kept_lines = {fact.span.quote for fact in extracted}
            for line, fact in lines.facts.get(key, ()):
                counts["genuine"] += 1
                parsed = grammar.parse(line) == fact
                counts["grammar_parses"] += parsed
                counts["claimable"] += fact in kept
                if fact not in kept and len(missed) < 10:
                    missed.append(line)
            for line, _ in lines.not_affirmed.get(key, ()):
                counts["not_affirmed_rows"] += 1
                counts["not_affirmed_kept"] += line.strip() in kept_lines
                parsed_fact = grammar.parse(line)
                if parsed_fact is not None:
                    counts["fact_shaped_not_affirmed"] += 1
                    counts["fact_shaped_kept"] += parsed_fact in kept
    genuine = counts["genuine"] or 1
    return {
        **{k: counts[k] for k in sorted(counts)},
        "grammar_rate": counts["grammar_parses"] / genuine,
        "claimable_rate": counts["claimable"] / genuine,
        "missed_examples": missed,
    }


def evaluate_dossier(
    folder: Path,
    gold_path: Path,
    events: Sequence[Mutation],
    model: Model,
    store: SqliteStore,
    *,
    settings: DigestSettings | None = None,
    concurrency: int = 1,
) -> dict[str, Any]:
    """Every figure of the module docstring for the dossier ``folder``."""
    config = settings if settings is not None else DigestSettings()
    gold: Gold = read_digest_gold(gold_path)
    lines = read_gold_lines(gold_path)
    if not events:
        raise InputError(f"{folder}: no events to replay")
    initial, steps = run_mutations(
        VersionedFolder(folder), model, store, config, dossier=str(folder), mutations=events,
        concurrency=concurrency,
    )  # fmt: skip
    aliases = event_aliases(steps)
    audits = [
        audit_claims(
            step.incremental.root.claims,
            step.snapshot,
            gold_for_snapshot(gold, step.snapshot, str(gold_path), folder, aliases),
            config.grammar,
        )
        for step in steps
    ]
    by_kind: dict[str, list[dict[str, int]]] = {}
    for step in steps:
        by_kind.setdefault(step.mutation.kind.value, []).append(
            dict(step.incremental.counters.calls_by_task)
        )
    builds = [initial, *(s.incremental for s in steps)]
    return {
        "dossier": folder.name,
        "events": len(steps),
        "identical_to_full": sum(s.compared.identical for s in steps),
        "differences": [d.__dict__ for s in steps for d in s.compared.differences][:10],
        "calls_by_event": by_kind,
        "incremental_calls": sum(s.incremental.counters.model_calls for s in steps),
        "full_calls": sum(s.full_build.counters.model_calls for s in steps),
        "claims": _claims_from_denied(builds, lines.not_affirmed),
        "coverage": _coverage(folder, lines, config),
        "audit": dump_record(pool_audits(audits)),
    }
