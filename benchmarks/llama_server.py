"""llama.cpp's OpenAI-compatible server for the real-model benchmarks: started on a free
loopback port with the SmolLM2 file, waited for, and stopped whatever happens."""

from __future__ import annotations

import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from preuve.models.openai import OpenAIModel

__all__ = ["serving"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait(url: str, process: subprocess.Popen[bytes], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the llama.cpp server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"the llama.cpp server did not start within {seconds:.0f} s")


@contextmanager
def serving(
    python: Path | str, gguf: Path, threads: int, *, batch_threads: int | None = None
) -> Iterator[OpenAIModel]:
    """A model talking to a llama.cpp server of ``gguf`` (8 192-token context, ``threads``
    generation threads, ``batch_threads`` for prefill when given), stopped on exit."""
    port = _free_port()
    command = [
        str(python), "-m", "llama_cpp.server", "--model", str(gguf), "--n_ctx", "8192",
        "--n_threads", str(threads),
        *(["--n_threads_batch", str(batch_threads)] if batch_threads is not None else []),
        "--host", "127.0.0.1", "--port", str(port),
    ]  # fmt: skip
    url = f"http://127.0.0.1:{port}/v1"
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait(url, process, 120)
            with OpenAIModel(
                "smollm2", url, env={}, timeout=900, max_retries=0, allow_network=True
            ) as model:
                yield model
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
