"""The Ray executor hands items out one at a time, and the slots actor grants in turn.

A slow item must not hold back the items after it (fixed chunks would: the items of a
chunk wait for its slowest one), and a freed slot goes to the first call waiting for it.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import ray

from preuve.cluster.ray_executor import RayExecutor, RaySlots
from tests.cluster.faults import wait_for_pid

WAIT_SECONDS = 60.0


@dataclass(frozen=True)
class WaitForLast:
    """Item 0 waits until the last item has run (a file it writes); the others return."""

    folder: Path
    last: int

    def __call__(self, item: int) -> int:
        if item == self.last:
            (self.folder / "last-ran").write_text("yes")
        if item == 0:
            deadline = time.monotonic() + WAIT_SECONDS
            while not (self.folder / "last-ran").exists():
                if time.monotonic() > deadline:
                    raise TimeoutError("the last item never ran while the first one waited")
                time.sleep(0.02)
        return item * 10


def test_a_slow_item_does_not_hold_back_the_items_after_it(
    ray_cluster: Any, tmp_path: Path
) -> None:
    # One worker with two threads: item 0 holds one thread until item 7 has run, so the
    # other thread must take items 1..7 as they come (in chunks of two, item 1 would be
    # the only one ever started beside it).
    executor = RayExecutor(threads=2, workers=1)
    try:
        assert executor.map(WaitForLast(tmp_path, 7), list(range(8))) == [
            0, 10, 20, 30, 40, 50, 60, 70
        ]  # fmt: skip
    finally:
        executor.close()


def test_an_item_that_raised_is_not_retried_and_its_error_comes_back(
    ray_cluster: Any, tmp_path: Path
) -> None:
    executor = RayExecutor(threads=2, workers=2)
    try:
        with pytest.raises(ValueError, match="invalid literal"):
            executor.map(int, ["1", "2", "x", "4"])
        assert executor.map(int, ["5", "6"]) == [5, 6]  # the pool is still usable
    finally:
        executor.close()


def test_bad_pool_sizes_are_refused(ray_cluster: Any) -> None:
    with pytest.raises(Exception, match="threads per worker must be at least 1"):
        RayExecutor(threads=0)
    with pytest.raises(Exception, match="workers must be at least 1"):
        RayExecutor(workers=0)


def test_a_freed_slot_goes_to_the_first_call_waiting_for_it(ray_cluster: Any) -> None:
    slots = RayExecutor(threads=1).slots_for(1, "dispatch-test-fifo")
    first = slots.acquire(["a"])
    # Three other holders ask the actor itself, in turn.
    holders = [f"fifo-holder-{i}" for i in range(3)]
    waiting = []
    for holder in holders:
        waiting.append(slots.actor.acquire.remote(holder, ["a"]))
        time.sleep(0.05)
    ready, _ = ray.wait(waiting, timeout=0.5)
    assert ready == []  # the one slot is held: all three wait
    slots.release(first[1])  # kept by this process until idle, then given back
    for position, ref in enumerate(waiting):
        indices, _ = ray.get(ref, timeout=30)
        assert indices == [0]
        later = waiting[position + 1 :]
        assert not later or ray.wait(later, timeout=0.3)[0] == []  # one at a time holds it
        slots.actor.release.remote(holders[position], {"a": 1})
    deadline = time.monotonic() + 30  # a release is not waited for: it lands soon after
    while slots.in_flight() != {"a": 0} and time.monotonic() < deadline:
        time.sleep(0.05)
    assert slots.in_flight() == {"a": 0}


@ray.remote(max_retries=0)
def _hold_a_slot(slots: RaySlots, pid_file: Path) -> None:
    """Takes the one slot, says which process holds it, and waits to be killed."""
    slots.acquire(["a"])
    partial = pid_file.with_suffix(".partial")
    partial.write_text(str(os.getpid()))
    partial.rename(pid_file)
    time.sleep(WAIT_SECONDS)


def test_a_slot_held_by_a_killed_worker_is_free_again_after_its_lease(
    ray_cluster: Any, tmp_path: Path
) -> None:
    slots = RayExecutor(threads=1).slots_for(1, "dispatch-test-lease", lease_seconds=1.0)
    holder = _hold_a_slot.remote(slots, tmp_path / "holder.pid")
    pid = wait_for_pid(tmp_path / "holder.pid")
    time.sleep(2.0)  # two leases: a living holder keeps its slot by renewing it
    assert slots.in_flight() == {"a": 1}
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(ray.exceptions.RayError):
        ray.get(holder, timeout=30)
    assert slots.in_flight() == {"a": 1}  # its holder died without releasing it
    # The next call waits for the lease to expire, then gets the slot.
    index, lease = slots.acquire(["a"])
    assert index == 0
    assert slots.in_flight() == {"a": 1}  # the new holder's, the dead one's reclaimed
    slots.release(lease)


def has_module(name: str) -> bool:
    import sys

    return name in sys.modules


def test_warm_up_imports_the_work_s_modules_in_every_worker(ray_cluster: Any) -> None:
    # Imported at warm-up, a module costs the first item nothing (a second or more of CPU
    # per worker for preuve's workflows, paid before the benchmark's clock like the start).
    executor = RayExecutor(threads=1, workers=2)
    try:
        executor.warm_up(["wave"])  # a standard module nothing here imports
        assert executor.map(has_module, ["wave"] * 4) == [True] * 4
    finally:
        executor.close()
