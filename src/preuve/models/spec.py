"""Model specs: the one string (``--model`` or ``PREUVE_MODEL``) that chooses a backend.

    rules                     the deterministic rules engine (the offline default)
    openai:NAME@BASE_URL      any OpenAI-compatible endpoint, e.g.
                              openai:qwen2.5:1.5b@http://localhost:11434/v1 (Ollama)
    openai:NAME@URL1,URL2...  replicas serving the same model, load-balanced, at most
                              $PREUVE_ENDPOINT_CONCURRENCY (default 8) calls in flight each
    hf:PATH                   a local Hugging Face model folder or .gguf file (extra
                              ``local``; ``preuve models`` lists the ones found)
    replay:FILE               answers recorded earlier by RecordingModel

A model name may contain ``:`` (``qwen2.5:1.5b``) and even ``@``, so an openai spec is
split on its last ``@``: a base URL cannot carry ``user:password@`` (refused, the key goes
in ``$OPENAI_API_KEY``). Anything else is a one-line ConfigError listing these forms; no
error ever repeats a credential the spec held.

Every backend a spec names, but the caller's own rules engine, comes back wrapped in
:class:`~preuve.models.secrets.ScrubbingModel`: the model boundary, where answers, errors
and the identity are scrubbed of the backend's secrets and the environment's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from pathlib import Path

from preuve.core.errors import ConfigError
from preuve.models.base import Model
from preuve.models.pool import BalancedModel, EndpointLimits, EndpointSlots
from preuve.models.replay import ReplayModel
from preuve.models.secrets import Scrubber, ScrubbingModel, environment_secrets

__all__ = [
    "ACCEPTED_FORMS",
    "API_KEY_ENV_VAR",
    "ModelSpec",
    "SpecKind",
    "endpoint_concurrency",
    "load_model",
    "parse_spec",
    "shown_spec",
]

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
ACCEPTED_FORMS = "rules, openai:NAME@BASE_URL, hf:PATH, replay:FILE"
# Lets a user keep a provider's key under its own name (e.g. GEMINI_API_KEY).
API_KEY_ENV_VAR = "PREUVE_API_KEY_ENV"
# The context window of an openai: model (the API does not tell it), e.g. 8192 for SmolLM2.
CONTEXT_WINDOW_ENV_VAR = "PREUVE_CONTEXT_WINDOW"
ENDPOINT_CONCURRENCY_ENV_VAR = "PREUVE_ENDPOINT_CONCURRENCY"
DEFAULT_ENDPOINT_CONCURRENCY = 8
# The test marker that keeps network backends off in tests (read by the openai backend).
_NETWORK_ENV = ("PYTEST_CURRENT_TEST",)
# Seconds an openai: request may take (default 120): a small model on a loaded CPU can take
# longer to write 2 048 tokens, and a timed-out request keeps a one-slot local server busy.
TIMEOUT_ENV_VAR = "PREUVE_TIMEOUT"
DEFAULT_TIMEOUT = 120.0
# What a spec may hold that is a credential: user:password@ after a scheme, query values.
_USERINFO = re.compile(r"(?i)([a-z][a-z0-9+.-]*:[/\\]{2})[^/\\?#\s]*@")
_QUERY_VALUE = re.compile(r"=[^&#\s]*")


class SpecKind(StrEnum):
    RULES = "rules"
    OPENAI = "openai"
    HF = "hf"
    REPLAY = "replay"


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """A parsed spec: ``target`` is the model name (openai) or the path (hf, replay)."""

    kind: SpecKind
    target: str = ""
    base_url: str = ""
    # More base URLs serving the same model (openai:NAME@URL1,URL2...), after base_url.
    replicas: tuple[str, ...] = ()


def shown_spec(spec: str) -> str:
    """``spec`` as an error may show it: no user:password@, no query value."""
    head, sep, query = spec.partition("?")
    shown = _USERINFO.sub(r"\1[REDACTED]@", head)
    return shown + sep + _QUERY_VALUE.sub("=[REDACTED]", query) if sep else shown


def _unknown(spec: str, why: str = "") -> ConfigError:
    reason = f" ({why})" if why else ""
    return ConfigError(
        f"unknown model spec {shown_spec(spec)!r}{reason}",
        fix=f"use one of: {ACCEPTED_FORMS}; e.g. openai:qwen2.5:1.5b@http://localhost:11434/v1",
    )


def parse_spec(spec: str) -> ModelSpec:
    """Parse a spec string, or raise a ConfigError listing the accepted forms."""
    text = spec.strip()
    if text == SpecKind.RULES:
        return ModelSpec(SpecKind.RULES)
    kind, sep, rest = text.partition(":")
    if not sep or kind not in SpecKind.__members__.values() or kind == SpecKind.RULES:
        raise _unknown(spec)
    if not rest:
        raise _unknown(spec, f"nothing after {kind}:")
    if kind == SpecKind.OPENAI:
        name, at, base_url = rest.rpartition("@")
        if not at or not name or not base_url:
            raise _unknown(spec, "an openai spec needs NAME@BASE_URL")
        if "://" in name:
            raise ConfigError(
                f"model spec {shown_spec(spec)!r}: the base URL carries user:password@",
                fix=f"remove it and put the key in ${DEFAULT_API_KEY_ENV} (or name another "
                f"variable with ${API_KEY_ENV_VAR})",
            )
        urls = tuple(url.strip() for url in base_url.split(","))
        for url in urls:
            if not url.startswith(("http://", "https://")):
                raise _unknown(spec, f"base URL {shown_spec(url)!r} is not http(s)")
        return ModelSpec(SpecKind.OPENAI, name, urls[0], urls[1:])
    return ModelSpec(SpecKind(kind), rest)


def _load_hf(path: Path) -> Model:
    path = path.expanduser()
    if not path.is_dir() and not (path.is_file() and path.suffix.lower() == ".gguf"):
        raise ConfigError(
            f"hf model folder or .gguf file not found: {path}",
            fix="pass hf:PATH to a model folder or a .gguf file (preuve models lists them)",
        )
    try:
        # Imported here: transformers and torch are the optional extra ``local``.
        from preuve.models.hf import HFModel
    except ImportError as err:
        raise ConfigError(
            f"the hf backend is not installed ({err.name or err})",
            fix="install the extra: pip install 'preuve[local]'",
        ) from err
    return HFModel(path)


def load_model(
    spec: str,
    *,
    rules: Model | None,
    env: Mapping[str, str],
    allow_network: bool | None = None,
    slots: EndpointSlots | None = None,
) -> Model:
    """The model a spec names. ``rules`` is the rules engine the caller built, if any.

    Several openai base URLs make a :class:`~preuve.models.pool.BalancedModel`; so does
    one when ``slots`` is given (an executor's, shared by every worker)."""
    parsed = parse_spec(spec)
    if parsed.kind is SpecKind.RULES:
        if rules is None:
            raise ConfigError("no rules engine is available for this command", fix="use --model")
        return rules
    scrubber = Scrubber(environment_secrets(env))
    try:
        return ScrubbingModel(_backend(parsed, env, allow_network, slots), scrubber)
    except ConfigError as err:
        raise scrubber.error(err) from None


def _declared_window(env: Mapping[str, str]) -> int | None:
    raw = env.get(CONTEXT_WINDOW_ENV_VAR, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) <= 0:
        raise ConfigError(
            f"${CONTEXT_WINDOW_ENV_VAR} must be a positive number of tokens, not {raw!r}"
        )
    return int(raw)


def endpoint_concurrency(env: Mapping[str, str]) -> int:
    """Calls in flight per endpoint of a balanced model (``$PREUVE_ENDPOINT_CONCURRENCY``)."""
    raw = env.get(ENDPOINT_CONCURRENCY_ENV_VAR, "").strip()
    if not raw:
        return DEFAULT_ENDPOINT_CONCURRENCY
    if not raw.isdigit() or int(raw) <= 0:
        raise ConfigError(f"${ENDPOINT_CONCURRENCY_ENV_VAR} must be a positive number, not {raw!r}")
    return int(raw)


def _declared_timeout(env: Mapping[str, str]) -> float:
    raw = env.get(TIMEOUT_ENV_VAR, "").strip()
    if not raw:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(raw)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise ConfigError(f"${TIMEOUT_ENV_VAR} must be a positive number of seconds, not {raw!r}")
    return seconds


def _backend(
    parsed: ModelSpec,
    env: Mapping[str, str],
    allow_network: bool | None,
    slots: EndpointSlots | None,
) -> Model:
    if parsed.kind is SpecKind.OPENAI:
        # Imported here: the openai SDK is slow to import and rules-only runs never need it.
        from preuve.models.openai import OpenAIModel

        key_env = env.get(API_KEY_ENV_VAR) or DEFAULT_API_KEY_ENV
        # What a worker that rebuilds the model needs of the environment, and nothing more.
        kept = {name: env[name] for name in (key_env, *_NETWORK_ENV) if name in env}
        factories = [
            partial(
                OpenAIModel,
                parsed.target,
                url,
                api_key_env=key_env,
                env=kept,
                allow_network=allow_network,
                context_window=_declared_window(env),
                timeout=_declared_timeout(env),
            )
            for url in (parsed.base_url, *parsed.replicas)
        ]
        if len(factories) == 1 and slots is None:
            return factories[0]()
        shared = slots if slots is not None else EndpointLimits(endpoint_concurrency(env))
        return BalancedModel(factories, shared)
    if parsed.kind is SpecKind.HF:
        return _load_hf(Path(parsed.target))
    return ReplayModel(Path(parsed.target))
