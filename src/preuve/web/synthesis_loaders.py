"""Adapter for workflow 2: one synthesis run from ``trajectory.json`` (and ``score.json``).

The trajectory is read with :func:`~preuve.synthesis.trajectory.run_from_data`, so it is
validated exactly as ``preuve check-synthesis`` validates it; ``score.json`` is
:meth:`GridScore.to_dict` output, written when a run was graded (the viewer never reads the
grid itself).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from preuve.core.errors import DocumentError, PreuveError
from preuve.io.runfolder import RunFolder
from preuve.synthesis.evidence_dossier import RULE_TEXT
from preuve.synthesis.pipeline import SynthesisRun
from preuve.synthesis.ranks import SourceInfo, SourceType, rank_of
from preuve.synthesis.run_files import read_trajectory
from preuve.synthesis.types import RefusedStatement, SourcedValue, StatementSource, is_merged
from preuve.web.layout import RunLayout, read_json, run_entries, scalar
from preuve.web.pages import DocumentLibrary, Registry, span_on_page
from preuve.web.views import (
    ContradictionView,
    MemoParagraph,
    RefusedView,
    ScoreView,
    SourceRef,
    StatementView,
    SubtaskView,
    SynthesisView,
    ValueView,
    page_href,
)

__all__ = ["load_synthesis"]


def _source_ref(doc_id: str, run: SynthesisRun, registry: Registry) -> SourceRef:
    meta = next((d for d in run.documents if d.id == doc_id), None)
    info = meta.source_info if meta is not None else SourceInfo(doc_id, None, SourceType.UNKNOWN)
    return SourceRef(
        id=doc_id,
        date=info.date.isoformat() if info.date else "undated",
        source_type=info.source_type.value,
        rank=str(rank_of(info.source_type)),
        title=meta.title if meta is not None else "not in the dossier",
        href=page_href(doc_id, 1) if registry.get(doc_id) is not None else "",
    )


def _score_line(name: str, part: dict[str, Any]) -> str:
    """``facts: 11/12 (45.8 points), missed F7`` from one part of a grid score."""
    good = part.get("found", part.get("right", part.get("valid")))
    missed = part.get("missed")
    count = len(good) if isinstance(good, list) else good
    if isinstance(missed, list) and isinstance(count, int):
        total: object = count + len(missed)
    else:
        total = part.get("total")
    tail = f", missed {scalar(missed)}" if missed else ""
    return f"{name}: {scalar(count)}/{scalar(total)} ({scalar(part.get('points'))} points){tail}"


def _score(data: object) -> ScoreView | None:
    """``score.json``: :meth:`GridScore.to_dict` output, written when a run is graded."""
    if not isinstance(data, dict) or "total" not in data:
        return None
    parts = ("facts", "contradictions", "citations")
    lines = [_score_line(n, data[n]) for n in parts if isinstance(data.get(n), dict)]
    off = data.get("off_topic")
    if isinstance(off, dict):
        cited = scalar(off.get("cited")) if off.get("cited") else "none"
        lines.append(f"off-topic documents cited: {cited} (-{scalar(off.get('penalty'))} points)")
    return ScoreView(scalar(data["total"]), tuple(lines))


def _evidence_ref(
    source: StatementSource, run: SynthesisRun, registry: Registry, library: DocumentLibrary
) -> SourceRef:
    """A statement's source: its document, and the page with its span highlighted (when
    the registered text holds the span's quote there, as it was verified)."""
    ref = _source_ref(source.doc_id, run, registry)
    registered = registry.get(source.doc_id)
    span = source.span
    if span is None or registered is None:
        return replace(ref, quote=source.quote or "")
    try:
        located = span_on_page(library.pages(registered), span)
    except DocumentError:
        located = None
    if located is None:
        return replace(ref, quote=span.quote)
    return replace(ref, href=page_href(source.doc_id, *located), quote=span.quote, located=True)


