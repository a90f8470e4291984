"""Faults injected into digest builds: SIGKILL at random points, two builds at once.

:func:`kill_loop` starts a slowed build (:mod:`preuve.eval.reliability_victim`) in a
subprocess, kills it with SIGKILL after a seeded random delay, then checks the store:
``PRAGMA integrity_check`` is ``ok``, every run that finished before is still readable
whole, and an incremental rerun gives, node by node (keys, statuses, claims, token ids),
what an uninterrupted build in a store of its own gives. Each round uses its own
principal, so its keys are new and the kill lands on real work, not on cache hits.

:func:`concurrent_builds` starts two such builds of the same dossier, for the same
principal, on one store at once: both must finish, both runs must be recorded whole and
equal an uninterrupted build, and every row either wrote must still be there.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from preuve.digest.mutations import compare_builds, stored_nodes
from preuve.eval.reliability_stores import (
    build_store,
    compare_with_reference,
    integrity,
    reference_build,
    unreadable_runs,
)
from preuve.io.stores import SqliteStore

__all__ = [
    "VICTIM",
    "ConcurrentReport",
    "KillRound",
    "concurrent_builds",
    "kill_loop",
    "kill_round",
]

VICTIM: tuple[str, ...] = (sys.executable, "-m", "preuve.eval.reliability_victim")
_START_TIMEOUT = 60.0
# Kills land in the first 90 % of the timed build: most of them interrupt it.
_WINDOW_SHARE = 0.9


@dataclass(frozen=True, slots=True)
class KillRound:
    """One SIGKILL and what the store looked like after it."""

    index: int
    delay: float
    interrupted: bool
    recorded: int  # tree nodes the killed run had committed (0 to 16)
    reused: int  # cache hits of the rerun: work of the killed run kept, not redone
    integrity: str
    lost_runs: tuple[str, ...]
    differences: int

    @property
    def data_lost(self) -> bool:
        return self.integrity != "ok" or bool(self.lost_runs) or self.differences > 0


def _start(
    victim: Sequence[str], store: Path, dossier: Path, principal: str, delay: float
) -> subprocess.Popen[str]:
    args = [*victim, str(store), str(dossier), principal, str(delay)]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    if line != "started":
        process.kill()
        _, errors = process.communicate(timeout=_START_TIMEOUT)
        raise RuntimeError(f"the victim build did not start: {line!r} {errors[-400:]!r}")
    return process


def _finished(process: subprocess.Popen[str]) -> tuple[str, int] | None:
    """The run id and node count the victim printed, if it finished before the kill."""
    out, _ = process.communicate(timeout=_START_TIMEOUT)
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "finished":
            return parts[1], int(parts[2])
    return None


def kill_round(
    index: int,
    dossier: Path,
    store: Path,
    finished: dict[str, int],
    *,
    delay: float,
    call_delay: float,
    victim: Sequence[str] = VICTIM,
) -> KillRound:
    """Kill one build after ``delay`` seconds, check the store, rerun; ``finished`` (run id
    → node count of every run known to have finished) grows with this round's runs."""
    principal = f"kill-{index:02d}"
    reference = reference_build(dossier, principal)
    process = _start(victim, store, dossier, principal, call_delay)
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    done = _finished(process)
    state = integrity(store)
    lost = tuple(unreadable_runs(store, finished)) if state == "ok" else ()
    recorded = _recorded(store, principal) if state == "ok" else 0
    rerun = build_store(dossier, store, principal=principal)
    differences = len(compare_with_reference(rerun, reference).differences)
    if done is not None:
        finished[done[0]] = done[1]
    finished[rerun.run_id] = len(rerun.nodes)
    return KillRound(
        index, delay, done is None, recorded, rerun.counters.cache_hits, state, lost, differences
    )


def _timed_build(
    dossier: Path,
    store: Path,
    finished: dict[str, int],
    call_delay: float,
    victim: Sequence[str],
) -> float:
    """Seconds from "started" to the end of one victim build left to finish (its run joins
    ``finished``, so every later round checks it is still readable)."""
    process = _start(victim, store, dossier, "calibration", call_delay)
    began = time.monotonic()
    done = _finished(process)
    took = time.monotonic() - began
    if done is None:
        exit_code = process.returncode
        raise RuntimeError(f"the uninterrupted victim build did not finish (exit {exit_code})")
    finished[done[0]] = done[1]
    return took


