"""Constrained decoding for the ``hf`` backend: the request's JSON schema enforced while the
model generates, with lm-format-enforcer (optional: the extra ``local``).

At each step only the tokens that keep the output a valid prefix of a JSON value following
the schema are allowed (``prefix_allowed_tokens_fn``), so a model cannot write prose, an
unknown key or an id outside an ``enum``. The answer still goes through the strict parser
and every check: constraining is a help to the model, never a substitute for checking.

lm-format-enforcer's own transformers integration (0.11.3) does not import under
transformers 5 (it imports ``transformers.tokenization_utils.PreTrainedTokenizerBase``), so
the tokenizer data is built here with the same recipe: each regular token decoded after a
``0`` to see whether it starts a word. It is built once per model (one pass over the
vocabulary) and reused by every request.

Why this library (measured in ``benchmarks/constrained.py``): it is pure Python on top of
the installed transformers and torch; xgrammar 0.2.8 pulls triton (hundreds of MB) into a
CPU-only install, against the 10-minute budget of a clean ``make test``.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import threading
from collections.abc import Callable, Collection, Mapping
from typing import Any

__all__ = ["SchemaConstraint", "constraint_library"]

LIBRARY = "lm-format-enforcer"


def constraint_library() -> str | None:
    """``lm-format-enforcer <version>`` when it is installed and importable, else None."""
    try:
        importlib.import_module("lmformatenforcer")
    except ImportError:
        return None
    return f"{LIBRARY} {importlib.metadata.version(LIBRARY)}"


def _decode(tokenizer: Any, tokens: list[int]) -> str:
    return str(tokenizer.decode(tokens)).rstrip("\ufffd")


class SchemaConstraint:
    """Builds, per request, the function ``generate`` calls to restrict the next token."""

    def __init__(self, tokenizer: Any, eos_ids: Collection[int]) -> None:
        self._tokenizer = tokenizer
        self._eos_ids = sorted(eos_ids)
        self._data: Any = None
        self._lock = threading.Lock()

    def _tokenizer_data(self) -> Any:
        with self._lock:
            if self._data is None:
                enforcer = importlib.import_module("lmformatenforcer.tokenenforcer")
                tokenizer = self._tokenizer
                vocab_size = len(tokenizer)
                special = set(tokenizer.all_special_ids)
                zero = tokenizer.encode("0", add_special_tokens=False)[-1]
                regular = []
                for token in range(vocab_size):
                    if token in special:
                        continue
                    after_zero = str(tokenizer.decode([zero, token]))[1:]
                    alone = str(tokenizer.decode([token]))
                    regular.append((token, after_zero, len(after_zero) > len(alone)))
                self._data = enforcer.TokenEnforcerTokenizerData(
                    regular,
                    functools.partial(_decode, tokenizer),
                    self._eos_ids,
                    False,
                    vocab_size,
                )
            return self._data

    def allowed_tokens_fn(self, schema: Mapping[str, Any]) -> Callable[[int, Any], list[int]]:
        """The ``prefix_allowed_tokens_fn`` for one generation under ``schema``."""
        parser_module = importlib.import_module("lmformatenforcer")
        enforcer_module = importlib.import_module("lmformatenforcer.tokenenforcer")
        parser = parser_module.JsonSchemaParser(dict(schema))
        enforcer = enforcer_module.TokenEnforcer(self._tokenizer_data(), parser)

        def allowed(_batch: int, sequence: Any) -> list[int]:
            return list(enforcer.get_allowed_tokens(sequence.tolist()).allowed_tokens)

        return allowed
