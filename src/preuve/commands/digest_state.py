"""A dossier's state for `preuve digest`: its manifest, its grammar, one-off overrides.

:func:`open_dossier` is how every digest command reads a dossier folder: the snapshot the
manifest describes (``manifest.json``; without one, version 1 of each document for a
folder of the bundled corpus and the latest versions otherwise), the folder's own fact
grammar (``grammar.json``) unless ``--grammar`` names another, and the flags
``--version``, ``--versions``, ``--withdraw``, ``--revoke`` applied on top as one-off
overrides, each announced on stderr. An override can withdraw or revoke, never restore.

The manifest commands (``withdraw``, ``revoke``, ``restore``, ``set-version``,
``manifest``) change the file and record its new state in the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Literal

import typer

from preuve.commands.common import (
    command_settings,
    console,
    error_console,
    handles_errors,
    print_json,
)
from preuve.core.documents import AccessState, Snapshot
from preuve.core.errors import InputError
from preuve.core.store_spec import parse_store_spec
from preuve.digest.grammar import GRAMMAR_FILE, default_grammar
from preuve.digest.manifest import Manifest, apply_event, manifest_data
from preuve.digest.summarize import DigestSettings
from preuve.io import Store, open_store
from preuve.io.documents import list_versions
from preuve.loaders import load_grammar, load_state, read_manifest, write_manifest

__all__ = [
    "OpenDossier",
    "VersionChoice",
    "manifest_command",
    "open_digest_store",
    "open_dossier",
    "restore_command",
    "revoke_command",
    "set_version_command",
    "store_path",
    "withdraw_command",
]


class VersionChoice(StrEnum):
    AUTO = "auto"
    FIRST = "first"
    LATEST = "latest"


@dataclass(frozen=True, slots=True)
class OpenDossier:
    folder: Path
    label: str
    corpus_root: Path | None
    snapshot: Snapshot
    settings: DigestSettings
    principal: str
    manifest: Manifest | None
    overrides: tuple[str, ...]


def store_path(store: str | Path | None) -> str:
    """The store spec: ``--store``, else ``PREUVE_STORE``, else $PREUVE_HOME/digest.sqlite."""
    if store is not None and str(store).strip():
        return str(store)
    spec = command_settings().store
    parsed = parse_store_spec(spec)
    if parsed.kind == "sqlite":  # $PREUVE_HOME may not exist yet
        Path(parsed.target).parent.mkdir(parents=True, exist_ok=True)
    return spec


def open_digest_store(store: str | Path | None, *, read_only: bool = False) -> Store:
    """The store ``--store`` names (SQLite path or PostgreSQL URL), opened."""
    return open_store(store_path(store), read_only=read_only)


def corpus_root(folder: Path) -> Path | None:
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


def _default_rule(folder: Path) -> Literal["first", "latest"]:
    return "first" if corpus_root(folder) is not None else "latest"


def open_dossier(
    folder: Path,
    *,
    versions: list[str] | None = None,
    withdraw: list[str] | None = None,
    revoke: list[str] | None = None,
    choice: VersionChoice = VersionChoice.AUTO,
    principal: str | None = None,
    grammar: Path | None = None,
) -> OpenDossier:
    """The dossier as its manifest says, with the one-off overrides on top (announced)."""
    manifest = read_manifest(folder) if folder.is_dir() else None
    overrides: list[str] = []
    rule = _default_rule(folder)
    if choice is not VersionChoice.AUTO:
        rule = "first" if choice is VersionChoice.FIRST else "latest"
        if manifest is not None and manifest.versions != rule:
            overrides.append(f"--versions {rule}")
            manifest = Manifest(rule, manifest.principal, manifest.documents, manifest.events)
    chosen = _versions(versions or [])
    overrides.extend(f"--version {doc}={n}" for doc, n in chosen.items())
    snapshot = load_state(folder, manifest, chosen, default=rule)
    changes = (
        ("--withdraw", withdraw, AccessState.withdrawn, "active"),
        ("--revoke", revoke, AccessState.revoked, "eligible"),
    )
    for option, doc_ids, change, flag in changes:
        for doc_id in doc_ids or []:
            doc = snapshot.get(doc_id)
            if doc is None:
                raise InputError(f"{option} {doc_id}: no such document in {folder}")
            if getattr(doc.access, flag):  # already withdrawn/revoked in the manifest: no-op
                snapshot = snapshot.with_access(doc_id, change(doc.access))
                overrides.append(f"{option} {doc_id}")
    path = grammar or (folder / GRAMMAR_FILE)
    fact_grammar = load_grammar(path) if path.is_file() or grammar else default_grammar()
    if grammar is not None:
        overrides.append(f"--grammar {grammar}")
    for override in overrides:
        error_console.print(
            f"override for this command only (not in the manifest): {override}", markup=False
        )
    return OpenDossier(
        folder,
        str(folder.resolve()),
        corpus_root(folder),
        snapshot,
        DigestSettings(grammar=fact_grammar),
        principal or (manifest.principal if manifest is not None else "default"),
        manifest,
        tuple(overrides),
    )


DossierArg = Annotated[Path, typer.Argument(help="A dossier folder: one sub-folder per document.")]
DocArg = Annotated[str, typer.Argument(help="A document id (its folder name).")]
StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        help="sqlite:PATH, a file path, or postgresql://USER@HOST/DB (default: $PREUVE_STORE,"
        " else $PREUVE_HOME/digest.sqlite).",
    ),
]


def _change(
    folder: Path, store: str | None, event: str, doc_id: str, version: str | None = None
) -> None:
    available = list_versions(folder)
    manifest = read_manifest(folder) or Manifest(versions=_default_rule(folder))
    target: int | Literal["first", "latest"] | None = None
    if version is not None:
        if version in ("first", "latest"):
            target = "first" if version == "first" else "latest"
        elif version.isdigit():
            target = int(version)
        else:
            raise InputError(f"version {version!r} is not a number, 'first' or 'latest'")
    changed = apply_event(manifest, event, doc_id, available, version=target)
    label = str(folder.resolve())
    # The store first: a manifest on disk that no store recorded would be history lost.
    with open_digest_store(store) as opened:
        opened.record_manifest(label, changed.sha256, f"{event} {doc_id}", manifest_data(changed))
    path = write_manifest(folder, changed)
    state = changed.state(doc_id)
    shown = f"version {state.version}" if event == "set-version" else f"access {state.access}"
    console.print(f"{event} {doc_id}: {shown}; wrote {path}", markup=False)


@handles_errors
def withdraw_command(dossier: DossierArg, doc_id: DocArg, store: StoreOpt = None) -> None:
    """Withdraw a document: recorded in the manifest and the store; no build brings it back."""
    _change(dossier, store, "withdraw", doc_id)


@handles_errors
def revoke_command(dossier: DossierArg, doc_id: DocArg, store: StoreOpt = None) -> None:
    """Revoke the principal's access to a document (recorded in the manifest and the store)."""
    _change(dossier, store, "revoke", doc_id)


