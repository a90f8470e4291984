"""A real run folder for the viewer's tests, built from scratch in a temp dir (~2 s).

- ``memo/``: a run of workflow 1 (rules engine) on the bundled reports, copied into the
  folder and registered in ``memo/documents.json``; then a hostile company appended to
  ``run.json`` and ``dashboard.json``, and hostile calls (XSS payloads and a leaked fake
  API key) appended to its journal. Solvéa's recorded spans are removed, so the viewer must
  locate its quotes with the core quote check;
- ``docs/hostile.txt``: a document whose text and title carry XSS payloads;
- ``synthesis/``: a run of workflow 2 (rules engine) on the bundled dossier, graded;
- ``digest/``: a digest store built on a five-document dossier; served against a snapshot
  where one document changed (STALE), rebuilt incrementally, and served again (SERVED).
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from preuve.commands.memo import write_memo_run
from preuve.commands.synthesize import write_run
from preuve.corpora.memo_reports import REPORTS_DIR, generate_memo_corpus
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.digest.build import build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.run_files import serve_answer
from preuve.digest.serve import serve_digest
from preuve.digest.summarize import DigestSettings
from preuve.eval.grid import ScoreEntry, grade, load_grid
from preuve.io.documents import load_documents, load_versions
from preuve.io.records import dump_record
from preuve.io.stores import SqliteStore
from preuve.loaders import load_dossier as load_synthesis_dossier
from preuve.memo.dashboard import build_dashboard
from preuve.memo.pipeline import run_memo
from preuve.memo.rules_engine import memo_rules_model
from preuve.models.base import Message, ModelIdentity
from preuve.models.journal import CallRecord, Journal
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize

__all__ = [
    "FAKE_KEY",
    "HOSTILE_QUOTE",
    "PAYLOADS",
    "QuoteSite",
    "RunFolder",
    "build_run_folder",
    "quote_of",
]

FAKE_KEY = "sk-test-0123456789abcdefFAKEKEY"
SCRIPT = "<script>alert(1)</script>"
ONERROR = "<img src=x onerror=alert(1)>"
JS_LINK = "javascript:alert(1)"
PAYLOADS = (SCRIPT, ONERROR, JS_LINK)
HOSTILE_TEXT = (
    f"Note reçue d'un tiers.\nSon titre annonçait {SCRIPT} et la signature {ONERROR}.\n"
    f"Lien fourni : {JS_LINK} (ne jamais suivre).\n"
)
HOSTILE_QUOTE = f"Son titre annonçait {SCRIPT} et la signature {ONERROR}"
_QUOTE = re.compile(r"«\s*(.+?)\s*»\s*\(p\.\s*(\d+)\)")


@dataclass(frozen=True, slots=True)
class QuoteSite:
    """A Q- fact and where the reader's quote check found it: document, page, span."""

    fact: str
    doc: str
    page: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class RunFolder:
    root: Path
    recorded: QuoteSite  # Ferlac's first quote, span recorded in run.json
    relocated: QuoteSite  # Solvéa's first quote, span removed from run.json
    hostile: QuoteSite
    stale_run: str  # the first build: serving it after doc-00 changed answered STALE
    fresh_run: str  # the rebuild after the change: served


def quote_of(fact_text: str) -> tuple[str, int]:
    """The « quote » and page of a Q- fact line."""
    match = _QUOTE.search(fact_text)
    assert match is not None, fact_text
    return match.group(1), int(match.group(2))


def _write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _site(company: dict[str, Any], number: int) -> QuoteSite:
    """Where the reader's check located the quote of ``Q-<slug>-<number>``."""
    slug = company["company"]["slug"]
    fact = next(f for f in company["facts"] if f["id"] == f"Q-{slug}-{number}")
    quote, page = quote_of(fact["text"])
    signal = next(
        s
        for s in company["signals"]["signals_verified"]
        if s["page"] == page and " ".join(s["matched"].split()) == quote
    )
    return QuoteSite(fact["id"], slug, page, signal["start"], signal["end"])


def _hostile_company(span: tuple[int, int]) -> dict[str, Any]:
    return {
        "report": "docs/hostile.txt",
        "company": {"name": f"{SCRIPT} SA", "slug": "hostile"},
        "n_pages": 1,
        "signals": {
            "signals_verified": [
                {"category": "litigation", "quote": HOSTILE_QUOTE, "page": 1,
                 "start": span[0], "end": span[1], "matched": HOSTILE_QUOTE, "verdict": "exact"},
            ],
            "signals_rejected": 1,
            "rejected": [{"category": ONERROR, "quote": SCRIPT, "page": 1,
                          "reason": f"not found {JS_LINK}"}],
        },
        "facts": [{"id": "Q-hostile-1", "text": f"{SCRIPT} SA - « {HOSTILE_QUOTE} » (p. 1)"}],
        "memo": {
            "status": "REFUSED",
            "paragraphs": [{"text": f"Voir {ONERROR} et {JS_LINK}",
                            "sources": ["Q-hostile-1", JS_LINK]}],
            "defects": [{"code": "number_not_in_facts", "detail": f"1,9 {ONERROR}",
                         "paragraph": 1}],
            "attempts": 2,
        },
    }  # fmt: skip


def _hostile_calls(journal: Journal) -> None:
    for index, raw in enumerate((f'{{"signals": []}} {SCRIPT}', f"leak {FAKE_KEY} {ONERROR}")):
        journal.record(
            CallRecord(
                run_id="memo-run-1",
                task="memo.reader",
                request_hash=f"hostile-{index}",
                identity=ModelIdentity("rules", "rules", "", "memo-rules-1"),
                messages=(Message("user", f"read {SCRIPT}"),),
                settings={},
                raw_output=raw,
                finish_reason="stop",
                prompt_tokens=120,
                generated_tokens=30,
                tokens_estimated=True,
                token_ids=None,
                seconds=0.01,
                status="ok",
            )
        )


