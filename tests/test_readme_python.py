"""The README's Python blocks run as they are written (each in a fresh namespace and folder)."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

README = Path(__file__).parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```$", README.read_text(encoding="utf-8"), re.S | re.M)


def test_the_readme_has_its_python_blocks() -> None:
    # quote check, number check, the three workflows, the pydantic-ai validator
    assert len(BLOCKS) == 4
    assert all("import preuve" in block for block in BLOCKS)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_python_block_runs(
    index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # as a reader runs it: a module of its own, without this file's __future__ imports
    module = types.ModuleType(f"readme_block_{index + 1}")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    code = compile(BLOCKS[index], f"README.md python block {index + 1}", "exec", dont_inherit=True)
    exec(code, module.__dict__)
