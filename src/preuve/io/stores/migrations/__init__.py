"""Versioned schema migrations of the digest store, one SQL file per version and backend.

``sqlite/000N_name.sql`` and ``postgres/000N_name.sql`` bring a store from version N-1 to
N; both backends have the same versions. Each applied version is one row of the
append-only ``schema_version`` table (component ``digest``), written in the same
transaction as the migration itself, so a migration is applied whole or not at all, and
applying migrations again is a no-op. Version 1 creates the tables with ``IF NOT
EXISTS``: a store written before versions existed (it has the tables and no
``schema_version``) is brought to the current version, never rebuilt.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from importlib import resources
from typing import Literal

__all__ = [
    "COMPONENT",
    "Migration",
    "migrations",
    "pending",
    "sqlite_statements",
    "version_table_sql",
]

Backend = Literal["sqlite", "postgres"]
COMPONENT = "digest"


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations(backend: Backend) -> tuple[Migration, ...]:
    """Every migration of ``backend``, by version (1, 2, ...)."""
    folder = resources.files(__name__).joinpath(backend)
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number, _, rest = entry.name.partition("_")
            found.append(Migration(int(number), rest.removesuffix(".sql"), entry.read_text()))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{backend} migrations are not numbered 1..N")  # a packaging bug
    return tuple(found)


def pending(applied: int, backend: Backend) -> tuple[Migration, ...]:
    """The migrations a store at version ``applied`` still needs, in order."""
    return tuple(m for m in migrations(backend) if m.version > applied)


def sqlite_statements(script: str) -> list[str]:
    """``script`` split into complete statements (a trigger's body keeps its ``;``).

    ``executescript`` would commit first; statements run one by one stay in the caller's
    transaction.
    """
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise RuntimeError("an SQLite migration ends inside a statement")  # a packaging bug
    return statements


def version_table_sql(backend: Backend) -> str:
    """The ``schema_version`` table (append-only too), created before any migration."""
    if backend == "sqlite":
        return (
            "CREATE TABLE IF NOT EXISTS schema_version (component TEXT NOT NULL,"
            " version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL,"
            " PRIMARY KEY (component, version)) STRICT;\n"
            "CREATE TRIGGER IF NOT EXISTS schema_version_no_update BEFORE UPDATE ON"
            " schema_version BEGIN SELECT RAISE(ABORT, 'the digest store is append-only');"
            " END;\n"
            "CREATE TRIGGER IF NOT EXISTS schema_version_no_delete BEFORE DELETE ON"
            " schema_version BEGIN SELECT RAISE(ABORT, 'the digest store is append-only');"
            " END;\n"
        )
    return (
        "CREATE TABLE IF NOT EXISTS schema_version (component TEXT NOT NULL,"
        " version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL,"
        " PRIMARY KEY (component, version));\n"
        "CREATE OR REPLACE FUNCTION preuve_append_only() RETURNS trigger LANGUAGE plpgsql AS"
        " $$ BEGIN RAISE EXCEPTION 'the digest store is append-only'"
        " USING ERRCODE = 'restrict_violation'; END $$;\n"
        "CREATE OR REPLACE TRIGGER schema_version_append_only BEFORE UPDATE OR DELETE ON"
        " schema_version FOR EACH ROW EXECUTE FUNCTION preuve_append_only();\n"
        "CREATE OR REPLACE TRIGGER schema_version_no_truncate BEFORE TRUNCATE ON"
        " schema_version FOR EACH STATEMENT EXECUTE FUNCTION preuve_append_only();\n"
    )