def _refused(refused: RefusedStatement, run: SynthesisRun, registry: Registry) -> RefusedView:
    statement = refused.statement
    return RefusedView(
        statement.subject,
        statement.attribute,
        statement.value,
        tuple(_source_ref(d, run, registry) for d in dict.fromkeys(statement.doc_ids)),
        refused.reason,
    )


def _subtasks(
    run: SynthesisRun, registry: Registry, library: DocumentLibrary
) -> tuple[SubtaskView, ...]:
    findings = {f.subtask_id: f for f in run.findings}
    views = []
    for task in run.plan.subtasks if run.plan is not None else ():
        finding = findings.get(task.id)
        statements = tuple(
            StatementView(
                s.subject,
                s.attribute,
                s.value,
                s.text,
                tuple(_evidence_ref(x, run, registry, library) for x in s.sources),
                merged=is_merged(s),
            )
            for s in (finding.statements if finding else ())
        )
        views.append(
            SubtaskView(
                id=task.id,
                question=task.question,
                scope=task.scope,
                read=finding.docs_read if finding else (),
                status=finding.status.value if finding else "not run",
                error=finding.error if finding else "",
                statements=statements,
                gaps=finding.gaps if finding else (),
                unused=finding.read_but_not_used if finding else (),
                refused=tuple(_refused(r, run, registry) for r in finding.refused)
                if finding
                else (),
            )
        )
    return tuple(views)


def _question(text: str) -> tuple[str, str]:
    """A Markdown question file: its ``# heading`` as the title, the rest as the question."""
    first, _, rest = text.strip().partition("\n")
    if first.startswith("#"):
        return first.lstrip("#").strip(), rest.strip()
    return "Question", text.strip()


def _value(value: SourcedValue, run: SynthesisRun, registry: Registry) -> ValueView:
    return ValueView(value.value, tuple(_source_ref(d, run, registry) for d in value.sources))


def load_synthesis(layout: RunLayout, key: str, library: DocumentLibrary) -> SynthesisView | str:
    """One synthesis run from ``trajectory.json`` (and ``score.json`` if it was graded); a
    one-line problem instead when the trajectory cannot be read."""
    folder = layout.synthesis[key]
    try:
        run = read_trajectory(RunFolder(folder, show_root=False))
    except PreuveError as err:
        return str(err)
    registry = library.registry()
    score_data, _ = read_json(folder / "score.json")
    synthesis = run.synthesis
    contradictions = synthesis.contradictions if synthesis is not None else run.contradictions
    limits = run.limits
    title, question = _question(run.question)
    return SynthesisView(
        run=key,
        question=question,
        title=title,
        engine=run.engine,
        status=run.status.value,
        defects=tuple(d.render() for d in run.defects),
        paragraphs=tuple(
            MemoParagraph(p.text, p.sources, tuple(True for _ in p.sources))
            for p in (synthesis.paragraphs if synthesis is not None else ())
        ),
        contradictions=tuple(
            ContradictionView(
                subject=c.subject,
                attribute=c.attribute,
                retained=_value(c.retained, run, registry) if c.retained else None,
                rejected=tuple(_value(v, run, registry) for v in c.rejected),
                rule=f"rule {c.rule}" if c.rule else "unresolved",
                rule_text=RULE_TEXT.get(c.rule, "") if c.rule else "the committee must decide",
                reason=c.reason,
            )
            for c in contradictions
        ),
        computed=tuple((n.label, f"{n.value} {n.unit}".strip(), n.formula) for n in run.computed),
        subtasks=_subtasks(run, registry, library),
        failures=limits.not_investigated,
        uncovered=tuple(_source_ref(d, run, registry) for d in limits.uncovered),
        unused=tuple(_source_ref(d, run, registry) for d in limits.read_but_not_used),
        limits=tuple(run.limit_lines),
        score=_score(score_data),
        calls=len(run.calls),
        runs=run_entries("synthesis", layout.synthesis),
        problems=registry.problems,
        statements_refused=run.statements_refused,
    )
