"""A scripted fault, for the exact failure case: a model call whose worker gets killed.

:class:`StallOnce` wraps a model; the first ``map`` call (across every process: the
claim is an exclusive file creation) writes its process id to ``pid_file`` and then
waits, mid-call, for the test to kill that process. Every other call, and the retry of
the killed one, goes straight to the inner model. Picklable, so it ships to Ray workers.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from preuve.digest.schema import task_label
from preuve.models.base import Completion, Model, ModelIdentity, Request

STALL_SECONDS = 60.0


@dataclass(frozen=True)
class StallOnce:
    inner: Model
    pid_file: Path

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        if task_label(request.task) == "map" and self._claim():
            time.sleep(STALL_SECONDS)  # killed here; never returns in a passing test
        return self.inner.complete(request)

    def _claim(self) -> bool:
        try:  # the claim file stays: only one call, in any process, ever stalls
            os.close(os.open(self.pid_file.with_suffix(".claim"), os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return False
        partial = self.pid_file.with_suffix(".partial")
        partial.write_text(str(os.getpid()))
        partial.rename(self.pid_file)  # the pid is whole once the file appears
        return True


def wait_for_pid(pid_file: Path, timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    while not pid_file.is_file():
        if time.monotonic() > deadline:
            raise TimeoutError(f"no call stalled within {timeout} s")
        time.sleep(0.05)
    return int(pid_file.read_text())
