"""A candidate endpoint limiter, one Ray actor per endpoint, measured beside preuve's one
actor for every endpoint (:mod:`preuve.cluster.ray_executor`) by :mod:`benchmarks.scale`.
Not preuve's limiter: on this 2-core machine it was slower (its actors' CPU per call was
about twice the single actor's, and the machine is short of CPU), though its simulated
10 000-dossier projection is not bound by any one actor (README, Run it on a cluster).

- :class:`_EndpointSlots` (one async actor per endpoint) holds that endpoint's calls in
  flight, cluster-wide. A call costs it two messages (acquire, release); a release hands
  the slot to the first call waiting for it. A slot whose holder never released it (its
  worker was killed) is free again once its lease expires.
- :class:`_Registry` (one actor per limit, named, so every worker and every driver on the
  cluster finds it) creates the endpoint actors and owns them (they end with it); a
  process asks it once per endpoint for the actor's handle, never per call.
- :class:`RaySlots` (picklable: the registry's handle) picks the endpoint for a call in
  the calling process: the least loaded as last seen (each grant reports its endpoint's
  calls in flight and waiting) plus the calls this process is still asking there, the
  first on a tie; then it waits in that endpoint's queue.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

import ray

__all__ = ["LEASE_SECONDS", "RaySlots", "per_endpoint_slots", "registry"]

# A slot whose holder never released it (its worker was killed) is free again after this.
LEASE_SECONDS = 900.0
_EXPIRE_EVERY = 5.0


@ray.remote(num_cpus=0)
class _EndpointSlots:
    """At most ``per_endpoint`` calls in flight to one endpoint; leases expire.

    Waiters queue in arrival order. Every method runs on the actor's one event loop, so
    no lock.
    """

    def __init__(self, per_endpoint: int, lease_seconds: float) -> None:
        self.per_endpoint = per_endpoint
        self.lease_seconds = lease_seconds
        self.leases: dict[int, float] = {}  # lease -> deadline
        self.ids = itertools.count(1)
        self.waiting: deque[asyncio.Future[int]] = deque()
        self.expired_at = time.monotonic()

    def _expire(self) -> None:
        now = time.monotonic()
        self.expired_at = now
        for lease, deadline in list(self.leases.items()):
            if deadline < now:
                del self.leases[lease]

    def _lease(self) -> int:
        lease = next(self.ids)
        self.leases[lease] = time.monotonic() + self.lease_seconds
        return lease

    def _grant(self) -> None:
        while self.waiting and len(self.leases) < self.per_endpoint:
            future = self.waiting.popleft()
            if not future.done():
                future.set_result(self._lease())

    async def acquire(self) -> tuple[int, int]:
        """``(a lease, the calls in flight and waiting here once it is granted)``."""
        if time.monotonic() - self.expired_at > _EXPIRE_EVERY:
            self._expire()
        if not self.waiting and len(self.leases) < self.per_endpoint:
            return self._lease(), len(self.leases)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        while True:
            # The timeout lets a lease whose holder died be reclaimed.
            done, _ = await asyncio.wait({future}, timeout=_EXPIRE_EVERY)
            if done:
                return future.result(), len(self.leases) + len(self.waiting)
            self._expire()
            self._grant()

    async def release(self, lease: int) -> None:
        if self.leases.pop(lease, None) is not None:
            self._grant()

    async def in_flight(self) -> int:
        return len(self.leases)


@ray.remote(num_cpus=0)
class _Registry:
    """The endpoint actors of one limit, created on first demand and owned here."""

    def __init__(self, per_endpoint: int, lease_seconds: float) -> None:
        self.per_endpoint = per_endpoint
        self.lease_seconds = lease_seconds
        self.actors: dict[str, Any] = {}

    def actor_for(self, endpoint: str) -> list[Any]:
        # In a list: a handle returned bare would be resolved as a reference.
        if endpoint not in self.actors:
            self.actors[endpoint] = _EndpointSlots.remote(self.per_endpoint, self.lease_seconds)  # type: ignore[attr-defined]
        return [self.actors[endpoint]]

    def in_flight(self) -> dict[str, int]:
        endpoints = list(self.actors)
        counts = ray.get([self.actors[e].in_flight.remote() for e in endpoints])
        return dict(zip(endpoints, (int(c) for c in counts), strict=True))


def registry(name: str, namespace: str, per_endpoint: int, lease_seconds: float) -> Any:
    """The cluster's registry actor ``name`` (created by the first caller, owned by it)."""
    return _Registry.options(  # type: ignore[attr-defined]
        name=name, namespace=namespace, get_if_exists=True, lifetime=None
    ).remote(per_endpoint, lease_seconds)


class RaySlots:
    """Endpoint slots held by one Ray actor per endpoint (picklable: a handle)."""

    def __init__(self, registry: Any) -> None:
        self.registry = registry
        self._local()

    def _local(self) -> None:
        self._lock = threading.Lock()
        self._actors: dict[str, Any] = {}
        self._seen: dict[str, int] = {}  # calls in flight and waiting, as last reported
        self._asking: dict[str, int] = {}  # this process's acquires not yet answered
        self._held: dict[int, tuple[str, int]] = {}  # local lease -> (endpoint, lease)
        self._ids = itertools.count(1)

    def __getstate__(self) -> dict[str, Any]:
        return {"registry": self.registry}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.registry = state["registry"]
        self._local()

    def actor(self, endpoint: str) -> Any:
        """The limiter actor of ``endpoint`` (asked of the registry once per process)."""
        with self._lock:
            known = self._actors.get(endpoint)
        if known is None:
            (known,) = ray.get(self.registry.actor_for.remote(endpoint))
            with self._lock:
                known = self._actors.setdefault(endpoint, known)
        return known

    def acquire(self, endpoints: Sequence[str]) -> tuple[int, int]:
        if not endpoints:
            raise ValueError("acquire needs at least one endpoint")
        actors = [self.actor(e) for e in endpoints]
        with self._lock:
            loads = [self._seen.get(e, 0) + self._asking.get(e, 0) for e in endpoints]
            index = min(range(len(endpoints)), key=lambda i: loads[i])
            chosen = endpoints[index]
            self._asking[chosen] = self._asking.get(chosen, 0) + 1
        try:
            lease, load = ray.get(actors[index].acquire.remote())
        finally:
            with self._lock:
                self._asking[chosen] -= 1
        with self._lock:
            self._seen[chosen] = int(load)
            local = next(self._ids)
            self._held[local] = (chosen, int(lease))
        return index, local

    def release(self, lease: int) -> None:
        with self._lock:
            held = self._held.pop(lease, None)
            if held is None:
                return
            endpoint, remote = held
            self._seen[endpoint] = max(0, self._seen.get(endpoint, 0) - 1)
            actor = self._actors[endpoint]
        # Not waited for (one round trip less per call): a release the actor handles late
        # only delays an acquire waiting for that slot.
        actor.release.remote(remote)

    def in_flight(self) -> dict[str, int]:
        return dict(ray.get(self.registry.in_flight.remote()))


def per_endpoint_slots(
    per_endpoint: int, label: str, lease_seconds: float = LEASE_SECONDS
) -> RaySlots:
    """The per-endpoint limiter for ``label`` on the connected cluster."""
    name = "preuve-endpoint-slots-" + hashlib.sha256(label.encode()).hexdigest()[:16]
    return RaySlots(registry(name, "preuve", per_endpoint, lease_seconds))
