"""Run independent requests concurrently, with a limit per endpoint.

Model calls spend their time waiting on a server, so threads are enough. Each endpoint
(backend and version: for ``openai`` that is the base URL, so two model names served by
one server share its limit) gets one semaphore, held by an :class:`EndpointLimits`
object that the caller creates and passes around: there is no module-level registry.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from preuve.core.errors import PreuveError
from preuve.models.base import Completion, Model, ModelIdentity, Request

__all__ = ["EndpointLimits", "LimitedModel", "complete_many", "endpoint_key"]


def endpoint_key(identity: ModelIdentity) -> str:
    """Which endpoint a model's calls go to: backend and version (the base URL)."""
    return f"{identity.backend}|{identity.version}"


class EndpointLimits:
    """At most ``per_endpoint`` calls in flight to each endpoint, across all threads."""

    def __init__(self, per_endpoint: int) -> None:
        if per_endpoint < 1:
            raise ValueError("per_endpoint must be at least 1")
        self.per_endpoint = per_endpoint
        self._lock = threading.Lock()
        self._semaphores: dict[str, threading.BoundedSemaphore] = {}

    def semaphore(self, identity: ModelIdentity) -> threading.BoundedSemaphore:
        key = endpoint_key(identity)
        with self._lock:
            if key not in self._semaphores:
                self._semaphores[key] = threading.BoundedSemaphore(self.per_endpoint)
            return self._semaphores[key]


class LimitedModel:
    """Wraps a model so that its calls respect the endpoint's limit."""

    def __init__(self, inner: Model, limits: EndpointLimits) -> None:
        self.inner = inner
        self.limits = limits

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        with self.limits.semaphore(self.inner.identity):
            return self.inner.complete(request)


def complete_many(
    model: Model,
    requests: Sequence[Request],
    *,
    concurrency: int = 8,
    limits: EndpointLimits | None = None,
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
