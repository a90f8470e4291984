"""A throwaway PostgreSQL server on 127.0.0.1, for tests and benchmarks (Debian's
``postgresql`` package: ``initdb`` and ``pg_ctl`` in a temporary folder).

    with local_postgres() as server:
        url = server.database("scratch")      # postgresql://preuve@127.0.0.1:PORT/scratch

The server listens on a free loopback port, with its unix socket inside the temporary
folder, trusts local connections (it is reachable from this machine only) and is stopped
and removed when the block ends. ``initdb`` refuses to run as root: as root, the server
runs as the unprivileged ``postgres`` user (or ``nobody``) through ``runuser``/``setpriv``.
:class:`ServerUnavailableError` says why no server could be started.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LocalPostgres", "ServerUnavailableError", "find_bin_dir", "local_postgres"]

_USER = "preuve"


class ServerUnavailableError(RuntimeError):
    """No local PostgreSQL server can be started here (the message says why)."""


def find_bin_dir() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on PATH, or Debian's newest version."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return versions[-1].parent if versions else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _unprivileged() -> tuple[list[str], str | None]:
    """The prefix that runs a command as an unprivileged user when we are root."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        with suppress(KeyError):
            pwd.getpwnam(name)
            if shutil.which("runuser"):
                return ["runuser", "-u", name, "--"], name
            if shutil.which("setpriv"):
                entry = pwd.getpwnam(name)
                return [
                    "setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
                    "--init-groups",
                ], name  # fmt: skip
    raise ServerUnavailableError("running as root, and no unprivileged user to run initdb as")


@dataclass(frozen=True, slots=True)
class LocalPostgres:
    """A running server: its port, folder, and the URL of a database on it."""

    port: int
    folder: Path

    @property
    def url(self) -> str:
        return self.database("postgres")

    def database(self, name: str) -> str:
        return f"postgresql://{_USER}@127.0.0.1:{self.port}/{name}"


def _run(prefix: Sequence[str], command: Sequence[str], what: str) -> None:
    result = subprocess.run(
        [*prefix, *command], capture_output=True, text=True, check=False, timeout=120
    )
    if result.returncode != 0:
        detail = " ".join((result.stderr or result.stdout).split())[:300]
        raise ServerUnavailableError(f"{what} failed: {detail}")


@contextmanager
def local_postgres(*, fsync: bool = True, max_connections: int = 100) -> Iterator[LocalPostgres]:
    """Start a server in a temporary folder; stop it and remove the folder on exit."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise ServerUnavailableError(
            "initdb/pg_ctl not found (apt-get install postgresql, or run make postgres)"
        )
    prefix, user = _unprivileged()
    folder = Path(tempfile.mkdtemp(prefix="preuve-pg-"))
    data, sockets, log = folder / "data", folder / "sock", folder / "server.log"
    sockets.mkdir()
    if user is not None:
        entry = pwd.getpwnam(user)
        for path in (folder, sockets):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    started = False
    try:
        _run(
            prefix,
            [str(bin_dir / "initdb"), "-D", str(data), "-U", _USER, "-A", "trust", "-E", "UTF8",
             "--locale=C", "--no-sync"],
            "initdb",
        )  # fmt: skip
        port = _free_port()
        settings = (
            f"-c listen_addresses=127.0.0.1 -p {port} -k {sockets}"
            f" -c max_connections={max_connections} -c fsync={'on' if fsync else 'off'}"
        )
        _run(
            prefix,
            [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", settings, "-w",
             "-t", "60", "start"],
            "pg_ctl start",
        )  # fmt: skip
        started = True
        yield LocalPostgres(port, folder)
    finally:
        if started:
            with suppress(ServerUnavailableError, subprocess.TimeoutExpired):
                _run(
                    prefix,
                    [str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                    "pg_ctl stop",
                )
        shutil.rmtree(folder, ignore_errors=True)
