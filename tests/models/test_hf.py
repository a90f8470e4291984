"""The hf backend, run on a tiny Qwen2 model and tokenizer that this file builds (no download).

The model is random (fixed seed), so its text is noise; what is checked is the contract:
greedy ids equal a hand-written argmax loop, ids and counts agree, the chat template is
counted, finish reasons, identity digests and one-line errors.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import (
    AutoModelForCausalLM,
    GenerationConfig,
    PreTrainedTokenizerFast,
    Qwen2Config,
    Qwen2ForCausalLM,
)

from preuve.core.errors import ConfigError, ModelError
from preuve.models.base import Message, Model, Request, messages_of, request_hash
from preuve.models.hf import HFModel, finish_reason_of, folder_identity, pick_dtype

DEFAULT_SYSTEM = "You are a careful analyst."
# Qwen-like: ChatML markers and a default system turn when the caller gives none.
CHAT_TEMPLATE = (
    "{% if messages[0]['role'] != 'system' %}"
    "<|im_start|>system\n" + DEFAULT_SYSTEM + "<|im_end|>\n"
    "{% endif %}"
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
ENDOFTEXT, IM_END = 0, 2  # ids the BPE trainer gives the special tokens, in order
TRAINING_TEXT = [
    "The revenue grew by ten percent in 2024, page 12 of the annual report.",
    "Le chiffre d'affaires a progressé de 12,5 % sur l'exercice.",
    "Quote the exact sentence and give its page number.",
    "system user assistant",
]
QUESTION = messages_of([("user", "Quote the revenue growth and its page.")])


def build_tokenizer(folder: Path) -> PreTrainedTokenizerFast:
    raw = Tokenizer(models.BPE())
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    raw.train_from_iterator(TRAINING_TEXT, trainer=trainer)
    assert raw.token_to_id("<|endoftext|>") == ENDOFTEXT
    assert raw.token_to_id("<|im_end|>") == IM_END
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        chat_template=CHAT_TEMPLATE,
    )
    tokenizer.save_pretrained(folder)
    return tokenizer


def build_model(folder: Path, vocab_size: int, *, flat_logits: bool = False) -> None:
    """A random 2-layer Qwen2; ``flat_logits`` zeroes the final norm so every logit is 0."""
    torch.manual_seed(1234)
    config = Qwen2Config(
        vocab_size=vocab_size,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=512,
        initializer_range=0.2,  # large enough that greedy output is not one repeated token
        tie_word_embeddings=False,
        bos_token_id=None,
        eos_token_id=[IM_END, ENDOFTEXT],
        pad_token_id=ENDOFTEXT,
    )
    model = Qwen2ForCausalLM(config)
    if flat_logits:
        with torch.no_grad():
            model.model.norm.weight.zero_()
    # The sampling defaults Qwen2.5 ships: the backend must ignore them.
    model.generation_config = GenerationConfig(
        do_sample=True,
        temperature=0.7,
        top_p=0.8,
        top_k=20,
        repetition_penalty=1.05,
        eos_token_id=[IM_END, ENDOFTEXT],
        pad_token_id=ENDOFTEXT,
    )
    model.save_pretrained(folder)


def build_folder(folder: Path, *, flat_logits: bool = False) -> Path:
    tokenizer = build_tokenizer(folder)
    build_model(folder, len(tokenizer), flat_logits=flat_logits)
    return folder


@pytest.fixture(scope="module")
def models_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")
        root = tmp_path_factory.mktemp("hf-models")
        build_folder(root / "tiny-qwen2")
        build_folder(root / "flat-qwen2", flat_logits=True)
        yield root


@pytest.fixture(scope="module")
def tiny_dir(models_root: Path) -> Path:
    return models_root / "tiny-qwen2"


@pytest.fixture(scope="module")
def tiny(tiny_dir: Path) -> HFModel:
    return HFModel(tiny_dir)


@pytest.fixture(scope="module")
def tiny_fp32(tiny_dir: Path) -> HFModel:
    return HFModel(tiny_dir, dtype="float32")


@pytest.fixture(scope="module")
def raw_tokenizer(tiny_dir: Path) -> Tokenizer:
    return Tokenizer.from_file(str(tiny_dir / "tokenizer.json"))


def render_chatml(messages: Sequence[Message]) -> str:
    """What the chat template must produce, written out by hand."""
    head = (
        "" if messages[0].role == "system" else f"<|im_start|>system\n{DEFAULT_SYSTEM}<|im_end|>\n"
    )
    turns = "".join(f"<|im_start|>{m.role}\n{m.content}<|im_end|>\n" for m in messages)
    return head + turns + "<|im_start|>assistant\n"


def argmax_oracle(folder: Path, messages: Sequence[Message], max_new_tokens: int) -> list[int]:
    """Greedy decoding by hand: full forward pass, argmax, no cache, no logits processor."""
    raw = Tokenizer.from_file(str(folder / "tokenizer.json"))
    ids = raw.encode(render_chatml(messages)).ids
    model = AutoModelForCausalLM.from_pretrained(
        folder, local_files_only=True, dtype=torch.float32, attn_implementation="eager"
    )
    new: list[int] = []
    with torch.inference_mode():
        for _ in range(max_new_tokens):
            logits = model(torch.tensor([ids + new])).logits
            new.append(int(logits[0, -1].argmax()))
            if new[-1] in (IM_END, ENDOFTEXT):
                break
    return new


# --- completions ----------------------------------------------------------------------------


def test_completion_ids_text_and_counts_agree(tiny: HFModel, raw_tokenizer: Tokenizer) -> None:
    completion = tiny.complete(Request(messages=QUESTION, max_new_tokens=12))
    assert isinstance(tiny, Model)
    assert completion.token_ids is not None
    assert all(type(i) is int for i in completion.token_ids)
    assert completion.generated_tokens == len(completion.token_ids)
    assert 0 < completion.generated_tokens <= 12
    assert completion.prompt_tokens == tiny.count_prompt_tokens(QUESTION)
    expected_text = raw_tokenizer.decode(list(completion.token_ids), skip_special_tokens=True)
    assert completion.text == expected_text
    assert completion.text
    assert completion.seconds > 0


@pytest.mark.parametrize(
    "messages",
    [
        pytest.param(QUESTION, id="user-only"),
        pytest.param(
            messages_of([("system", "Answer in French."), ("user", "Le chiffre d'affaires ?")]),
            id="system-and-user",
        ),
    ],
)
def test_greedy_ids_equal_a_hand_written_argmax_loop(
    tiny_fp32: HFModel, tiny_dir: Path, messages: tuple[Message, ...]
) -> None:
    completion = tiny_fp32.complete(Request(messages=messages, max_new_tokens=16))
    expected = argmax_oracle(tiny_dir, messages, 16)
    # A repeated id means a repetition penalty (which the checkpoint asks for) would show.
    assert len(set(expected)) < len(expected)
    assert completion.token_ids == tuple(expected)


def test_two_calls_give_the_same_ids(tiny: HFModel) -> None:
    request = Request(messages=QUESTION, max_new_tokens=10)
    first, second = tiny.complete(request), tiny.complete(request)
    assert first.token_ids == second.token_ids
    assert first.text == second.text


def test_concurrent_calls_equal_serial_calls(tiny: HFModel) -> None:
    prompts = [messages_of([("user", f"Quote page {n}.")]) for n in range(4)]
    requests = [Request(messages=m, max_new_tokens=6) for m in prompts]
    serial = [tiny.complete(r).token_ids for r in requests]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda r: tiny.complete(r).token_ids, requests))
        counts = list(pool.map(tiny.count_prompt_tokens, prompts * 4))
    assert parallel == serial
    assert counts == [tiny.count_prompt_tokens(m) for m in prompts * 4]


def test_hitting_max_new_tokens_without_eos_is_length(tiny: HFModel) -> None:
    completion = tiny.complete(Request(messages=QUESTION, max_new_tokens=5))
    assert completion.token_ids is not None
    assert completion.generated_tokens == 5
    assert not {IM_END, ENDOFTEXT} & set(completion.token_ids)
    assert completion.finish_reason == "length"


def test_unset_max_new_tokens_falls_back_to_the_model_default(tiny_dir: Path) -> None:
    short = HFModel(tiny_dir, max_new_tokens_default=3)
    completion = short.complete(Request(messages=QUESTION, max_new_tokens=0))
    assert completion.generated_tokens == 3
    assert completion.finish_reason == "length"


@pytest.mark.parametrize("max_new_tokens", [1, 8], ids=["budget-1", "budget-8"])
def test_ending_on_eos_is_stop(models_root: Path, max_new_tokens: int) -> None:
    # All logits equal: greedy picks id 0, which is <|endoftext|>, one of the EOS ids.
    flat = HFModel(models_root / "flat-qwen2", dtype="float32")
    completion = flat.complete(Request(messages=QUESTION, max_new_tokens=max_new_tokens))
    assert completion.token_ids == (ENDOFTEXT,)
    assert completion.generated_tokens == 1
    assert completion.text == ""
    assert completion.finish_reason == "stop"


@pytest.mark.parametrize(
    ("ids", "budget", "expected"),
    [
        pytest.param((5, 6, 7), 3, "length", id="full-budget-no-eos"),
        pytest.param((5, 6, 2), 3, "stop", id="eos-on-the-last-allowed-token"),
        pytest.param((2,), 1, "stop", id="eos-first"),
        pytest.param((5, 6), 3, "stop", id="short-without-eos"),
        pytest.param((), 3, "stop", id="nothing-generated"),
    ],
)
def test_finish_reason_of(ids: tuple[int, ...], budget: int, expected: str) -> None:
    assert finish_reason_of(ids, budget, {0, 2}) == expected


# --- prompt token counting ------------------------------------------------------------------

COUNT_CASES = [
    pytest.param(QUESTION, id="user-only"),
    pytest.param(messages_of([("system", "Be brief."), ("user", "Page?")]), id="system-and-user"),
    pytest.param(
        messages_of([("user", "Quote it."), ("assistant", '{"quote": "ten"}'), ("user", "Again.")]),
        id="multi-turn",
    ),
]


@pytest.mark.parametrize("messages", COUNT_CASES)
def test_count_prompt_tokens_counts_the_chat_template(
    tiny: HFModel, raw_tokenizer: Tokenizer, messages: tuple[Message, ...]
) -> None:
    expected = len(raw_tokenizer.encode(render_chatml(messages)).ids)
    content_only = sum(len(raw_tokenizer.encode(m.content).ids) for m in messages)
    assert tiny.count_prompt_tokens(messages) == expected
    assert expected > content_only
    assert HFModel.tokens_exact is True


# --- dtype and identity ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requested", "native", "expected"),
    [
        pytest.param("auto", True, "bfloat16", id="auto-with-native-bf16"),
        pytest.param("auto", False, "float32", id="auto-without-native-bf16"),
        pytest.param("bfloat16", False, "bfloat16", id="explicit-bf16-kept"),
        pytest.param("float16", True, "float16", id="explicit-fp16-kept"),
        pytest.param("float32", True, "float32", id="explicit-fp32-kept"),
    ],
)
def test_pick_dtype(requested: str, native: bool, expected: str) -> None:
    assert pick_dtype(requested, bf16_native=native) == expected


def _edit_json(path: Path, edit: Callable[[dict[str, object]], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def _add_token(data: dict[str, object]) -> None:
    added = data["added_tokens"]
    assert isinstance(added, list)
    added.append(
        {"id": 300, "content": "<|extra|>", "single_word": False, "lstrip": False}
        | {"rstrip": False, "normalized": False, "special": True}
    )


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


IDENTITY_EDITS: list[object] = [
    pytest.param(lambda d: None, set[str](), id="untouched-copy-elsewhere"),
    pytest.param(
        lambda d: _append(d / "chat_template.jinja", "{# v2 #}"), {"tokenizer"}, id="chat-template"
    ),
    pytest.param(
        lambda d: _edit_json(d / "tokenizer.json", _add_token), {"tokenizer"}, id="tokenizer-vocab"
    ),
    pytest.param(
        lambda d: _edit_json(d / "config.json", lambda c: c.update(rms_norm_eps=1e-5)),
        {"version"},
        id="model-config",
    ),
]


@pytest.mark.parametrize(("edit", "changed"), IDENTITY_EDITS)
def test_identity_follows_tokenizer_and_model_files(
    tiny: HFModel, tiny_dir: Path, tmp_path: Path, edit: Callable[[Path], None], changed: set[str]
) -> None:
    copy = shutil.copytree(tiny_dir, tmp_path / "elsewhere" / tiny_dir.name)
    edit(copy)
    before, after = tiny.identity, HFModel(copy).identity
    assert after.backend == "hf"
    assert after.name == "tiny-qwen2"
    assert {
        f for f in ("tokenizer", "version") if getattr(before, f) != getattr(after, f)
    } == changed
    same_request = Request(messages=QUESTION)
    assert (request_hash(same_request, before) == request_hash(same_request, after)) == (
        not changed
    )


def test_identity_records_the_dtype(tiny_dir: Path) -> None:
    bf16, fp32 = HFModel(tiny_dir, dtype="bfloat16"), HFModel(tiny_dir, dtype="float32")
    assert bf16.identity.tokenizer == fp32.identity.tokenizer
    assert bf16.identity.version != fp32.identity.version


def test_identity_of_a_hub_snapshot_is_its_repo_id(tiny_dir: Path, tmp_path: Path) -> None:
    snapshot = tmp_path / "models--Qwen--Tiny-Instruct" / "snapshots" / "0123abcd"
    shutil.copytree(tiny_dir, snapshot)
    identity = folder_identity(snapshot, runtime="test")
    assert identity.name == "Qwen/Tiny-Instruct"
    assert identity.tokenizer == folder_identity(tiny_dir, runtime="test").tokenizer


# --- errors ---------------------------------------------------------------------------------


def _no_config(folder: Path) -> Path:
    (folder / "config.json").unlink()
    return folder


def _no_chat_template(folder: Path) -> Path:
    (folder / "chat_template.jinja").unlink()
    return folder


ERROR_CASES: list[object] = [
    pytest.param(lambda d: (d.parent / "absent", {}), "not found", id="missing-folder"),
    pytest.param(lambda d: (d / "config.json", {}), "not found", id="a-file-not-a-folder"),
    pytest.param(lambda d: (_no_config(d), {}), "no config.json", id="no-config"),
    pytest.param(lambda d: (_no_chat_template(d), {}), "no chat template", id="no-chat-template"),
    pytest.param(lambda d: (d, {"dtype": "int8"}), "unknown dtype", id="unknown-dtype"),
    pytest.param(lambda d: (d, {"device": "toaster"}), "unknown torch device", id="bad-device"),
    pytest.param(lambda d: (d, {"device": "cuda:99"}), "not available", id="absent-gpu"),
]


@pytest.mark.parametrize(("setup", "needle"), ERROR_CASES)
def test_bad_setup_is_a_one_line_config_error(
    tiny_dir: Path,
    tmp_path: Path,
    setup: Callable[[Path], tuple[Path, dict[str, str]]],
    needle: str,
) -> None:
    folder, options = setup(shutil.copytree(tiny_dir, tmp_path / "model"))
    with pytest.raises(ConfigError) as caught:
        HFModel(folder, dtype=options.get("dtype", "auto"), device=options.get("device", "cpu"))
    assert needle in str(caught.value)
    assert "\n" not in str(caught.value)


def test_missing_libraries_say_how_to_install(
    tiny_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(ConfigError, match=r"pip install 'preuve\[local\]'") as caught:
        HFModel(tiny_dir)
    assert "\n" not in str(caught.value)


def test_importing_the_backend_does_not_import_torch() -> None:
    probe = (
        "import sys, preuve.models.hf; print('torch' in sys.modules, 'transformers' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == ["False", "False"]


def test_a_template_that_rejects_the_messages_is_a_one_line_model_error(
    tiny_dir: Path, tmp_path: Path
) -> None:
    strict = tmp_path / "strict-qwen2"
    shutil.copytree(tiny_dir, strict)
    (strict / "chat_template.jinja").write_text(
        "{{ raise_exception('Conversation roles must alternate user/assistant') }}",
        encoding="utf-8",
    )
    model = HFModel(strict)
    for call in (
        lambda: model.count_prompt_tokens(QUESTION),
        lambda: model.complete(Request(messages=QUESTION, max_new_tokens=2)),
    ):
        with pytest.raises(ModelError) as caught:
            call()
        message = str(caught.value)
        assert "rejected the messages" in message and "must alternate" in message
        assert "\n" not in message
