"""Endpoint tokens on a real local Ray cluster: the limit is exact cluster-wide, a process
reuses its tokens without asking the actor, and a busy process cannot keep them forever.
"""

from __future__ import annotations

import pickle
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import ray

from preuve.cluster.ray_executor import RayExecutor
from preuve.cluster.ray_slots import RaySlots

ENDPOINTS = ["a", "b"]


@ray.remote(num_cpus=0)
class _Overlap:
    """Counts the calls inside their slot on each endpoint, and the most at once."""

    def __init__(self) -> None:
        self.now: dict[str, int] = {}
        self.peak: dict[str, int] = {}
        self.calls = 0

    def enter(self, endpoint: str) -> None:
        self.now[endpoint] = self.now.get(endpoint, 0) + 1
        self.peak[endpoint] = max(self.peak.get(endpoint, 0), self.now[endpoint])
        self.calls += 1

    def leave(self, endpoint: str) -> None:
        self.now[endpoint] -= 1

    def seen(self) -> tuple[dict[str, int], int]:
        return self.peak, self.calls


@dataclass(frozen=True)
class _Calls:
    """An item: ``threads`` threads making ``calls`` calls each, every call inside a slot
    (entered after the acquire, left before the release), some of them slow."""

    slots: RaySlots
    overlap: Any
    threads: int
    calls: int

    def __call__(self, item: int) -> int:
        def one(call: int) -> None:
            index, lease = self.slots.acquire(ENDPOINTS)
            try:
                endpoint = ENDPOINTS[index]
                ray.get(self.overlap.enter.remote(endpoint))
                time.sleep(0.05 if (item + call) % 7 == 0 else 0.005)
                ray.get(self.overlap.leave.remote(endpoint))
            finally:
                self.slots.release(lease)

        with ThreadPoolExecutor(self.threads) as pool:
            list(pool.map(one, range(self.threads * self.calls)))
        return item


def test_never_more_calls_in_flight_than_the_limit_on_any_endpoint(ray_cluster: Any) -> None:
    # 2 worker processes x 3 items x 4 threads = 24 threads asking for 2 x 2 slots; the
    # short poll makes the processes learn their shares, and hand tokens over, all the time.
    executor = RayExecutor(threads=3, workers=2)
    try:
        slots = executor.slots_for(2, "slots-test-exact", poll_seconds=0.05, idle_seconds=0.01)
        overlap = _Overlap.remote()  # type: ignore[attr-defined]
        assert executor.map(_Calls(slots, overlap, 4, 5), list(range(12))) == list(range(12))
        peak, calls = ray.get(overlap.seen.remote())
        assert calls == 12 * 4 * 5
        assert peak == {"a": 2, "b": 2}  # the limit, reached and never passed
        deadline = time.monotonic() + 30
        while slots.in_flight() != {"a": 0, "b": 0} and time.monotonic() < deadline:
            time.sleep(0.05)
        assert slots.in_flight() == {"a": 0, "b": 0}  # every token came back when idle
    finally:
        executor.close()


def test_a_process_reuses_its_tokens_without_asking_the_actor(ray_cluster: Any) -> None:
    slots = RayExecutor(threads=1).slots_for(2, "slots-test-reuse")
    for _ in range(40):
        _, lease = slots.acquire(["a"])
        slots.release(lease)
    # One round trip for the first call; the other 39 took the token this process kept
    # (asking the actor for each call was 40 acquires and 40 releases).
    assert slots.stats()["acquire"] == 1
    deadline = time.monotonic() + 30
    while slots.in_flight() != {"a": 0} and time.monotonic() < deadline:
        time.sleep(0.05)
    assert slots.in_flight() == {"a": 0}
    assert slots.stats()["release"] == 1  # given back once, when it had been idle


def test_a_busy_process_gives_its_token_up_to_a_waiting_one(ray_cluster: Any) -> None:
    slots = RayExecutor(threads=1).slots_for(
        1, "slots-test-share", poll_seconds=0.5, idle_seconds=30.0
    )
    busy: RaySlots = pickle.loads(pickle.dumps(slots))  # another holder, as a worker's is
    stop = threading.Event()

    def endless() -> None:  # always wants the one slot again at once
        while not stop.is_set():
            _, lease = busy.acquire(["a"])
            time.sleep(0.01)
            busy.release(lease)

    thread = threading.Thread(target=endless)
    thread.start()
    try:
        time.sleep(0.3)
        started = time.monotonic()
        _, lease = slots.acquire(["a"])
        waited = time.monotonic() - started
        slots.release(lease)
    finally:
        stop.set()
        thread.join(30)
    assert waited < 5.0  # about one poll, not for as long as the busy one has work
    assert slots.stats()["renew"] >= 1  # the busy one learnt of the waiter by its poll


def test_no_call_starts_on_a_token_once_the_lease_may_have_run_out(ray_cluster: Any) -> None:
    slots = RayExecutor(threads=1).slots_for(1, "slots-test-valid")
    _, lease = slots.acquire(["a"])
    slots.release(lease)  # kept, free, by this process
    holder = slots._holder
    slots._valid_until = time.monotonic() - 1.0  # as if no renewal had been answered
    _, lease = slots.acquire(["a"])
    # Not the kept token: a new holder asked the actor again.
    assert slots._holder != holder
    assert slots.stats()["acquire"] == 2
    slots.release(lease)


def test_holders_that_fit_in_the_pool_keep_their_tokens(ray_cluster: Any) -> None:
    # Two holders with endless work for two threads each, one slot on each of two
    # replicas: each keeps one token of the pool while its other thread waits. Shares
    # counted per replica (each holds none on the other's, so its share there would be 0)
    # made every token change hands at every call.
    slots = RayExecutor(threads=1).slots_for(1, "slots-test-pool", poll_seconds=0.2)
    holders: list[RaySlots] = [pickle.loads(pickle.dumps(slots)) for _ in range(2)]
    stop = threading.Event()
    calls = [0, 0]
    counting = threading.Lock()

    def endless(which: int) -> None:
        while not stop.is_set():
            _, lease = holders[which].acquire(ENDPOINTS)
            time.sleep(0.005)
            with counting:
                calls[which] += 1
            holders[which].release(lease)

    threads = [threading.Thread(target=endless, args=(i % 2,)) for i in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(3.0)
    stop.set()
    for thread in threads:
        thread.join(30)
    sent = slots.stats()
    assert min(calls) > 50  # both worked all along
    # A handful of acquires at the start, then none (counted per replica: ~1 in 10 calls).
    assert sent["acquire"] + sent["release"] < sum(calls) / 50
