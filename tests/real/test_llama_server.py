"""The real llama.cpp server (llama-cpp-python's, built by `make real-model`) serving the
real SmolLM2 file: the format ladder lands on the form it takes, and the answer it
constrains with the schema passes the strict parser. Skipped, with its reason, when the
server is not installed. One server process, small n_ctx and max_tokens (2 cores)."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from preuve.core.jsonout import parse_model_json
from preuve.models.base import Request, messages_of
from preuve.models.openai import OpenAIModel, ResponseFormatLevel
from tests.models.loopback import free_port

ROOT = Path(__file__).resolve().parents[2]
PYTHON_ENV = "PREUVE_LLAMA_PYTHON"
SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
    "required": ["answer"],
    "additionalProperties": False,
}


def _server_python() -> Path:
    candidates = [Path(os.environ[PYTHON_ENV])] if os.environ.get(PYTHON_ENV) else []
    candidates.append(ROOT / ".llama-venv/bin/python")
    for python in candidates:
        if python.is_file():
            probe = subprocess.run(
                [str(python), "-c", "import llama_cpp.server"], capture_output=True, check=False
            )
            if probe.returncode == 0:
                return python
    pytest.skip(
        f"llama.cpp's server is not installed (run `make real-model`, or set {PYTHON_ENV} to "
        "a python with llama-cpp-python[server])"
    )


@pytest.fixture(scope="module")
def llama_server(smollm2_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    python = _server_python()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    port = free_port()
    command = [
        str(python), "-m", "llama_cpp.server", "--model", str(smollm2_path),
        "--n_ctx", "2048", "--n_threads", "2", "--host", "127.0.0.1", "--port", str(port),
    ]  # fmt: skip
    with log.open("wb") as sink:  # a file, not a pipe: a full pipe would block the server
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                err = (
                    process.stderr.read().decode(errors="replace")[-300:] if process.stderr else ""
                )
                pytest.fail(f"the llama.cpp server exited with {process.returncode}: {err}")
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("the llama.cpp server did not start within 60 s")
                time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_the_ladder_and_the_schema_on_the_real_server(llama_server: str) -> None:
    request = Request(
        messages_of([("user", "Is Paris in France? Answer in JSON.")]),
        task="t.ask",
        response_schema=SCHEMA,
        max_new_tokens=16,
    )
    with OpenAIModel(
        "smollm2", llama_server, env={}, timeout=120, max_retries=1, allow_network=True
    ) as model:
        completion = model.complete(request)
        assert model.response_format_level is ResponseFormatLevel.JSON_OBJECT_SCHEMA
    assert completion.prompt_tokens > 0 and 0 < completion.generated_tokens <= 16
    if completion.finish_reason == "stop":  # a complete constrained answer follows the schema
        parsed = parse_model_json(completion.text, SCHEMA)
        assert parsed.ok, parsed.defects
