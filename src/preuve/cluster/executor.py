"""Where independent work runs: threads in this process, or tasks on a Ray cluster.

``--executor`` (or ``$PREUVE_EXECUTOR``) names one, through :func:`make_executor`:

    local           threads in this process (the default; no dependency)
    ray             a Ray cluster: the one ``$RAY_ADDRESS`` names, else a local one started
                    for this command (extra ``cluster``)
    ray:ADDRESS     the Ray cluster whose head listens at ADDRESS (host:port), or ``auto``

A workflow only ever sees the :class:`Executor` protocol: ``map`` a function over items,
results in the items' order. The function and the items must survive pickling when the
executor is remote (``remote`` is true): a workflow ships plain data and reopens what
holds a handle (a store, a socket) where it runs. An executor also hands out the slots
that bound the calls in flight to each model endpoint (:mod:`preuve.models.pool`):
threads share a counter, Ray tasks share an actor, so the limit holds cluster-wide.

Ray is imported only when a ``ray`` spec is made: the embedded path never needs it.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, TypeVar

from preuve.core.errors import ConfigError
from preuve.models.pool import EndpointLimits, EndpointSlots

__all__ = [
    "EXECUTOR_ENV_VAR",
    "EXECUTOR_FORMS",
    "Executor",
    "LocalExecutor",
    "make_executor",
    "parse_executor",
]

EXECUTOR_ENV_VAR = "PREUVE_EXECUTOR"
EXECUTOR_FORMS = "local, ray, ray:HOST:PORT, ray:auto"
T = TypeVar("T")
R = TypeVar("R")
# How long an address may take to accept a TCP connection before it counts as unreachable
# (Ray's own connection attempt would wait about a minute before failing).
_CONNECT_SECONDS = 5.0


class Executor(Protocol):
    """Maps a function over independent items; results come back in the items' order."""

    @property
    def name(self) -> str: ...

    @property
    def remote(self) -> bool:
        """True when the function runs in other processes (it and its items are pickled)."""
        ...

    def map(self, function: Callable[[T], R], items: Sequence[T]) -> list[R]: ...

    def endpoint_slots(self, per_endpoint: int) -> EndpointSlots:
        """Slots bounding calls in flight per endpoint, shared by everything this runs."""
        ...

    def close(self) -> None: ...


class LocalExecutor:
    """Threads in this process, ``concurrency`` at a time (1: in order, in this thread)."""

    def __init__(self, concurrency: int = 4) -> None:
        if concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, not {concurrency}")
        self.concurrency = concurrency

    @property
    def name(self) -> str:
        return "local"

    @property
    def remote(self) -> bool:
        return False

    def map(self, function: Callable[[T], R], items: Sequence[T]) -> list[R]:
        if self.concurrency <= 1 or len(items) <= 1:
            return [function(item) for item in items]
        workers = min(self.concurrency, len(items))
        with ThreadPoolExecutor(workers, thread_name_prefix="preuve-exec") as pool:
            return list(pool.map(function, items))

    def endpoint_slots(self, per_endpoint: int) -> EndpointSlots:
        return EndpointLimits(per_endpoint)

    def close(self) -> None:
        return None


def _bad(spec: str, why: str) -> ConfigError:
    return ConfigError(
        f"unknown executor {spec!r} ({why})",
        fix=f"use one of: {EXECUTOR_FORMS}; e.g. --executor ray:127.0.0.1:6379",
    )


def parse_executor(spec: str) -> tuple[str, str | None]:
    """``(kind, address)``: ``("local", None)``, ``("ray", None)`` or ``("ray", ADDRESS)``."""
    text = spec.strip()
    if text == "local":
        return "local", None
    kind, sep, address = text.partition(":")
    if kind != "ray":
        raise _bad(spec, "not local or ray")
    if not sep:
        return "ray", None
    if address == "auto":
        return "ray", address
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise _bad(spec, "a Ray address is HOST:PORT or auto")
    return "ray", address


def _check_reachable(address: str) -> None:
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), _CONNECT_SECONDS):
            return
    except OSError as err:
        raise ConfigError(
            f"Ray cluster at {address} is unreachable ({err.strerror or err})",
            fix="start its head first (ray start --head --port PORT) or fix --executor",
        ) from None


def make_executor(spec: str, *, concurrency: int = 4) -> Executor:
    """The executor a spec names; a bad spec or an unreachable cluster is a ConfigError.

    ``concurrency`` is the local executor's thread count; a Ray cluster runs as many tasks
    at once as it has CPUs.
    """
    kind, address = parse_executor(spec)
    if kind == "local":
        return LocalExecutor(concurrency)
    if address is not None and address != "auto":
        _check_reachable(address)
    try:
        # Imported here: ray is the optional extra ``cluster``.
        from preuve.cluster.ray_executor import RayExecutor
    except ImportError as err:
        raise ConfigError(
            f"the ray executor is not installed ({err.name or err})",
            fix="install the extra: pip install 'preuve[cluster]'",
        ) from None
    return RayExecutor(address, threads=concurrency)
