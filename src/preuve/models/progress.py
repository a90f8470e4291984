"""Progress on long work: a live line per model call and a bar per workflow step, on stderr.

:class:`ProgressModel` wraps a backend: while a call runs, a line shows its role (the
request's task), its document (the request's ``subject``, when the workflow gives one), the
tokens generated so far (backends that stream tokens report them through
:func:`token_listener`; others at the end), tokens per second and the elapsed time.
:func:`step` is a bar for a workflow step (``memo 1/3 reports``). On a terminal the line is
redrawn in place twice a second; elsewhere (a log, CI) one line is written when each call
ends and when a step advances, so logs stay readable. Nothing is written to stdout: JSON
output stays clean. ``--quiet`` builds no progress at all."""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TextIO

from preuve.models.base import Completion, Model, ModelIdentity, Request, wrapped_models

__all__ = [
    "CallLine",
    "ProgressModel",
    "ProgressSink",
    "format_call",
    "step",
    "token_listener",
]

REFRESH_SECONDS = 0.5
_BAR_WIDTH = 20

# Set by ProgressModel around a call; a backend that streams calls it with each token.
_LISTENER: contextvars.ContextVar[Callable[[int], None] | None] = contextvars.ContextVar(
    "preuve_token_listener", default=None
)


def token_listener() -> Callable[[int], None] | None:
    """The callback a streaming backend calls with the count of tokens it just generated."""
    return _LISTENER.get()


@dataclass
class CallLine:
    """The state of one running call."""

    task: str
    document: str
    started: float
    tokens: int = 0
    finished: float | None = None

    def elapsed(self, now: float) -> float:
        return (self.finished or now) - self.started


def format_call(line: CallLine, now: float) -> str:
    """``memo.reader · Acme SA · 120 tokens · 4.1 tok/s · 29.3 s`` (a pure function)."""
    elapsed = line.elapsed(now)
    rate = line.tokens / elapsed if elapsed > 0 else 0.0
    parts = [line.task or "call"]
    if line.document:
        parts.append(line.document)
    parts += [f"{line.tokens} tokens", f"{rate:.1f} tok/s", f"{elapsed:.1f} s"]
    return " · ".join(parts)


def format_bar(name: str, done: int, total: int, unit: str) -> str:
    filled = _BAR_WIDTH * done // total if total else _BAR_WIDTH
    return f"{name} [{'#' * filled}{'.' * (_BAR_WIDTH - filled)}] {done}/{total} {unit}"


@dataclass
class ProgressSink:
    """Writes progress to ``stream`` (stderr): in place on a terminal, else line by line."""

    stream: TextIO
    live: bool
    clock: Callable[[], float] = time.perf_counter
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _width: int = 0

    def _draw(self, text: str) -> None:
        with self._lock:
            pad = " " * max(0, self._width - len(text))
            self.stream.write(f"\r{text}{pad}")
            self.stream.flush()
            self._width = len(text)

    def _print(self, text: str) -> None:
        with self._lock:
            if self._width:
                self.stream.write("\r" + " " * self._width + "\r")
                self._width = 0
            self.stream.write(text + "\n")
            self.stream.flush()

    def call(self, line: CallLine) -> None:
        if self.live:
            self._draw(format_call(line, self.clock()))

    def call_done(self, line: CallLine, error: str = "") -> None:
        text = format_call(line, self.clock())
        self._print(f"{text} · {error}" if error else text)

    def bar(self, name: str, done: int, total: int, unit: str) -> None:
        self._print(format_bar(name, done, total, unit))


def _document_of(request: Request) -> str:
    return request.subject


class ProgressModel:
    """Reports each call of ``inner`` to ``sink`` while it runs and when it ends."""

    def __init__(self, inner: Model, sink: ProgressSink) -> None:
        self.inner = inner
        self.sink = sink

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        line = CallLine(request.task, _document_of(request), self.sink.clock())
        stop = threading.Event()

        def on_tokens(count: int) -> None:
            line.tokens += count

        def redraw() -> None:
            while not stop.wait(REFRESH_SECONDS):
                self.sink.call(line)

        ticker = threading.Thread(target=redraw, daemon=True) if self.sink.live else None
        token = _LISTENER.set(on_tokens)
        if ticker is not None:
            ticker.start()
        try:
            completion = self.inner.complete(request)
        except Exception as err:
            line.finished = self.sink.clock()
            self.sink.call_done(line, f"failed: {type(err).__name__}")
            raise
        finally:
            stop.set()
            _LISTENER.reset(token)
            if ticker is not None:
                ticker.join(timeout=1)
        line.tokens = completion.generated_tokens
        line.finished = self.sink.clock()
        self.sink.call_done(line)
        return completion

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


class _Step:
    def __init__(self, sink: ProgressSink | None, name: str, total: int, unit: str) -> None:
        self._sink, self._name, self._total, self._unit = sink, name, total, unit
        self.done = 0
        self._lock = threading.Lock()

    def advance(self) -> None:
        with self._lock:
            self.done += 1
            done = self.done
        if self._sink is not None:
            self._sink.bar(self._name, done, self._total, self._unit)


@contextmanager
def step(model: object, name: str, total: int, unit: str) -> Iterator[_Step]:
    """A bar for a workflow step over ``total`` units, shown when ``model`` (or a model it
    wraps) reports progress; silent otherwise."""
    sink = next((m.sink for m in wrapped_models(model) if isinstance(m, ProgressModel)), None)
    bar = _Step(sink, name, total, unit)
    if sink is not None:
        sink.bar(name, 0, total, unit)
    yield bar
