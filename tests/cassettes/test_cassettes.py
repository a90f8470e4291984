"""Real SmolLM2 answers, recorded once (``python -m tests.cassettes.record``), replayed
through every check of workflow 1: deterministic, and real failure modes (truncated JSON,
prose, copied prompt headers, invented quotes) rather than scripted ones.

What is asserted holds whatever the model wrote: every accepted quote is on its page
exactly, every refusal names its defects, a memo's status agrees with its defects, and a
quote the checks dropped never reaches the writer's facts. A request the cassette does
not hold (a prompt changed since the recording) is a replay miss: the call is an ERROR
with a ``model_error`` defect, never a refusal or a verified memo.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from preuve.core.documents import Document
from preuve.core.quotes import QuoteChecker
from preuve.memo.pipeline import run_memo
from preuve.memo.reader import READER_TASK
from preuve.memo.writer import MemoStatus
from preuve.models.journal import Journal
from preuve.models.replay import ReplayModel
from tests.cassettes.record import CASSETTE, first_pages


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> list[Document]:
    return first_pages(tmp_path_factory.mktemp("cassette-corpus"))


# What SmolLM2 (through llama.cpp's server) did on the recorded prompts (re-recorded in
# session 26, when the reader's schema began to bound an answer by its request: one signal
# per prose sentence, a quote no longer than the longest sentence, and a token cap derived
# from both). Before, in copy mode, it repeated a timestamp-like "quote" until the token cap
# cut its answer (refused as truncated); now the schema closes its list after the page's one
# sentence, its answer ends, and the quote check refuses the invented quote, twice: the
# signal is dropped and counted (``signals_rejected`` 1). In select mode it selected no
# sentence. With no signal in either mode the writer gets the same facts, so its two calls
# (answer, re-ask) serve both.
RECORDED = {
    "copy": ((), 2, ["quote_not_found"]),
    "select": ((), 1, []),
}


@pytest.mark.parametrize("quotes", RECORDED)
def test_recorded_smollm2_memo_replays_through_every_check(
    reports: list[Document], tmp_path: Path, quotes: str
) -> None:
    model = ReplayModel(CASSETTE)
    assert model.identity.name == "openai:smollm2" and len(model) == 5
    with Journal(tmp_path / "journal.sqlite") as journal:
        run = run_memo(reports, model, journal=journal, quotes=quotes)
    reader_calls = [c for c in run.calls if c.task == READER_TASK]
    assert reader_calls and all(c.status != "error" for c in reader_calls)  # all replayed
    [company] = run.companies
    reading = company.reading
    matched = tuple(s.matched for s in reading.verified)
    assert (matched, reading.attempts, [d.code for d in reading.defects]) == RECORDED[quotes]
    assert company.memo.status is MemoStatus.REFUSED
    for company, report in zip(run.companies, reports, strict=True):
        checker = QuoteChecker(report.pages)
        for signal in company.reading.verified:
            assert report.text[signal.span.start : signal.span.end] == signal.matched
            assert checker.verify(signal.page, signal.quote).verified
        for rejected in company.reading.rejected:
            assert not checker.verify(rejected.page, rejected.quote).verified
        accepted = {s.matched for s in company.reading.verified}
        quoted = [f.text for f in company.facts if f.id.startswith("Q-")]
        assert all(any(m in text for m in accepted) for text in quoted)
        memo = company.memo
        assert (memo.status is MemoStatus.VERIFIED) == (memo.defects == ())
        if memo.status is MemoStatus.ERROR:
            assert {d.code for d in memo.defects} == {"model_error"}
