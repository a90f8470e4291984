"""Adapters for the sections read from SQLite: the digest store and the model-call journals.

Both are opened for reading only what a page shows. A store that cannot be read becomes a
one-line problem on the page, never an error page.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlencode

from preuve.core.errors import PreuveError
from preuve.core.evidence import parse_span_id
from preuve.digest.run_files import read_serve_answers
from preuve.io.runfolder import RunFileError, RunFolder
from preuve.io.store_rows import GenerationRow, RunInfo, RunNode
from preuve.io.stores import SqliteStore
from preuve.models.journal import CallRecord, Journal
from preuve.web.layout import RunLayout, run_entries
from preuve.web.pages import DocumentLibrary, Registry
from preuve.web.views import (
    CallView,
    DigestNode,
    DigestRunRow,
    DigestView,
    JournalRun,
    JournalSource,
    JournalView,
    ServeVerdict,
    page_href,
)

__all__ = ["MAX_RAW_CHARS", "load_digest", "load_journal"]

# A 10 MB model answer must not become a 10 MB page: the rest is counted, not shown.
MAX_RAW_CHARS = 20_000
_OUTCOMES = {"hit": "cache hit", "computed": "recomputed"}


def _tokens(value: int | None, estimated: bool = False) -> str:
    if value is None:
        return "—"
    return f"~{value}" if estimated else str(value)


def _raw(text: str | None) -> tuple[str, int]:
    if text is None:
        return "", 0
    return text[:MAX_RAW_CHARS], max(0, len(text) - MAX_RAW_CHARS)


def _call_view(call: CallRecord) -> CallView:
    identity = call.identity
    model = identity.label()
    extras = ", ".join(p for p in (identity.tokenizer, identity.version) if p)
    raw, cut = _raw(call.raw_output)
    return CallView(
        task=call.task,
        model=f"{model} ({extras})" if extras else model,
        finish_reason=call.finish_reason or "—",
        status=call.status,
        prompt_tokens=_tokens(call.prompt_tokens, call.tokens_estimated),
        generated_tokens=_tokens(call.generated_tokens, call.tokens_estimated),
        seconds=f"{call.seconds:.3f}",
        raw_output=raw,
        error=call.error,
        truncated=cut,
        generated=call.generated_tokens or 0,
    )


def _generation_view(gen: GenerationRow) -> CallView:
    model = gen.model
    label = f"{model.get('backend', '?')}:{model.get('name', '')}".rstrip(":")
    extras = ", ".join(str(model[k]) for k in ("tokenizer", "version") if model.get(k))
    raw, cut = _raw(gen.raw_output)
    return CallView(
        task=gen.task,
        model=f"{label} ({extras})" if extras else label,
        finish_reason=gen.finish_reason or "—",
        status="error" if gen.error else "ok",
        prompt_tokens=_tokens(gen.prompt_tokens),
        generated_tokens=_tokens(gen.generated_tokens),
        seconds=f"{gen.seconds:.3f}",
        raw_output=raw,
        error=gen.error or "; ".join(gen.defects),
        attempt=str(gen.attempt),
        truncated=cut,
        generated=gen.generated_tokens or 0,
    )


# --- workflow 3: digest ---------------------------------------------------------------------


def _verdicts(path: Path) -> tuple[tuple[ServeVerdict, ...], str]:
    """``serve.json`` read back typed: one ``preuve digest serve --json`` answer, or a
    list of them."""
    if not path.is_file():
        return (), ""
    try:
        answers = read_serve_answers(RunFolder(path.parent, show_root=False))
    except RunFileError as err:
        return (), err.message
    return tuple(ServeVerdict(a.status, a.reason, a.run_id) for a in answers), ""


def _evidence(
    claim_evidence: Sequence[str], spans: dict[str, dict[str, object]], registry: Registry
) -> tuple[tuple[str, str], ...]:
    """(span id, link to its page with the span highlighted, when the version is registered)."""
    out = []
    for evidence in claim_evidence:
        # Evidence ids name lines by content; the stored span holds their exact location.
        location = spans.get(evidence, {}).get("location", evidence)
        try:
            doc, version, start, end = parse_span_id(str(location))
        except ValueError:
            out.append((evidence, ""))
            continue
        page = spans.get(evidence, {}).get("page")
        number = page if isinstance(page, int) and page > 0 else 1
        doc_version = f"{doc}@{version}"
        found = registry.get(doc_version) is not None
        out.append((evidence, page_href(doc_version, number, start, end) if found else ""))
    return tuple(out)


def _node(store: SqliteStore, record: RunNode, registry: Registry) -> DigestNode:
    row = store.node(record.node_row)
    spans = {str(s.get("id")): s for s in row.spans}
    claims = tuple(
        (
            str(c.get("subject", "")),
            str(c.get("field", "")),
            str(c.get("value", "")),
            _evidence([str(e) for e in c.get("evidence") or ()], spans, registry),
        )
        for c in row.claims
    )
    return DigestNode(
        node_id=record.node_id,
        kind=record.kind,
        status=record.status,
        outcome=_OUTCOMES.get(record.outcome, record.outcome),
        claims=claims,
        diagnostic=tuple(row.diagnostic),
        generations=tuple(_generation_view(g) for g in store.generations(record.node_row)),
    )


def _tree(store: SqliteStore, run_id: str, registry: Registry) -> DigestNode | None:
    records = store.run_nodes(run_id)
    nodes = {r.node_id: _node(store, r, registry) for r in records}
    children: dict[str | None, list[str]] = {}
    for record in records:
        children.setdefault(record.parent_id, []).append(record.node_id)

    def grown(node_id: str) -> DigestNode:
        kids = tuple(grown(child) for child in children.get(node_id, ()))
        return replace(nodes[node_id], children=kids)

    roots = children.get(None, [])
    return grown(roots[0]) if roots else None


def _counters(run: RunInfo) -> str:
    c = run.counters or {}
    if not c:
        return "unfinished"
    return (
        f"recomputed {c.get('recomputed', '?')} · model calls {c.get('model_calls', '?')} · "
        f"cache hits {c.get('cache_hits', '?')} · new tokens {c.get('generated_tokens', '?')}"
    )


def _default_run(runs: Sequence[RunInfo], verdicts: Sequence[ServeVerdict]) -> str:
    """The run the last serve answer was about, else the last finished build."""
    known = {r.run_id for r in runs}
    for verdict in reversed(verdicts):
        if verdict.run_id in known:
            return verdict.run_id
    finished = [r for r in runs if r.finished]
    return (finished or list(runs))[-1].run_id


def load_digest(
    layout: RunLayout, key: str, library: DocumentLibrary, run_id: str | None
) -> DigestView | None:
    """The digest store of one run folder: history of builds, one build's tree (``run_id``,
    by default the one the last serve answer was about) and the serve answers. None when
    ``run_id`` is not a run of the store."""
    path = layout.digest[key]
    runs_entries = run_entries("digest", layout.digest)
    verdicts, problem = _verdicts(path.parent / "serve.json")
    registry = library.registry()
    problems = tuple(p for p in (problem,) if p) + registry.problems
    try:
        with SqliteStore(path, read_only=True) as store:
            runs = store.runs()
            if not runs:
                return DigestView(
                    key, path.name, (), "", None, verdicts, (), runs_entries, problems
                )
            if run_id is not None and run_id not in {r.run_id for r in runs}:
                return None
            selected = run_id or _default_run(runs, verdicts)
            root = _tree(store, selected, registry)
            counts = tuple(sorted(store.row_counts().items()))
    except PreuveError as err:
        return DigestView(key, path.name, (), "", None, verdicts, (), runs_entries, (str(err),))
    history = tuple(
        DigestRunRow(
            run_id=r.run_id,
            created=r.created_at[:19].replace("T", " "),
            mode=r.mode,
            dossier=Path(r.dossier).name,
            root_status=r.root_status or "unfinished",
            counters=_counters(r),
            href=f"/digest?{urlencode({'run': key, 'build': r.run_id})}",
            selected=r.run_id == selected,
        )
        for r in runs
    )
    return DigestView(
        key, path.name, history, selected, root, verdicts, counts, runs_entries, problems
    )


# --- journal --------------------------------------------------------------------------------


def _journal_source(key: str, path: Path) -> JournalSource | str:
    try:
        with Journal(path, readonly=True) as journal:
            runs = tuple(
                JournalRun(run_id, tuple(_call_view(c) for c in journal.calls(run_id)))
                for run_id in journal.run_ids()
            )
    except (PreuveError, OSError, ValueError, sqlite3.Error) as err:
        return f"{key}/journal.sqlite: unreadable ({err})"
    return JournalSource(f"{key}/journal.sqlite", runs)


def _digest_source(key: str, path: Path) -> JournalSource | str:
    try:
        with SqliteStore(path, read_only=True) as store:
            runs = []
            for run in store.runs():
                calls = [
                    _generation_view(g)
                    for record in store.run_nodes(run.run_id)
                    if record.outcome == "computed"
                    for g in store.generations(record.node_row)
                ]
                runs.append(JournalRun(run.run_id, tuple(calls)))
    except PreuveError as err:
        return str(err)
    return JournalSource(f"{key}/{path.name} (digest generations)", tuple(runs))


def load_journal(layout: RunLayout) -> JournalView:
    """Every run's model calls: each journal, then each digest store's generations."""
    found = [_journal_source(k, p) for k, p in layout.journals.items()]
    found += [_digest_source(k, p) for k, p in layout.digest.items()]
    sources = tuple(s for s in found if isinstance(s, JournalSource))
    return JournalView(sources, tuple(s for s in found if isinstance(s, str)))
