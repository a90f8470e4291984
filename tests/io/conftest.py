"""A real PostgreSQL server for the store tests: one per session, a database per test.

The server is Debian's (``initdb`` + ``pg_ctl`` in a temporary folder, 127.0.0.1, a free
port; as root it runs as the ``postgres`` user). It is stopped when the session ends. A
machine without PostgreSQL skips the PostgreSQL cases with the reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from preuve.io.stores.pg_local import LocalPostgres, ServerUnavailableError, local_postgres

_NAMES = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[LocalPostgres]:
    try:
        # fsync off: the tests check behaviour, not durability across a power cut.
        with local_postgres(fsync=False) as server:
            yield server
    except ServerUnavailableError as err:
        pytest.skip(f"no PostgreSQL server: {err}")


def new_database(server: LocalPostgres) -> str:
    name = f"t{next(_NAMES)}"
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server.database(name)


@pytest.fixture
def pg_url(pg_server: LocalPostgres) -> str:
    """A fresh, empty database on the session's server."""
    return new_database(pg_server)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_spec(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A spec of a new, empty store of each backend."""
    if request.param == "sqlite":
        return f"sqlite:{tmp_path / 'store.sqlite'}"
    server: LocalPostgres = request.getfixturevalue("pg_server")
    return new_database(server)
