"""Progress lines: the pure formatting, one line per call in a log, live redraws on a
terminal, tokens streamed by a backend, step bars, and `preuve --quiet`."""

from __future__ import annotations

import io
import itertools
import time
from collections.abc import Callable

import pytest

from preuve.commands import common
from preuve.core.errors import ModelError
from preuve.models.base import Completion, ModelIdentity, Request, messages_of, wrapped_models
from preuve.models.progress import (
    REFRESH_SECONDS,
    CallLine,
    ProgressModel,
    ProgressSink,
    format_call,
    step,
    token_listener,
)
from preuve.models.scripted import ScriptedModel
from preuve.models.settings import read_settings

REQUEST = Request(messages_of([("user", "read")]), task="memo.reader", subject="Acme SA")


@pytest.mark.parametrize(
    ("line", "now", "expected"),
    [
        (
            CallLine("memo.reader", "Acme SA", 10.0, 41),
            20.0,
            "memo.reader · Acme SA · 41 tokens · 4.1 tok/s · 10.0 s",
        ),
        (CallLine("digest.leaf", "", 0.0, 0), 0.0, "digest.leaf · 0 tokens · 0.0 tok/s · 0.0 s"),
        (CallLine("", "", 0.0, 5, finished=2.0), 99.0, "call · 5 tokens · 2.5 tok/s · 2.0 s"),
    ],
    ids=["running", "just-started", "finished"],
)
def test_format_call(line: CallLine, now: float, expected: str) -> None:
    assert format_call(line, now) == expected


def ticking(step_seconds: float) -> Callable[[], float]:
    counter = itertools.count()
    return lambda: next(counter) * step_seconds


def test_one_line_per_call_in_a_log() -> None:
    stream = io.StringIO()
    model = ProgressModel(
        ScriptedModel(['{"signals": []}']), ProgressSink(stream, False, ticking(2))
    )
    model.complete(REQUEST)
    [line] = stream.getvalue().splitlines()
    assert line.startswith("memo.reader · Acme SA · ") and line.endswith(" · 2.0 s")


def test_a_failed_call_says_so_and_raises() -> None:
    stream = io.StringIO()
    model = ProgressModel(ScriptedModel([ModelError("down")]), ProgressSink(stream, False))
    with pytest.raises(ModelError):
        model.complete(REQUEST)
    assert stream.getvalue().rstrip().endswith("· failed: ModelError")


class StreamingModel:
    """A backend that streams: it reports each token to the listener as it 'generates'."""

    identity = ModelIdentity("test", "streaming")

    def __init__(self) -> None:
        self.seen: list[int] = []

    def complete(self, request: Request) -> Completion:
        listener = token_listener()
        assert listener is not None
        for _ in range(3):
            listener(1)
        time.sleep(REFRESH_SECONDS * 1.6)  # one redraw happens while it still runs
        return Completion("abc", "stop", 4, 99)


def test_streamed_tokens_reach_the_live_line() -> None:
    stream = io.StringIO()
    model = ProgressModel(StreamingModel(), ProgressSink(stream, live=True))
    model.complete(REQUEST)
    assert token_listener() is None  # reset after the call
    redrawn, final = stream.getvalue().split("\r")[1], stream.getvalue().splitlines()[-1]
    assert redrawn.startswith("memo.reader · Acme SA · 3 tokens · ")  # streamed, live
    assert "· 99 tokens ·" in final  # the backend's own count once done


def test_step_bars_only_when_progress_is_on() -> None:
    stream = io.StringIO()
    model = ProgressModel(ScriptedModel(), ProgressSink(stream, False))
    with step(model, "memo", 2, "reports") as bar:
        bar.advance()
        bar.advance()
    assert stream.getvalue().splitlines() == [
        "memo [....................] 0/2 reports",
        "memo [##########..........] 1/2 reports",
        "memo [####################] 2/2 reports",
    ]
    with step(ScriptedModel(), "memo", 1, "reports") as silent:
        silent.advance()
    assert silent.done == 1


@pytest.mark.parametrize(
    ("flags", "environ", "shown"),
    [
        pytest.param({}, {}, True, id="default"),
        pytest.param({"quiet": True}, {}, False, id="quiet-flag"),
        pytest.param({}, {"PREUVE_QUIET": "1"}, False, id="quiet-env"),
    ],
)
def test_quiet_turns_progress_off(
    monkeypatch: pytest.MonkeyPatch, flags: dict[str, bool], environ: dict[str, str], shown: bool
) -> None:
    fake = ScriptedModel()
    fake_identity = ModelIdentity("hf", "smollm2")
    monkeypatch.setattr(type(fake), "identity", property(lambda _self: fake_identity))
    runtime = common.make_runtime(read_settings(environ, **flags))
    layers = list(wrapped_models(runtime.wrap(fake)))
    assert any(isinstance(layer, ProgressModel) for layer in layers) is shown
