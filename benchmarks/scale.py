"""Scale benchmark: many dossiers against slow loopback endpoints, locally and on Ray.

``--dossiers`` (default 200) dossiers of 12 documents (16 nodes: 12 leaves, 3 reduces,
the root) are built in full (no cache) through OpenAI-compatible servers on 127.0.0.1
that answer each call after ``--delay`` s (200 ms) with the rules engine's answer
(rehearsed first, :mod:`benchmarks.rules_endpoints`), with 1, 2 and 4 endpoints taking
``--per-endpoint`` (8) calls each at once. Wall times of the local executor and of Ray
with 1, 2, 4, 8 workers are printed against the ideal, calls × latency ÷ (endpoints ×
per-endpoint): the physical limit here. Ray's worker actors are started before the clock
(their start, paid once per command, is printed apart). Each Ray run is made with each
endpoint limiter of ``--limiters``, in turn on the same fresh cluster size: ``tokens``
(preuve's: one actor grants tokens that the processes keep while they need them,
:mod:`preuve.cluster.ray_slots`), ``per-call`` (the former one: the actor asked for every
call, :mod:`benchmarks.per_call_limiter`) and ``per-endpoint`` (a candidate, one actor per
endpoint asked for every call: :mod:`benchmarks.per_endpoint_limiter`); the messages the
tokens' actor received per call are printed.
Where the time goes: the CPU a node costs on the Ray workers and the CPU each call costs
the limiter actors (from /proc, the processes titled ``ray::_Worker``, ``ray::_Slots``,
``ray::_EndpointSlots``, ``ray::_Registry``), beside a node's wall time in a serial local
build. From those, a simulation projects 10 000 dossiers on 64 workers and 16 endpoints,
without and with the limiter's time: one queue every call passes through (one actor), or
one queue per endpoint. Then the store-writers benchmark (:mod:`benchmarks.store_writers`)
runs (``--no-store``: not).

Goals: Ray within 1.2x of the ideal at every endpoint count; 4 endpoints >= 3.5x the
throughput of one. Figures are printed, never asserted.

    .venv/bin/python -m benchmarks.scale [--dossiers 200] [--workers 1,2,4,8]
        [--limiters per-call,tokens,per-endpoint] [--no-store]
"""

from __future__ import annotations

import argparse
import heapq
import math
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.rules_endpoints import rehearse, running_servers
from preuve.cluster.executor import Executor, LocalExecutor
from preuve.corpora.digest_corpus import generate_digest_corpus
from preuve.digest.fleet import DossierJob, build_dossiers
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import load_versions
from preuve.io.stores import SqliteStore
from preuve.models.base import Model
from preuve.models.pool import EndpointSlots
from preuve.models.spec import load_model

__all__ = ["main", "simulate"]

NODES = 16
LEVELS = (12, 3, 1)
# What a worker imports to run a dossier's build against an OpenAI-compatible endpoint:
# imported when its actor starts, before the clock (else by its first dossier, in it).
WORKER_MODULES = ("preuve.digest.fleet", "preuve.models.openai")
SETTINGS = DigestSettings()


def _jobs(count: int, root: Path) -> list[DossierJob]:
    corpus = generate_digest_corpus(root)
    names = corpus.dossiers
    snapshots = {name: load_versions(corpus.dossier_dir(name)) for name in names}
    return [
        DossierJob(f"bench-{i:05d}", snapshots[names[i % len(names)]], SETTINGS)
        for i in range(count)
    ]


def _model(urls: Sequence[str], slots: EndpointSlots) -> Model:
    return load_model(
        "openai:rules@" + ",".join(urls),
        rules=None,
        env=dict(os.environ),
        allow_network=True,
        slots=slots,
    )


def _timed(jobs: list[DossierJob], model: Model, store: Path, executor: Executor) -> float:
    started = time.perf_counter()
    with SqliteStore(store) as opened:
        reports = build_dossiers(jobs, model, opened, executor, mode="full", concurrency=4)
    seconds = time.perf_counter() - started
    bad = [r.run.dossier for r in reports if r.root.status.value != "VALID"]
    if bad or sum(r.counters.model_calls for r in reports) != NODES * len(jobs):
        raise SystemExit(f"builds did not verify: {bad[:3]}")
    return seconds


def per_node_cpu(jobs: list[DossierJob], answers: dict[str, str], root: Path) -> float:
    """Seconds a node costs outside its call: a serial build through a zero-delay server."""
    sample = jobs[: min(len(jobs), 10)]
    with running_servers(1, answers, 0.0) as servers:
        model = _model([servers[0].url], LocalExecutor(1).endpoint_slots(1))
        seconds = _timed(sample, model, root / "cpu.sqlite", LocalExecutor(1))
    return seconds / (NODES * len(sample))


