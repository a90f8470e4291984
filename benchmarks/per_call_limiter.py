"""The former endpoint limiter, kept to be measured beside preuve's by :mod:`benchmarks.scale`
(``--limiters per-call``): one async actor asked for every call, an acquire (waited for)
and a release (not waited for), so two messages per call. preuve's limiter
(:mod:`preuve.cluster.ray_slots`) grants tokens that the processes keep while they need
them. This is the code preuve ran until session 27, unchanged but for its names.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import time
from collections.abc import Sequence
from typing import Any

import ray

__all__ = ["PerCallSlots", "per_call_slots"]

LEASE_SECONDS = 900.0
_EXPIRE_EVERY = 5.0


@ray.remote(num_cpus=0)
class _Slots:
    """Calls in flight per endpoint, cluster-wide; leases expire after ``lease_seconds``.

    Waiters queue in arrival order; a release (or an expiry) grants the freed slots to the
    first waiters they fit. Every method runs on the actor's one event loop, so no lock.
    """

    def __init__(self, per_endpoint: int, lease_seconds: float) -> None:
        self.per_endpoint = per_endpoint
        self.lease_seconds = lease_seconds
        self.in_flight: dict[str, int] = {}
        self.leases: dict[int, tuple[str, float]] = {}
        self.ids = itertools.count(1)
        self.waiting: list[tuple[list[str], asyncio.Future[tuple[int, int]]]] = []
        self.expired_at = time.monotonic()

    def _expire(self) -> None:
        now = time.monotonic()
        self.expired_at = now
        for lease, (endpoint, deadline) in list(self.leases.items()):
            if deadline < now:
                del self.leases[lease]
                self.in_flight[endpoint] -= 1

    def _take(self, endpoints: list[str]) -> tuple[int, int] | None:
        loads = [self.in_flight.get(e, 0) for e in endpoints]
        index = min(range(len(endpoints)), key=lambda i: loads[i])
        if loads[index] >= self.per_endpoint:
            return None
        lease = next(self.ids)
        self.in_flight[endpoints[index]] = loads[index] + 1
        self.leases[lease] = (endpoints[index], time.monotonic() + self.lease_seconds)
        return index, lease

    def _grant(self) -> None:
        kept = []
        for endpoints, future in self.waiting:
            granted = None if future.done() else self._take(endpoints)
            if granted is not None:
                future.set_result(granted)
            elif not future.done():
                kept.append((endpoints, future))
        self.waiting = kept

    async def acquire(self, endpoints: list[str]) -> tuple[int, int]:
        if time.monotonic() - self.expired_at > _EXPIRE_EVERY:
            self._expire()
        granted = None if self.waiting else self._take(endpoints)
        if granted is not None:
            return granted
        future: asyncio.Future[tuple[int, int]] = asyncio.get_running_loop().create_future()
        self.waiting.append((endpoints, future))
        while True:
            # The timeout lets a lease whose holder died be reclaimed.
            done, _ = await asyncio.wait({future}, timeout=_EXPIRE_EVERY)
            if done:
                return future.result()
            self._expire()
            self._grant()

    async def release(self, lease: int) -> None:
        held = self.leases.pop(lease, None)
        if held is not None:
            self.in_flight[held[0]] -= 1
            self._grant()

    async def peak(self) -> dict[str, int]:
        return dict(self.in_flight)


class PerCallSlots:
    """Endpoint slots held by the cluster's :class:`_Slots` actor (picklable: a handle)."""

    def __init__(self, actor: Any) -> None:
        self.actor = actor

    def acquire(self, endpoints: Sequence[str]) -> tuple[int, int]:
        index, lease = ray.get(self.actor.acquire.remote(list(endpoints)))
        return int(index), int(lease)

    def release(self, lease: int) -> None:
        # Not waited for (one round trip less per call): a release the actor handles late
        # only delays an acquire waiting for that slot.
        self.actor.release.remote(lease)

    def in_flight(self) -> dict[str, int]:
        return dict(ray.get(self.actor.peak.remote()))


def per_call_slots(per_endpoint: int, label: str) -> PerCallSlots:
    """The per-call limiter for ``label`` on the connected cluster."""
    name = "preuve-per-call-slots-" + hashlib.sha256(label.encode()).hexdigest()[:16]
    actor = _Slots.options(  # type: ignore[attr-defined]
        name=name, namespace="preuve", get_if_exists=True, lifetime=None
    ).remote(per_endpoint, LEASE_SECONDS)
    return PerCallSlots(actor)
