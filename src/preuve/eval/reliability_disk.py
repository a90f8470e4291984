"""Storage faults: a read-only store (file or folder) and a full disk, each a clear error.

Each fault starts from a store holding one finished build, makes writing impossible, runs
``preuve digest build`` (and, on the full disk, ``preuve synthesize --out``), and checks:
exit code 2, one ``preuve: error:`` line naming the store (or output) path, no traceback,
no temporary file left; then, writing possible again, ``PRAGMA integrity_check`` is ``ok``
and the earlier build is still readable whole.

How the fault is made depends on what the machine allows, and is reported:

- read-only: ``chmod`` (a non-root user); as root, whom permissions do not stop, a
  read-only bind mount of the store file or folder onto itself (``ro-bind-mount``);
- full disk: a 2 MB ``tmpfs`` filled up (root, where ``mount`` works), else a subprocess
  whose file size limit is tiny (``RLIMIT_FSIZE``, SIGXFSZ ignored: writes fail EFBIG).
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from preuve.eval.reliability_files import write_digest_dossier, write_synthesis_dossier
from preuve.eval.reliability_inputs import CliOutcome, Invoke
from preuve.eval.reliability_process import run_cli
from preuve.eval.reliability_stores import build_store, integrity, unreadable_runs
from preuve.io.files import TEMP_PREFIX

__all__ = ["DiskFault", "full_disk_faults", "read_only_faults"]

_TMPFS_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class DiskFault:
    """One storage fault, how it was made, and every way the outcome fell short."""

    id: str
    method: str
    outcome: CliOutcome
    problems: tuple[str, ...]
    data_lost: bool

    @property
    def ok(self) -> bool:
        return not self.problems and not self.data_lost


def _judge(outcome: CliOutcome, names: Sequence[str], folder: Path) -> list[str]:
    problems: list[str] = []
    lines = [line for line in outcome.stderr.splitlines() if line.strip()]
    if outcome.crash or "Traceback (most recent call last)" in outcome.stderr:
        problems.append(f"crash: {outcome.crash or lines[-1:]}")
    if outcome.exit_code != 2:
        problems.append(f"exit code {outcome.exit_code}, expected 2")
    if len(lines) != 1 or not lines[0].startswith("preuve: error: "):
        problems.append(f"stderr is not one 'preuve: error:' line: {lines[:3]!r}")
    problems += [f"the message does not name {n!r}" for n in names if n not in outcome.stderr]
    leftovers = sorted(p.name for p in folder.rglob(f"{TEMP_PREFIX}*"))
    if leftovers:
        problems.append(f"temporary files left behind: {leftovers}")
    return problems


def _intact(store: Path, runs: dict[str, int]) -> bool:
    return integrity(store) == "ok" and not unreadable_runs(store, runs)


def _mount(*args: str) -> bool:
    done = subprocess.run(["mount", *args], capture_output=True, check=False)
    return done.returncode == 0


@contextlib.contextmanager
def _read_only(target: Path) -> Iterator[str]:
    """``target`` (a file or a folder) read-only for this process; yields the method."""
    if os.geteuid() != 0:
        mode = target.stat().st_mode
        target.chmod(0o555 if target.is_dir() else 0o444)
        try:
            yield "chmod"
        finally:
            target.chmod(mode)
        return
    if not (_can_mount() and _mount("--bind", str(target), str(target))):
        raise RuntimeError("as root, a read-only store needs a bind mount, and mount failed")
    try:
        if not _mount("-o", "remount,ro,bind", str(target)):
            raise RuntimeError(f"cannot remount {target} read-only")
        yield "ro-bind-mount"
    finally:
        subprocess.run(["umount", "-l", str(target)], capture_output=True, check=False)


def read_only_faults(workdir: Path, invoke: Invoke) -> list[DiskFault]:
    """A read-only store file, then a read-only store folder."""
    dossier = write_digest_dossier(workdir / "dossier")
    faults: list[DiskFault] = []
    for fault in ("read-only-store-file", "read-only-store-folder"):
        folder = workdir / fault
        folder.mkdir(parents=True)
        store = folder / "store.sqlite"
        first = build_store(dossier, store)
        argv = ["digest", "build", str(dossier), "--store", str(store), "--principal", "p2"]
        with _read_only(store if fault.endswith("file") else folder) as method:
            outcome = invoke(argv)
        problems = _judge(outcome, [str(store)], workdir)
        lost = not _intact(store, {first.run_id: len(first.nodes)})
        faults.append(DiskFault(fault, method, outcome, tuple(problems), lost))
    return faults


def _can_mount() -> bool:
    return os.geteuid() == 0 and shutil.which("mount") is not None


@contextlib.contextmanager
def _tmpfs(folder: Path) -> Iterator[bool]:
    """A small tmpfs at ``folder`` if this process may mount one (yields whether it did)."""
    folder.mkdir(parents=True, exist_ok=True)
    size = f"size={_TMPFS_BYTES}"
    mounted = _can_mount() and (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", size, "tmpfs", str(folder)],
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def _fill(folder: Path) -> Path:
    """Write zeros into ``folder/filler`` until the disk refuses one more byte."""
    filler = folder / "filler"
    chunk = bytes(64 * 1024)
    with contextlib.suppress(OSError), filler.open("wb") as stream:
        while True:
            stream.write(chunk)
            stream.flush()
    with contextlib.suppress(OSError), filler.open("ab") as stream:
        while True:  # the last partial chunk
            stream.write(b"\0")
            stream.flush()
    return filler


def _file_size_limit(limit: int) -> Callable[[], None]:
    def preexec() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return preexec


def full_disk_faults(workdir: Path, invoke: Invoke, *, method: str = "auto") -> list[DiskFault]:
    """``digest build`` on a store, and ``synthesize --out``, when no byte can be written.
    ``method``: ``tmpfs``, ``rlimit-fsize`` or ``auto`` (tmpfs where it can be mounted)."""
    dossier = write_digest_dossier(workdir / "dossier")
    synthesis = write_synthesis_dossier(workdir / "synthesis")
    faults: list[DiskFault] = []
    with _tmpfs(workdir / "disk") if method != "rlimit-fsize" else _no_mount() as mounted:
        disk = workdir / "disk"
        disk.mkdir(parents=True, exist_ok=True)
        chosen = "tmpfs" if mounted else "rlimit-fsize"
        if method == "tmpfs" and not mounted:
            raise RuntimeError("a tmpfs cannot be mounted here (needs root and mount)")
        store = disk / "store.sqlite"
        first = build_store(dossier, store)
        build = ["digest", "build", str(dossier), "--store", str(store), "--principal", "p2"]
        out = disk / "out"
        synthesize = ["synthesize", str(synthesis), "--out", str(out)]
        if mounted:
            filler = _fill(disk)
            outcomes = [invoke(build), invoke(synthesize)]
            filler.unlink()
        else:
            limit = _file_size_limit(4096)
            outcomes = [run_cli(build, preexec=limit), run_cli(synthesize, preexec=limit)]
        lost = not _intact(store, {first.run_id: len(first.nodes)})
        for fault, outcome, name in zip(
            ("full-disk-store", "full-disk-output"), outcomes, (str(store), str(out)), strict=True
        ):
            problems = _judge(outcome, [name], disk)
            faults.append(DiskFault(fault, chosen, outcome, tuple(problems), lost))
    return faults


@contextlib.contextmanager
def _no_mount() -> Iterator[bool]:
    yield False
