"""`preuve digest build|serve|mutate|compare|audit|history|prov`: versioned dossier summaries.

Each subcommand reads one dossier folder (the layout of :mod:`preuve.digest.dossier`: one
folder per document, ``v1.txt``/``v2.pdf``..., optional ``meta.json``) or the store, and
calls library code. A folder of the bundled corpus shows version 1 of each document
unless ``--version`` activates another; a user's own folder shows the latest versions.
``--withdraw`` and ``--revoke`` set a document's access state for this snapshot.

Exit codes: 0 all verified, 1 something refused (STALE, INVALID, a difference), 2 bad input.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Literal

import typer

from preuve.commands.common import (
    EXIT_OK,
    EXIT_REJECTED,
    console,
    handles_errors,
    print_json,
    resolve_model,
)
from preuve.commands.digest_views import (
    build_dict,
    eval_lines,
    eval_progress,
    print_build,
    print_comparison,
    print_history,
    print_mutations,
    print_served,
    run_dict,
    serve_dict,
    write_json,
)
from preuve.core.documents import AccessState, Snapshot
from preuve.core.errors import InputError
from preuve.digest.audit import ReviewEntry, audit_claims, review_sample
from preuve.digest.build import build_digest
from preuve.digest.dossier import load_dossier
from preuve.digest.mutations import compare_builds, run_mutations, stored_nodes
from preuve.digest.prov import build_prov
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.schema import NodeStatus
from preuve.digest.serve import ServeResult, serve_digest
from preuve.digest.summarize import DigestSettings
from preuve.eval.digest_eval import gold_tuples, run_digest_eval
from preuve.io.files import write_json_atomic
from preuve.io.store import DigestStore

__all__ = ["digest_app", "eval_digest_command"]

digest_app = typer.Typer(
    name="digest",
    help="Incremental dossier summaries that refuse to be stale.",
    no_args_is_help=True,
    add_completion=False,
)


class VersionChoice(StrEnum):
    AUTO = "auto"
    FIRST = "first"
    LATEST = "latest"


DossierArg = Annotated[Path, typer.Argument(help="A dossier folder: one sub-folder per document.")]
StoreOpt = Annotated[
    Path | None,
    typer.Option("--store", help="The SQLite store (default: $PREUVE_HOME/digest.sqlite)."),
]
ModelOpt = Annotated[
    str | None,
    typer.Option("--model", help="rules (default), openai:NAME@URL, hf:PATH, replay:FILE."),
]
PrincipalOpt = Annotated[str, typer.Option("--principal", help="Who reads the summary.")]
VersionOpt = Annotated[
    list[str] | None, typer.Option("--version", help="Activate a version: DOC=N (repeatable).")
]
WithdrawOpt = Annotated[list[str] | None, typer.Option("--withdraw", help="Withdraw a document.")]
RevokeOpt = Annotated[
    list[str] | None, typer.Option("--revoke", help="Revoke access to a document.")
]
VersionsOpt = Annotated[
    VersionChoice,
    typer.Option("--versions", help="Default versions: first (corpus), latest (your folder)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Folder for the JSON reports.")]


@dataclass(frozen=True, slots=True)
class _Dossier:
    folder: Path
    label: str
    corpus_root: Path | None
    snapshot: Snapshot


def _corpus_root(folder: Path) -> Path | None:
    root = folder.resolve().parent.parent
    is_corpus = folder.resolve().parent.name == "dossiers" and (root / "corpus.json").is_file()
    return root if is_corpus else None


def _versions(pairs: list[str]) -> dict[str, int]:
    chosen: dict[str, int] = {}
    for pair in pairs:
        doc_id, sep, number = pair.partition("=")
        if not sep or not number.isdigit():
            raise InputError(f"--version {pair!r} is not DOC=N", fix="e.g. --version doc-00=2")
        chosen[doc_id] = int(number)
    return chosen


def _dossier(
    folder: Path,
    versions: list[str] | None,
    withdraw: list[str] | None,
    revoke: list[str] | None,
    choice: VersionChoice,
) -> _Dossier:
    root = _corpus_root(folder)
    if choice is VersionChoice.AUTO:
        choice = VersionChoice.FIRST if root is not None else VersionChoice.LATEST
    default: Literal["first", "latest"] = "first" if choice is VersionChoice.FIRST else "latest"
    snapshot = load_dossier(folder, _versions(versions or []), default=default)
    changes = (
        ("--withdraw", withdraw, AccessState.withdrawn),
        ("--revoke", revoke, AccessState.revoked),
    )
    for option, doc_ids, change in changes:
        for doc_id in doc_ids or []:
            doc = snapshot.get(doc_id)
            if doc is None:
                raise InputError(f"{option} {doc_id}: no such document in {folder}")
            snapshot = snapshot.with_access(doc_id, change(doc.access))
    return _Dossier(folder, str(folder.resolve()), root, snapshot)


def _serve(
    target: _Dossier, store: Path | None, model: str | None, principal: str, run: str | None
) -> ServeResult:
    """Serve the dossier's summary from the store, read-only (STALE before any claim)."""
    identity = resolve_model(model, rules_summarizer).identity
    with DigestStore(_store_path(store), read_only=True) as opened:
        return serve_digest(
            target.snapshot,
            opened,
            DigestSettings(),
            principal,
            identity=identity,
            dossier=target.label,
            run_id=run,
        )


