"""The digest store behind one protocol: SQLite (default) or PostgreSQL, from one spec.

    from preuve.io import open_store
    with open_store("sqlite:/data/digest.sqlite") as store: ...      # or a bare path
    with open_store("postgresql://preuve@db:5432/preuve") as store: ...

:class:`Store` is what workflows accept; :func:`open_store` is the one place a spec
(``--store`` / ``PREUVE_STORE``) becomes a store. PostgreSQL needs the ``postgres`` extra
(psycopg 3 and psycopg-pool); the SQLite default needs nothing beyond the standard library.
"""

from __future__ import annotations

from pathlib import Path

from preuve.core.errors import InputError
from preuve.core.store_spec import parse_store_spec
from preuve.io.stores.base import INCREMENTAL, SCHEMA_VERSION, TABLES, Store, StoreStats
from preuve.io.stores.sqlite import SqliteStore

__all__ = [
    "INCREMENTAL",
    "SCHEMA_VERSION",
    "TABLES",
    "SqliteStore",
    "Store",
    "StoreStats",
    "open_store",
]


def open_store(spec: str | Path, *, read_only: bool = False) -> Store:
    """Open the store ``spec`` names (``sqlite:PATH``, a path, ``postgresql://...``).

    A writable open creates the schema or migrates it to the current version; a bad spec,
    a missing file (read-only) or a server that cannot be reached is one InputError line.
    """
    parsed = parse_store_spec(str(spec))
    if parsed.kind == "sqlite":
        return SqliteStore(Path(parsed.target), read_only=read_only)
    try:
        from preuve.io.stores.postgres import PostgresStore
    except ImportError as err:
        raise InputError(
            f"a PostgreSQL store needs psycopg ({err})",
            fix="pip install 'preuve[postgres]'",
        ) from None
    return PostgresStore(parsed.target, read_only=read_only)
