"""A real local Ray cluster, started once for the session (2 CPUs, no dashboard).

Its workers import preuve and these tests from the paths this process has, exported as
``PYTHONPATH`` before Ray starts. Without ray installed, or when it cannot start here, the
tests that need it skip with the reason.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT

RAY_CPUS = 2


def worker_pythonpath() -> str:
    """The source folders first, then whatever this process can import from."""
    src = str(REPO_ROOT / "src")
    paths = [src, str(REPO_ROOT), *(p for p in sys.path if p and Path(p).is_dir())]
    return os.pathsep.join(dict.fromkeys(paths))


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[Any]:
    """``ray`` initialised on a local cluster of ``RAY_CPUS`` workers, shut down at the end."""
    try:
        import ray
    except ImportError as err:
        pytest.skip(f"ray is not installed ({err}); pip install 'preuve[cluster]'")
    os.environ["PYTHONPATH"] = worker_pythonpath()
    try:
        ray.init(
            num_cpus=RAY_CPUS,
            include_dashboard=False,
            namespace="preuve",
            log_to_driver=False,
            configure_logging=False,
        )
    except Exception as err:  # any failure to start is a reason to skip, given in full
        pytest.skip(f"a local Ray cluster could not start here: {err}")
    yield ray
    ray.shutdown()
