"""Shared fixtures: a clean environment for every test, and the shared/ data folder."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from hypothesis import HealthCheck, settings

from preuve.io.stores.pg_local import LocalPostgres, ServerUnavailableError, local_postgres

# Property tests gate every landing: the same examples on every run (exploration is the job
# of the atheris harnesses in fuzz/), and no wall-clock deadline on a loaded 2-core machine.
settings.register_profile(
    "preuve", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("preuve")

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = REPO_ROOT.parent / "shared"

# `make test` runs the suite on every core (pytest-xdist, --dist loadgroup). Tests that share
# a heavy resource stay on one worker, one after the other: the Ray tests one local cluster
# (and `ray start` ones, which any `ray.init()` on the machine could join), the real-model
# tests the model's weights and every core while it generates.
_GROUPS = {"cluster": "ray", "real": "real-model"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests = REPO_ROOT / "tests"
    for item in items:
        parts = item.path.relative_to(tests).parts if item.path.is_relative_to(tests) else ()
        group = _GROUPS.get(parts[0]) if len(parts) > 1 else None
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(autouse=True)
def clean_environ(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No PREUVE_* or provider key leaks in from the developer's shell; paths go to tmp."""
    for name in list(os.environ):
        if name.startswith("PREUVE_") or name in {"OPENAI_API_KEY", "OPENAI_BASE_URL"}:
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PREUVE_HOME", str(tmp_path / "preuve-home"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    yield


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The project's shared/ folder beside the clone, or a skip saying why."""
    if not (SHARED_DIR / "data").is_dir():
        pytest.skip(f"shared data folder not found at {SHARED_DIR} (a user's clone has none)")
    return SHARED_DIR


@pytest.fixture(scope="session")
def financebench_dir(shared_dir: Path) -> Path:
    folder = shared_dir / "data" / "financebench-dev"
    if not (folder / "evidence.jsonl").is_file():
        pytest.skip(f"FinanceBench sample not found in {folder}")
    return folder


# A real PostgreSQL server for the store tests (tests/io, tests/cluster): one per session, a
# database per test. Debian's initdb + pg_ctl in a temporary folder, on 127.0.0.1 and a free
# port (as root it runs as the postgres user), stopped when the session ends; a machine
# without PostgreSQL skips those cases with the reason.
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