def simulate(
    dossiers: int,
    workers: int,
    slots: int,
    *,
    delay: float,
    cpu: float,
    limiter: float = 0.0,
    limiters: int = 1,
) -> float:
    """Projected wall time: each node takes ``cpu`` on one of ``workers`` CPUs, then holds
    one of ``endpoints * per_endpoint`` slots for ``delay``; a dossier's level starts when
    the one below is done; dossiers start in order. ``limiter``: the seconds a limiter
    actor spends on each call (its acquire and release), served one at a time by each of
    ``limiters`` actors (1: every call; one per endpoint: the calls in turn, as the
    balancer spreads them). Event-driven, greedy, FIFO."""
    ready: list[tuple[float, int, int]] = [(0.0, d, 0) for d in range(dossiers)]
    heapq.heapify(ready)
    cpus = [0.0] * workers  # when each CPU is free
    slot_free = [0.0] * slots
    limiter_free = [0.0] * limiters
    turn = 0
    level_left: dict[tuple[int, int], int] = {}
    level_end: dict[tuple[int, int], float] = {}
    end = 0.0
    while ready:
        at, dossier, level = heapq.heappop(ready)
        for _ in range(LEVELS[level]):
            cpu_at = heapq.heappop(cpus)
            start = max(at, cpu_at)
            heapq.heappush(cpus, start + cpu)
            slot_at = heapq.heappop(slot_free)
            queue = turn % limiters
            turn += 1
            asked = max(start + cpu, limiter_free[queue])
            limiter_free[queue] = asked + limiter
            call = max(asked + limiter, slot_at)
            finish = call + delay
            heapq.heappush(slot_free, finish)
            key = (dossier, level)
            level_end[key] = max(level_end.get(key, 0.0), finish)
            level_left[key] = level_left.get(key, LEVELS[level]) - 1
        if level + 1 < len(LEVELS):
            heapq.heappush(ready, (level_end[(dossier, level)], dossier, level + 1))
        end = max(end, level_end[(dossier, level)])
    return end


def _ray_executor(workers: int, threads: int) -> tuple[Any, float]:
    """A fresh local Ray cluster of ``workers`` CPUs, its worker actors started; and how
    long starting them took."""
    import ray

    from preuve.cluster.ray_executor import RayExecutor

    if ray.is_initialized():
        ray.shutdown()
    os.environ["PYTHONPATH"] = os.pathsep.join(
        dict.fromkeys([str(Path(__file__).resolve().parent.parent / "src"), *sys.path])
    )
    ray.init(
        num_cpus=workers,
        include_dashboard=False,
        namespace="preuve",
        log_to_driver=False,
        configure_logging=False,
    )
    executor = RayExecutor(threads=threads)
    started = time.perf_counter()
    executor.warm_up(WORKER_MODULES)
    return executor, time.perf_counter() - started


def _report(
    args: argparse.Namespace,
    counts: list[int],
    rows: list[str],
    walls: dict[tuple[str, int], float],
    calls: int,
) -> None:
    ideal = {c: calls * args.delay / (c * args.per_endpoint) for c in counts}
    print()
    print(
        "wall time in s (ratio to ideal)   " + "".join(f"{c} endpoint(s)".rjust(20) for c in counts)
    )
    print("ideal".ljust(34) + "".join(f"{ideal[c]:>14.1f}  1.00x" for c in counts))
    for name in ["local", *rows]:
        cells = "".join(
            f"{walls[(name, c)]:>14.1f} {walls[(name, c)] / ideal[c]:>5.2f}x" for c in counts
        )
        print(name.ljust(34) + cells)
    if 1 in counts and 4 in counts:
        for name in ["local", *rows]:
            gain = walls[(name, 1)] / walls[(name, 4)]
            print(f"{name}: 4 endpoints give {gain:.2f}x the throughput of 1 (goal >= 3.5x)")
    print("goal: Ray within 1.20x of ideal at every endpoint count")


def _descendants() -> set[str]:
    """The ids of this process's descendants (its Ray cluster's processes among them)."""
    parents: dict[str, str] = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                parents[proc.name] = (proc / "stat").read_text().rsplit(")", 1)[1].split()[1]
            except OSError:
                continue
    me, found = str(os.getpid()), set()
    for pid in parents:
        ancestor = parents.get(pid)
        while ancestor is not None and ancestor not in {"0", "1"}:
            if ancestor == me:
                found.add(pid)
                break
            ancestor = parents.get(ancestor)
    return found


