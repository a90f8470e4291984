"""Run independent requests concurrently, with a limit per endpoint, across replicas.

Model calls spend their time waiting on a server, so threads are enough. Each endpoint
(backend and version: for ``openai`` that is the base URL, so two model names served by
one server share its limit) has at most ``per_endpoint`` calls in flight. The limit is
held by an :class:`EndpointSlots` object that the caller creates and passes around: there
is no module-level registry. :class:`EndpointLimits` is the one threads share; an
executor that runs work in other processes hands out its own (on Ray, an actor:
:mod:`preuve.cluster.ray_executor`), so the limit holds cluster-wide.

:class:`BalancedModel` spreads one model's calls over several endpoints serving the same
weights (vLLM replicas): each call goes to the endpoint with the fewest calls in flight
that has a free slot, and waits when none has. Its identity, and so every cache key, is
its first endpoint's: adding or removing a replica keeps the cache. It pickles without
its clients (each process rebuilds them), so it can be shipped to remote workers.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from preuve.core.errors import ConfigError, PreuveError
from preuve.models.base import Completion, Model, ModelIdentity, Request

__all__ = [
    "BalancedModel",
    "EndpointLimits",
    "EndpointSlots",
    "LimitedModel",
    "complete_many",
    "endpoint_key",
]


def endpoint_key(identity: ModelIdentity) -> str:
    """Which endpoint a model's calls go to: backend and version (the base URL)."""
    return f"{identity.backend}|{identity.version}"


class EndpointSlots(Protocol):
    """Slots bounding the calls in flight to each endpoint."""

    def acquire(self, endpoints: Sequence[str]) -> tuple[int, int]:
        """Wait for a free slot on one of ``endpoints`` (the least loaded, the first on a
        tie); ``(its index, a lease id)``."""
        ...

    def release(self, lease: int) -> None: ...


class EndpointLimits:
    """At most ``per_endpoint`` calls in flight to each endpoint, across all threads."""

    def __init__(self, per_endpoint: int) -> None:
        if per_endpoint < 1:
            raise ValueError("per_endpoint must be at least 1")
        self.per_endpoint = per_endpoint
        self._ready = threading.Condition()
        self._in_flight: dict[str, int] = {}
        self._leases: dict[int, str] = {}
        self._ids = itertools.count(1)

    def __reduce__(self) -> tuple[type[EndpointLimits], tuple[int]]:
        # Shipped to another process (a Ray worker), a limiter starts empty there: its
        # threads share it; the limit across processes is the executor's endpoint slots.
        return (EndpointLimits, (self.per_endpoint,))

    def in_flight(self, endpoint: str) -> int:
        with self._ready:
            return self._in_flight.get(endpoint, 0)

    def acquire(self, endpoints: Sequence[str]) -> tuple[int, int]:
        if not endpoints:
            raise ValueError("acquire needs at least one endpoint")
        with self._ready:
            while True:
                loads = [self._in_flight.get(e, 0) for e in endpoints]
                index = min(range(len(endpoints)), key=lambda i: loads[i])
                if loads[index] < self.per_endpoint:
                    break
                self._ready.wait()
            lease = next(self._ids)
            self._in_flight[endpoints[index]] = loads[index] + 1
            self._leases[lease] = endpoints[index]
            return index, lease

    def release(self, lease: int) -> None:
        with self._ready:
            endpoint = self._leases.pop(lease, None)
            if endpoint is not None:
                self._in_flight[endpoint] -= 1
                self._ready.notify_all()


class LimitedModel:
    """Wraps a model so that its calls respect the endpoint's limit."""

    def __init__(self, inner: Model, limits: EndpointSlots) -> None:
        self.inner = inner
        self.limits = limits

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        _, lease = self.limits.acquire([endpoint_key(self.inner.identity)])
        try:
            return self.inner.complete(request)
        finally:
            self.limits.release(lease)


class BalancedModel:
    """One model served by several endpoints; each call goes to the least loaded one.

    ``factories`` build the endpoints' models (called once per process: at construction,
    and again in a process this object is unpickled in). ``calls`` counts the calls each
    endpoint answered in this process.
    """

    def __init__(self, factories: Sequence[Callable[[], Model]], slots: EndpointSlots) -> None:
        if not factories:
            raise ConfigError("a balanced model needs at least one endpoint")
        self.factories = tuple(factories)
        self.slots = slots
        models = [factory() for factory in self.factories]
        self._setup(models)

    def _setup(self, models: list[Model] | None) -> None:
        self._models = models
        self._lock = threading.Lock()
        if models is not None:
            self._identity = models[0].identity
            self.endpoints = tuple(endpoint_key(m.identity) for m in models)
            secrets = (s for m in models for s in getattr(m, "secret_values", ()))
            self._secrets = tuple(dict.fromkeys(secrets))
            if len(set(self.endpoints)) != len(self.endpoints):
                raise ConfigError(f"an endpoint is listed twice: {', '.join(self.endpoints)}")
        self.calls = [0] * len(self.factories)

    def __getstate__(self) -> dict[str, Any]:
        return {
            "factories": self.factories,
            "slots": self.slots,
            "identity": self._identity,
            "endpoints": self.endpoints,
            "secrets": self._secrets,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.factories, self.slots = state["factories"], state["slots"]
        self._setup(None)
        self._identity, self.endpoints = state["identity"], state["endpoints"]
        self._secrets = state["secrets"]

    @property
    def identity(self) -> ModelIdentity:
        return self._identity

    @property
    def secret_values(self) -> tuple[str, ...]:
        return self._secrets

    @property
    def context_window(self) -> int | None:
        windows = [getattr(m, "context_window", None) for m in self._built()]
        known = [w for w in windows if isinstance(w, int)]
        return min(known) if known else None

    def _built(self) -> list[Model]:
        with self._lock:
            if self._models is None:
                self._models = [factory() for factory in self.factories]
            return self._models

    def complete(self, request: Request) -> Completion:
        models = self._built()
        index, lease = self.slots.acquire(self.endpoints)
        try:
            with self._lock:
                self.calls[index] += 1
            return models[index].complete(request)
        finally:
            self.slots.release(lease)


def complete_many(
    model: Model,
    requests: Sequence[Request],
    *,
    concurrency: int = 8,
    limits: EndpointSlots | None = None,
) -> list[Completion | PreuveError]:
    """Complete every request, ``concurrency`` at a time; results in the requests' order.

    A request that fails with a :class:`PreuveError` gets that error in its slot, so one
    failure does not lose the others. Any other exception is a bug: it is raised once
    every request has finished.
    """
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    limited = LimitedModel(model, limits if limits is not None else EndpointLimits(concurrency))

    def run(request: Request) -> Completion | PreuveError:
        try:
            return limited.complete(request)
        except PreuveError as err:
            return err

    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="preuve-model") as pool:
        futures = [pool.submit(run, request) for request in requests]
        return [future.result() for future in futures]
