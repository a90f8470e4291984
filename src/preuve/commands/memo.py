"""`preuve memo`, `eval memo`, `eval rates`: workflow 1 commands.

memo REPORT.pdf [...] [--model M] [--out DIR] [--json] [--mapping FILE] [--cues FILE] [--lang fr|en]
    writes memo.md (each paragraph followed by its sources; VERIFIED or REFUSED with its
    defects; engine label; known limits), facts.txt, dashboard.json, run.json (with every
    model call) and journal.sqlite; prints the dashboard and its summary line.
    Exit 0 when every memo is verified, 1 when one is refused, 2 on bad input.
eval memo [--repeat N] [--model M] [--corpus DIR] [--out DIR] [--json]
    grades N runs against the gold (the bundled corpus is generated when no --corpus is
    given) and prints the mean and worst case of each figure.
eval rates [--rates FILE] [--json]
    the two monitored rates (rejected quotes per report, memos refused after rewrite) over
    the recorded runs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from preuve.commands.cluster import ExecutorOpt, command_model, open_executor
from preuve.commands.common import (
    EXIT_OK,
    EXIT_REJECTED,
    ModelOpt,
    command_runtime,
    command_settings,
    console,
    handles_errors,
    print_json,
)
from preuve.commands.usage_view import cost_table
from preuve.core.defects import Defect
from preuve.core.errors import InputError
from preuve.core.facts import render_facts
from preuve.core.markdown import escape_markdown, markdown_quote
from preuve.core.numbers import Locale
from preuve.corpora.memo_reports import GOLD_RELATIVE, REPORTS_DIR, generate_memo_corpus
from preuve.eval.memo_eval import EvalFigures, EvaluationEntry, evaluate_memo
from preuve.eval.memo_rates import (
    RATES_FILE,
    RatesEntry,
    append_rates,
    rates_of,
    rates_overview,
    read_rates,
)
from preuve.io.documents import load_documents
from preuve.io.records import dump_record
from preuve.io.registry import RegistryEntry
from preuve.io.runfolder import RunFolder
from preuve.loaders import load_cues, load_mapping
from preuve.memo.claims_view import claims_line
from preuve.memo.dashboard import Dashboard, build_dashboard, dashboard_table, format_percent
from preuve.memo.english import KNOWN_LIMITS_EN
from preuve.memo.pipeline import CompanyMemo, MemoRun, run_memo
from preuve.memo.ratios import ratios_not_computed
from preuve.memo.rules_engine import memo_rules_model
from preuve.memo.run_files import DASHBOARD_FILE, MEMO_RUN_FILE
from preuve.memo.run_record import memo_run_file
from preuve.memo.selection import QUOTE_MODES
from preuve.memo.writer import KNOWN_LIMITS, MemoStatus
from preuve.models.journal import Journal

__all__ = [
    "eval_memo_command",
    "eval_rates_command",
    "memo_command",
    "memo_markdown",
    "print_dashboard",
    "write_memo_run",
]

RatesOpt = Annotated[
    Path | None,
    typer.Option("--rates", help=f"The rates file (default: $PREUVE_HOME/{RATES_FILE})."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@:+-]{0,199}")
LIMITS_EN = (
    "causal claims without numbers are not checked",
    "an exact quote can mislead out of context: open the cited page to see it",
)


def _rates_path(rates: Path | None) -> Path:
    if rates is not None:
        return rates
    return command_settings().home / RATES_FILE


# --- Files ------------------------------------------------------------------------------


def _source_markdown(source: str) -> str:
    # A plain id in brackets is inert (no reference definition can exist: text is escaped).
    return f"[{source}]" if _PLAIN_ID.fullmatch(source) else escape_markdown(f"[{source}]")


def _defect_markdown(defect: Defect) -> str:
    where = ", ".join(
        ([f"paragraph {defect.paragraph}"] if defect.paragraph is not None else [])
        + ([escape_markdown(defect.path)] if defect.path else [])
    )
    prefix = f"{where}: " if where else ""
    return f"{prefix}{_source_markdown(defect.code)} {escape_markdown(defect.detail)}"


def _company_markdown(company: CompanyMemo) -> list[str]:
    """One company's section. Every text that comes from a document or a model (names,
    paragraphs, source ids, defects quoting them) is escaped: it stays text."""
    memo = company.memo
    en = company.language is Locale.EN
    words = _MD_EN if en else _MD_FR
    lines = [
        f"## {escape_markdown(company.company.name)} — {memo.status.value}",
        "",
        words["report"].format(
            report=escape_markdown(company.report),
            verified=len(company.reading.verified),
            rejected=company.reading.signals_rejected,
        ),
        "",
    ]
    if memo.status is MemoStatus.ERROR:
        lines += ["**ERREUR** du modèle : aucune réponse n'est arrivée, rien n'a été vérifié :", ""]
        lines += [f"- {_defect_markdown(defect)}" for defect in memo.defects] + [""]
    if memo.status is MemoStatus.REFUSED:
        lines += [words["refused"], ""]
        lines += [f"- {_defect_markdown(defect)}" for defect in memo.defects] + [""]
        if memo.paragraphs:
            lines += [words["refused_text"], ""]
    claims = memo.claims or tuple(() for _ in memo.paragraphs)
    for paragraph, records in zip(memo.paragraphs, claims, strict=False):
        text = escape_markdown(paragraph.text) if memo.verified else markdown_quote(paragraph.text)
        sources = " ".join(_source_markdown(s) for s in paragraph.sources) or words["none"]
        lines += [text, "", words["sources"].format(sources=sources), ""]
        lines += [escape_markdown(claims_line(records, english=en)), ""]
    return lines


_MD_FR = {
    "report": "Rapport : {report} · signaux vérifiés : {verified} · signaux rejetés : {rejected}",
    "refused": "**REFUSÉ** après réécriture : cette note n'est pas vérifiée. Défauts :",
    "refused_text": "Texte refusé (non vérifié) :",
    "sources": "Sources : {sources}",
    "none": "aucune",
    "title": "# Note de crédit",
    "status": "engine: {engine} · run {run} · statut : {status}",
    "limits": "## Limites connues",
}
_MD_EN = {
    "report": "Report: {report} · verified signals: {verified} · rejected signals: {rejected}",
    "refused": "**REFUSED** after rewrite: this memo is not verified. Defects:",
    "refused_text": "Refused text (not verified):",
    "sources": "Sources: {sources}",
    "none": "none",
    "title": "# Credit memo",
    "status": "engine: {engine} · run {run} · status: {status}",
    "limits": "## Known limits",
}


def memo_markdown(run: MemoRun) -> str:
    """The memo file: one section per company, each paragraph followed by its sources."""
    english = bool(run.companies) and all(c.language is Locale.EN for c in run.companies)
    words = _MD_EN if english else _MD_FR
    lines = [
        words["title"],
        "",
        words["status"].format(engine=run.engine, run=run.run_id, status=run.status.value),
        "",
    ]
    for company in run.companies:
        lines += _company_markdown(company)
    limits = KNOWN_LIMITS_EN if english else KNOWN_LIMITS
    lines += [words["limits"], ""] + [f"- {limit}" for limit in limits]
    return "\n".join(lines) + "\n"


def _facts_text(run: MemoRun) -> str:
    blocks = [f"# {c.company.name} ({c.report})\n{render_facts(c.facts)}" for c in run.companies]
    return f"# engine: {run.engine}\n" + "\n".join(blocks)


def write_memo_run(run: MemoRun, dashboard: Dashboard, out: Path) -> dict[str, Path]:
    """Write memo.md, facts.txt, dashboard.json and run.json under ``out``, each atomically."""
    folder = RunFolder.create(out)
    files = {
        "memo": folder.write_text("memo.md", memo_markdown(run)),
        "facts": folder.write_text("facts.txt", _facts_text(run)),
        "dashboard": folder.write_json(DASHBOARD_FILE, dashboard.to_dict()),
        "run": folder.write_json(MEMO_RUN_FILE, memo_run_file(run)),
    }
    files["documents"] = _register_reports(run, folder)
    return files


def _register_reports(run: MemoRun, folder: RunFolder) -> Path:
    """Copy each report into the run folder and register it by company slug, so the run
    folder holds the exact bytes its quotes were verified against."""
    entries: list[RegistryEntry] = []
    taken: set[str] = set()
    for company in run.companies:
        doc_id, n = company.company.slug, 1
        while doc_id in taken:
            n += 1
            doc_id = f"{company.company.slug}-{n}"
        taken.add(doc_id)
        source = Path(company.report)
        copy = folder.copy_in(source, f"reports/{doc_id}{source.suffix.lower() or '.pdf'}")
        entries.append(RegistryEntry(doc_id, company.company.name, copy))
    return folder.write_registry(entries)


def print_dashboard(dashboard: Dashboard) -> None:
    console.print(dashboard_table(dashboard))
    console.print(f"engine: {dashboard.engine}", markup=False)
    console.print(dashboard.summary.line(), markup=False)
    console.print(f"Known limits: {'; '.join(LIMITS_EN)}.", markup=False)


def _check_reports(reports: Sequence[Path]) -> None:
    missing = [str(p) for p in reports if not p.is_file()]
    if missing:
        raise InputError(f"no such report: {', '.join(missing)}", fix="give paths to PDF files")


# --- Commands -----------------------------------------------------------------------------


@handles_errors
def memo_command(
    reports: Annotated[list[Path], typer.Argument(help="Annual report PDFs (one per company).")],
    *,
    model: ModelOpt = None,
    out: Annotated[Path, typer.Option("--out", help="Where to write the run.")] = Path(
        "preuve-out/memo"
    ),
    rates: RatesOpt = None,
    as_json: JsonOpt = False,
    mapping: Annotated[
        Path | None,
        typer.Option(
            "--mapping", help="A concept mapping file (JSON), tried before the bundled one."
        ),
    ] = None,
    cues: Annotated[
        Path | None,
        typer.Option(
            "--cues", help="A risk-cue file (JSON, as data/cues.json), tried before the bundled."
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang", help="fr or en: the facts' and memo's language (default: the report's)."
        ),
    ] = None,
    quotes: QuotesOpt = "copy",
    executor: ExecutorOpt = None,
) -> None:
    """Cited risk signals and a verified credit memo from annual reports."""
    if lang is not None and lang not in {"fr", "en"}:
        raise InputError(f"--lang {lang!r}: use fr or en")
    _check_quote_mode(quotes)
    language = None if lang is None else Locale(lang)
    _check_reports(reports)
    rules = load_mapping(mapping) if mapping is not None else ()
    user_cues = load_cues(cues) if cues is not None else None  # a bad file fails here
    runtime = command_runtime(model=model, executor=executor)
    runtime.load()  # a bad spec or model file fails here, before anything is written
    loaded = load_documents(reports)  # an unreadable report fails here, before anything is written
    with open_executor(runtime.settings, 1) as runner:
        chosen = command_model(runtime, partial(memo_rules_model, user_cues), runner)
        out.mkdir(parents=True, exist_ok=True)
        with Journal(out / "journal.sqlite") as journal:
            run = run_memo(
                loaded,
                chosen,
                journal=journal,
                mapping=rules,
                language=language,
                quotes=quotes,
                executor=runner,
                cues=user_cues,
            )
    append_rates(_rates_path(rates), rates_of(run, source="memo"))
    dashboard = build_dashboard(run)
    files = write_memo_run(run, dashboard, out)
    if as_json:
        print_json({**dashboard.to_dict(), "files": {k: str(v) for k, v in files.items()}})
    else:
        print_dashboard(dashboard)
        for company in run.companies:
            missing = ratios_not_computed(company.statements, company.language)
            if missing:
                console.print(
                    f"{company.company.name}: ratios not computed: {'; '.join(missing)}",
                    markup=False,
                )
        console.print(f"Wrote {', '.join(str(p) for p in files.values())}", markup=False)
    raise typer.Exit(EXIT_OK if run.status is MemoStatus.VERIFIED else EXIT_REJECTED)


def _corpus(corpus: Path | None, out: Path) -> tuple[list[Path], Path]:
    if corpus is None:
        corpus = out / "corpus"
        generate_memo_corpus(corpus)
    reports = sorted((corpus / REPORTS_DIR).glob("*.pdf"))
    gold = corpus / GOLD_RELATIVE
    if not reports:
        raise InputError(
            f"{corpus}: no {REPORTS_DIR}/*.pdf", fix="omit --corpus to use the bundled one"
        )
    return reports, gold


def _figures_table(mean: EvalFigures, worst: EvalFigures, repeat: int) -> Table:
    table = Table(title=f"Evaluation over {repeat} run(s)")
    for column in ("figure", "mean", "worst"):
        table.add_column(column)
    rows = (
        ("field accuracy", "field_accuracy", 1),
        ("max ratio deviation", "max_ratio_deviation", 2),
        ("signal recall", "signal_recall", 0),
        ("memo verified", "memo_verified", 0),
    )
    for label, name, places in rows:
        table.add_row(
            label,
            format_percent(getattr(mean, name), places),
            format_percent(getattr(worst, name), places),
        )
    for label, name in (
        ("rejected quotes per report", "rejected_quotes_per_report"),
        ("memos refused after rewrite", "memos_refused_after_rewrite"),
    ):
        table.add_row(label, f"{getattr(mean, name):.2f}", f"{getattr(worst, name):.2f}")
    return table


QuotesOpt = Annotated[
    str,
    typer.Option(
        "--quotes",
        help="Reader mode: copy (the model copies each quote) or select (it picks "
        "sentence ids from a catalogue; code resolves the text). Same checks.",
    ),
]


def _check_quote_mode(quotes: str) -> None:
    if quotes not in QUOTE_MODES:
        raise InputError(f"unknown --quotes mode {quotes!r}", fix="use copy or select")


@handles_errors
def eval_memo_command(
    *,
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Number of runs.")] = 3,
    model: ModelOpt = None,
    corpus: Annotated[
        Path | None,
        typer.Option("--corpus", help="A folder with reports/*.pdf and gold/memo_gold.json."),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Where to write the evaluation.")] = Path(
        "preuve-out/eval-memo"
    ),
    rates: RatesOpt = None,
    quotes: QuotesOpt = "copy",
    as_json: JsonOpt = False,
) -> None:
    """Grade workflow 1 against the gold N times: mean and worst case of each figure, and
    what the model calls cost."""
    _check_quote_mode(quotes)
    out.mkdir(parents=True, exist_ok=True)
    reports, gold = _corpus(corpus, out)
    chosen = command_runtime(model=model).model(memo_rules_model)
    with Journal(out / "journal.sqlite") as journal:
        result = evaluate_memo(
            reports, gold, chosen, journal=journal, repeat=repeat,
            rates_path=_rates_path(rates), quotes=quotes,
        )  # fmt: skip
    report = EvaluationEntry.of(result)
    RunFolder.create(out).write_json("eval.json", report)
    last = result.runs[-1]
    if as_json:
        print_json(dump_record(report))
    else:
        print_dashboard(build_dashboard(last.run, last.scores))
        console.print(_figures_table(result.mean, result.worst, len(result.runs)))
        console.print(cost_table(report.cost, len(result.runs)))
        console.print(f"Wrote {out / 'eval.json'}", markup=False)
    raise typer.Exit(EXIT_OK if result.worst.memo_verified == 1.0 else EXIT_REJECTED)


@handles_errors
def eval_rates_command(rates: RatesOpt = None, as_json: JsonOpt = False) -> None:
    """The monitored rates of workflow 1 across recorded runs; a rise signals a change."""
    path = _rates_path(rates)
    rows = read_rates(path)
    overview = rates_overview(rows)
    if as_json:
        print_json(
            {"file": str(path), **overview, "rows": [dump_record(RatesEntry.of(r)) for r in rows]}
        )
        raise typer.Exit(EXIT_OK)
    if not rows:
        console.print(f"No runs recorded yet in {path}.", markup=False)
        raise typer.Exit(EXIT_OK)
    table = Table(title=f"Workflow 1 monitored rates ({path})")
    for column in (
        "recorded at", "source", "engine", "reports", "rejected quotes / report",
        "memos refused after rewrite",
    ):  # fmt: skip
        table.add_column(column)
    for row in rows:
        table.add_row(
            row.recorded_at, row.source, row.engine, str(row.reports),
            f"{row.rejected_quotes_per_report:.2f}", f"{row.memos_refused_after_rewrite:.0%}",
        )  # fmt: skip
    console.print(table)
    console.print(
        f"{overview['runs']} run(s); mean rejected quotes per report "
        f"{overview['mean_rejected_quotes_per_report']:.2f} (last "
        f"{overview['last_rejected_quotes_per_report']:.2f}); mean memos refused after "
        f"rewrite {overview['mean_memos_refused_after_rewrite']:.0%} (last "
        f"{overview['last_memos_refused_after_rewrite']:.0%})",
        markup=False,
    )
    raise typer.Exit(EXIT_OK)
