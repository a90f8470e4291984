"""Record real model calls to a JSONL file, and replay them deterministically.

:class:`RecordingModel` wraps a model and appends one line per call, keyed by
:func:`request_hash` of the request: the messages and settings (scrubbed of every known
secret value), the model identity, and the completion or the backend's ModelError. Headers
and keys are never written: a request carries none, and any secret value found in a text
is replaced by ``[REDACTED]``.

:class:`ReplayModel` answers from such a file. The same request always gets the same
recorded answer (the last one recorded for its hash); a request never recorded is a
:class:`ModelError` that says how to record it.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from preuve.core.errors import ConfigError, ModelError
from preuve.models.base import Completion, Model, ModelIdentity, Request, request_hash
from preuve.models.budget import EstimatedCompletion, is_estimated
from preuve.models.journal import scrub_secrets, secret_values_of, settings_of

__all__ = ["RecordingModel", "ReplayModel", "completion_from_json", "completion_to_json"]

RECORD_HINT = (
    "record again: run once against the real model with PREUVE_RECORD=FILE "
    "(or wrap it in RecordingModel(model, FILE))"
)


def completion_to_json(completion: Completion) -> dict[str, Any]:
    return {
        "text": completion.text,
        "finish_reason": completion.finish_reason,
        "prompt_tokens": completion.prompt_tokens,
        "generated_tokens": completion.generated_tokens,
        "token_ids": None if completion.token_ids is None else list(completion.token_ids),
        "seconds": completion.seconds,
        "tokens_estimated": is_estimated(completion),
    }


def completion_from_json(data: Mapping[str, Any]) -> Completion:
    ids = data.get("token_ids")
    fields: dict[str, Any] = {
        "text": str(data["text"]),
        "finish_reason": data["finish_reason"],
        "prompt_tokens": int(data["prompt_tokens"]),
        "generated_tokens": int(data["generated_tokens"]),
        "token_ids": None if ids is None else tuple(int(i) for i in ids),
        "seconds": float(data.get("seconds", 0.0)),
    }
    if data.get("tokens_estimated"):
        return EstimatedCompletion(**fields)
    return Completion(**fields)


def _line(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class RecordingModel:
    """Wraps a model; appends every call (answer or ModelError) to a JSONL file."""

    def __init__(self, inner: Model, path: Path | str, *, secrets: Sequence[str] = ()) -> None:
        self.inner = inner
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._secrets = (*secret_values_of(inner), *secrets)
        self._lock = threading.Lock()

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        try:
            completion = self.inner.complete(request)
        except ModelError as err:
            # A backend failure replays as the same failure; config errors are not recorded.
            self._append(request, {"error": {"type": "ModelError", "message": err.one_line()}})
            raise
        self._append(request, {"completion": completion_to_json(completion)})
        return completion

    def _append(self, request: Request, outcome: dict[str, Any]) -> None:
        identity = self.inner.identity
        entry = {
            "hash": request_hash(request),
            "task": request.task,
            "model": {
                "backend": identity.backend,
                "name": identity.name,
                "tokenizer": identity.tokenizer,
                "version": identity.version,
            },
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "settings": settings_of(request),
            **outcome,
        }
        text = scrub_secrets(_line(entry), self._secrets)
        with self._lock, self.path.open("a", encoding="utf-8") as handle:
            handle.write(text + "\n")


def _load(path: Path) -> tuple[dict[str, dict[str, Any]], bytes]:
    if not path.is_file():
        raise ConfigError(f"replay file not found: {path}", fix=RECORD_HINT)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not UTF-8 text (byte {err.start})", fix=RECORD_HINT) from None
    entries: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            key = str(entry["hash"])
            if "completion" not in entry and "error" not in entry:
                raise KeyError("completion")
        except (ValueError, KeyError, TypeError, RecursionError):
            raise ConfigError(
                f"{path} line {number} is not a recorded call", fix=RECORD_HINT
            ) from None
        entries[key] = entry  # the last recording of a request wins
    return entries, raw


def _label(model: object) -> str:
    if not isinstance(model, dict):
        return ""
    return ModelIdentity(str(model.get("backend", "")), str(model.get("name", ""))).label()


class ReplayModel:
    """Answers from a recording made by :class:`RecordingModel`; a miss is a ModelError."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._entries, raw = _load(self.path)
        labels = sorted({_label(e.get("model")) for e in self._entries.values()} - {""})
        digest = hashlib.sha256(raw).hexdigest()[:16]
        name = "+".join(labels) if labels else self.path.name
        self._identity = ModelIdentity(backend="replay", name=name, version=f"sha256:{digest}")

    @property
    def identity(self) -> ModelIdentity:
        return self._identity

    def __len__(self) -> int:
        return len(self._entries)

    def complete(self, request: Request) -> Completion:
        key = request_hash(request)
        entry = self._entries.get(key)
        if entry is None:
            task = f" (task {request.task})" if request.task else ""
            raise ModelError(
                f"no recorded answer for request {key[:16]}{task} in {self.path}",
                fix=RECORD_HINT,
            )
        try:
            if "error" in entry:
                message = str(entry["error"]["message"])
            else:
                return completion_from_json(entry["completion"])
        except (KeyError, TypeError, ValueError, AttributeError):
            # A damaged recording is a bad input file, not a model failure to re-ask.
            raise ConfigError(
                f"{self.path}: the recording of request {key[:16]} is damaged", fix=RECORD_HINT
            ) from None
        raise ModelError(message)
