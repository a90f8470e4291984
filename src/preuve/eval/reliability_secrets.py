"""Secrets under attack: a real endpoint on 127.0.0.1 that echoes the API key it is sent.

:class:`EchoServer` is an OpenAI-compatible server (stdlib ``http.server``, in a thread)
whose every answer holds the key it received in the ``Authorization`` header (or in the
URL) in five forms: as is, upper-cased, lower-cased, base64 (alone and inside
``Bearer KEY`` and ``user:KEY``) and hex; in ``error`` mode it answers HTTP 422 with the
same echoes in the error message. :func:`run_secret_scenarios` runs real ``preuve``
processes (the three workflows, a key in an innocent URL parameter, a ``user:KEY@`` spec)
against it with ``OPENAI_API_KEY`` set and ``PREUVE_RECORD`` on, then reads back every
file each run wrote (run files, journals, stores, recordings, rates) and its stdout and
stderr, and reports each place an echo was found. The goal is none.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from preuve.eval.reliability_files import (
    REPORT_PAGES,
    write_digest_dossier,
    write_synthesis_dossier,
    write_text_pdf,
)
from preuve.eval.reliability_inputs import CliOutcome

__all__ = [
    "SECRET_KEY",
    "EchoServer",
    "SecretScenario",
    "SecretsOutcome",
    "echoes_of",
    "find_echoes",
    "run_secret_scenarios",
    "serving",
]

# A fake key, shaped like a real one; a leak of it is what this check looks for.
SECRET_KEY = "sk-proj-Q7vLx2Rk9TfW4mZp8HsJ3nBc6YdE1aGu"
_CLI = "import sys; from preuve.cli import main; sys.argv[0] = 'preuve'; main()"


def echoes_of(key: str) -> tuple[str, ...]:
    """The forms in which the server echoes ``key`` (what no file may hold afterwards)."""
    b64 = base64.b64encode
    return (
        key,
        key.upper(),
        key.lower(),
        b64(key.encode()).decode(),
        b64(f"Bearer {key}".encode()).decode(),
        b64(f"user:{key}".encode()).decode(),
        key.encode().hex(),
    )


def _sent_key(handler: BaseHTTPRequestHandler) -> str:
    auth = handler.headers.get("Authorization", "")
    query = dict(parse_qsl(urlsplit(handler.path).query))
    return query.get("x") or auth.removeprefix("Bearer ").strip()


class EchoServer:
    """An OpenAI-compatible endpoint that echoes the key in every answer (or error)."""

    def __init__(self, *, error: bool = False) -> None:
        self.requests = 0
        self.keys_seen: set[str] = set()
        self._error = error
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def _answer(self, key: str) -> tuple[int, dict[str, object]]:
        echo = " ".join(echoes_of(key))
        if self._error:
            return 422, {"error": {"message": f"invalid request for key {echo}"}}
        content = json.dumps({"note": f"your key is {echo}", "claims": [], "signals": []})
        message = {"role": "assistant", "content": content}
        return 200, {
            "id": "echo-1",
            "object": "chat.completion",
            "created": 1,
            "model": "echo",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                del format, args  # quiet

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                key = _sent_key(self)
                server.requests += 1
                server.keys_seen.add(key)
                status, body = server._answer(key)
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


@contextmanager
def serving(*, error: bool = False) -> Iterator[EchoServer]:
    server = EchoServer(error=error)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def find_echoes(blob: bytes, key: str = SECRET_KEY) -> tuple[str, ...]:
    """Which echo forms of ``key`` ``blob`` holds."""
    return tuple(form for form in echoes_of(key) if form.encode() in blob)


@dataclass(frozen=True, slots=True)
class SecretScenario:
    """One ``preuve`` run against the echo server; ``{url}`` and ``{d}`` are filled in."""

    id: str
    argv: tuple[str, ...]
    error: bool = False  # the server answers errors that echo the key
    env_key: bool = True  # OPENAI_API_KEY is set (else only the URL carries the key)
    bad_input: bool = False  # the spec itself is refused: exit 2, one line, no request


@dataclass(frozen=True, slots=True)
class SecretsOutcome:
    scenario: str
    outcome: CliOutcome
    files_read: int
    leaks: tuple[str, ...]  # "where: forms"
    requests: int
    key_sent: bool  # the backend did send the key (so the check is not vacuous)
    bad_input: bool = False
    redacted: int = 0  # files that hold "[REDACTED]": the echoes reached them, scrubbed

    def problems(self) -> tuple[str, ...]:
        """Leaks, and what else went wrong: a crash, a wrong exit, a vacuous run."""
        found = [f"secret found in {leak}" for leak in self.leaks]
        out = self.outcome
        if "Traceback (most recent call last)" in out.stdout + out.stderr:
            found.append("a traceback was printed")
        if self.bad_input:
            lines = [line for line in out.stderr.splitlines() if line.strip()]
            if out.exit_code != 2 or len(lines) != 1 or self.requests:
                found.append(f"exit {out.exit_code}, {len(lines)} stderr lines, {self.requests} "
                             "requests: expected exit 2, one line, no request")  # fmt: skip
        else:
            if out.exit_code not in (0, 1):
                found.append(f"exit {out.exit_code}: {out.stderr.strip()[-200:]!r}")
            if not self.key_sent:
                found.append("the key never reached the server: the check proves nothing")
        return tuple(found)


SCENARIOS = (
    SecretScenario("synthesize", ("synthesize", "{d}/dossier", "--out", "{d}/out",
                                  "--model", "openai:echo@{url}")),
    SecretScenario("digest-build", ("digest", "build", "{d}/digest", "--store", "{d}/store.sqlite",
                                    "--model", "openai:echo@{url}")),
    SecretScenario("memo", ("memo", "{d}/report.pdf", "--out", "{d}/out", "--rates",
                            "{d}/rates.jsonl", "--model", "openai:echo@{url}")),
    SecretScenario("key-in-url-parameter", ("synthesize", "{d}/dossier", "--out", "{d}/out",
                                            "--model", "openai:echo@{url}?x=" + SECRET_KEY),
                   env_key=False),
    SecretScenario("key-in-userinfo", ("synthesize", "{d}/dossier", "--out", "{d}/out",
                                       "--model", "openai:echo@http://user:" + SECRET_KEY
                                       + "@127.0.0.1:9/v1"), bad_input=True),
    SecretScenario("errors-echo-the-key", ("digest", "build", "{d}/digest", "--store",
                                           "{d}/store.sqlite", "--model", "openai:echo@{url}"),
                   error=True),
)  # fmt: skip


def _environment(folder: Path, *, with_key: bool) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PREUVE_") and k not in ("PYTEST_CURRENT_TEST", "OPENAI_API_KEY")
    }
    env.update(PREUVE_HOME=str(folder / "home"), PREUVE_RECORD=str(folder / "home/calls.jsonl"))
    if with_key:
        env["OPENAI_API_KEY"] = SECRET_KEY
    return env


def _run(argv: Sequence[str], env: dict[str, str]) -> CliOutcome:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", _CLI, *argv],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )
    return CliOutcome(done.returncode, done.stdout, done.stderr)


def _scan(folder: Path, outcome: CliOutcome) -> tuple[int, list[str], int]:
    """(files read, where an echo was found, files holding [REDACTED])."""
    leaks = []
    redacted = 0
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    for path in files:
        data = path.read_bytes()
        redacted += b"[REDACTED]" in data
        found = find_echoes(data)
        if found:
            leaks.append(f"{path.relative_to(folder)}: {len(found)} form(s)")
    for name, stream in (("stdout", outcome.stdout), ("stderr", outcome.stderr)):
        found = find_echoes(stream.encode())
        if found:
            leaks.append(f"{name}: {len(found)} form(s)")
    return len(files), leaks, redacted


def run_secret_scenarios(workdir: Path) -> list[SecretsOutcome]:
    """Every scenario in a folder of its own, against a fresh echo server."""
    results = []
    for scenario in SCENARIOS:
        folder = workdir / scenario.id
        write_synthesis_dossier(folder / "dossier")
        write_digest_dossier(folder / "digest")
        write_text_pdf(folder / "report.pdf", REPORT_PAGES)
        inputs = {p for p in folder.rglob("*") if p.is_file()}
        with serving(error=scenario.error) as server:
            argv = [
                a.replace("{d}", str(folder)).replace("{url}", server.url) for a in scenario.argv
            ]
            outcome = _run(argv, _environment(folder, with_key=scenario.env_key))
        for path in inputs:
            path.unlink()  # only what the run wrote is read back
        count, leaks, redacted = _scan(folder, outcome)
        results.append(
            SecretsOutcome(
                scenario.id,
                outcome,
                count,
                tuple(leaks),
                server.requests,
                any(SECRET_KEY in key for key in server.keys_seen),
                scenario.bad_input,
                redacted,
            )
        )
    return results
