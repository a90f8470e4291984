"""The Ray executor: items run as Ray tasks, endpoint slots live in one Ray actor.

Imported only for a ``ray`` executor spec (:func:`preuve.cluster.executor.make_executor`).

- ``map`` ships the function once (``ray.put``) and sends the items in chunks of
  ``threads``: each chunk is one task, whose worker runs its items on that many threads
  (model calls mostly wait, so one worker process keeps several in flight). Ray places
  the tasks on the cluster's CPUs and retries a task whose worker died (``max_retries``);
  a task that raised is not retried (``retry_exceptions`` off: preuve's errors are about
  the input or the model's answer, and the same task would fail the same way). A retried
  task must therefore be idempotent: the digest build's tasks are (a node already
  recorded in the run is read back, never written twice).
- endpoint slots are one async actor (:class:`_Slots`) per pool of endpoints, named after
  them so every task and every driver on the cluster shares it. An actor rather than Ray
  custom resources: a resource is held by a task for its whole run (its parsing, its
  store writes and its other calls too), and cannot choose the least loaded of several
  endpoints; the actor counts each call, and picks. A slot a killed worker held returns
  after its lease expires.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import pickle
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


def _run_chunk(function: Callable[[Any], Any], items: list[Any], threads: int) -> list[Any]:
    # Imported here: this runs in the worker, where the executor module is what it needs.
    from preuve.cluster.executor import LocalExecutor

    return LocalExecutor(threads).map(function, items)


_task = ray.remote(max_retries=MAX_RETRIES, retry_exceptions=False)(_run_chunk)


@ray.remote(num_cpus=0)
class _Slots:
    """Calls in flight per endpoint, cluster-wide; leases expire after ``lease_seconds``."""

    def __init__(self, per_endpoint: int, lease_seconds: float) -> None:
        self.per_endpoint = per_endpoint
        self.lease_seconds = lease_seconds
        self.in_flight: dict[str, int] = {}
        self.leases: dict[int, tuple[str, float]] = {}
        self.ids = itertools.count(1)
        self.ready = asyncio.Condition()

    def _expire(self) -> None:
        now = time.monotonic()
        for lease, (endpoint, deadline) in list(self.leases.items()):
            if deadline < now:
                del self.leases[lease]
                self.in_flight[endpoint] -= 1

    async def acquire(self, endpoints: list[str]) -> tuple[int, int]:
        async with self.ready:
            while True:
                self._expire()
                loads = [self.in_flight.get(e, 0) for e in endpoints]
                index = min(range(len(endpoints)), key=lambda i: loads[i])
                if loads[index] < self.per_endpoint:
                    break
                # Woken by a release; the timeout lets an expired lease be reclaimed.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.ready.wait(), timeout=5.0)
            lease = next(self.ids)
            self.in_flight[endpoints[index]] = loads[index] + 1
            self.leases[lease] = (endpoints[index], time.monotonic() + self.lease_seconds)
            return index, lease

    async def release(self, lease: int) -> None:
        async with self.ready:
            held = self.leases.pop(lease, None)
            if held is not None:
                self.in_flight[held[0]] -= 1
                self.ready.notify_all()

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
    """Maps over items as Ray tasks, ``threads`` items per task."""

    def __init__(self, address: str | None = None, *, threads: int = 4) -> None:
        if threads < 1:
            raise ConfigError(f"threads per task must be at least 1, not {threads}")
        self.address = address
        self.threads = threads
        self._owned = _init(address)

    @property
    def name(self) -> str:
        return f"ray:{self.address}" if self.address else "ray"

    @property
    def remote(self) -> bool:
        return True

    def map(self, function: Callable[[T], R], items: Sequence[T]) -> list[R]:
        if not items:
            return []
        try:
            shipped = ray.put(function)
        except (TypeError, AttributeError, pickle.PicklingError) as err:
            raise ConfigError(
                f"this work cannot be shipped to Ray workers ({str(err).splitlines()[0][:200]})",
                fix="use a model a worker can rebuild (rules, openai:...), or --executor local",
            ) from None
        chunks = [list(items[i : i + self.threads]) for i in range(0, len(items), self.threads)]
        refs = [_task.remote(shipped, chunk, self.threads) for chunk in chunks]
        try:
            done = ray.get(refs)
        except RayTaskError as err:
            cause = err.cause
            if isinstance(cause, PreuveError):
                raise cause from None
            raise
        except RayError as err:
            raise ConfigError(f"a Ray task failed: {str(err).splitlines()[0]}") from None
        return [result for chunk in done for result in chunk]

    def endpoint_slots(self, per_endpoint: int) -> RaySlots:
        return self.slots_for(per_endpoint, f"per-endpoint-{per_endpoint}")

    def slots_for(self, per_endpoint: int, label: str) -> RaySlots:
        """The cluster's slots actor for ``label`` (created by the first caller)."""
        name = "preuve-slots-" + hashlib.sha256(label.encode()).hexdigest()[:16]
        actor = _Slots.options(  # type: ignore[attr-defined]
            name=name, namespace=_NAMESPACE, get_if_exists=True, lifetime=None
        ).remote(per_endpoint, LEASE_SECONDS)
        return RaySlots(actor)

    def close(self) -> None:
        if self._owned and ray.is_initialized():
            ray.shutdown()
