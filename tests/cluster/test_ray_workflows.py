"""Workflows 1 and 2 on Ray (a task per report, per sub-agent call): the same runs and
journals as with threads here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from preuve.cluster.executor import LocalExecutor, make_executor
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.io.documents import load_documents
from preuve.io.records import dump_record
from preuve.loaders import load_dossier as load_synthesis_dossier
from preuve.memo.pipeline import MemoRun, run_memo
from preuve.memo.rules_engine import memo_rules_model
from preuve.memo.run_record import company_entry
from preuve.models.journal import Journal
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.synthesis.subagent import SUBAGENT_TASK
from preuve.synthesis.trajectory import trajectory_data

SLUGS = ("ferlac", "solvea", "helvane")


def _comparable(run: MemoRun) -> list[dict[str, Any]]:
    memos = []
    for company in run.companies:
        data = dump_record(company_entry(company))
        data.pop("seconds", None)
        memos.append(data)
    return memos


def _calls(journal: Journal, run_id: str) -> list[tuple[str, str, str | None]]:
    calls = journal.calls(run_id)
    return sorted((c.task, c.request_hash, c.raw_output) for c in calls)


def test_reports_distributed_on_ray_give_the_local_memos(ray_cluster: Any, tmp_path: Path) -> None:
    generate_memo_corpus(tmp_path / "corpus")
    reports = load_documents([tmp_path / "corpus" / "reports" / f"{s}.pdf" for s in SLUGS])
    runs = {}
    for name, executor in (("local", LocalExecutor(3)), ("ray", make_executor("ray"))):
        with Journal(tmp_path / f"{name}.sqlite") as journal:
            run = run_memo(reports, memo_rules_model(), journal=journal, executor=executor)
            runs[name] = (run, _calls(journal, run.run_id))
    (local, local_calls), (remote, remote_calls) = runs["local"], runs["ray"]
    assert [c.report for c in remote.companies] == [r.path for r in reports]
    assert _comparable(remote) == _comparable(local)
    assert remote_calls == local_calls and len(remote_calls) == len(remote.calls) > 0


def test_sub_agents_on_ray_give_the_local_synthesis(ray_cluster: Any, tmp_path: Path) -> None:
    corpus = generate_synthesis_dossier(tmp_path / "synthesis")
    dossier = load_synthesis_dossier(corpus.dossier)
    runs = {}
    for name, executor in (("local", LocalExecutor(4)), ("ray", make_executor("ray"))):
        with Journal(tmp_path / f"s-{name}.sqlite") as journal:
            run = synthesize(
                dossier, synthesis_rules_model(), journal=journal, run_id=name, executor=executor
            )
            runs[name] = (trajectory_data(run), _calls(journal, name))
    (local, local_calls), (remote, remote_calls) = runs["local"], runs["ray"]
    assert remote == local
    subagent_calls = [call for call in remote_calls if call[0] == SUBAGENT_TASK]
    assert remote_calls == local_calls and len(subagent_calls) >= 2
