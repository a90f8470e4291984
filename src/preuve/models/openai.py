"""Any OpenAI-compatible chat endpoint: vLLM, Ollama, llama.cpp server, LM Studio, OpenAI,
Gemini or Vertex AI through their OpenAI-compatible endpoints.

Built on the ``openai`` SDK (which sends through httpx2). What this backend guarantees:

- temperature and seed from the request (0 and a fixed seed by default); never any tool
  or function: documents are untrusted and the model gets no action to take;
- structured output, down a ladder of forms real servers accept: a JSON-schema
  ``response_format`` (OpenAI, vLLM, LM Studio), then ``{"type": "json_object", "schema":
  ...}`` (llama.cpp's server, which answers HTTP 500 to the first form), then plain JSON
  mode, then Ollama's ``format`` field holding the schema, then the prompt alone. An
  endpoint that rejects a form (HTTP 400, 404, 422 or 500 whose body names the response
  format) is asked at once with the next one, never retried in the same form, and the
  instance remembers the downgrade;
- the API key is read from an environment variable, sent only in the Authorization
  header, and declared in ``secret_values`` (with any credential the base URL holds) so
  the model boundary (:class:`~preuve.models.secrets.ScrubbingModel`), journals and
  recordings scrub it; the identity shows no credential, not even under an innocent
  query parameter name (``?x=...`` is shown as a hash);
- failures become one-line errors: unreachable endpoint or refused key → ConfigError (the
  user must fix ``--model`` or the key); timeout, HTTP errors, malformed body →
  ModelError. Transport failures (429, 408, 409, 5xx not naming the format, timeouts,
  connection resets) are retried ``max_retries`` times with a short backoff (the server's
  ``retry-after`` when it gives one, at most 8 s); a refused format never is.
- a body without ``usage`` gets the declared token estimate, flagged as such.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import ssl
import threading
import time
from collections.abc import Mapping
from contextlib import suppress
from enum import StrEnum
from typing import Any, Literal, cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx2
import openai
from openai.types.chat import ChatCompletionMessageParam

from preuve.core.errors import ConfigError, ModelError, PreuveError
from preuve.core.jsonout import check_schema
from preuve.models.base import Completion, FinishReason, Message, ModelIdentity, Request
from preuve.models.budget import (
    EstimatedCompletion,
    EstimatingCounter,
    check_context_window,
    estimate_text_tokens,
)
from preuve.models.secrets import MIN_SECRET_LENGTH, Scrubber

__all__ = [
    "DEFAULT_API_KEY_ENV",
    "OpenAIModel",
    "ResponseFormatLevel",
    "parse_chat_body",
    "without_patterns",
]

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
# Local servers (Ollama, vLLM, llama.cpp) ignore the key but the SDK wants one.
PLACEHOLDER_KEY = "no-key"
TEST_MARKER_ENV = "PYTEST_CURRENT_TEST"

_STOP = frozenset({"stop", "eos", "eos_token", "stop_sequence", "end_turn"})
_LENGTH = frozenset({"length", "max_tokens", "model_length"})
_FORMAT_WORDS = (
    "response_format",
    "response format",
    "json_schema",
    "json_object",
    "structured output",
    "grammar",
)
# Statuses a server answers to a format it does not take: llama.cpp says 500, some proxies 404.
_FORMAT_STATUSES = frozenset({400, 404, 422, 500})
_RETRY_STATUSES = frozenset({408, 409, 429})
_MAX_BACKOFF = 8.0


class ResponseFormatLevel(StrEnum):
    """How the answer's shape is requested, from strongest to weakest."""

    JSON_SCHEMA = "json_schema"
    JSON_OBJECT_SCHEMA = "json_object+schema"
    JSON_OBJECT = "json_object"
    FORMAT_FIELD = "format"
    PROMPT = "prompt"


_LADDER = tuple(ResponseFormatLevel)


# Query parameters that carry credentials (Azure-style "?api-key=", signed URLs, tokens).
_SECRET_PARAM = re.compile(r"key|token|secret|passw|sig|auth|credential", re.IGNORECASE)
# A query value kept as is in an identity: a word or a version/date (``2024-06-01-preview``).
# Any other value may be a key under an innocent name (``?x=sk-...``): it is shown by hash.
_PLAIN_VALUE = re.compile(r"[A-Za-z]{1,12}|[0-9][0-9.-]{0,15}(?:-[A-Za-z]{1,12})?")


