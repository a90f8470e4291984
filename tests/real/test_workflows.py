"""Each workflow once through ``hf:`` on the real SmolLM2 file, on a tiny input, bounded by a
small ``max_new_tokens``. A 135M model mostly fails: what is asserted are preuve's
invariants (every accepted quote is on its page, exactly; every refusal has its defects;
statuses agree with what the checks found; nothing unverified reaches a writer), never
the model's quality.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from preuve.core.documents import Document
from preuve.core.quotes import QuoteChecker
from preuve.corpora.digest_corpus import generate_digest_corpus
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.digest.build import build_digest
from preuve.digest.keys import GenerationParams
from preuve.digest.schema import NodeStatus
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import load_versions
from preuve.io.pdf import load_pages
from preuve.io.stores import SqliteStore
from preuve.loaders import load_dossier as load_synthesis_dossier
from preuve.memo.pipeline import run_memo
from preuve.memo.writer import MemoStatus
from preuve.models.base import Completion, Model, ModelIdentity, Request
from preuve.models.hf import HFModel
from preuve.models.journal import Journal
from preuve.models.loop import LoopStatus
from preuve.models.progress import ProgressModel, ProgressSink
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.pipeline import synthesize

# Small enough to keep `make test` bounded: most answers stop on length and are refused as
# truncated, which is one of the real failure modes the checks must report.
MAX_NEW_TOKENS = 16


class Capped:
    """Lowers every request's ``max_new_tokens`` (the machine has 2 shared cores)."""

    def __init__(self, inner: Model, cap: int) -> None:
        self.inner = inner
        self.cap = cap
        self.calls = 0

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        self.calls += 1
        return self.inner.complete(
            replace(request, max_new_tokens=min(request.max_new_tokens, self.cap))
        )


@pytest.fixture
def capped(smollm2: HFModel) -> Capped:
    return Capped(smollm2, MAX_NEW_TOKENS)


@pytest.mark.parametrize("quotes", ["copy", "select"])
def test_memo_on_one_page(capped: Capped, tmp_path: Path, quotes: str) -> None:
    generate_memo_corpus(tmp_path / "corpus")
    pages = load_pages(tmp_path / "corpus/reports/ferlac.pdf")[:1]
    log = io.StringIO()
    model = ProgressModel(capped, ProgressSink(log, live=False))
    with Journal(tmp_path / "journal.sqlite") as journal:
        run = run_memo(
            [Document.from_pages("ferlac-1p", pages)], model, journal=journal, quotes=quotes
        )
    [company] = run.companies
    checker = QuoteChecker(pages)
    for signal in company.reading.verified:  # every accepted quote: exactly on its page
        assert "\f".join(pages)[signal.span.start : signal.span.end] == signal.matched
        assert checker.verify(signal.page, signal.quote).verified
    quoted = {f.text for f in company.facts if f.id.startswith("Q-")}
    accepted = {s.matched for s in company.reading.verified}
    assert all(any(m in text for m in accepted) for text in quoted)  # nothing unverified
    memo = company.memo
    if memo.status is MemoStatus.VERIFIED:
        assert memo.defects == ()
    else:
        assert memo.defects  # a refusal or an error always says why
    if memo.status is MemoStatus.ERROR:
        assert {d.code for d in memo.defects} == {"model_error"}
    assert run.calls and all(c.identity.backend == "hf" for c in run.calls)
    lines = log.getvalue().splitlines()
    assert any(line.startswith("memo.reader · ") for line in lines)
    assert lines[-1] == "memo [####################] 1/1 reports"


def test_synthesis_on_two_documents(capped: Capped, tmp_path: Path) -> None:
    info = generate_synthesis_dossier(tmp_path)
    full = load_synthesis_dossier(info.dossier)
    dossier = Dossier(full.question, full.documents[:2])
    run = synthesize(dossier, capped, concurrency=1)
    if run.status is LoopStatus.VALID:
        assert run.synthesis is not None and not run.defects
    else:
        assert run.defects and run.synthesis is None
    assert capped.calls >= 1


def test_digest_on_two_documents(smollm2: HFModel, tmp_path: Path) -> None:
    corpus = generate_digest_corpus(tmp_path / "corpus")
    snapshot = load_versions(corpus.dossier_dir("test-00"))
    for doc_id in [d.doc_id for d in snapshot][2:]:
        snapshot = snapshot.without(doc_id)
    settings = DigestSettings(generation=GenerationParams(max_new_tokens=MAX_NEW_TOKENS))
    store = SqliteStore(tmp_path / "store.sqlite")
    report = build_digest(snapshot, smollm2, store, settings, concurrency=1, dossier="test-00")
    texts = {(d.doc_id, d.version): d.text for d in snapshot}
    for node in report.nodes:
        if node.status is NodeStatus.INVALID:
            assert node.diagnostic and not node.claims  # why, and nothing usable
        for span in node.spans:  # every evidence span is exact text of its version
            assert texts[(span.doc_id, span.version)][span.start : span.end] == span.quote
    assert len([n for n in report.nodes if n.kind == "leaf"]) == 2