def _recorded(store: Path, principal: str) -> int:
    """Tree nodes committed by the unfinished run of ``principal`` (0 if it has none)."""
    with SqliteStore(store, read_only=True) as opened:
        killed = [r for r in opened.runs() if r.principal == principal and not r.finished]
        return sum(len(opened.run_nodes(run.run_id)) for run in killed)


def kill_loop(
    dossier: Path,
    store: Path,
    *,
    rounds: int = 20,
    seed: int = 20261130,
    call_delay: float = 0.025,
    window: float | None = None,
    victim: Sequence[str] = VICTIM,
) -> tuple[KillRound, ...]:
    """``rounds`` kills at seeded random points in ``[0, window)`` seconds of a build, then
    a final check that every finished run of the whole loop is still readable.

    Without ``window``, it is most of the time one uninterrupted build takes here, timed
    first: on a loaded machine a fixed window would kill every build early. A build that
    finishes before its kill shortens the window to most of that delay, since the load may
    drop after the timing."""
    rng = random.Random(seed)
    finished: dict[str, int] = {}
    if window is None:
        window = _WINDOW_SHARE * _timed_build(dossier, store, finished, call_delay, victim)
    results: list[KillRound] = []
    for index in range(rounds):
        delay = rng.uniform(0.0, window)
        kill = kill_round(
            index, dossier, store, finished, delay=delay, call_delay=call_delay, victim=victim
        )
        if not kill.interrupted:
            # The build finished within ``delay``: the machine got faster than when it was
            # timed, so later kills land in the first 90 % of that shorter time.
            window = min(window, _WINDOW_SHARE * delay)
        results.append(kill)
    return tuple(results)


@dataclass(frozen=True, slots=True)
class ConcurrentReport:
    """Two builds on one store at once."""

    exit_codes: tuple[int, int]
    integrity: str
    runs: tuple[str, ...]
    lost_runs: tuple[str, ...]
    differences: int
    rows_expected: int
    rows_found: int

    @property
    def ok(self) -> bool:
        return (
            self.exit_codes == (0, 0)
            and self.integrity == "ok"
            and len(self.runs) == 2
            and not self.lost_runs
            and self.differences == 0
            and self.rows_found == self.rows_expected
        )


def concurrent_builds(
    dossier: Path,
    store: Path,
    *,
    call_delay: float = 0.01,
    victim: Sequence[str] = VICTIM,
) -> ConcurrentReport:
    """Start two builds of ``dossier`` on ``store`` at once and check what they left."""
    principal = "concurrent"
    before = _node_rows(store)
    args = [str(store), str(dossier), principal, str(call_delay), "2"]
    processes = [
        subprocess.Popen(
            [*victim, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=_START_TIMEOUT * 2) for process in processes]
    codes = (processes[0].returncode, processes[1].returncode)
    runs = tuple(
        line.split()[1] for out, _ in outputs for line in out.splitlines() if line.startswith("fin")
    )
    state = integrity(store)
    reference = reference_build(dossier, principal)
    lost: tuple[str, ...] = ()
    differences, found = 0, 0
    computed: set[int] = set()
    if state == "ok":
        lost = tuple(unreadable_runs(store, dict.fromkeys(runs, len(reference.nodes))))
        with SqliteStore(store, read_only=True) as opened:
            for run_id in runs:
                nodes = stored_nodes(opened, run_id)
                differences += len(compare_builds(nodes, reference.nodes).differences)
                # A key both builds computed is stored once: both runs point at that row.
                computed.update(
                    r.node_row for r in opened.run_nodes(run_id) if r.outcome == "computed"
                )
            found = opened.row_counts()["nodes"] - before
    expected = len(computed)
    return ConcurrentReport(codes, state, runs, lost, differences, expected, found)


def _node_rows(store: Path) -> int:
    if not store.is_file():
        return 0
    with SqliteStore(store, read_only=True) as opened:
        return opened.row_counts()["nodes"]
