"""`preuve store migrate|stats|export|import`: operate the digest store, either backend.

    preuve store migrate --store postgresql://preuve@db/preuve   create or upgrade the schema
    preuve store stats   --store ...                            rows, schema version, size
    preuve store export  --store sqlite:digest.sqlite --out store.jsonl
    preuve store import  store.jsonl --store postgresql://preuve@db/preuve

``--store`` defaults to ``$PREUVE_STORE``, else ``$PREUVE_HOME/digest.sqlite``. An import
goes into an empty store in one transaction; every result row is checked against its
recorded digest and every run record against its row as it streams in (a failure rolls
the whole import back), and the store is checked again once written.
Exit codes: 0 done, 2 bad input (spec, server, file, CORRUPT).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from preuve.commands.common import console, handles_errors, print_json
from preuve.commands.digest_state import StoreOpt, open_digest_store, store_path
from preuve.core.errors import InputError
from preuve.core.store_spec import parse_store_spec
from preuve.digest.store_check import check_store, checked_rows
from preuve.io.records import dump_record
from preuve.io.stores import SCHEMA_VERSION
from preuve.io.stores.dump import export_store, read_dump

__all__ = ["store_app"]

store_app = typer.Typer(
    name="store",
    help="Operate the digest store (SQLite or PostgreSQL): migrate, stats, export, import.",
    no_args_is_help=True,
    add_completion=False,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def _version_before(store: str | None) -> int:
    spec = parse_store_spec(store_path(store))
    if spec.kind == "sqlite" and not Path(spec.target).is_file():
        return 0
    with open_digest_store(store, read_only=True) as opened:
        return opened.schema_version()


@store_app.command("migrate")
@handles_errors
def migrate_command(store: StoreOpt = None) -> None:
    """Create the schema, or bring it to the current version (again: nothing to do)."""
    before = _version_before(store)
    with open_digest_store(store) as opened:  # a writable open applies what is missing
        after = opened.schema_version()
        where = opened.path
    if before == after:
        console.print(f"{where}: schema version {after}, nothing to do", markup=False)
    else:
        applied = ", ".join(str(v) for v in range(before + 1, after + 1))
        console.print(
            f"{where}: schema version {before} -> {after} (applied {applied})", markup=False
        )


@store_app.command("stats")
@handles_errors
def stats_command(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Rows per table, schema version and size on disk (read-only)."""
    with open_digest_store(store, read_only=True) as opened:
        stats = opened.stats()
    if as_json:
        print_json({**dump_record(stats), "current_schema_version": SCHEMA_VERSION})
        return
    console.print(f"{stats.kind} store {stats.location}", markup=False)
    console.print(f"schema version {stats.schema_version} (this preuve: {SCHEMA_VERSION})")
    for table, count in stats.rows.items():
        console.print(f"  {table:<12} {count:>10}", markup=False)
    console.print(f"size {stats.size_bytes} bytes", markup=False)


@store_app.command("export")
@handles_errors
def export_command(
    out: Annotated[Path, typer.Option("--out", help="The JSON-lines file to write.")],
    store: StoreOpt = None,
) -> None:
    """Write every row of the store to a JSON-lines file (written whole, or not at all)."""
    partial = out.with_name(out.name + ".partial")
    with open_digest_store(store, read_only=True) as opened:
        try:
            with partial.open("w", encoding="utf-8") as handle:
                counts = export_store(opened, handle)
            os.replace(partial, out)
        finally:
            partial.unlink(missing_ok=True)
    total = sum(counts.values())
    console.print(f"wrote {out}: {total} rows {counts}", markup=False)


@store_app.command("import")
@handles_errors
def import_command(
    dump: Annotated[Path, typer.Argument(help="A file written by preuve store export.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Load an export into an empty store (any backend), digests checked, in one transaction."""
    if not dump.is_file():
        raise InputError(f"{dump}: no such file")
    with open_digest_store(store) as opened:
        where = f"import {dump}"
        counts = opened.load_rows(checked_rows(read_dump(dump), where))
        check = check_store(opened)
        written = opened.row_counts()
        location = opened.path
    if written != counts:
        raise InputError(f"{location}: rows after import {written} differ from the dump {counts}")
    result = {"store": str(location), "rows": counts, "checked": dump_record(check)}
    if as_json:
        print_json(result)
        return
    console.print(f"imported {sum(counts.values())} rows into {location}", markup=False)
    console.print(f"checked: {dump_record(check)}", markup=False)
