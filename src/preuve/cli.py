"""The one entry point: `preuve demo | check-* | memo | statements | synthesize | digest |
eval | view`.

Thin on purpose: each subcommand lives in :mod:`preuve.commands` and calls library code.
:func:`build_app` takes the runtime factory (Settings → Runtime) every command that calls
a model uses; ``preuve`` runs it with the real one, tests with their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from preuve.commands.check import check_memo_command, check_quote_command, check_quotes_command
from preuve.commands.common import (
    CliState,
    enter_cli,
    make_runtime,
    process_environment,
)
from preuve.commands.demo import demo_command
from preuve.commands.digest import digest_app, eval_digest_command
from preuve.commands.memo import eval_memo_command, eval_rates_command, memo_command
from preuve.commands.models import models_command
from preuve.commands.reliability import reliability_command
from preuve.commands.statements import statements_command
from preuve.commands.store import store_app
from preuve.commands.synthesize import (
    check_synthesis_command,
    eval_synthesis_command,
    grade_command,
    synthesize_command,
)
from preuve.commands.view import view_command
from preuve.models.runtime import RuntimeFactory

__all__ = ["app", "build_app", "main"]


def _options(factory: RuntimeFactory) -> Callable[..., None]:
    def options(
        ctx: typer.Context,
        quiet: Annotated[
            bool,
            typer.Option(
                "--quiet",
                "-q",
                help="No progress on stderr (model calls and workflow steps); $PREUVE_QUIET=1.",
            ),
        ] = False,
    ) -> None:
        """Make LLM document synthesis checkable: quotes, numbers and freshness verified in
        code."""
        # Settings are read by each command that needs them (a malformed PREUVE_* fails
        # there, exit 2), so that --help and the pure checks work whatever the environment.
        enter_cli(ctx, CliState(factory, process_environment(), {"quiet": quiet or None}))

    return options


def build_app(runtime_factory: RuntimeFactory = make_runtime) -> typer.Typer:
    """The command tree, its commands' runtimes made by ``runtime_factory`` (tests pass
    their own; ``preuve`` the real :func:`~preuve.commands.common.make_runtime`)."""
    app = typer.Typer(
        name="preuve",
        help="Make LLM document synthesis checkable: quotes, numbers and freshness verified "
        "in code.",
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
    )
    app.callback()(_options(runtime_factory))
    app.command("demo")(demo_command)
    app.command("check-quote")(check_quote_command)
    app.command("check-quotes")(check_quotes_command)
    app.command("check-memo")(check_memo_command)
    app.command("memo")(memo_command)
    app.command("statements")(statements_command)
    app.command("synthesize")(synthesize_command)
    app.command("check-synthesis")(check_synthesis_command)
    app.command("grade")(grade_command)
    app.add_typer(digest_app, name="digest")
    app.add_typer(store_app, name="store")
    app.command("view")(view_command)
    app.command("reliability")(reliability_command)
    app.command("models")(models_command)

    eval_app = typer.Typer(help="Evaluate a workflow against its gold, over repeated runs.")
    eval_app.command("digest")(eval_digest_command)
    eval_app.command("memo")(eval_memo_command)
    eval_app.command("rates")(eval_rates_command)
    eval_app.command("synthesis")(eval_synthesis_command)
    app.add_typer(eval_app, name="eval")
    return app


app = build_app(make_runtime)


def main() -> None:
    build_app(make_runtime)(prog_name="preuve")
