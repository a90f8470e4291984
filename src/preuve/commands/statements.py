"""`preuve statements REPORT.pdf [--json] [--mapping FILE]`: the statements of a report.

Prints each primary statement as a table with its period columns (every row, mapped to a
concept or not, with its page), then the identities checked and violated. ``--json`` gives
the same with each value's page and exact span in the page text. A parent company's
columns printed beside the group's are shown apart (never the statement's figures), and
columns no cue attributes to an entity are shown as doubtful. Exit 0 when no identity is
violated, 1 when one is, when a table's columns are not attributed or no statement was
found, 2 on bad input.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from preuve.commands.common import EXIT_OK, EXIT_REJECTED, console, handles_errors, print_json
from preuve.io.pdf import load_pages, pdf_positions
from preuve.loaders import load_mapping
from preuve.memo.statement_report import StatementReport, read_statement_report
from preuve.memo.tables import TableRow

__all__ = ["statements_command"]


def _print_apart(rows: Sequence[TableRow], title: str) -> None:
    """Rows kept out of the statement's fields, each value under its column's period."""
    if not rows:
        return
    width = max(len(row.cells) for row in rows)
    view = Table(title=title)
    view.add_column("label")
    keys = next(tuple(c.period.key for c in r.cells) for r in rows if len(r.cells) == width)
    for key in keys:
        view.add_column(key, justify="right")
    view.add_column("page", justify="right")
    for row in rows:
        by_key = {c.period.key: c.raw for c in row.cells} if len(row.cells) < width else {}
        cells = [c.raw for c in row.cells] if not by_key else [by_key.get(k, "") for k in keys]
        view.add_row(*(Text(cell) for cell in [row.label or "(total)", *cells, str(row.page)]))
    console.print(view)


def _print(report: StatementReport) -> None:
    for table, rows in report.tables:
        pages = ", ".join(str(p) for p in table.pages)
        title = f"{table.statement.value} — p. {pages} — {table.unit or 'unit ?'}"
        view = Table(title=title)
        view.add_column("label")
        view.add_column("concept")
        for period in table.periods:
            view.add_column(period.key, justify="right")
        view.add_column("page", justify="right")
        for mapped in rows:
            by_period = {c.period: c.raw for c in mapped.row.cells}
            cells = [
                mapped.row.label or "(total)",
                mapped.concept or "—",
                *(by_period.get(p, "") for p in table.periods),
                str(mapped.row.page),
            ]
            view.add_row(*(Text(cell) for cell in cells))  # document text stays text
        console.print(view)
        _print_apart(table.company_rows, f"{title} — parent company, not used")
        _print_apart(
            table.unattributed_rows,
            f"{title} — DOUBTFUL: columns not attributed to the group or the company, not used",
        )
    for identity in report.violated:
        console.print(f"VIOLATED {identity.name} (p. {identity.pages})", markup=False)
    console.print(
        f"identities: {report.checked} checked, {len(report.violated)} violated,"
        f" {report.unresolved} unresolved · unmapped rows: {report.unmapped}",
        markup=False,
    )


@handles_errors
def statements_command(
    report: Annotated[Path, typer.Argument(help="The report (PDF).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    mapping: Annotated[
        Path | None,
        typer.Option(
            "--mapping", help="A concept mapping file (JSON), tried before the bundled one."
        ),
    ] = None,
) -> None:
    """The statements of REPORT: every row per period, concepts, identities."""
    rules = load_mapping(mapping) if mapping is not None else ()
    pages = load_pages(report)
    result = read_statement_report(pages, rules, pdf_positions(report, pages))
    if json_out:
        print_json({"report": str(report), **result.to_json()})
    else:
        _print(result)
        if not result.tables:
            console.print("no income statement, balance sheet or cash-flow statement found")
    unattributed = any(table.unattributed_rows for table, _ in result.tables)
    if result.violated or unattributed or not result.tables:
        raise typer.Exit(EXIT_REJECTED)
    raise typer.Exit(EXIT_OK)
