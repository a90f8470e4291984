"""Where the digest store used to live: kept so that existing imports work.

The store is now :mod:`preuve.io.stores` (a ``Store`` protocol, SQLite and PostgreSQL
backends, versioned migrations); ``DigestStore`` is the SQLite store, and
:func:`preuve.io.open_store` opens either backend from a spec.
"""

from __future__ import annotations

from preuve.io.store_rows import (
    TABLES,
    GenerationRow,
    ManifestRow,
    NodeRecord,
    NodeRow,
    RunInfo,
    RunNode,
)
from preuve.io.stores.base import INCREMENTAL
from preuve.io.stores.sqlite import SqliteStore as DigestStore

__all__ = [
    "INCREMENTAL",
    "TABLES",
    "DigestStore",
    "GenerationRow",
    "ManifestRow",
    "NodeRecord",
    "NodeRow",
    "RunInfo",
    "RunNode",
]