def ray_cpu() -> dict[str, float]:
    """CPU seconds used so far by the Ray worker actors and limiter actors of the cluster
    this benchmark started (its descendants: another Ray cluster on the machine, a test
    run's, is not counted)."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {"workers": 0.0, "limiter": 0.0}
    ours = _descendants()
    for proc in Path("/proc").iterdir():
        if proc.name not in ours:
            continue
        try:
            title = (proc / "cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        limiting = title.startswith(("ray::_Slots", "ray::_EndpointSlots", "ray::_Registry"))
        role = "limiter" if limiting else None
        role = "workers" if title.startswith("ray::_Worker") else role
        if role is not None:
            used[role] += (int(fields[11]) + int(fields[12])) / tick
    return used


def _store_writers() -> None:
    """Store throughput, SQLite vs PostgreSQL, 1-8 writers (benchmarks/store_writers.py)."""
    from benchmarks import store_writers

    store_writers.main(["--nodes", "1000"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dossiers", type=int, default=200)
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--per-endpoint", type=int, default=8)
    parser.add_argument("--endpoints", default="1,2,4")
    parser.add_argument("--workers", default="1,2,4,8")
    parser.add_argument("--limiters", default="per-call,tokens", help="Ray endpoint limiters.")
    parser.add_argument("--no-ray", action="store_true", help="Only the local executor.")
    parser.add_argument("--no-store", action="store_true", help="Skip the store writers.")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="preuve-scale-") as folder:
        return _run(args, Path(folder))


def _run(args: argparse.Namespace, root: Path) -> int:
    counts = [int(x) for x in args.endpoints.split(",")]
    worker_counts = [] if args.no_ray else [int(x) for x in args.workers.split(",")]
    jobs = _jobs(args.dossiers, root / "corpus")
    distinct = list({id(j.snapshot): j.snapshot for j in jobs}.values())
    with SqliteStore(root / "rehearsal.sqlite") as store:
        answers = rehearse(distinct, SETTINGS, store)
    calls = NODES * len(jobs)
    print(f"cores: {os.cpu_count()}; {len(jobs)} dossiers x {NODES} nodes = {calls} calls;")
    print(f"endpoints answer after {args.delay * 1000:.0f} ms, {args.per_endpoint} at once each")
    cpu = per_node_cpu(jobs, answers, root)
    print(f"measured per-node cost outside the call: {cpu * 1000:.1f} ms")
    walls: dict[tuple[str, int], float] = {}
    started: dict[int, float] = {}
    limiters = [] if args.no_ray else args.limiters.split(",")
    spent = {(k, role): 0.0 for k in limiters for role in ("workers", "limiter")}
    by_count: dict[tuple[str, int], float] = {}  # limiter CPU per call, by endpoint count
    messages: dict[tuple[str, int], float] = {}  # limiter messages per call (when counted)
    print(f"load average at start: {_load()}")
    with running_servers(max(counts), answers, args.delay) as servers:
        for count in counts:
            slots = LocalExecutor().endpoint_slots(args.per_endpoint)
            model = _model([s.url for s in servers[:count]], slots)
            local = LocalExecutor(count * args.per_endpoint)
            walls[("local", count)] = _timed(jobs, model, root / f"l{count}.sqlite", local)
        for workers in worker_counts:
            for count in counts:
                for kind in limiters:  # the designs in turn, each on a fresh cluster
                    threads = max(1, math.ceil(count * args.per_endpoint / workers))
                    executor, warm = _ray_executor(workers, threads)
                    started[workers] = max(started.get(workers, 0.0), warm)
                    slots = _limiter(kind, executor, args.per_endpoint)
                    model = _model([s.url for s in servers[:count]], slots)
                    _warm(slots, model)
                    path = root / f"r{workers}-{count}-{kind}.sqlite"
                    before, sent = ray_cpu(), _messages(slots)
                    walls[(f"ray {workers}w {kind}", count)] = _timed(jobs, model, path, executor)
                    after = ray_cpu()
                    if sent is not None:
                        messages[(kind, count)] = messages.get((kind, count), 0.0) + (
                            (_messages(slots) or 0) - sent
                        ) / (len(worker_counts) * calls)
                    for role in ("workers", "limiter"):
                        spent[(kind, role)] += after[role] - before[role]
                    spent[(kind, f"{workers}w")] = spent.get((kind, f"{workers}w"), 0.0) + (
                        after["workers"] - before["workers"]
                    )  # by worker count too
                    by_count[(kind, count)] = by_count.get((kind, count), 0.0) + (
                        after["limiter"] - before["limiter"]
                    ) / (len(worker_counts) * calls)
        if worker_counts:
            import ray

            ray.shutdown()
    print(f"load average at end: {_load()}")
    rows = [f"ray {w}w {kind}" for w in worker_counts for kind in limiters]
    _report(args, counts, rows, walls, calls)
    runs = len(worker_counts) * len(counts)
    if runs:
        print(
            "ray start (worker processes and imports, once per command, not in the wall"
            " times above): " + ", ".join(f"{w}w {started[w]:.1f} s" for w in worker_counts)
        )
    _projections(args, spent, by_count, messages, counts, runs, calls, cpu)
    if not args.no_store:
        _store_writers()
    return 0


def _projections(  # noqa: PLR0917 (the measured figures, passed on)
    args: argparse.Namespace,
    spent: dict[tuple[str, str], float],
    by_count: dict[tuple[str, int], float],
    messages: dict[tuple[str, int], float],
    counts: list[int],
    runs: int,
    calls: int,
    cpu: float,
) -> None:
    """Each limiter's measured CPU (the workers' per node also by worker count), and the
    10 000-dossier projection with it."""
    limiters = list(dict.fromkeys(kind for kind, _ in spent))
    ideal_big = 10_000 * NODES * args.delay / (16 * args.per_endpoint)
    designs = (
        [
            (k, spent[(k, "workers")] / (runs * calls), spent[(k, "limiter")] / (runs * calls))
            for k in limiters
        ]
        if runs
        else [("local", cpu, 0.0)]
    )
    for kind, worker_cpu, limiter in designs:
        print(
            f"{kind}: a node costs {cpu * 1000:.1f} ms of CPU in one local process,"
            f" {worker_cpu * 1000:.1f} ms on a Ray worker (its calls to the limiter included),"
            f" and the limiter actors {limiter * 1000:.2f} ms per call;"
            f" {calls} calls x {worker_cpu + limiter:.4f} s = {calls * (worker_cpu + limiter):.1f}"
            f" CPU-s on {os.cpu_count()} cores"
        )
        print(
            "  worker CPU per node by worker count: "
            + ", ".join(
                f"{w} {t / (len(counts) * calls) * 1000:.1f} ms"
                for (k, w), t in spent.items()
                if k == kind and w.endswith("w")
            )
        )
        print(
            "  limiter CPU per call by endpoint count: "
            + ", ".join(f"{c}: {by_count[(kind, c)] * 1000:.2f} ms" for c in counts)
        )
        sent = [f"{c}: {messages[(kind, c)]:.2f}" for c in counts if (kind, c) in messages]
        if sent:
            print("  messages to the limiter per call by endpoint count: " + ", ".join(sent))
        queues = 16 if kind == "per-endpoint" else 1
        for label, limit in (("without", 0.0), ("with", limiter)):
            projected = simulate(
                10_000,
                64,
                16 * args.per_endpoint,
                delay=args.delay,
                cpu=worker_cpu,
                limiter=limit,
                limiters=queues,
            )
            print(
                f"  projected (simulation, measured per-node costs, {label} the limiter's time"
                f" per call, {queues} limiter queue(s)): 10 000 dossiers on 64 workers and 16"
                f" endpoints: {projected:.0f} s; ideal {ideal_big:.0f} s"
                f" ({projected / ideal_big:.2f}x)"
            )


def _warm(slots: EndpointSlots, model: Model) -> None:
    """Start the limiter's actors before the clock, as the worker actors are: one slot of
    each endpoint taken and given back (an actor's start is paid once per command)."""
    endpoints: tuple[str, ...] = getattr(getattr(model, "inner", model), "endpoints", ())
    for endpoint in endpoints:
        _, lease = slots.acquire([endpoint])
        slots.release(lease)
    time.sleep(1.0)  # the releases are not waited for


def _messages(slots: EndpointSlots) -> int | None:
    """Messages the limiter's actor received so far, when it counts them."""
    stats = getattr(slots, "stats", None)
    return None if stats is None else sum(stats().values())


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _limiter(kind: str, executor: Any, per_endpoint: int) -> EndpointSlots:
    """The endpoint limiter ``kind`` on ``executor``'s cluster."""
    label = f"per-endpoint-{per_endpoint}"
    if kind == "tokens":  # preuve's: tokens kept by the processes while they need them
        slots: EndpointSlots = executor.endpoint_slots(per_endpoint)
        return slots
    if kind == "per-call":  # the former one: the actor asked for every call
        from benchmarks.per_call_limiter import per_call_slots

        each: EndpointSlots = per_call_slots(per_endpoint, label)
        return each
    if kind == "per-endpoint":
        from benchmarks.per_endpoint_limiter import per_endpoint_slots

        spread: EndpointSlots = per_endpoint_slots(per_endpoint, label)
        return spread
    raise SystemExit(f"unknown limiter {kind!r} (tokens, per-call, per-endpoint)")


if __name__ == "__main__":
    raise SystemExit(main())