@handles_errors
def restore_command(dossier: DossierArg, doc_id: DocArg, store: StoreOpt = None) -> None:
    """Undo a withdrawal or a revocation: the only way to, and it is recorded."""
    _change(dossier, store, "restore", doc_id)


@handles_errors
def set_version_command(
    dossier: DossierArg,
    doc_id: DocArg,
    version: Annotated[str, typer.Argument(help="A version number, 'first' or 'latest'.")],
    store: StoreOpt = None,
) -> None:
    """Activate a version of a document (recorded in the manifest and the store)."""
    _change(dossier, store, "set-version", doc_id, version)


@handles_errors
def manifest_command(
    dossier: DossierArg,
    store: StoreOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show the dossier's state (manifest) and its recorded history in the store."""
    manifest = read_manifest(dossier)
    spec = parse_store_spec(store_path(store))
    history = []
    if spec.kind != "sqlite" or Path(spec.target).is_file():
        with open_digest_store(store, read_only=True) as opened:
            history = opened.manifests(str(dossier.resolve()))
    data = {
        "manifest": None if manifest is None else manifest_data(manifest),
        "recorded": [{"event": r.event, "sha256": r.sha256, "at": r.created_at} for r in history],
    }
    if as_json:
        print_json(data)
        return
    if manifest is None:
        console.print("no manifest: every document active, default versions", markup=False)
    else:
        for doc_id, state in manifest_data(manifest)["documents"].items():
            console.print(f"{doc_id}: {state}", markup=False)
    for row in history:
        console.print(f"recorded {row.created_at[:19]} {row.event}", markup=False)
