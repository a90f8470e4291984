"""Request viewer pages in this process, without a socket: for memory measurements.

``python -m preuve.web.probe RUN_DIR LOAD CONCURRENCY URL...`` builds the viewer of
``RUN_DIR``, sends each URL (GET) straight to the ASGI app, one after the other, then
``LOAD`` more requests cycling over the URLs with up to ``CONCURRENCY`` in flight, and
prints one JSON object: ``{"answers": {url: [status, bytes]}, "load": {status: count}}``.
The reliability matrix runs it in a process of its own and reads that process's peak
resident memory: what the viewer holds to answer crafted PDFs, huge files, bad registries,
under load.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from preuve.web.app import create_app

__all__ = ["get", "load", "main"]


async def _get(app: Any, url: str) -> tuple[int, int]:
    parts = urlsplit(url)
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": parts.path,
        "raw_path": parts.path.encode(),
        "query_string": parts.query.encode(),
        "headers": [(b"host", b"127.0.0.1:8000")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    status = 0
    size = 0
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)  # no disconnect while the app answers
        sent = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, size
        if message["type"] == "http.response.start":
            status = int(message["status"])
        elif message["type"] == "http.response.body":
            size += len(message.get("body", b""))

    try:
        await app(scope, receive, send)
    except Exception:  # a 500 was sent first; it is counted as such
        status = status or 500
    return status, size


def get(app: Any, urls: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Each URL's (status, body bytes), requested one after the other."""
    return {url: asyncio.run(_get(app, url)) for url in urls}


async def _load(app: Any, urls: Sequence[str], total: int, concurrency: int) -> Counter[int]:
    gate = asyncio.Semaphore(concurrency)
    statuses: Counter[int] = Counter()

    async def one(url: str) -> None:
        async with gate:
            status, _ = await _get(app, url)
        statuses[status] += 1

    await asyncio.gather(*(one(urls[i % len(urls)]) for i in range(total)))
    return statuses


def load(app: Any, urls: Sequence[str], total: int, concurrency: int) -> dict[int, int]:
    """``total`` requests cycling over ``urls``, up to ``concurrency`` at once: status counts."""
    return dict(asyncio.run(_load(app, urls, total, concurrency))) if total and urls else {}


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    app = create_app(Path(args[0]))
    total, concurrency, urls = int(args[1]), int(args[2]), args[3:]
    answers = get(app, urls)
    counts = load(app, urls, total, concurrency)
    sys.stdout.write(json.dumps({"answers": answers, "load": counts}) + "\n")


if __name__ == "__main__":
    main()
