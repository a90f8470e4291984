"""No inference path opens gold: every file opened while a workflow runs is recorded.

Each workflow runs with its rules engine on the bundled corpora (generated first, gold
included, into the same folder), and on a held-out dossier whose grid lies *inside* the
dossier folder. A process-wide audit hook (``sys.addaudithook``, event ``open``: every
``open()``, ``Path.read_*`` and ``os.open``) records the paths opened while recording is on;
no recorded path may be a gold file. Gold files are the ones each generator writes apart:
``gold/memo_gold.json`` (workflow 1), ``gold/synthesis_grid.json`` and a held-out dossier's
``grid.json`` (workflow 2), ``gold/<dossier>.json`` (workflow 3). The controls check that the
hook does see the documents read and, when eval grades, the gold it opens.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.commands.digest import digest_app
from preuve.core.documents import Snapshot
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.corpora.memo_reports import GOLD_RELATIVE, generate_memo_corpus
from preuve.corpora.synthesis_dossier import SynthesisCorpusInfo, generate_synthesis_dossier
from preuve.digest.build import build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.serve import ServeStatus, serve_digest
from preuve.digest.summarize import DigestSettings
from preuve.eval.grid import load_grid
from preuve.io.documents import load_documents, load_versions
from preuve.io.stores import SqliteStore
from preuve.loaders import load_dossier as load_synthesis_dossier
from preuve.memo.pipeline import run_memo
from preuve.memo.rules_engine import memo_rules_model
from preuve.models.journal import Journal
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from tests.opened_files import opened

HELDOUT_SYNTHESIS = Path(__file__).parents[1] / "heldout" / "synthesis" / "en-backup-service"


def _gold_in(paths: list[Path], gold: set[Path]) -> list[Path]:
    return sorted({p for p in paths if p in gold or "gold" in p.parent.name})


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("no-gold")


@pytest.fixture(scope="module")
def digest_corpus(root: Path) -> CorpusInfo:
    return generate_digest_corpus(root / "digest")


@pytest.fixture(scope="module")
def synthesis_corpus(root: Path) -> SynthesisCorpusInfo:
    return generate_synthesis_dossier(root / "synthesis")


def test_workflow_1_reads_the_reports_never_the_gold(tmp_path: Path) -> None:
    reports = generate_memo_corpus(tmp_path / "memo")
    gold = (tmp_path / "memo" / GOLD_RELATIVE).resolve()
    assert gold.is_file()
    with Journal(tmp_path / "journal.sqlite") as journal, opened() as paths:
        run = run_memo(load_documents(reports), memo_rules_model(), journal=journal)
    assert len(run.companies) == 3
    assert {r.resolve() for r in reports} <= set(paths)  # the hook sees what is read
    assert _gold_in(paths, {gold}) == []


def test_workflow_2_reads_the_dossier_never_its_grid(synthesis_corpus: SynthesisCorpusInfo) -> None:
    for folder, grid in (
        (synthesis_corpus.dossier, synthesis_corpus.grid),
        (HELDOUT_SYNTHESIS, HELDOUT_SYNTHESIS / "grid.json"),  # the grid inside the folder
    ):
        assert grid.is_file()
        with opened() as paths:
            run = synthesize(load_synthesis_dossier(folder), synthesis_rules_model())
        assert run.synthesis is not None, folder
        documents = {p.resolve() for p in (folder / "documents").glob("*.md")}
        assert documents and documents <= set(paths)
        assert _gold_in(paths, {grid.resolve()}) == [], folder


def _digest_gold(corpus: CorpusInfo) -> set[Path]:
    gold = {corpus.gold_path(name).resolve() for name in corpus.dossiers}
    assert gold and all(path.is_file() for path in gold)
    return gold


def test_workflow_3_builds_and_serves_without_gold(
    digest_corpus: CorpusInfo, tmp_path: Path
) -> None:
    folder = digest_corpus.dossier_dir("test-03")
    settings = DigestSettings()
    with SqliteStore(tmp_path / "s.sqlite") as store, opened() as paths:
        model = rules_summarizer()
        for version in ("first", "latest"):  # version 1, then the v2 of each document
            snapshot: Snapshot = load_versions(folder, default=version)
            build_digest(snapshot, model, store, settings, dossier="test-03")
            served = serve_digest(
                snapshot, store, settings, identity=model.identity, dossier="test-03"
            )
            assert served.status is ServeStatus.SERVED
    assert (folder / "doc-00" / "v1.txt").resolve() in paths
    assert _gold_in(paths, _digest_gold(digest_corpus)) == []


def test_digest_audit_without_gold_guesses_none(digest_corpus: CorpusInfo, tmp_path: Path) -> None:
    folder, store = digest_corpus.dossier_dir("test-04"), tmp_path / "s.sqlite"
    runner = CliRunner()
    with opened() as paths:
        built = runner.invoke(digest_app, ["build", str(folder), "--store", str(store)])
        audit = runner.invoke(digest_app, ["audit", str(folder), "--store", str(store), "--json"])
    assert built.exit_code == 0 and audit.exit_code == 0, audit.stderr
    assert '"gold_tuples": null' in audit.stdout
    assert _gold_in(paths, _digest_gold(digest_corpus)) == []


def test_the_hook_sees_gold_when_eval_reads_it(synthesis_corpus: SynthesisCorpusInfo) -> None:
    """The control: grading opens the grid, and the recorder reports it."""
    with opened() as paths:
        load_grid(synthesis_corpus.grid)
    assert _gold_in(paths, {synthesis_corpus.grid.resolve()}) == [synthesis_corpus.grid.resolve()]
