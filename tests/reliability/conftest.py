"""What the reliability tests share: a guard that fails a test on any network connection,
DNS lookup or process spawn (a model answer must cause none)."""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator

import pytest


@pytest.fixture
def no_egress(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Fail the test on any socket connection, DNS lookup or process spawn."""
    attempts: list[str] = []

    def forbidden(what: str) -> object:
        def refuse(*args: object, **kwargs: object) -> None:
            attempts.append(what)
            pytest.fail(f"a model answer caused {what}: {args[1:2]!r}")

        return refuse

    monkeypatch.setattr(socket.socket, "connect", forbidden("a socket connection"))
    monkeypatch.setattr(socket.socket, "connect_ex", forbidden("a socket connection"))
    monkeypatch.setattr(socket, "getaddrinfo", forbidden("a DNS lookup"))
    monkeypatch.setattr(subprocess, "Popen", forbidden("a subprocess"))
    monkeypatch.setattr(os, "system", forbidden("os.system"))
    monkeypatch.setattr(os, "posix_spawn", forbidden("os.posix_spawn"))
    yield attempts
