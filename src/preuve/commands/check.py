"""`preuve check-quote`, `check-quotes`, `check-memo`: the core checks on a user's files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from preuve.commands.common import (
    EXIT_OK,
    EXIT_REJECTED,
    console,
    handles_errors,
    print_json,
)
from preuve.core.claim_lexicon import DEFAULT_LEXICON, ClaimLexicon
from preuve.core.claims import DIMENSIONS, review_claims
from preuve.core.defects import Defect
from preuve.core.errors import InputError
from preuve.core.facts import Fact, parse_facts
from preuve.core.memocheck import check_memo, parse_memo
from preuve.core.numbers import Locale, extract_numbers
from preuve.core.quotes import QuoteChecker, QuoteResult
from preuve.io.jsonfile import read_json_file, read_jsonl_file, read_text_file
from preuve.io.pdf import load_pages
from preuve.io.records import QuoteEntry, dump_record, dump_records

__all__ = ["check_memo_command", "check_quote_command", "check_quotes_command"]

DocArg = Annotated[
    Path, typer.Argument(help="A PDF, or a UTF-8 text file with pages split by \\f.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Only the SPEC normalization: switch off the lenient tier (spacing, dropped "
        "quote marks and dashes).",
    ),
]


@handles_errors
def check_quote_command(
    doc: DocArg,
    page: Annotated[int, typer.Option("--page", help="The cited page, from 1.")],
    quote: Annotated[str, typer.Option("--quote", help="The quote to locate.")],
    as_json: JsonOpt = False,
    strict: StrictOpt = False,
) -> None:
    """Verify that a quote is on the page it cites; print its exact span or why not."""
    checker = QuoteChecker(load_pages(doc), lenient=not strict)
    result = checker.verify(page, quote)
    if as_json:
        print_json(dump_record(QuoteEntry.of(result)))
    else:
        _print_quote(result)
    raise typer.Exit(EXIT_OK if result.verified else EXIT_REJECTED)


@handles_errors
def check_quotes_command(
    doc: DocArg,
    input_file: Annotated[
        Path, typer.Option("--input", help='JSON lines, one {"page": N, "quote": "..."} each.')
    ],
    as_json: JsonOpt = False,
    strict: StrictOpt = False,
) -> None:
    """Verify many quotes against one document (its pages are extracted once)."""
    requests = [_quote_request(input_file, n, row) for n, row in read_jsonl_file(input_file)]
    if not requests:
        raise InputError(f"{input_file}: no quotes to check")
    checker = QuoteChecker(load_pages(doc), lenient=not strict)
    results = [checker.verify(page, quote) for page, quote in requests]
    if as_json:
        print_json([dump_record(QuoteEntry.of(r)) for r in results])
    else:
        for number, result in enumerate(results, start=1):
            console.print(f"#{number} ", end="", markup=False)
            _print_quote(result)
        verified = sum(r.verified for r in results)
        console.print(f"{verified}/{len(results)} quotes verified", markup=False)
    raise typer.Exit(EXIT_OK if all(r.verified for r in results) else EXIT_REJECTED)


@handles_errors
def check_memo_command(
    *,
    facts_file: Annotated[Path, typer.Option("--facts", help="One fact per line: [ID] text.")],
    memo_file: Annotated[
        Path, typer.Option("--memo", help='{"paragraphs": [{"text": ..., "sources": [...]}]}')
    ],
    locale: Annotated[Locale, typer.Option("--locale", help="How numbers are written.")] = (
        Locale.FR
    ),
    years: Annotated[
        list[int] | None,
        typer.Option(
            "--year", help="A year of the report (repeatable; default: the facts' years)."
        ),
    ] = None,
    lexicon_file: Annotated[
        Path | None,
        typer.Option(
            "--lexicon",
            help='JSON extending the claim cues, e.g. {"aliases": {"Acme Inc.": ["ACM"]}}.',
        ),
    ] = None,
    currency: Annotated[
        str | None,
        typer.Option(
            "--currency",
            help="The report's currency (S$, SGD, A$, HK$...): what a bare $ stands for"
            " (default: the US dollar).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check a memo: every paragraph cites facts, every number comes from a cited fact, and
    is said of that fact's subject, period and direction."""
    facts = parse_facts(read_text_file(facts_file), source=str(facts_file))
    paragraphs = parse_memo(read_json_file(memo_file), source=str(memo_file))
    lexicon = _lexicon(lexicon_file)
    report_years = set(years) if years else _years_of(facts, locale)
    defects = check_memo(
        paragraphs, facts, locale=locale, years=report_years, lexicon=lexicon, currency=currency
    )
    reviews = review_claims(
        [(p.text, p.sources) for p in paragraphs], facts, locale=locale, lexicon=lexicon
    )
    unchecked = [sum(1 for c in r.claims if c.unchecked()) for r in reviews]
    if as_json:
        print_json(
            {
                "verified": not defects,
                "paragraphs": len(paragraphs),
                "years": sorted(report_years),
                "defects": dump_records(defects, Defect),
                "claims": [
                    {
                        "paragraph": index,
                        "claims": [
                            {"claim": c.claim, **{d: c.status(d) for d in DIMENSIONS}}
                            for c in review.claims
                        ],
                    }
                    for index, review in enumerate(reviews, start=1)
                ],
            }
        )
    else:
        status = "VERIFIED" if not defects else "REFUSED"
        console.print(
            f"memo {status}: {len(paragraphs)} paragraphs, {len(defects)} defects, "
            f"{sum(unchecked)} claims unchecked",
            markup=False,
        )
        for defect in defects:
            console.print(f"  - {defect.render()}", markup=False)
        for index, review in enumerate(reviews, start=1):
            for claim in review.claims:
                if claim.unchecked():
                    console.print(
                        f"  ? paragraph {index}: {claim.claim!r} not checked for "
                        f"{', '.join(claim.unchecked())}",
                        markup=False,
                    )
    raise typer.Exit(EXIT_OK if not defects else EXIT_REJECTED)


