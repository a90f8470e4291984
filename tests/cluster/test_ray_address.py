"""A Ray cluster started as a user starts one: ``ray start --head`` on 127.0.0.1, a second
``ray start --address`` worker process, and the CLI connecting to it by address.

Both ``ray start`` processes run with ``--block`` and are stopped at the end by their own
pid (each then stops the processes it started): no ``ray stop``, which would stop every
Ray on the machine. They share a token of their own (``RAY_AUTH_TOKEN``), so nothing else
on the machine can use the cluster, and nothing else's token can break it.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from preuve.cluster.executor import LocalExecutor
from preuve.corpora.digest_corpus import generate_digest_corpus
from preuve.digest.mutations import compare_builds, stored_nodes
from preuve.io.stores import SqliteStore
from tests.cluster.builds import build
from tests.cluster.conftest import worker_pythonpath

BIN = Path(sys.executable).parent
# How long a `ray start` may take to come up (on a loaded 2-core machine, over a minute).
START_SECONDS = 180.0
ALIVE = (
    "import ray, sys; ray.init(address=sys.argv[1]); print(sum(n['Alive'] for n in ray.nodes()))"
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _alive(address: str, env: dict[str, str]) -> int:
    """Nodes alive at ``address`` (0 while it cannot be reached yet)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", ALIVE, address],
            check=False,
            env=env,
            capture_output=True,
            text=True,
            timeout=START_SECONDS,
        )
    except subprocess.TimeoutExpired:  # a loaded machine: the caller's deadline decides
        return 0
    lines = done.stdout.strip().splitlines()
    return int(lines[-1]) if done.returncode == 0 and lines else 0


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, dict[str, str]]]:
    ray_bin = BIN / "ray"
    if not ray_bin.is_file() and shutil.which("ray") is None:
        pytest.skip("the ray command is not installed (pip install 'preuve[cluster]')")
    command = str(ray_bin) if ray_bin.is_file() else "ray"
    port = _free_port()
    address = f"127.0.0.1:{port}"
    # Short: Ray's socket paths under it must fit AF_UNIX's 107 bytes, which pytest's own
    # temporary folders (one more level per xdist worker) can exceed.
    temp = Path(tempfile.mkdtemp(prefix="ray-"))
    env = {
        **os.environ,
        "PYTHONPATH": worker_pythonpath(),
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": secrets.token_hex(32),
    }
    common = ["--block", "--num-cpus", "1", "--node-ip-address", "127.0.0.1"]
    head = subprocess.Popen(
        [command, "start", "--head", "--port", str(port), "--include-dashboard=false",
         "--disable-usage-stats", "--temp-dir", str(temp), *common],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    started = [head]
    try:
        deadline = time.monotonic() + START_SECONDS
        while _alive(address, env) < 1:
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.skip(f"ray start --head did not come up on {address}")
            time.sleep(1)
        worker = subprocess.Popen(
            [command, "start", "--address", address, "--disable-usage-stats", *common],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        started.append(worker)
        while _alive(address, env) < 2:
            if worker.poll() is not None or time.monotonic() > deadline:
                pytest.skip("the second ray start (worker) did not join the head")
            time.sleep(1)
        yield address, env
    finally:
        for process in reversed(started):
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(temp, ignore_errors=True)


def _preuve(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "preuve"), *args],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_the_cli_builds_on_a_cluster_by_address(
    cluster: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    address, env = cluster
    corpus = generate_digest_corpus(tmp_path / "corpus")
    folders = [corpus.dossier_dir(name) for name in ("test-04", "test-05")]
    store = tmp_path / "cluster.sqlite"
    done = _preuve(
        env, "digest", "build-many", *map(str, folders), "--store", str(store),
        "--executor", f"ray:{address}", "--concurrency", "2", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    runs = {entry["dossier"]: entry["run_id"] for entry in json.loads(done.stdout)}
    for folder in folders:
        local = build(folder, tmp_path / f"{folder.name}.sqlite", LocalExecutor(4))
        with SqliteStore(store, read_only=True) as opened:
            remote = stored_nodes(opened, runs[str(folder.resolve())])
        assert compare_builds(local, remote).identical
        assert len(remote) == 16


def test_an_unreachable_address_is_one_line_and_exit_2(tmp_path: Path) -> None:
    folder = generate_digest_corpus(tmp_path / "corpus").dossier_dir("test-06")
    done = _preuve(
        dict(os.environ), "digest", "build", str(folder), "--store", str(tmp_path / "s.sqlite"),
        "--executor", f"ray:127.0.0.1:{_free_port()}",
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("preuve: error: Ray cluster at 127.0.0.1:")
    assert "is unreachable" in done.stderr
