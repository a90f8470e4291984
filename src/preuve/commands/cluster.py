"""``--executor`` for the commands that run independent work: the option, the executor,
and the model as an executor's workers need it.

The executor comes from the settings (``--executor``, else ``$PREUVE_EXECUTOR``, else
``local``; :func:`preuve.cluster.executor.make_executor`); it is closed when the command
ends. On a remote executor the model is built so that it can be shipped: an openai model becomes a
:class:`~preuve.models.pool.BalancedModel` whose endpoint slots are the cluster's, and
the per-call progress lines and ``$PREUVE_RECORD`` (both of this process) are not
available (the store and the journal record every call).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from preuve.cluster.executor import EXECUTOR_ENV_VAR, EXECUTOR_FORMS, Executor, make_executor
from preuve.core.errors import ConfigError
from preuve.models.base import Model
from preuve.models.runtime import Runtime
from preuve.models.settings import Settings
from preuve.models.spec import endpoint_concurrency, load_model

__all__ = ["ExecutorOpt", "command_model", "open_executor"]

ExecutorOpt = Annotated[
    str | None,
    typer.Option(
        "--executor",
        help=f"Where independent work runs: {EXECUTOR_FORMS} (default: ${EXECUTOR_ENV_VAR} "
        "or local).",
    ),
]


@contextmanager
def open_executor(settings: Settings, concurrency: int) -> Iterator[Executor]:
    """The executor the settings name (``--executor``, else ``$PREUVE_EXECUTOR``, else
    ``local``), closed at the end."""
    executor = make_executor(settings.executor, concurrency=concurrency)
    try:
        yield executor
    finally:
        executor.close()


def command_model(runtime: Runtime, rules: Callable[[], Model], executor: Executor) -> Runtime:
    """What a command hands its workflow: the runtime itself on the local executor; on a
    remote one, a runtime around a model that can be shipped to its workers (no progress
    sink, no recorder: both are of this process), its endpoint slots the executor's."""
    if not executor.remote:
        return runtime
    settings = runtime.settings
    if settings.record is not None:
        raise ConfigError(
            "$PREUVE_RECORD records in this process, and a remote executor calls the model "
            "elsewhere",
            fix="unset PREUVE_RECORD, or use --executor local",
        )
    slots = executor.endpoint_slots(endpoint_concurrency(settings.environ))
    rules_model = rules() if settings.model == "rules" else None
    shipped = load_model(settings.model, rules=rules_model, env=settings.environ, slots=slots)
    return Runtime(settings, backend=shipped)
