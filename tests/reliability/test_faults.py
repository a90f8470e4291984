"""Faults: SIGKILL mid-build, two builds on one store, a read-only store, a full disk.

The SIGKILL loop (20 seeded rounds, ``@pytest.mark.slow`` but part of ``make test``) kills
the build of ``tests/reliability/digest_victim.py`` at random points and checks after
each kill: ``PRAGMA integrity_check`` is ok, every run that finished before is readable
whole, and the rerun equals an uninterrupted build node by node.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from preuve.eval.reliability_disk import full_disk_faults, read_only_faults
from preuve.eval.reliability_faults import concurrent_builds, kill_loop
from preuve.eval.reliability_files import write_corpus_dossier
from preuve.eval.reliability_stores import build_store, integrity, unreadable_runs
from tests.reliability.clirun import invoke_in_process

VICTIM = (sys.executable, str(Path(__file__).with_name("digest_victim.py")))
ROOT_WITH_MOUNT = os.geteuid() == 0 and shutil.which("mount") is not None


@pytest.fixture(scope="module")
def dossier(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_corpus_dossier(tmp_path_factory.mktemp("faults") / "test-00")


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing(dossier: Path, tmp_path: Path) -> None:
    store = tmp_path / "killed.sqlite"
    rounds = kill_loop(dossier, store, rounds=20, seed=20261130, victim=VICTIM)
    assert len(rounds) == 20
    for kill in rounds:
        assert kill.integrity == "ok", kill
        assert kill.lost_runs == (), kill
        assert kill.differences == 0, kill
    # The kills landed mid-build, at different stages: before any level, and after some.
    interrupted = [k for k in rounds if k.interrupted]
    assert len(interrupted) >= 15
    assert {k.recorded for k in interrupted} >= {0} and max(k.recorded for k in rounds) >= 12
    assert any(k.reused for k in rounds), "a rerun reused what a killed build committed"
    print(  # the figure the report quotes (pytest -s shows it)
        f"\nSIGKILL: {len(rounds)} rounds, {len(interrupted)} mid-build, nodes recorded "
        f"{sorted(k.recorded for k in rounds)}, integrity ok, 0 runs lost, 0 differences"
    )


# Several rounds: two processes opening one new store race on creating it (SQLite answers
# BUSY without its busy handler there; the store retries), which one round may not hit.
@pytest.mark.parametrize("round_", range(3))
def test_two_builds_at_once_on_one_store(dossier: Path, tmp_path: Path, round_: int) -> None:
    del round_
    report = concurrent_builds(dossier, tmp_path / "shared.sqlite", victim=VICTIM)
    assert report.exit_codes == (0, 0)
    assert report.integrity == "ok"
    assert len(set(report.runs)) == 2 and report.lost_runs == ()
    assert report.differences == 0
    assert report.rows_found == report.rows_expected > 0
    assert report.ok


def test_a_finished_run_that_vanished_is_reported_lost(dossier: Path, tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    first = build_store(dossier, store)
    assert unreadable_runs(store, {first.run_id: len(first.nodes)}) == []
    assert unreadable_runs(store, {first.run_id: len(first.nodes) + 1}) == [first.run_id]
    assert integrity(store) == "ok"
    store.write_bytes(store.read_bytes()[:8192])  # a torn file
    assert integrity(store) != "ok"


def test_a_read_only_store_is_a_clear_error(tmp_path: Path) -> None:
    if os.geteuid() == 0 and not ROOT_WITH_MOUNT:
        pytest.skip("root ignores permissions and this machine cannot bind-mount read-only")
    faults = read_only_faults(tmp_path, invoke_in_process)
    assert [f.id for f in faults] == ["read-only-store-file", "read-only-store-folder"]
    for fault in faults:
        assert fault.problems == (), (fault.method, fault.outcome.stderr)
        assert not fault.data_lost
        assert "read-only" in fault.outcome.stderr or "writable" in fault.outcome.stderr


@pytest.mark.parametrize("method", ["tmpfs", "rlimit-fsize"])
def test_a_full_disk_is_a_clear_error(method: str, tmp_path: Path) -> None:
    if method == "tmpfs" and not ROOT_WITH_MOUNT:
        pytest.skip("mounting a tmpfs needs root and mount")
    faults = full_disk_faults(tmp_path, invoke_in_process, method=method)
    assert [f.id for f in faults] == ["full-disk-store", "full-disk-output"]
    for fault in faults:
        assert fault.method == method
        assert fault.problems == (), fault.outcome.stderr
        assert not fault.data_lost
        assert "space" in fault.outcome.stderr
