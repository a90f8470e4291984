"""The executor seam without Ray: specs, errors, the local executor, no import of ray."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from preuve.cluster.executor import LocalExecutor, make_executor, parse_executor
from preuve.core.errors import ConfigError
from preuve.models.pool import EndpointLimits


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        ("local", ("local", None)),
        (" local ", ("local", None)),
        ("ray", ("ray", None)),
        ("ray:auto", ("ray", "auto")),
        ("ray:127.0.0.1:6379", ("ray", "127.0.0.1:6379")),
        ("ray:head.example:10001", ("ray", "head.example:10001")),
    ],
    ids=["local", "spaces", "ray", "auto", "ip-port", "host-port"],
)
def test_accepted_specs(spec: str, parsed: tuple[str, str | None]) -> None:
    assert parse_executor(spec) == parsed


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("spark", "not local or ray"),
        ("", "not local or ray"),
        ("ray:", "HOST:PORT or auto"),
        ("ray:127.0.0.1", "HOST:PORT or auto"),
        ("ray:127.0.0.1:0", "HOST:PORT or auto"),
        ("ray:127.0.0.1:99999", "HOST:PORT or auto"),
        ("ray:host:port", "HOST:PORT or auto"),
    ],
    ids=["other", "empty", "no-address", "no-port", "port-zero", "port-too-big", "port-name"],
)
def test_bad_specs_are_one_line_config_errors(spec: str, why: str) -> None:
    with pytest.raises(ConfigError, match=why) as caught:
        make_executor(spec)
    assert caught.value.exit_code == 2 and "\n" not in caught.value.one_line()


def test_the_local_executor_keeps_order_and_bounds_its_threads() -> None:
    lock, now, peak = threading.Lock(), [0], [0]

    def square(n: int) -> int:
        with lock:
            now[0] += 1
            peak[0] = max(peak[0], now[0])
        time.sleep(0.01)
        with lock:
            now[0] -= 1
        return n * n

    assert LocalExecutor(3).map(square, list(range(12))) == [n * n for n in range(12)]
    assert peak[0] == 3
    assert LocalExecutor(1).map(square, [2, 3]) == [4, 9]
    assert isinstance(LocalExecutor().endpoint_slots(2), EndpointLimits)


def test_slots_pick_the_least_loaded_endpoint_and_wait_when_all_are_full() -> None:
    slots = EndpointLimits(1)
    first = slots.acquire(["a", "b"])
    second = slots.acquire(["a", "b"])
    assert (first[0], second[0]) == (0, 1)
    got: list[int] = []
    waiter = threading.Thread(target=lambda: got.append(slots.acquire(["a", "b"])[0]))
    waiter.start()
    time.sleep(0.05)
    assert got == []  # both full: it waits
    slots.release(second[1])
    waiter.join(timeout=5)
    assert got == [1]


def test_the_embedded_path_never_imports_ray() -> None:
    code = (
        "import sys; import preuve.cli, preuve.digest.build, preuve.digest.fleet, "
        "preuve.memo.pipeline, preuve.synthesis.pipeline, preuve.commands.cluster; "
        "from preuve.cluster.executor import make_executor; make_executor('local'); "
        "print('ray' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