def _shown_value(name: str, value: str) -> str:
    if _SECRET_PARAM.search(name):
        return "REDACTED"
    if _PLAIN_VALUE.fullmatch(value) or not value:
        return value
    return "sha256-" + hashlib.sha256(value.encode("utf-8")).hexdigest()[:12]


def _redact_url(url: str) -> str:
    """The base URL without user:password@ and with every query value that could be a
    credential replaced (by REDACTED, or by a short hash that still tells two apart), so
    identities, journals and error messages never hold a secret."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    query = urlencode(
        [
            (name, _shown_value(name, value))
            for name, value in parse_qsl(parts.query, keep_blank_values=True)
        ]
    )
    return urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), query, ""))


def _url_secrets(url: str) -> tuple[str, ...]:
    """Credentials a URL carries: its user and password, every query value not shown as is."""
    parts = urlsplit(url)
    found = [parts.username or "", parts.password or ""]
    found += [
        value
        for name, value in parse_qsl(parts.query, keep_blank_values=True)
        if _shown_value(name, value) != value
    ]
    return tuple(v for v in found if len(v) >= MIN_SECRET_LENGTH)


def _check_network_allowed(allow_network: bool | None, env: Mapping[str, str]) -> None:
    if allow_network is False:
        raise ConfigError("network backends are disabled here (allow_network=False)")
    if allow_network is None and (TEST_MARKER_ENV in env or TEST_MARKER_ENV in os.environ):
        raise ConfigError("network backends are disabled in tests; pass allow_network=True")


def _message_param(message: Message) -> ChatCompletionMessageParam:
    if message.role == "system":
        return {"role": "system", "content": message.content}
    if message.role == "assistant":
        return {"role": "assistant", "content": message.content}
    return {"role": "user", "content": message.content}


def _response_format(request: Request, level: ResponseFormatLevel) -> dict[str, Any] | None:
    """The ``response_format`` body field at ``level`` (None: the field is not sent)."""
    if request.response_schema is None:
        return None
    schema = dict(request.response_schema)
    if level is ResponseFormatLevel.JSON_SCHEMA:
        name = re.sub(r"[^A-Za-z0-9_-]", "_", request.task)[:64] or "answer"
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    if level is ResponseFormatLevel.JSON_OBJECT_SCHEMA:
        return {"type": "json_object", "schema": without_patterns(schema)}
    if level is ResponseFormatLevel.JSON_OBJECT:
        return {"type": "json_object"}
    return None


def without_patterns(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` without its ``pattern`` keywords, for the servers that compile a schema
    into a llama.cpp grammar (llama.cpp's ``json_object`` + ``schema`` form, Ollama's
    ``format``): llama-cpp-python's converter fails on a regex escape as common as ``\\.``
    and its server process dies. The answer is still parsed against the whole schema, pattern
    included, so nothing goes unchecked; the decoding is only less constrained."""

    def strip(node: object) -> object:
        if isinstance(node, list):
            return [strip(item) for item in node]
        if not isinstance(node, Mapping):
            return node
        out: dict[str, object] = {}
        for key, value in node.items():
            if key == "pattern":
                continue
            if key == "properties" and isinstance(value, Mapping):  # names, not keywords
                out[key] = {name: strip(sub) for name, sub in value.items()}
            else:
                out[key] = strip(value)
        return out

    return cast(dict[str, Any], strip(schema))


def _check_answer_schema(request: Request) -> None:
    """A schema outside the supported subset is never sent: a server compiles it into a
    grammar, and llama.cpp's server died on one it could not parse (an empty ``enum``)."""
    if request.response_schema is None:
        return
    try:
        check_schema(request.response_schema)
    except ValueError as err:
        raise ConfigError(
            f"{request.task or 'request'}: its answer schema is not supported ({err})",
            fix="this is a bug in the request's schema: report it",
        ) from None


def _extra_body(request: Request, level: ResponseFormatLevel) -> dict[str, Any] | None:
    """Ollama's own field: ``format`` holding the JSON schema."""
    if request.response_schema is None or level is not ResponseFormatLevel.FORMAT_FIELD:
        return None
    return {"format": without_patterns(request.response_schema)}


