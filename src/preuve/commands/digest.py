"""`preuve digest build|serve|mutate|compare|audit|history|prov` and the manifest commands.

Each subcommand reads one dossier folder (a versioned folder, read by
:func:`preuve.io.documents.load_versions`: one folder per document, ``v1.txt``/``v2.pdf``...,
optional ``meta.json``, ``manifest.json`` and ``grammar.json``) or the store, and calls
library code. The dossier's state comes
from its manifest (:mod:`preuve.commands.digest_state`); ``withdraw``, ``revoke``,
``restore`` and ``set-version`` change it and record the event. ``--version``,
``--versions``, ``--withdraw`` and ``--revoke`` remain one-off overrides and say so.

Exit codes: 0 all verified, 1 something refused (STALE, INVALID, a difference), 2 bad input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from preuve.commands.cluster import ExecutorOpt, command_model, open_executor
from preuve.commands.common import (
    EXIT_OK,
    EXIT_REJECTED,
    ConcurrencyOpt,
    ModelOpt,
    command_runtime,
    console,
    handles_errors,
    print_json,
)
from preuve.commands.digest_evaluate import eval_digest_command
from preuve.commands.digest_fleet import build_many_command
from preuve.commands.digest_state import (
    DossierArg,
    OpenDossier,
    StoreOpt,
    VersionChoice,
    manifest_command,
    open_digest_store,
    open_dossier,
    restore_command,
    revoke_command,
    set_version_command,
    withdraw_command,
)
from preuve.commands.digest_views import (
    print_build,
    print_comparison,
    print_history,
    print_mutations,
    print_served,
    write_json,
)
from preuve.digest.audit import ReviewEntry, audit_claims, review_sample
from preuve.digest.build import build_digest
from preuve.digest.manifest import manifest_data
from preuve.digest.mutations import (
    SPEC_MUTATIONS,
    compare_builds,
    parse_event,
    run_mutations,
    stored_nodes,
)
from preuve.digest.prov import build_prov
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.run_files import ComparisonEntry, RunEntry, build_answer, serve_answer
from preuve.digest.schema import NodeStatus
from preuve.digest.serve import ServeResult, serve_digest
from preuve.eval.digest_eval import gold_for_snapshot, read_digest_gold
from preuve.io.documents import VersionedFolder
from preuve.io.records import dump_record
from preuve.io.runfolder import RunFolder
from preuve.loaders import events_from_file, read_manifest

__all__ = ["digest_app", "eval_digest_command"]

digest_app = typer.Typer(
    name="digest",
    help="Incremental dossier summaries that refuse to be stale.",
    no_args_is_help=True,
    add_completion=False,
)
digest_app.command("withdraw")(withdraw_command)
digest_app.command("revoke")(revoke_command)
digest_app.command("restore")(restore_command)
digest_app.command("set-version")(set_version_command)
digest_app.command("manifest")(manifest_command)
digest_app.command("build-many")(build_many_command)


PrincipalOpt = Annotated[
    str | None,
    typer.Option("--principal", help="Who reads the summary (default: the manifest's)."),
]
VersionOpt = Annotated[
    list[str] | None,
    typer.Option("--version", help="One-off: show a version, DOC=N (set-version records it)."),
]
WithdrawOpt = Annotated[
    list[str] | None,
    typer.Option("--withdraw", help="One-off: withdraw a document (withdraw records it)."),
]
RevokeOpt = Annotated[
    list[str] | None,
    typer.Option("--revoke", help="One-off: revoke access to a document (revoke records it)."),
]
VersionsOpt = Annotated[
    VersionChoice,
    typer.Option("--versions", help="One-off default versions: first or latest."),
]
GrammarOpt = Annotated[
    Path | None,
    typer.Option("--grammar", help="A fact grammar file (default: the folder's grammar.json)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Folder for the JSON reports.")]


def _serve(
    target: OpenDossier, store: str | None, model: str | None, run: str | None
) -> ServeResult:
    """Serve the dossier's summary from the store, read-only (STALE before any claim)."""
    identity = command_runtime(model=model).model(rules_summarizer).identity
    with open_digest_store(store, read_only=True) as opened:
        return serve_digest(
            target.snapshot,
            opened,
            target.settings,
            target.principal,
            identity=identity,
            dossier=target.label,
            run_id=run,
        )


