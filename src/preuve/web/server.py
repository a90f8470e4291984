"""Run the viewer with uvicorn, bound to 127.0.0.1 unless told otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import uvicorn

from preuve.web.app import LOCAL_HOSTS, create_app

__all__ = ["allowed_hosts_for", "serve", "viewer_url"]

_ANY = ("0.0.0.0", "::", "")


def allowed_hosts_for(host: str) -> tuple[str, ...]:
    """The Host names to answer: local ones, plus the bound one; any when bound to all
    interfaces (the user asked for it with ``--host``)."""
    if host in _ANY:
        return ("*",)
    return tuple(dict.fromkeys((*LOCAL_HOSTS, host)))


def viewer_url(host: str, port: int) -> str:
    """The URL to open: an IPv6 address goes in brackets (``http://[::1]:8000/``)."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


def serve(
    run_dir: Path, host: str = "127.0.0.1", port: int = 8000, *, secrets: Sequence[str] = ()
) -> None:
    """Serve the viewer of ``run_dir`` until interrupted."""
    app = create_app(run_dir, secrets=secrets, allowed_hosts=allowed_hosts_for(host))
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        server_header=False,
        proxy_headers=False,
        lifespan="off",
        ws="none",
    )
