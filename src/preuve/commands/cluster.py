"""``--executor`` for the commands that run independent work: the option, the executor,
and the model as an executor's workers need it.

The executor comes from ``--executor``, else ``$PREUVE_EXECUTOR``, else ``local``
(:func:`preuve.cluster.executor.make_executor`); it is closed when the command ends. On a
remote executor the model is built so that it can be shipped: an openai model becomes a
:class:`~preuve.models.pool.BalancedModel` whose endpoint slots are the cluster's, and
the per-call progress lines and ``$PREUVE_RECORD`` (both of this process) are not
available (the store and the journal record every call).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from preuve.cluster.executor import EXECUTOR_ENV_VAR, EXECUTOR_FORMS, Executor, make_executor
from preuve.core.errors import ConfigError
from preuve.models.base import Model
from preuve.models.spec import endpoint_concurrency, load_model

__all__ = ["ExecutorOpt", "open_executor", "shipped_model"]

ExecutorOpt = Annotated[
    str | None,
    typer.Option(
        "--executor",
        help=f"Where independent work runs: {EXECUTOR_FORMS} (default: ${EXECUTOR_ENV_VAR} "
        "or local).",
    ),
]


@contextmanager
def open_executor(spec: str | None, concurrency: int) -> Iterator[Executor]:
    """The executor the flag (or ``$PREUVE_EXECUTOR``) names, closed at the end."""
    chosen = spec or os.environ.get(EXECUTOR_ENV_VAR) or "local"
    executor = make_executor(chosen, concurrency=concurrency)
    try:
        yield executor
    finally:
        executor.close()


def shipped_model(spec: str | None, rules: Callable[[], Model], executor: Executor) -> Model:
    """The model for a remote executor: one that can be shipped to its workers, its
    endpoint slots the executor's (a command calls ``resolve_model`` for a local one)."""
    if os.environ.get("PREUVE_RECORD"):
        raise ConfigError(
            "$PREUVE_RECORD records in this process, and a remote executor calls the model "
            "elsewhere",
            fix="unset PREUVE_RECORD, or use --executor local",
        )
    chosen = spec or os.environ.get("PREUVE_MODEL") or "rules"
    slots = executor.endpoint_slots(endpoint_concurrency(os.environ))
    rules_model = rules() if chosen == "rules" else None
    return load_model(chosen, rules=rules_model, env=os.environ, slots=slots)
