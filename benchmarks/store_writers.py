"""Store benchmark: node writes per second, SQLite versus PostgreSQL, 1 to 8 writers.

Each writer is a separate process (spawned; Python threads would share one GIL) that
opens the store itself, starts a run and records ``nodes / writers`` results in
transactions of ``batch`` nodes (a tree level), each result with one model call. Writers
write distinct keys, so the figure is the store's write throughput, not its conflict
handling (tests/io/test_store_postgres.py covers conflicts). All writers start together
at a barrier; the wall time runs from that barrier to the last commit. PostgreSQL is a
real server started for the run (``initdb`` + ``pg_ctl``, fsync on), or ``--postgres URL``.

Printed side by side: nodes/s per backend and writer count (the median of ``--rounds``
rounds, 3; each round measures every count in turn, so a burst of other load falls on one
round rather than on one count), and each as a ratio to that backend's own single writer,
with the core count and PostgreSQL's 8-to-1 ratio in every round (its spread). The
issue's goal: PostgreSQL with 8 writers >= 1.8x its single writer (on 2 cores).
:func:`measure` is what other benchmarks (benchmarks/scale.py) call.

    .venv/bin/python -m benchmarks.store_writers [--nodes 2000] [--batch 4] [--rounds 3]
        [--postgres URL]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import multiprocessing
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from preuve.io import open_store
from preuve.io.store_rows import GenerationRow, NodeRecord, NodeRow
from preuve.io.stores import INCREMENTAL
from preuve.io.stores.pg_local import local_postgres

__all__ = ["GOAL", "WRITERS", "Measured", "main", "measure", "server_cpu"]

GOAL = 1.8
WRITERS = (1, 2, 4, 8)
_TEXT = "The company reported revenue of 12.4 million euros in 2024. " * 16  # ~1 kB


def _record(writer: int, number: int) -> NodeRecord:
    key = hashlib.sha256(f"{writer}:{number}".encode()).hexdigest()
    node_id = f"leaf:w{writer}-{number}"
    row = NodeRow(
        INCREMENTAL, key, node_id, "leaf", "VALID",
        [{"subject": "ACME", "field": "revenue", "value": "12.4", "evidence": ["d:1"]}],
        [{"id": "d:1", "quote": _TEXT[:60]}], [], "0" * 64, None, 1, 300, 40, True,
    )  # fmt: skip
    call = GenerationRow(
        node_id, 1, "digest.map", "0" * 64, {"backend": "bench"},
        [{"role": "user", "content": _TEXT}], '{"claims": []}', "stop", 300, 40, None, 0.2,
        [], "",
    )  # fmt: skip
    return NodeRecord(node_id, "leaf", 0, None, key, new_node=row, generations=(call,))


def _writer(
    spec: str, writer: int, nodes: int, *, batch: int, barriers: tuple[Any, Any], out: Any
) -> None:
    records = [_record(writer, n) for n in range(nodes)]
    with open_store(spec) as store:
        run = store.begin_run(
            mode="incremental", dossier="bench", principal="p", model={}, settings={}, snapshot=[]
        )
        barriers[0].wait(timeout=300)
        started, cpu = time.perf_counter(), time.process_time()
        for start in range(0, nodes, batch):
            store.record_nodes(run, records[start : start + batch])
        out.put((started, time.perf_counter(), time.process_time() - cpu))
        barriers[1].wait(timeout=300)  # connections kept open while the server is sampled


def server_cpu(folder: Path | None) -> float:
    """CPU seconds used so far by the server started in ``folder`` and its live backends
    (Linux /proc; 0 for a server this run did not start)."""
    if folder is None:
        return 0.0
    pid_file = folder / "data" / "postmaster.pid"
    if not pid_file.is_file():
        return 0.0
    postmaster = pid_file.read_text().split()[0]
    tick = os.sysconf("SC_CLK_TCK")
    used = 0.0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if proc.name == postmaster or fields[1] == postmaster:
            used += (int(fields[11]) + int(fields[12])) / tick
    return used


@dataclass(frozen=True, slots=True)
class Measured:
    """Node writes per second, and the CPU each node cost the writers and the server."""

    rate: float
    client_ms: float
    server_ms: float | None


def measure(
    spec: str, writers: int, nodes: int, *, batch: int = 4, server: Path | None = None
) -> Measured:
    """Node writes per second of ``writers`` processes writing ``nodes`` results in all
    into the store ``spec`` (opened and migrated before the clock starts); ``server``: the
    folder of the PostgreSQL server this run started, whose CPU is then counted too."""
    open_store(spec).close()  # create the schema once, outside the measurement
    context = multiprocessing.get_context("spawn")
    barriers, out = (context.Barrier(writers + 1), context.Barrier(writers + 1)), context.Queue()
    each = max(1, nodes // writers)
    processes = [
        context.Process(
            target=_writer,
            args=(spec, w, each),
            kwargs={"batch": batch, "barriers": barriers, "out": out},
        )
        for w in range(writers)
    ]
    for process in processes:
        process.start()
    barriers[0].wait(timeout=300)
    before = server_cpu(server)
    spans = [out.get(timeout=600) for _ in processes]
    after = server_cpu(server)
    barriers[1].wait(timeout=300)
    for process in processes:
        process.join(timeout=60)
        if process.exitcode != 0:
            raise RuntimeError(f"a writer exited with {process.exitcode}")
    wall = float(max(end for _, end, _ in spans) - min(start for start, _, _ in spans))
    written = each * writers
    client = 1000 * sum(cpu for _, _, cpu in spans) / written
    return Measured(written / wall, client, 1000 * (after - before) / written if server else None)


def _new_database(url: str, name: str) -> str:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + f"/{name}"


def _table(rows: dict[str, dict[int, Measured]]) -> list[str]:
    lines = [
        f"{'writers':>7}  {'sqlite nodes/s':>14} {'x1':>6}  {'postgresql nodes/s':>18} {'x1':>6}"
        "  cpu ms/node: client + server"
    ]
    for writers in WRITERS:
        sq, pg = rows["sqlite"][writers], rows["postgresql"][writers]
        server = "" if pg.server_ms is None else f" + {pg.server_ms:.3f}"
        lines.append(
            f"{writers:>7}  {sq.rate:>14.0f} {sq.rate / rows['sqlite'][1].rate:>5.2f}x"
            f"  {pg.rate:>18.0f} {pg.rate / rows['postgresql'][1].rate:>5.2f}x"
            f"  {pg.client_ms:.3f}{server}"
        )
    return lines


def _ceiling(one: Measured) -> str | None:
    """How many cores one PostgreSQL writer keeps busy, so the most N writers can gain."""
    if one.server_ms is None:
        return None
    busy = one.rate * (one.client_ms + one.server_ms) / 1000
    cores = os.cpu_count() or 1
    return (
        f"one postgresql writer keeps {busy:.2f} cores busy ({one.client_ms:.3f} ms client +"
        f" {one.server_ms:.3f} ms server CPU per node, {one.rate:.0f} nodes/s): on {cores}"
        f" idle cores, N writers can reach at most {cores / busy:.2f}x its throughput"
    )


def _median(taken: list[Measured]) -> Measured:
    return sorted(taken, key=lambda m: m.rate)[len(taken) // 2]


def run(
    nodes: int, batch: int, postgres: str | None, rounds: int = 3
) -> tuple[dict[str, dict[int, Measured]], list[float]]:
    """Each backend's median measurement per writer count over ``rounds`` rounds (each
    round measures every count in turn, so a burst of load elsewhere on the machine
    falls on one round, not on one count), and PostgreSQL's 8-to-1 ratio in each round."""
    taken: dict[str, dict[int, list[Measured]]] = {
        "sqlite": {w: [] for w in WRITERS},
        "postgresql": {w: [] for w in WRITERS},
    }
    with tempfile.TemporaryDirectory(prefix="preuve-bench-") as folder:
        for number in range(rounds):
            for writers in WRITERS:
                spec = f"sqlite:{Path(folder) / f'w{writers}-{number}.sqlite'}"
                taken["sqlite"][writers].append(measure(spec, writers, nodes, batch=batch))
    with contextlib.ExitStack() as stack:
        server = None if postgres is not None else stack.enter_context(local_postgres(fsync=True))
        base = server.url if server is not None else str(postgres)
        server_dir = server.folder if server is not None else None  # its CPU is counted
        for number in range(rounds):
            for writers in WRITERS:
                url = _new_database(base, f"preuve_bench_w{writers}_{number}")
                taken["postgresql"][writers].append(
                    measure(url, writers, nodes, batch=batch, server=server_dir)
                )
    pg = taken["postgresql"]
    spread = [eight.rate / one.rate for one, eight in zip(pg[1], pg[8], strict=True)]
    rows = {kind: {w: _median(m) for w, m in by.items()} for kind, by in taken.items()}
    return rows, spread


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=2000, help="results written per run")
    parser.add_argument("--batch", type=int, default=4, help="results per transaction")
    parser.add_argument("--postgres", help="an existing server's URL (default: start one)")
    parser.add_argument("--rounds", type=int, default=3, help="medians over this many rounds")
    args = parser.parse_args(argv)
    rows, spread = run(args.nodes, args.batch, args.postgres, max(1, args.rounds))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"store writers: {args.nodes} nodes, {args.batch} per transaction, writers are"
        f" processes; {os.cpu_count()} cores, load average {load}; medians of"
        f" {len(spread)} round(s)"
    )
    for line in _table(rows):
        print(line)
    ceiling = _ceiling(rows["postgresql"][1])
    if ceiling is not None:
        print(ceiling)
    ratio = rows["postgresql"][8].rate / rows["postgresql"][1].rate
    verdict = "met" if ratio >= GOAL else "missed"
    print(f"goal: postgresql 8 writers >= {GOAL}x its single writer: {ratio:.2f}x ({verdict})")
    rounds = ", ".join(f"{r:.2f}x" for r in spread)
    print(f"postgresql 8 writers / 1 writer in each round: {rounds}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
