"""Issue 12: the system prompts of workflow 2 describe their JSON schema in words, with no
placeholder value a weak model copies verbatim ("...", an example id such as doc-01)."""

from __future__ import annotations

import re

import pytest

from preuve.synthesis import planner, subagent, synthesizer


@pytest.mark.parametrize("module", [planner, subagent, synthesizer], ids=lambda m: m.__name__)
def test_a_system_prompt_holds_no_placeholder_value(module: object) -> None:
    prompt = vars(module)["_SYSTEM"]  # the system message every request of the role sends
    assert isinstance(prompt, str) and len(prompt) > 200
    assert "..." not in prompt and "…" not in prompt
    assert re.search(r"\bdoc-\d", prompt) is None  # no example id to copy
    assert re.search(r'"\w+"\s*:\s*"', prompt) is None  # no key with an example value
