"""A fake OpenAI-compatible server on 127.0.0.1, run in a thread by the tests themselves.

The openai SDK sends through httpx2, which respx and pytest-httpx do not see, so the
backend is tested end to end over a real socket. The server answers chat requests from a
queue of :class:`Reply` (or a default answer), records every request it received, and
counts hits on any other path (e.g. ``/pwned``, which nothing must ever fetch).
"""

from __future__ import annotations

import json
import socket
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["KEY", "ChatServer", "Received", "Reply", "chat_body", "free_port", "running_server"]

KEY = "sk-test-SECRET-0123456789abcdef"


def chat_body(
    content: str | None = "ok",
    *,
    finish_reason: str | None = "stop",
    usage: tuple[int, int] | None = (11, 2),
    message_extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A chat-completions body as an OpenAI-compatible server sends it."""
    message: dict[str, Any] = {"role": "assistant", "content": content, **(message_extra or {})}
    body: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "test-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
    }
    if usage is not None:
        body["usage"] = {
            "prompt_tokens": usage[0],
            "completion_tokens": usage[1],
            "total_tokens": sum(usage),
        }
    return body


@dataclass(frozen=True, slots=True)
class Reply:
    status: int = 200
    body: dict[str, Any] | str = field(default_factory=chat_body)
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0


@dataclass(frozen=True, slots=True)
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class ChatServer:
    """Replies from ``replies`` in order, then from ``default``; records what it got."""

    def __init__(self, default: Callable[[Received], Reply] | None = None) -> None:
        self.replies: deque[Reply] = deque()
        self.received: list[Received] = []
        self.hits: Counter[str] = Counter()
        self.default = default or (lambda _received: Reply())
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        # A client that gave up (timeout test) makes the late write fail: not a test error.
        self._httpd.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def queue(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def _serve(self) -> None:
        # A short poll makes shutdown() return at once instead of after 0.5 s.
        self._httpd.serve_forever(poll_interval=0.01)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def next_reply(self, received: Received) -> Reply:
        with self._lock:
            self.received.append(received)
            self.hits[received.path] += 1
            if self.replies:
                return self.replies.popleft()
        return self.default(received)

    def count_hit(self, path: str) -> None:
        with self._lock:
            self.hits[path] += 1


def _handler_for(server: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in two writes: without this, Nagle's algorithm and the
        # client's delayed ACK add ~40 ms to every answer.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            return  # keep test output clean

        def do_GET(self) -> None:
            server.count_hit(self.path)
            self._send(Reply(status=404, body={"error": {"message": "not found"}}))

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            raw = self.rfile.read(length)
            body = json.loads(raw) if raw else {}
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = server.next_reply(Received(self.path, headers, body))
            if reply.delay:
                server.stopping.wait(reply.delay)
            self._send(reply)

        def _send(self, reply: Reply) -> None:
            data = (reply.body if isinstance(reply.body, str) else json.dumps(reply.body)).encode()
            self.send_response(reply.status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in reply.headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


@contextmanager
def running_server(default: Callable[[Received], Reply] | None = None) -> Iterator[ChatServer]:
    server = ChatServer(default)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def free_port() -> int:
    """A port nothing listens on (bound then released), for connection-refused tests."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
