"""Sub-agent requests sized from the model's context window.

A sub-task's documents go to its sub-agent in as few requests as fit the model's window less
the answer's room (:func:`~preuve.models.budget.input_budget`), counted with the model's own
tokenizer and chat template where known (:func:`~preuve.models.budget.fit_groups`): documents
are grouped in order and never cut. A model that declares no window (the rules engine, an
``openai:`` endpoint without ``$PREUVE_CONTEXT_WINDOW``) gets one request per sub-task, as
before. When one document alone does not fit, each document gets a request of its own: the
one too long is refused by the backend before the call and its group is NOT INVESTIGATED
with that reason, while the others are read.

The findings of a sub-task's requests are merged (:func:`merge_findings`): statements in
order, gaps once each, the documents read; a group that failed is named among the gaps, and
the sub-task is NOT INVESTIGATED only when every group failed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from preuve.core.documents import Document
from preuve.core.errors import BudgetError
from preuve.models.base import Request
from preuve.models.budget import counter_for, fit_groups, input_budget
from preuve.synthesis.types import Finding, FindingStatus, SubTask

__all__ = ["merge_findings", "scope_groups"]

Group = tuple[Document, ...]


def scope_groups(
    model: object,
    documents: Sequence[Document],
    build: Callable[[Sequence[Document]], Request],
) -> list[Group]:
    """``documents`` in order, in groups whose request (``build(group)``) fits the window."""
    whole = tuple(documents)
    if len(whole) <= 1:
        return [whole]
    max_new_tokens = build(whole[:1]).max_new_tokens
    try:
        budget = input_budget(model, max_new_tokens)
    except BudgetError:
        return [whole]  # no room at all: the backend refuses it, with that reason
    if budget is None:
        return [whole]
    try:
        return [tuple(group) for group in fit_groups(whole, build, counter_for(model), budget)]
    except BudgetError:
        return [(document,) for document in whole]


def merge_findings(subtask: SubTask, parts: Sequence[Finding]) -> Finding:
    """One finding for ``subtask`` from the findings of its requests (see the module)."""
    if len(parts) == 1:
        return parts[0]
    done = [p for p in parts if p.status is FindingStatus.OK]
    failed = [p for p in parts if p.status is not FindingStatus.OK]
    if not done:
        read = tuple(dict.fromkeys(d for p in parts for d in p.docs_read))
        return Finding.not_investigated(subtask.id, "; ".join(p.error for p in failed), read)
    gaps = [
        *dict.fromkeys(g for p in done for g in p.gaps),
        *(f"not read ({', '.join(p.docs_read)}): {p.error}" for p in failed),
    ]
    return replace(
        done[0],
        statements=tuple(s for p in done for s in p.statements),
        refused=tuple(r for p in done for r in p.refused),  # counted whatever the group
        gaps=tuple(gaps),
        docs_read=tuple(dict.fromkeys(d for p in done for d in p.docs_read)),
    )
