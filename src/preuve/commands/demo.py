"""`preuve demo`: show the checks at work on the bundled example, offline, in seconds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from preuve.commands.common import console, handles_errors
from preuve.core.facts import parse_facts
from preuve.core.memocheck import check_memo, parse_memo
from preuve.core.numbers import Locale
from preuve.core.quotes import QuoteChecker
from preuve.corpora.example import EXAMPLE_FACTS, EXAMPLE_MEMO, EXAMPLE_PAGES, EXAMPLE_QUOTES

__all__ = ["demo_command"]


@handles_errors
def demo_command(
    out: Annotated[Path, typer.Option("--out", help="Where to write the demo's files.")] = Path(
        "preuve-out"
    ),
) -> None:
    """Run the quote and memo checks on a bundled example and write every input and verdict."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "example-report.txt").write_text("\f".join(EXAMPLE_PAGES), encoding="utf-8")
    (out / "example-facts.txt").write_text(EXAMPLE_FACTS, encoding="utf-8")
    (out / "example-memo.json").write_text(
        json.dumps(EXAMPLE_MEMO, ensure_ascii=False, indent=2), encoding="utf-8"
    )

    checker = QuoteChecker(EXAMPLE_PAGES)
    table = Table(title="Quote check — example answers (scripted, not a model)")
    for column in ("case", "page", "verdict", "span / reason"):
        table.add_column(column)
    results = []
    for case in EXAMPLE_QUOTES:
        result = checker.verify(case.page, case.quote)
        results.append(result.to_dict() | {"case": case.label})
        where = f"[{result.start}:{result.end}]" if result.verified else result.reason
        table.add_row(case.label, str(case.page), result.verdict.value, where)
    console.print(table)

    facts = parse_facts(EXAMPLE_FACTS, source="example-facts.txt")
    defects = check_memo(
        parse_memo(EXAMPLE_MEMO, source="example-memo.json"),
        facts,
        locale=Locale.FR,
        years={2024, 2025},
    )
    console.print("\n[bold]Memo check — example memo[/bold]")
    for defect in defects:
        console.print(f"  - {defect.render()}", markup=False)
    status = "VERIFIED" if not defects else "REFUSED"
    console.print(f"memo {status}: {len(defects)} defects", markup=False)
    (out / "example-verdicts.json").write_text(
        json.dumps(
            {
                "quotes": results,
                "memo": {"status": status, "defects": [d.render() for d in defects]},
            },
            ensure_ascii=False,
            indent=2,
        ),
        encoding="utf-8",
    )
    console.print(f"\nWrote inputs and verdicts to {out}/", markup=False)
