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
- endpoint slots are tokens granted by one async actor per limit, named after it so
  every worker and every driver on the cluster shares it, and kept by the processes
  while their threads need them (:mod:`preuve.cluster.ray_slots`: most calls cost no
  message at all). An actor rather than Ray custom resources: a resource is held by a
  task for its whole run (its parsing, its store writes and its other calls too), and
  cannot choose the least loaded of several endpoints; the actor counts each token, and
  picks. The tokens a killed worker held return when its lease (renewed while it lives)
  expires.
"""

from __future__ import annotations

import hashlib
import importlib
import pickle
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import ray
from ray.exceptions import RayError, RayTaskError

from preuve.cluster.ray_slots import (
    IDLE_SECONDS,
    LEASE_SECONDS,
    POLL_SECONDS,
    RaySlots,
    slots_actor,
)
from preuve.core.errors import ConfigError, PreuveError

__all__ = ["LEASE_SECONDS", "MAX_RETRIES", "RayExecutor", "RaySlots"]

T = TypeVar("T")
R = TypeVar("R")
MAX_RETRIES = 3
_NAMESPACE = "preuve"
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

    def ready(self, modules: Sequence[str] = ()) -> bool:
        for module in modules:
            importlib.import_module(module)
        return True


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
            # puts the pool on every node. No task events: Ray would record each item's
            # states and ship them to the cluster's control store (its dashboard's task
            # list), CPU on the worker and the head for every item, read by nothing here.
            options = {
                "max_concurrency": self.threads,
                "scheduling_strategy": "SPREAD",
                "enable_task_events": False,
            }
            self._pool = [
                _Worker.options(**options).remote()  # type: ignore[attr-defined]
                for _ in range(count)
            ]
        return self._pool

    def warm_up(self, modules: Sequence[str] = ()) -> None:
        """Start every worker actor now, not at the first map, with ``modules`` imported in
        each (the work's modules, else imported by the first item each actor runs: a
        second or more of CPU per worker process, paid once, like its start)."""
        ray.get([actor.ready.remote(tuple(modules)) for actor in self._actors()])

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
        self,
        per_endpoint: int,
        label: str,
        *,
        lease_seconds: float = LEASE_SECONDS,
        idle_seconds: float = IDLE_SECONDS,
        poll_seconds: float = POLL_SECONDS,
    ) -> RaySlots:
        """The cluster's slots for ``label`` (its actor created by the first caller, whose
        ``per_endpoint`` and ``lease_seconds`` hold for every later one); ``idle_seconds``
        and ``poll_seconds``: how long a process keeps a token it does not use, and how
        often it renews its lease and learns its shares
        (:class:`~preuve.cluster.ray_slots.RaySlots`)."""
        name = "preuve-slots-" + hashlib.sha256(label.encode()).hexdigest()[:16]
        actor = slots_actor(name, _NAMESPACE, per_endpoint, lease_seconds)
        # The actor's own lease: a holder counting a longer one would overstay it.
        lease = float(ray.get(actor.lease.remote()))
        return RaySlots(
            actor, lease_seconds=lease, idle_seconds=idle_seconds, poll_seconds=poll_seconds
        )

    def close(self) -> None:
        for actor in self._pool:
            ray.kill(actor, no_restart=True)
        self._pool = []
        if self._owned and ray.is_initialized():
            ray.shutdown()
