"""Concurrency benchmark: independent model calls, serial versus eight at a time.

Starts an OpenAI-compatible server on 127.0.0.1 that answers each chat request after
200 ms, then sends 64 requests through the real ``openai`` backend
(:class:`preuve.models.OpenAIModel` driven by :func:`preuve.models.complete_many`), at
concurrency 1 and then 8. Prints both wall times and their ratio; the goal is ≥ 6×
(8× is the ceiling). Exits 1 when the goal is missed.

    .venv/bin/python benchmarks/concurrency.py [--requests 64] [--delay 0.2] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from preuve.models import Completion, OpenAIModel, Request, complete_many, messages_of

__all__ = ["main", "measure"]

GOAL = 6.0


def _body(content: str) -> bytes:
    return json.dumps(
        {
            "id": "bench",
            "object": "chat.completion",
            "created": 0,
            "model": "bench",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11},
        }
    ).encode()


def _server(delay: float) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in two writes: without this, Nagle's algorithm and the
        # client's delayed ACK add ~40 ms to every answer.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers["content-length"])))
            time.sleep(delay)  # the "model" thinks
            data = _body(request["messages"][-1]["content"])
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    return server


def measure(model: OpenAIModel, requests: Sequence[Request], concurrency: int) -> float:
    """Wall seconds to complete every request; raises if any answer is wrong."""
    started = time.perf_counter()
    results = complete_many(model, requests, concurrency=concurrency)
    seconds = time.perf_counter() - started
    for request, result in zip(requests, results, strict=True):
        if not isinstance(result, Completion) or result.text != request.messages[-1].content:
            raise SystemExit(f"wrong answer for {request.task}: {result!r}")
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--requests", type=int, default=64)
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args(argv)

    server = _server(args.delay)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    requests = [
        Request(messages_of([("user", f"request {i}")]), task=f"bench.{i}")
        for i in range(args.requests)
    ]
    try:
        with OpenAIModel("bench", url, env={}, max_retries=0, allow_network=True) as model:
            measure(model, requests[:2], 2)  # warm-up: imports, first connections
            serial = measure(model, requests, 1)
            parallel = measure(model, requests, args.concurrency)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()

    ratio = serial / parallel
    verdict = "met" if ratio >= GOAL else "MISSED"
    print(f"{args.requests} requests, server answers after {args.delay * 1000:.0f} ms")
    print(f"concurrency 1:  {serial:6.2f} s")
    print(f"concurrency {args.concurrency}:  {parallel:6.2f} s")
    print(f"ratio: {ratio:.2f}x (goal >= {GOAL:g}x: {verdict})")
    return 0 if ratio >= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
