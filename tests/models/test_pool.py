"""Independent requests run concurrently, in order, within a per-endpoint limit."""

from __future__ import annotations

import threading
import time

import pytest

from preuve.core.errors import ModelError
from preuve.models import (
    Completion,
    EndpointLimits,
    FunctionModel,
    LimitedModel,
    ModelIdentity,
    Request,
    ScriptedModel,
    complete_many,
)
from preuve.models.base import messages_of
from preuve.models.pool import endpoint_key


def numbered(count: int) -> list[Request]:
    return [Request(messages_of([("user", str(i))]), task=f"t{i}") for i in range(count)]


class Gauge:
    """Counts calls in flight, and the most seen at once."""

    def __init__(self, pause: float) -> None:
        self.pause = pause
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0

    def answer(self, request: Request) -> str:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        time.sleep(self.pause)
        with self.lock:
            self.now -= 1
        return request.messages[0].content


def test_results_keep_the_order_of_the_requests() -> None:
    gauge = Gauge(0.01)
    results = complete_many(FunctionModel(gauge.answer), numbered(20), concurrency=8)
    assert [r.text for r in results if isinstance(r, Completion)] == [str(i) for i in range(20)]


@pytest.mark.parametrize(("concurrency", "peak"), [(1, 1), (4, 4)], ids=["serial", "four"])
def test_concurrency_is_used_and_bounded(concurrency: int, peak: int) -> None:
    gauge = Gauge(0.03)
    complete_many(FunctionModel(gauge.answer), numbered(12), concurrency=concurrency)
    assert gauge.peak == peak


def test_the_endpoint_limit_binds_below_the_thread_count() -> None:
    gauge = Gauge(0.03)
    limits = EndpointLimits(per_endpoint=2)
    complete_many(FunctionModel(gauge.answer), numbered(10), concurrency=8, limits=limits)
    assert gauge.peak == 2


def test_two_models_on_one_endpoint_share_its_limit() -> None:
    gauge = Gauge(0.03)
    limits = EndpointLimits(per_endpoint=3)
    first = LimitedModel(FunctionModel(gauge.answer, name="a"), limits)
    second = LimitedModel(FunctionModel(gauge.answer, name="b"), limits)
    threads = [
        threading.Thread(target=model.complete, args=(request,))
        for model in (first, second)
        for request in numbered(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert gauge.peak == 3


def test_a_failure_takes_only_its_own_slot() -> None:
    model = ScriptedModel(["a", ModelError("HTTP 500"), "c"])
    results = complete_many(model, numbered(3), concurrency=1)
    assert isinstance(results[1], ModelError) and str(results[1]) == "HTTP 500"
    assert [r.text for r in results if isinstance(r, Completion)] == ["a", "c"]


def test_a_bug_is_raised_not_hidden() -> None:
    def broken(request: Request) -> str:
        raise KeyError("bug")

    with pytest.raises(KeyError):
        complete_many(FunctionModel(broken), numbered(2), concurrency=2)


def test_endpoint_key_is_backend_and_base_url() -> None:
    a = ModelIdentity("openai", "qwen", version="http://h:1/v1")
    b = ModelIdentity("openai", "llama", version="http://h:1/v1")
    c = ModelIdentity("openai", "qwen", version="http://h:2/v1")
    assert endpoint_key(a) == endpoint_key(b) != endpoint_key(c)


@pytest.mark.parametrize("bad", [0, -1], ids=["zero", "negative"])
def test_limits_must_be_positive(bad: int) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        EndpointLimits(bad)
    with pytest.raises(ValueError, match="at least 1"):
        complete_many(ScriptedModel(), [], concurrency=bad)