def _store_path(store: Path | None) -> Path:
    if store is not None:
        return store
    home = Path(os.environ.get("PREUVE_HOME") or Path.home() / ".preuve")
    home.mkdir(parents=True, exist_ok=True)
    return home / "digest.sqlite"


@digest_app.command("build")
@handles_errors
def build_command(
    dossier: DossierArg,
    *,
    store: StoreOpt = None,
    model: ModelOpt = None,
    principal: PrincipalOpt = "default",
    version: VersionOpt = None,
    withdraw: WithdrawOpt = None,
    revoke: RevokeOpt = None,
    versions: VersionsOpt = VersionChoice.AUTO,
    full: Annotated[
        bool, typer.Option("--full", help="Recompute every node (reads no cache).")
    ] = False,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1)] = 4,
    as_json: JsonOpt = False,
) -> None:
    """Build (or bring up to date) the summary tree of a dossier."""
    target = _dossier(dossier, version, withdraw, revoke, versions)
    summarizer = resolve_model(model, rules_summarizer)
    with DigestStore(_store_path(store)) as opened:
        report = build_digest(
            target.snapshot,
            summarizer,
            opened,
            DigestSettings(),
            principal=principal,
            mode="full" if full else "incremental",
            concurrency=concurrency,
            dossier=target.label,
        )
    if as_json:
        print_json(build_dict(report))
    else:
        print_build(report, summarizer)
    refused = any(n.status is NodeStatus.INVALID for n in report.nodes)
    raise typer.Exit(EXIT_REJECTED if refused else EXIT_OK)