def _lexicon(path: Path | None) -> ClaimLexicon:
    if path is None:
        return DEFAULT_LEXICON
    data = read_json_file(path)
    if not isinstance(data, dict):
        raise InputError(f"{path}: the lexicon must be a JSON object")
    try:
        return DEFAULT_LEXICON.extended(data)
    except ValueError as err:
        raise InputError(f"{path}: {err}") from err


def _quote_request(path: Path, line: int, row: Any) -> tuple[int, str]:
    if not isinstance(row, dict):
        raise InputError(f"{path}:{line}: expected an object with 'page' and 'quote'")
    page, quote = row.get("page"), row.get("quote")
    if isinstance(page, bool) or not isinstance(page, int):
        raise InputError(f"{path}:{line}: 'page' must be an integer")
    if not isinstance(quote, str):
        raise InputError(f"{path}:{line}: 'quote' must be a string")
    return page, quote


def _print_quote(result: QuoteResult) -> None:
    if result.verified:
        console.print(
            f"VERIFIED ({result.verdict.value}) page {result.page} "
            f"[{result.start}:{result.end}]: {result.matched!r}",
            markup=False,
        )
        return
    console.print(
        f"REJECTED ({result.verdict.value}) page {result.page}: {result.reason}", markup=False
    )
    if result.diagnostic is not None:
        diagnostic = result.diagnostic
        console.print(
            f"  closest passage [{diagnostic.start}:{diagnostic.end}]: {diagnostic.passage!r}",
            markup=False,
        )


def _years_of(facts: list[Fact], locale: Locale) -> set[int]:
    return {
        int(mention.value)
        for fact in facts
        for mention in extract_numbers(fact.text, locale)
        if mention.is_year
    }
