"""``hf:`` on a real .gguf file: identity, dtype, context window, exact counts, generation."""

from __future__ import annotations

from pathlib import Path

from preuve.models.base import Request, messages_of
from preuve.models.budget import counter_for
from preuve.models.hf import HFModel, gguf_identity
from preuve.models.secrets import ScrubbingModel
from preuve.models.spec import load_model

QUESTION = messages_of([("user", "Say OK.")])


def test_the_gguf_file_loads_as_float32_with_its_context_and_template(smollm2: HFModel) -> None:
    assert (smollm2.dtype, smollm2.context_window) == ("float32", 8192)
    identity = smollm2.identity
    assert (identity.backend, identity.name) == ("hf", "SmolLM2-135M-Instruct.Q4_1")
    assert len(identity.tokenizer) == 16 and len(identity.version) == 16


def test_identity_digests_the_file(tmp_path: Path, smollm2_path: Path) -> None:
    copy = tmp_path / smollm2_path.name
    copy.write_bytes(smollm2_path.read_bytes())
    same = gguf_identity(copy, runtime="r")
    assert same == gguf_identity(smollm2_path, runtime="r")
    with copy.open("r+b") as handle:  # one byte of the weights changed
        handle.seek(-1, 2)
        last = handle.read(1)
        handle.seek(-1, 2)
        handle.write(bytes([last[0] ^ 1]))
    changed = gguf_identity(copy, runtime="r")
    assert changed.version != same.version and changed.tokenizer != same.tokenizer


def test_prompt_counts_are_exact_and_match_generation(smollm2: HFModel) -> None:
    counter = counter_for(smollm2)
    assert counter.exact
    counted = counter.count_prompt_tokens(QUESTION)
    completion = smollm2.complete(Request(QUESTION, task="t", max_new_tokens=4))
    assert completion.prompt_tokens == counted
    assert completion.token_ids is not None
    assert len(completion.token_ids) == completion.generated_tokens
    if completion.finish_reason == "length":
        assert completion.generated_tokens == 4
    else:
        assert completion.finish_reason == "stop" and 1 <= completion.generated_tokens <= 4


def test_the_hf_spec_takes_the_gguf_file(smollm2_path: Path) -> None:
    model = load_model(f"hf:{smollm2_path}", rules=None, env={})
    assert isinstance(model, ScrubbingModel) and isinstance(model.inner, HFModel)
    assert model.identity.name == "SmolLM2-135M-Instruct.Q4_1"


def test_the_schema_is_enforced_during_generation(smollm2: HFModel) -> None:
    from preuve.core.jsonout import parse_model_json

    assert smollm2.constrained_by is not None  # make test installs lm-format-enforcer
    schema = {
        "type": "object",
        "properties": {"sentence": {"type": "string", "enum": ["p1-s1", "p2-s4"]}},
        "required": ["sentence"],
        "additionalProperties": False,
    }
    request = Request(
        messages_of([("user", "Pick the sentence about debt. Answer in JSON.")]),
        task="t",
        response_schema=schema,
        max_new_tokens=24,
    )
    completion = smollm2.complete(request)
    assert completion.finish_reason == "stop"  # the grammar closes the object, then EOS
    parsed = parse_model_json(completion.text, schema)
    assert parsed.ok, parsed.defects
    assert isinstance(parsed.value, dict) and parsed.value["sentence"] in ("p1-s1", "p2-s4")