@digest_app.command("serve")
@handles_errors
def serve_command(
    dossier: DossierArg,
    *,
    store: StoreOpt = None,
    model: ModelOpt = None,
    principal: PrincipalOpt = "default",
    version: VersionOpt = None,
    withdraw: WithdrawOpt = None,
    revoke: RevokeOpt = None,
    versions: VersionsOpt = VersionChoice.AUTO,
    run: Annotated[
        str | None, typer.Option("--run", help="Serve this run (default: latest).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the dossier's summary only if it is current; refuse it as STALE otherwise."""
    result = _serve(
        _dossier(dossier, version, withdraw, revoke, versions), store, model, principal, run
    )
    if as_json:
        print_json(serve_dict(result))
    else:
        print_served(result)
    raise typer.Exit(EXIT_OK if result.served else EXIT_REJECTED)


@digest_app.command("mutate")
@handles_errors
def mutate_command(
    dossier: DossierArg,
    *,
    store: StoreOpt = None,
    model: ModelOpt = None,
    principal: PrincipalOpt = "default",
    out: OutOpt = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1)] = 4,
) -> None:
    """Apply SPEC's three events (doc-00 v2, withdraw doc-04, revoke doc-08), each followed
    by an incremental and a full build compared node by node."""
    target = _dossier(dossier, None, None, None, VersionChoice.FIRST)
    summarizer = resolve_model(model, rules_summarizer)
    with DigestStore(_store_path(store)) as opened:
        _, steps = run_mutations(
            dossier,
            summarizer,
            opened,
            DigestSettings(),
            dossier=target.label,
            principal=principal,
            concurrency=concurrency,
            snapshot=target.snapshot,
        )
    rows = print_mutations(dossier.name, steps, summarizer)
    write_json(out, "mutations.json", rows)
    raise typer.Exit(EXIT_OK if all(s.comparison.identical for s in steps) else EXIT_REJECTED)


@digest_app.command("compare")
@handles_errors
def compare_command(
    run_a: Annotated[str, typer.Argument(help="A run id (e.g. an incremental build).")],
    run_b: Annotated[str, typer.Argument(help="Another run id (e.g. a full build).")],
    *,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Compare two recorded runs node by node: keys, statuses, claims, token ids."""
    with DigestStore(_store_path(store), read_only=True) as opened:
        comparison = compare_builds(stored_nodes(opened, run_a), stored_nodes(opened, run_b))
    if as_json:
        print_json(comparison.as_dict())
    else:
        print_comparison(comparison)
    raise typer.Exit(EXIT_OK if comparison.identical else EXIT_REJECTED)


@digest_app.command("audit")
@handles_errors
def audit_command(
    dossier: DossierArg,
    *,
    store: StoreOpt = None,
    model: ModelOpt = None,
    principal: PrincipalOpt = "default",
    version: VersionOpt = None,
    withdraw: WithdrawOpt = None,
    revoke: RevokeOpt = None,
    versions: VersionsOpt = VersionChoice.AUTO,
    out: OutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Audit the current summary: references, support, duplicates (and gold, for the corpus)."""
    target = _dossier(dossier, version, withdraw, revoke, versions)
    served = _serve(target, store, model, principal, None)
    if not served.served:
        print_served(served)
        raise typer.Exit(EXIT_REJECTED)
    gold = None
    if target.corpus_root is not None:
        gold = gold_tuples(target.corpus_root, dossier.resolve().name, target.snapshot)
    audit = audit_claims(served.claims, target.snapshot, gold)
    entry = ReviewEntry(f"{dossier.name}: served", served.run_id, target.snapshot, served.claims)
    result = {"audit": audit.as_dict(), "review": review_sample([entry])}
    if as_json:
        print_json(result)
    else:
        for name, value in audit.as_dict().items():
            console.print(f"{name}: {value}", markup=False)
    write_json(out, "audit.json", result)
    clean = all(a.references_valid and a.supported and not a.duplicate for a in audit.claims)
    raise typer.Exit(EXIT_OK if clean else EXIT_REJECTED)


@digest_app.command("history")
@handles_errors
def history_command(
    store: StoreOpt = None,
    dossier: Annotated[
        Path | None, typer.Option("--dossier", help="Only this dossier's runs.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """List every recorded run, oldest first (nothing is ever overwritten)."""
    with DigestStore(_store_path(store), read_only=True) as opened:
        runs = opened.runs(None if dossier is None else str(dossier.resolve()))
    if as_json:
        print_json([run_dict(run) for run in runs])
    else:
        print_history(runs, _store_path(store))


@digest_app.command("prov")
@handles_errors
def prov_command(
    run: Annotated[str, typer.Argument(help="The run to export.")],
    store: StoreOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the JSON-LD here.")] = None,
) -> None:
    """Export a run as W3C PROV (JSON-LD)."""
    with DigestStore(_store_path(store), read_only=True) as opened:
        document = build_prov(opened, run)
    if out is None:
        print_json(document)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out, document)
    console.print(f"wrote {out}", markup=False)


@handles_errors
def eval_digest_command(
    out: Annotated[
        Path, typer.Option("--out", help="A new folder for the store, report and review sample.")
    ] = Path("preuve-out/digest-eval"),
    corpus: Annotated[
        Path | None,
        typer.Option("--corpus", help="A generated digest corpus (default: generate one)."),
    ] = None,
    model: ModelOpt = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1)] = 4,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """The 60 test mutations, each followed by an incremental and an independent full build
    compared node by node, the audit against gold, and the extractive baseline."""
    summarizer = resolve_model(model, rules_summarizer)
    root = corpus.resolve() if corpus is not None else None
    dossiers = sorted(p for p in (root / "dossiers").iterdir()) if root is not None else []
    total = sum(p.name.startswith("test") for p in dossiers) or 20
    with eval_progress("mutations: incremental vs full rebuild") as progress:
        task = progress.add_task("dossiers", total=total)
        report = run_digest_eval(
            out,
            corpus_root=root,
            model=summarizer,
            concurrency=concurrency,
            on_dossier=lambda _name: progress.advance(task),
        )
    if as_json:
        print_json(report)
    else:
        for line in eval_lines(report):
            console.print(line, markup=False)
        console.print(f"wrote {out}/", markup=False)
    comparisons = report["comparisons"]
    identical = comparisons["identical"] == comparisons["events"]
    raise typer.Exit(EXIT_OK if identical else EXIT_REJECTED)
