"""OpenAI-compatible servers on 127.0.0.1 that answer as the rules engine would, late.

The servers hold none of preuve's code, so the answers are rehearsed: :func:`rehearse` builds the
dossiers once in this process with the rules summarizer and keeps each answer under the
hash of the messages it answered; a server then looks a request's messages up and
answers that text after ``delay`` seconds. The builds through the servers verify exactly
as the rules engine's do (same answers), while every call really crosses a socket.

Each server counts its calls and the most it had in flight at once.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from preuve.core.documents import Snapshot
from preuve.digest.build import build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.summarize import DigestSettings
from preuve.io.stores import SqliteStore
from preuve.models.base import Completion, Model, ModelIdentity, Request

__all__ = ["RulesServer", "messages_hash", "rehearse", "running_servers"]


def messages_hash(messages: Sequence[Mapping[str, Any]]) -> str:
    pairs = [[str(m.get("role")), str(m.get("content"))] for m in messages]
    return hashlib.sha256(json.dumps(pairs).encode()).hexdigest()


@dataclass
class _Recorder:
    inner: Model
    answers: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        completion = self.inner.complete(request)
        key = messages_hash([{"role": m.role, "content": m.content} for m in request.messages])
        with self.lock:
            self.answers[key] = completion.text
        return completion


def rehearse(
    snapshots: Sequence[Snapshot], settings: DigestSettings, store: SqliteStore
) -> dict[str, str]:
    """The rules summarizer's answer to every request building ``snapshots`` will send."""
    recorder = _Recorder(rules_summarizer())
    for number, snapshot in enumerate(snapshots):
        build_digest(snapshot, recorder, store, settings, mode="full", dossier=f"r{number}")
    return recorder.answers


class RulesServer:
    """Answers rehearsed requests after ``delay`` s (404 for an unknown one); counts."""

    def __init__(self, answers: Mapping[str, str], delay: float) -> None:
        self.answers, self.delay = answers, delay
        self.calls = 0
        self.in_flight = 0
        self.peak = 0
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.httpd.daemon_threads = True
        self.httpd.request_queue_size = 256
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def enter(self) -> None:
        with self.lock:
            self.calls += 1
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)

    def leave(self) -> None:
        with self.lock:
            self.in_flight -= 1


def _body(text: str) -> bytes:
    return json.dumps(
        {
            "id": "rules",
            "object": "chat.completion",
            "created": 0,
            "model": "rules",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    ).encode()


def _handler(server: RulesServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
            server.enter()
            try:
                threading.Event().wait(server.delay)
                text = server.answers.get(messages_hash(body.get("messages", [])))
            finally:
                server.leave()
            status, payload = (200, _body(text)) if text is not None else (404, b"{}")
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler


@contextmanager
def running_servers(
    count: int, answers: Mapping[str, str], delay: float
) -> Iterator[list[RulesServer]]:
    servers = [RulesServer(answers, delay) for _ in range(count)]
    for server in servers:
        server.thread.start()
    try:
        yield servers
    finally:
        for server in servers:
            server.httpd.shutdown()
            server.httpd.server_close()