def _constrained(request: Request, level: ResponseFormatLevel) -> bool:
    return request.response_schema is not None and level is not ResponseFormatLevel.PROMPT


def _finish_reason(value: object, has_tool_call: bool) -> FinishReason:
    if has_tool_call or not isinstance(value, str):
        return "error"
    if value in _STOP:
        return "stop"
    return "length" if value in _LENGTH else "error"


def _usage(body: Mapping[str, Any]) -> tuple[int, int] | None:
    usage = body.get("usage")
    if not isinstance(usage, Mapping):
        return None
    prompt, generated = usage.get("prompt_tokens"), usage.get("completion_tokens")
    if isinstance(prompt, int) and isinstance(generated, int):
        return prompt, generated
    return None


def parse_chat_body(raw: str, request: Request, *, source: str, seconds: float) -> Completion:
    """A chat-completions body → a Completion; anything unexpected is a ModelError.

    A tool call the endpoint volunteers is never executed: its JSON becomes plain text and
    the completion is marked ``error`` (invalid), kept whole for the journal.
    """
    try:
        body = json.loads(raw)
    except json.JSONDecodeError:
        start = " ".join(raw[:40].split())
        raise ModelError(f"malformed response from {source}: not JSON (starts {start!r})") from None
    choices = body.get("choices") if isinstance(body, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ModelError(f"malformed response from {source}: no choices in the body")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise ModelError(f"malformed response from {source}: the choice has no message")
    content = message.get("content")
    calls = {k: message[k] for k in ("tool_calls", "function_call") if message.get(k)}
    if content is None:
        content = json.dumps(calls, ensure_ascii=False, sort_keys=True) if calls else ""
    if not isinstance(content, str):
        raise ModelError(f"malformed response from {source}: message content is not text")
    finish = _finish_reason(choices[0].get("finish_reason"), bool(calls))
    counts = _usage(body)
    if counts is not None:
        return Completion(content, finish, counts[0], counts[1], seconds=seconds)
    return EstimatedCompletion(
        text=content,
        finish_reason=finish,
        prompt_tokens=EstimatingCounter().count_prompt_tokens(request.messages),
        generated_tokens=estimate_text_tokens(content),
        seconds=seconds,
    )


def _mentions_response_format(err: openai.APIStatusError, level: ResponseFormatLevel) -> bool:
    """True when the server refused the structured-output form: a 400/404/422/500 whose
    message names it (``response_format``, ``json_schema``...; the bare word ``format``
    only when the field sent was Ollama's ``format``)."""
    if err.status_code not in _FORMAT_STATUSES:
        return False
    text = f"{err.message} {err.body}".lower()
    if any(word in text for word in _FORMAT_WORDS):
        return True
    return level is ResponseFormatLevel.FORMAT_FIELD and bool(re.search(r"\bformat\b", text))


def _retryable(err: openai.OpenAIError) -> bool:
    if isinstance(err, openai.APIStatusError):
        return err.status_code in _RETRY_STATUSES or err.status_code >= 500
    if isinstance(err, openai.APIConnectionError):  # timeouts are connection errors too
        return not _refused_connection(err)
    return False


def _backoff(err: openai.OpenAIError, retry: int) -> float:
    """Seconds before retry number ``retry`` (0-based): the server's ``retry-after`` when
    it sends one, else 0.5 s doubling; never more than 8 s."""
    response = getattr(err, "response", None)
    headers = getattr(response, "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(0.0, min(float(value) * scale, _MAX_BACKOFF))
            except ValueError:
                break
    return float(min(0.5 * 2**retry, _MAX_BACKOFF))


def _refused_connection(err: BaseException) -> bool:
    cause: BaseException | None = err
    while cause is not None:
        if isinstance(cause, (httpx2.ConnectError, ConnectionRefusedError)):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


class _HttpClient(openai.DefaultHttpxClient):
    """The SDK's HTTP client with its defaults, closed when dropped (as the SDK's own is):
    a model nobody closed leaves no keep-alive socket open."""

    def __del__(self) -> None:
        if not self.is_closed:
            with suppress(Exception):
                self.close()


def _chat_route(client: openai.OpenAI, timeout: float) -> tuple[httpx2.URL, dict[str, str]]:
    """The URL and the headers the SDK's ``post("/chat/completions")`` sends: the path
    appended to the base URL's path, its default and key headers (the organization and
    project when it read them), and the retry count (0: retried here) and read timeout it
    adds to every request. Computed once: they never change.

    One departure from the SDK: a base URL with a query string (an Azure-style
    ``.../v1?api-version=X``) keeps its query after the path, ``/v1/chat/completions?
    api-version=X``. The SDK appends the path to the raw path, query included, and posts
    to ``/v1/?api-version=Xchat/completions`` (the parity test pins that merge, so a
    change of the SDK's shows)."""
    base = client.base_url
    path, mark, query = base.raw_path.partition(b"?")
    endpoint = base.copy_with(raw_path=path + b"chat/completions" + mark + query)
    headers = {
        name: value
        for name, value in {**client.auth_headers, **client.default_headers}.items()
        if isinstance(value, str)  # the SDK leaves out an Omit (no organization, no project)
    }
    headers |= {"x-stainless-retry-count": "0", "x-stainless-read-timeout": str(timeout)}
    return endpoint, headers


class OpenAIModel:
    """A chat model behind an OpenAI-compatible endpoint."""

    def __init__(
        self,
        name: str,
        base_url: str,
        *,
        api_key_env: str = DEFAULT_API_KEY_ENV,
        env: Mapping[str, str] | None = None,
        timeout: float = 120.0,
        max_retries: int = 2,
        allow_network: bool | None = None,
        max_tokens_field: Literal["max_tokens", "max_completion_tokens"] = "max_tokens",
        context_window: int | None = None,
    ) -> None:
        environ = os.environ if env is None else env
        _check_network_allowed(allow_network, environ)
        if not name:
            raise ConfigError("an openai model needs a name", fix="use openai:NAME@BASE_URL")
        if urlsplit(base_url).scheme not in ("http", "https") or not urlsplit(base_url).hostname:
            raise ConfigError(
                f"not an http(s) base URL: {base_url!r}",
                fix="use e.g. openai:qwen2.5:1.5b@http://localhost:11434/v1",
            )
        key = environ.get(api_key_env, "")
        self._key = key
        self._scrubber = Scrubber((key, *_url_secrets(base_url)))
        self._api_key_env = api_key_env
        self._url = _redact_url(base_url)
        self._timeout = timeout
        self._max_retries = max_retries
        self._max_tokens_field = max_tokens_field
        self._identity = ModelIdentity(backend="openai", name=name, version=self._url)
        self._level = ResponseFormatLevel.JSON_SCHEMA
        self._lock = threading.Lock()
        if context_window is not None and context_window <= 0:
            raise ConfigError(f"context window must be positive, not {context_window}")
        self._context_window = context_window
        # The SDK's own HTTP client (its defaults: connection limits, redirects), held here
        # so that a call is posted through it directly (:meth:`_send`).
        self._http = _HttpClient(timeout=timeout)
        self._client = openai.OpenAI(
            api_key=key or PLACEHOLDER_KEY,
            base_url=base_url,
            timeout=timeout,
            max_retries=0,  # retried here: a refused format must not be retried
            http_client=self._http,
        )
        self._endpoint, self._headers = _chat_route(self._client, timeout)

    def __repr__(self) -> str:
        return f"OpenAIModel(name={self._identity.name!r}, base_url={self._url!r})"

    @property
    def identity(self) -> ModelIdentity:
        return self._identity

    @property
    def secret_values(self) -> tuple[str, ...]:
        """The API key (and any credential in the base URL), so the model boundary,
        journals and recordings scrub them from any text."""
        return self._scrubber.secrets

    @property
    def timeout(self) -> float:
        """Seconds one request may take (``$PREUVE_TIMEOUT`` through a spec; 120 by default)."""
        return self._timeout

    @property
    def context_window(self) -> int | None:
        """The window the user declared (``$PREUVE_CONTEXT_WINDOW``): the API does not say."""
        return self._context_window

    @property
    def response_format_level(self) -> ResponseFormatLevel:
        """The strongest structured-output mode this endpoint has not rejected."""
        with self._lock:
            return self._level

    def complete(self, request: Request) -> Completion:
        if self._context_window is not None:
            check_context_window(EstimatingCounter(), request, self._context_window)
        _check_answer_schema(request)
        started = time.perf_counter()
        level = self.response_format_level
        retries = 0
        while True:
            try:
                raw = self._send(request, level)
                break
            except openai.APIStatusError as err:
                if _constrained(request, level) and _mentions_response_format(err, level):
                    level = _LADDER[_LADDER.index(level) + 1]
                    self._downgrade(level)
                    continue
                if retries >= self._max_retries or not _retryable(err):
                    raise self._translate(err, retries) from err
                time.sleep(_backoff(err, retries))
                retries += 1
            except openai.OpenAIError as err:
                if retries >= self._max_retries or not _retryable(err):
                    raise self._translate(err, retries) from err
                time.sleep(_backoff(err, retries))
                retries += 1
        seconds = time.perf_counter() - started
        return parse_chat_body(raw, request, source=self._url, seconds=seconds)

    def close(self) -> None:
        """Close the connection pool (keep-alive sockets to the endpoint)."""
        self._client.close()

    def __enter__(self) -> OpenAIModel:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _downgrade(self, level: ResponseFormatLevel) -> None:
        with self._lock:
            if _LADDER.index(level) > _LADDER.index(self._level):
                self._level = level

    def _send(self, request: Request, level: ResponseFormatLevel) -> str:
        # The body is posted as built, through the SDK's HTTP client, to the URL and with
        # the headers the SDK's ``post`` sends (:func:`_chat_route`), and a failure raises
        # the SDK's own typed error: its typed ``create`` walked every field against its
        # TypedDicts, and its ``post`` copies its options through pydantic and rebuilds
        # the URL and headers on every call (a third of a digest node's CPU outside the
        # call), for a body that holds only JSON values and a retry loop we do not use.
        content = json.dumps(
            self._body(request, level), ensure_ascii=False, separators=(",", ":"), allow_nan=False
        ).encode()
        sent = self._http.build_request(
            "POST", self._endpoint, content=content, headers=self._headers
        )
        try:
            response = self._http.send(sent)
        except httpx2.TimeoutException as err:
            raise openai.APITimeoutError(request=sent) from err
        except (httpx2.RequestError, ssl.SSLError) as err:
            raise openai.APIConnectionError(request=sent) from err
        if not response.is_success:
            raise self._client._make_status_error_from_response(response) from None
        return response.text

    def _body(self, request: Request, level: ResponseFormatLevel) -> dict[str, Any]:
        """The chat-completions body of ``request`` at structured-output ``level``."""
        body: dict[str, Any] = {
            "model": self._identity.name,
            "messages": [_message_param(m) for m in request.messages],
            "temperature": request.temperature,
            "seed": request.seed,
            self._max_tokens_field: request.max_new_tokens,
        }
        fmt = _response_format(request, level)
        if fmt is not None:
            body["response_format"] = fmt
        body.update(_extra_body(request, level) or {})
        return body

    def _translate(self, err: openai.OpenAIError, retries: int = 0) -> PreuveError:
        url = self._url
        if isinstance(err, openai.APITimeoutError):
            return ModelError(
                f"{url} did not answer within {self._timeout:g} s",
                fix="raise the timeout or use a smaller model",
            )
        if isinstance(err, openai.APIConnectionError):
            if _refused_connection(err):
                return ConfigError(f"cannot reach {url}: start the server or fix --model")
            return ModelError(f"connection to {url} failed: {self._scrub(str(err))[:200]}")
        if isinstance(err, (openai.AuthenticationError, openai.PermissionDeniedError)):
            return ConfigError(
                f"{url} refused the API key (HTTP {err.status_code})",
                fix=f"set {self._api_key_env} to a valid key",
            )
        if isinstance(err, openai.NotFoundError):
            return ConfigError(
                f"{url} has no model {self._identity.name!r} or no chat endpoint (HTTP 404)",
                fix="check the model name and base URL in --model",
            )
        if isinstance(err, openai.APIStatusError):
            retried = f" after {retries} retries" if retries else ""
            detail = self._scrub(" ".join(err.message.split()))[:200]
            return ModelError(f"{url} answered HTTP {err.status_code}{retried}: {detail}")
        return ModelError(f"{url} failed: {self._scrub(str(err))[:200]}")

    def _scrub(self, text: str) -> str:
        return self._scrubber.scrub(text)
