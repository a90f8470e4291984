"""The Ray executor: items run on a pool of Ray actors, endpoint slots live in one actor.

Imported only for a ``ray`` executor spec (:func:`preuve.cluster.executor.make_executor`).

- ``map`` ships the function once (``ray.put``) and hands the items one at a time to a
  pool of worker actors, one per CPU of the cluster (each holds that CPU while the
  executor lives), each running up to ``threads`` items at once on its threads (model
  calls mostly wait, so one process keeps several in flight). An item goes to the actor
  with the fewest in flight as soon as one of its threads is free: no actor waits for a
  batch's slowest item while others sit idle (fixed chunks of ``threads`` items per Ray
  task did: the items of a chunk finished together, at its slowest one's pace).
  An actor whose process died is restarted by Ray and its unfinished items are run again
  (``max_restarts``, ``max_task_retries``); an item that raised is not (preuve's errors
  are about the input or the model's answer, and it would fail the same way). A retried
  item must therefore be idempotent: the digest build's are (a node already recorded in
  the run is read back, never written twice).
- endpoint slots are one async actor (:class:`_Slots`) per pool of endpoints, named after
  them so every worker and every driver on the cluster shares it. An actor rather than
  Ray custom resources: a resource is held by a task for its whole run (its parsing, its
  store writes and its other calls too), and cannot choose the least loaded of several
  endpoints; the actor counts each call, and picks. A release hands the slot to the
  first waiter it fits, rather than waking every waiter to look again. A slot a killed
  worker held returns after its lease expires.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import pickle
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import ray
from ray.exceptions import RayError, RayTaskError

from preuve.core.errors import ConfigError, PreuveError

__all__ = ["LEASE_SECONDS", "MAX_RETRIES", "RayExecutor", "RaySlots"]

T = TypeVar("T")
R = TypeVar("R")
MAX_RETRIES = 3
# A slot whose holder never released it (its worker was killed) is free again after this.
LEASE_SECONDS = 900.0
_NAMESPACE = "preuve"
_EXPIRE_EVERY = 5.0
# A worker keeps the functions of this many recent maps (maps of one executor run in turn).
_FUNCTIONS_KEPT = 8


@ray.remote(max_restarts=MAX_RETRIES, max_task_retries=MAX_RETRIES)
class _Worker:
    """Runs items of maps on its threads; each map's function is fetched once."""

    def __init__(self) -> None:
        self.functions: dict[str, Callable[[Any], Any]] = {}
        self.lock = threading.Lock()

    def run(self, shipped: list[Any], item: Any) -> Any:
        # The function's reference comes inside a list, so Ray does not fetch and
        # unpickle it for every item; this process does, once per map.
        (ref,) = shipped
        key = ref.hex()
        with self.lock:
            function = self.functions.get(key)
            if function is None:
                function = self.functions[key] = ray.get(ref)
                while len(self.functions) > _FUNCTIONS_KEPT:  # the oldest maps are done
                    del self.functions[next(iter(self.functions))]
        return function(item)

    def ready(self) -> bool:
        return True


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


class RaySlots:
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


def _init(address: str | None) -> bool:
    """Connect (or start a local cluster); True when this process started Ray."""
    if ray.is_initialized():
        return False
    try:
        ray.init(
            address=address,
            namespace=_NAMESPACE,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
    except (ConnectionError, RuntimeError, ValueError) as err:
        where = address or "a local cluster"
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise ConfigError(
            f"cannot connect to Ray at {where}: {first}",
            fix="check --executor ray:HOST:PORT (ray status on the head shows the address)",
        ) from None
    return True


class RayExecutor:
    """Maps over items on a pool of Ray actors, ``threads`` items at once on each.

    ``workers`` actors (default: one per CPU of the cluster when the first map starts),
    created at the first map and kept until :meth:`close`.
    """

    def __init__(
        self, address: str | None = None, *, threads: int = 4, workers: int | None = None
    ) -> None:
        if threads < 1:
            raise ConfigError(f"threads per worker must be at least 1, not {threads}")
        if workers is not None and workers < 1:
            raise ConfigError(f"workers must be at least 1, not {workers}")
        self.address = address
        self.threads = threads
        self.workers = workers
        self._owned = _init(address)
        self._pool: list[Any] = []

    @property
    def name(self) -> str:
        return f"ray:{self.address}" if self.address else "ray"

    @property
    def remote(self) -> bool:
        return True

    def _actors(self) -> list[Any]:
        if not self._pool:
            resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
            count = self.workers or max(1, int(resources.get("CPU", 1)))
            # Ray's default for an actor: placed on a node with a CPU, holding none while it
            # runs, so drivers sharing the cluster never wait on each other's pools; SPREAD
            # puts the pool on every node.
            options = {"max_concurrency": self.threads, "scheduling_strategy": "SPREAD"}
            self._pool = [
                _Worker.options(**options).remote()  # type: ignore[attr-defined]
                for _ in range(count)
            ]
        return self._pool

    def warm_up(self) -> None:
        """Start every worker actor now (their processes and imports), not at the first map."""
        ray.get([actor.ready.remote() for actor in self._actors()])

    def map(self, function: Callable[[T], R], items: Sequence[T]) -> list[R]:
        if not items:
            return []
        try:
            shipped = [ray.put(function)]
        except (TypeError, AttributeError, pickle.PicklingError) as err:
            raise ConfigError(
                f"this work cannot be shipped to Ray workers ({str(err).splitlines()[0][:200]})",
                fix="use a model a worker can rebuild (rules, openai:...), or --executor local",
            ) from None
        try:
            return self._dispatch(shipped, list(items))
        except RayTaskError as err:
            cause = err.cause
            if isinstance(cause, PreuveError):
                raise cause from None
            raise
        except RayError as err:
            raise ConfigError(f"a Ray task failed: {str(err).splitlines()[0]}") from None

    def _dispatch(self, shipped: list[Any], items: list[Any]) -> list[Any]:
        """Each item to the actor with the fewest in flight, as soon as it has a free thread."""
        actors = self._actors()
        load = [0] * len(actors)
        pending: dict[Any, tuple[int, int]] = {}  # ref -> (item index, actor index)
        results: list[Any] = [None] * len(items)
        queue = iter(range(len(items)))
        following = next(queue, None)
        while pending or following is not None:
            while following is not None:
                chosen = min(range(len(actors)), key=lambda a: load[a])
                if load[chosen] >= self.threads:
                    break
                ref = actors[chosen].run.remote(shipped, items[following])
                pending[ref] = (following, chosen)
                load[chosen] += 1
                following = next(queue, None)
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                index, chosen = pending.pop(ref)
                load[chosen] -= 1
                results[index] = ray.get(ref)
        return results

    def endpoint_slots(self, per_endpoint: int) -> RaySlots:
        return self.slots_for(per_endpoint, f"per-endpoint-{per_endpoint}")

    def slots_for(
        self, per_endpoint: int, label: str, *, lease_seconds: float = LEASE_SECONDS
    ) -> RaySlots:
        """The cluster's slots actor for ``label`` (created by the first caller)."""
        name = "preuve-slots-" + hashlib.sha256(label.encode()).hexdigest()[:16]
        actor = _Slots.options(  # type: ignore[attr-defined]
            name=name, namespace=_NAMESPACE, get_if_exists=True, lifetime=None
        ).remote(per_endpoint, lease_seconds)
        return RaySlots(actor)

    def close(self) -> None:
        for actor in self._pool:
            ray.kill(actor, no_restart=True)
        self._pool = []
        if self._owned and ray.is_initialized():
            ray.shutdown()