def _memo(root: Path, work: Path, hostile: tuple[int, int]) -> tuple[QuoteSite, QuoteSite]:
    out = root / "memo"
    (out / "reports").mkdir(parents=True)
    generate_memo_corpus(work / "memo-corpus")
    reports = []
    for pdf in sorted((work / "memo-corpus" / REPORTS_DIR).glob("*.pdf")):
        reports.append(Path(shutil.copy(pdf, out / "reports" / pdf.name)))
    with Journal(out / "journal.sqlite") as journal:
        run = run_memo(
            load_documents(reports), memo_rules_model(), journal=journal, run_id="memo-run-1"
        )
        _hostile_calls(journal)
    write_memo_run(run, build_dashboard(run), out)
    data = _read_json(out / "run.json")
    companies = {c["company"]["slug"]: c for c in data["companies"]}
    recorded, relocated = _site(companies["ferlac"], 1), _site(companies["solvea"], 1)
    for signal in companies["solvea"]["signals"]["signals_verified"]:
        del signal["start"], signal["end"]  # the viewer must fall back on the quote check
    data["companies"].append(_hostile_company(hostile))
    _write_json(out / "run.json", data)
    dashboard = _read_json(out / "dashboard.json")
    hostile_row = dict.fromkeys(dashboard["rows"][0], "—")  # every column of a row
    hostile_row |= {"company": f"{SCRIPT} SA", "memo_status": "REFUSED", "ratios": ONERROR}
    dashboard["rows"].append(hostile_row | {"signals_rejected": 1})
    _write_json(out / "dashboard.json", dashboard)
    _write_json(
        out / "documents.json",
        {"documents": [
            {"id": c.company.slug, "title": f"{c.company.name} — rapport annuel 2025",
             "path": f"reports/{Path(c.report).name}"}
            for c in run.companies
        ]},
    )  # fmt: skip
    return recorded, relocated


def _synthesis(root: Path, work: Path) -> None:
    info = generate_synthesis_dossier(work / "synthesis-src")
    dossier = load_synthesis_dossier(info.dossier)
    out = root / "synthesis"
    out.mkdir(parents=True)
    with Journal(out / "journal.sqlite") as journal:
        run = synthesize(dossier, synthesis_rules_model(), journal=journal, run_id="synth-run-1")
    write_run(run, out)
    assert run.synthesis is not None
    _write_json(
        out / "score.json", dump_record(ScoreEntry.of(grade(load_grid(info.grid), run.synthesis)))
    )


def _digest(root: Path, work: Path) -> tuple[str, str]:
    folder = work / "digest-src"
    for n in range(5):
        doc = folder / f"doc-{n:02d}"
        doc.mkdir(parents=True)
        (doc / "meta.json").write_text(json.dumps({"title": f"Note {n}"}), encoding="utf-8")
        for version, day in ((1, "10 December 2026"), (2, "23 January 2027")):
            (doc / f"v{version}.txt").write_text(
                f"Note {n}\n\nProduct P-01-{n:02d} delivery: {day}.\n"
                f"Product P-01-{n:02d} site: Eastmoor dock.\n",
                encoding="utf-8",
            )
    out = root / "digest"
    out.mkdir(parents=True)
    model = rules_summarizer()
    with SqliteStore(out / "digest.sqlite") as store:
        report = build_digest(
            load_versions(folder), model, store, DigestSettings(), dossier="notes"
        )
        changed = load_versions(folder, {"doc-00": 2})
        refused = serve_digest(
            changed, store, DigestSettings(), identity=model.identity, dossier="notes"
        )
        rebuilt = build_digest(changed, model, store, DigestSettings(), dossier="notes")
        served = serve_digest(
            changed, store, DigestSettings(), identity=model.identity, dossier="notes"
        )
    assert (refused.status.value, served.status.value) == ("STALE", "SERVED")
    _write_json(out / "serve.json", [serve_answer(refused), serve_answer(served)])
    source = "../work/digest-src"
    registry = [
        {"id": f"doc-{n:02d}@1", "title": f"Note {n}", "path": f"{source}/doc-{n:02d}/v1.txt"}
        for n in range(5)
    ]
    registry.append({"id": "doc-00@2", "title": "Note 0", "path": f"{source}/doc-00/v2.txt"})
    _write_json(out / "documents.json", {"documents": registry})
    return report.run_id, rebuilt.run_id


def build_run_folder(base: Path) -> RunFolder:
    """Build the run folder under ``base / "run"`` (its inputs under ``run/work``)."""
    root = base / "run"
    work = root / "work"
    (root / "docs").mkdir(parents=True)
    work.mkdir()
    (root / "docs/hostile.txt").write_text(HOSTILE_TEXT, encoding="utf-8")
    hostile_doc = {"id": "hostile", "title": f"{SCRIPT}{ONERROR}", "path": "docs/hostile.txt"}
    _write_json(root / "documents.json", {"documents": [hostile_doc]})
    start = HOSTILE_TEXT.index(HOSTILE_QUOTE)
    hostile = QuoteSite("Q-hostile-1", "hostile", 1, start, start + len(HOSTILE_QUOTE))
    recorded, relocated = _memo(root, work, (hostile.start, hostile.end))
    _synthesis(root, work)
    return RunFolder(root, recorded, relocated, hostile, *_digest(root, work))
