"""The one entry point: `preuve demo | check-quote | check-quotes | check-memo | ...`.

Thin on purpose: each subcommand lives in :mod:`preuve.commands` and calls library code.
"""

from __future__ import annotations

import typer

from preuve.commands.check import check_memo_command, check_quote_command, check_quotes_command
from preuve.commands.demo import demo_command

__all__ = ["app", "main"]

app = typer.Typer(
    name="preuve",
    help="Make LLM document synthesis checkable: quotes, numbers and freshness verified in code.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.command("demo")(demo_command)
app.command("check-quote")(check_quote_command)
app.command("check-quotes")(check_quotes_command)
app.command("check-memo")(check_memo_command)


def main() -> None:
    app(prog_name="preuve")