@digest_app.command("build")
@handles_errors
def build_command(
    dossier: DossierArg,
    *,
    store: StoreOpt = None,
    model: ModelOpt = None,
    principal: PrincipalOpt = None,
    version: VersionOpt = None,
    withdraw: WithdrawOpt = None,
    revoke: RevokeOpt = None,
    versions: VersionsOpt = VersionChoice.AUTO,
    grammar: GrammarOpt = None,
    full: Annotated[
        bool, typer.Option("--full", help="Recompute every node (reads no cache).")
    ] = False,
    concurrency: ConcurrencyOpt = None,
    executor: ExecutorOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Build (or bring up to date) the summary tree of a dossier."""
    target = open_dossier(
        dossier,
        versions=version,
        withdraw=withdraw,
        revoke=revoke,
        choice=versions,
        principal=principal,
        grammar=grammar,
    )
    runtime = command_runtime(model=model, concurrency=concurrency, executor=executor)
    with (
        open_executor(runtime.settings, runtime.concurrency) as runner,
        open_digest_store(store) as opened,
    ):
        summarizer = command_model(runtime, rules_summarizer, runner)
        if target.manifest is not None:
            manifest = target.manifest
            opened.record_manifest(
                target.label, manifest.sha256, "read by build", manifest_data(manifest)
            )
        report = build_digest(
            target.snapshot,
            runtime,
            opened,
            target.settings,
            principal=target.principal,
            mode="full" if full else "incremental",
            dossier=target.label,
            executor=runner,
        )
    if as_json:
        print_json(build_answer(report))
    else:
        print_build(report, summarizer.model(rules_summarizer))
    refused = any(n.status is NodeStatus.INVALID for n in report.nodes)
    raise typer.Exit(EXIT_REJECTED if refused else EXIT_OK)


@digest_app.command("serve")
@handles_errors
def serve_command(
    dossier: DossierArg,
    *,
    store: StoreOpt = None,
    model: ModelOpt = None,
    principal: PrincipalOpt = None,
    version: VersionOpt = None,
    withdraw: WithdrawOpt = None,
    revoke: RevokeOpt = None,
    versions: VersionsOpt = VersionChoice.AUTO,
    grammar: GrammarOpt = None,
    run: Annotated[
        str | None, typer.Option("--run", help="Serve this run (default: latest).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the dossier's summary only if it is current; refuse it as STALE otherwise."""
    target = open_dossier(
        dossier,
        versions=version,
        withdraw=withdraw,
        revoke=revoke,
        choice=versions,
        principal=principal,
        grammar=grammar,
    )
    result = _serve(target, store, model, run)
    if as_json:
        print_json(serve_answer(result))
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
    principal: PrincipalOpt = None,
    event: Annotated[
        list[str] | None,
        typer.Option(
            "--event",
            help="An event, in order (repeatable): new-version:DOC=N, withdraw:DOC, "
            "revoke:DOC, restore:DOC, reupload:DOC, distractor-edit:DOC.",
        ),
    ] = None,
    events: Annotated[
        Path | None, typer.Option("--events", help="A JSON list of events (see README).")
    ] = None,
    grammar: GrammarOpt = None,
    out: OutOpt = None,
    concurrency: ConcurrencyOpt = None,
) -> None:
    """Apply events (default: SPEC's three, doc-00 v2, withdraw doc-04, revoke doc-08), each
    followed by an incremental and a full build compared node by node. Nothing is written
    to the folder or its manifest: the events happen in memory."""
    chosen = [parse_event(e) for e in event or []]
    if events is not None:
        chosen.extend(events_from_file(events))
    # Events replay from the first versions, unless the manifest says where the dossier is.
    start = VersionChoice.FIRST if read_manifest(dossier) is None else VersionChoice.AUTO
    target = open_dossier(dossier, choice=start, principal=principal, grammar=grammar)
    runtime = command_runtime(model=model, concurrency=concurrency)
    summarizer = runtime.model(rules_summarizer)
    with open_digest_store(store) as opened:
        _, steps = run_mutations(
            VersionedFolder(dossier),
            summarizer,
            opened,
            target.settings,
            dossier=target.label,
            mutations=tuple(chosen) or SPEC_MUTATIONS,
            principal=target.principal,
            concurrency=runtime.concurrency,
            snapshot=target.snapshot,
        )
    rows = print_mutations(dossier.name, steps, summarizer)
    write_json(out, "mutations.json", rows)
    raise typer.Exit(EXIT_OK if all(s.compared.identical for s in steps) else EXIT_REJECTED)


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
    with open_digest_store(store, read_only=True) as opened:
        comparison = compare_builds(stored_nodes(opened, run_a), stored_nodes(opened, run_b))
    if as_json:
        print_json(dump_record(ComparisonEntry.of(comparison)))
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
    principal: PrincipalOpt = None,
    version: VersionOpt = None,
    withdraw: WithdrawOpt = None,
    revoke: RevokeOpt = None,
    versions: VersionsOpt = VersionChoice.AUTO,
    grammar: GrammarOpt = None,
    gold: Annotated[
        Path | None,
        typer.Option("--gold", help="Gold facts (preuve.digest.gold/1, see README) to score."),
    ] = None,
    out: OutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Audit the current summary: references, support (affirmed lines only), duplicates, and
    precision/recall against --gold when given (gold is never guessed from the folder)."""
    target = open_dossier(
        dossier,
        versions=version,
        withdraw=withdraw,
        revoke=revoke,
        choice=versions,
        principal=principal,
        grammar=grammar,
    )
    served = _serve(target, store, model, None)
    if not served.served:
        print_served(served)
        raise typer.Exit(EXIT_REJECTED)
    facts = None
    if gold is not None:
        facts = gold_for_snapshot(read_digest_gold(gold), target.snapshot, str(gold), target.folder)
    audit = audit_claims(served.claims, target.snapshot, facts, target.settings.grammar)
    entry = ReviewEntry(f"{dossier.name}: served", served.run_id, target.snapshot, served.claims)
    result = {
        "audit": dump_record(audit.figures()),
        "claims": [{**dump_record(a.claim), "support": a.support} for a in audit.claims],
        "review": review_sample([entry]),
    }
    if as_json:
        print_json(result)
    else:
        for name, value in dump_record(audit.figures()).items():
            console.print(f"{name}: {value}", markup=False)
        for claim_audit in audit.claims:
            if not claim_audit.supported:
                claim = claim_audit.claim
                console.print(
                    f"  {claim.subject} {claim.field} {claim.value!r}: {claim_audit.support}",
                    markup=False,
                )
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
    with open_digest_store(store, read_only=True) as opened:
        runs = opened.runs(None if dossier is None else str(dossier.resolve()))
        where = opened.path  # a URL without its password
    if as_json:
        print_json([dump_record(RunEntry.of(run)) for run in runs])
    else:
        print_history(runs, where)


@digest_app.command("prov")
@handles_errors
def prov_command(
    run: Annotated[str, typer.Argument(help="The run to export.")],
    store: StoreOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the JSON-LD here.")] = None,
) -> None:
    """Export a run as W3C PROV (JSON-LD)."""
    with open_digest_store(store, read_only=True) as opened:
        document = build_prov(opened, run)
    if out is None:
        print_json(document)
        return
    RunFolder.create(out.parent).write_json(out.name, document)
    console.print(f"wrote {out}", markup=False)
