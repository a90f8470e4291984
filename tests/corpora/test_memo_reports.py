"""The bundled memo corpus: real PDFs, consistent figures, gold that matches the pages."""

from __future__ import annotations

import dataclasses
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from preuve.corpora.memo_data import COMPANIES, CompanySpec, NegativeStyle
from preuve.corpora.memo_layout import FONTS_DIR, format_amount
from preuve.corpora.memo_model import LINES, derive_years
from preuve.corpora.memo_prose import NoteTable
from preuve.corpora.memo_reports import GOLD_RELATIVE, generate_memo_corpus
from preuve.io.pdf import load_pages

SLUGS = [spec.slug for spec in COMPANIES]


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("memo-corpus")
    generate_memo_corpus(out)
    return out


@pytest.fixture(scope="session")
def gold(corpus: Path) -> dict[str, dict[str, Any]]:
    data = json.loads((corpus / GOLD_RELATIVE).read_text(encoding="utf-8"))
    return {company["slug"]: company for company in data["companies"]}


@pytest.fixture(scope="session")
def pages(corpus: Path) -> dict[str, list[str]]:
    return {slug: load_pages(corpus / "reports" / f"{slug}.pdf") for slug in SLUGS}


def _collapse(text: str) -> str:
    return " ".join(text.split())


def test_three_reports_and_their_gold(corpus: Path, gold: dict[str, dict[str, Any]]) -> None:
    assert sorted(p.name for p in (corpus / "reports").iterdir()) == [
        "ferlac.pdf",
        "helvane.pdf",
        "solvea.pdf",
    ]
    assert set(gold) == set(SLUGS)
    for company in gold.values():
        assert len(company["fields"]) == 68
        assert len(company["signals"]) == 6
        assert [r["id"].rsplit("-", 1)[1] for r in company["ratios"]] == [
            "levier",
            "marge",
            "gearing",
        ]
    assert sum(len(c["fields"]) for c in gold.values()) == 204


def test_generation_is_deterministic(tmp_path: Path, corpus: Path) -> None:
    again = generate_memo_corpus(tmp_path)
    for path in again:
        assert path.read_bytes() == (corpus / "reports" / path.name).read_bytes(), path.name
    assert (tmp_path / GOLD_RELATIVE).read_bytes() == (corpus / GOLD_RELATIVE).read_bytes()


@pytest.mark.parametrize("slug", SLUGS)
def test_reports_have_real_report_structure(slug: str, pages: dict[str, list[str]]) -> None:
    text = pages[slug]
    assert len(text) >= 7
    assert "Rapport de gestion" in text[2]
    assert any(p.startswith(f"{text[0].splitlines()[0]} – Rapport annuel") for p in text[1:])
    assert any("Annexe aux comptes consolidés" in p for p in text)
    # Amounts in the tables use a narrow no-break space as thousands separator.
    assert any(re.search(r"\d\u202f\d{3}", p) for p in text)


@pytest.mark.parametrize(
    ("slug", "negative"),
    [("ferlac", "(14\u202f930)"), ("solvea", "\u221247\u202f225"), ("helvane", "(1\u202f500)")],
    ids=["parentheses", "minus-sign", "parentheses-small"],
)
def test_negative_free_cash_flow_is_printed_in_the_report_style(
    slug: str, negative: str, pages: dict[str, list[str]], gold: dict[str, dict[str, Any]]
) -> None:
    fcf = next(
        f for f in gold[slug]["fields"] if f["key"] == "free_cash_flow" and f["year"] == 2025
    )
    assert negative in pages[slug][fcf["page"] - 1]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_gold_signal_is_on_its_page(
    slug: str, pages: dict[str, list[str]], gold: dict[str, dict[str, Any]]
) -> None:
    for signal in gold[slug]["signals"]:
        page = pages[slug][signal["page"] - 1]
        assert _collapse(signal["sentence"]) in _collapse(page), signal["id"]


def test_some_signal_sentences_run_over_a_pdf_line_break(
    pages: dict[str, list[str]], gold: dict[str, dict[str, Any]]
) -> None:
    spanning = [
        signal["id"]
        for slug in SLUGS
        for signal in gold[slug]["signals"]
        if signal["sentence"] not in pages[slug][signal["page"] - 1]
        and "\n" in _line_span(pages[slug][signal["page"] - 1], signal["sentence"])
    ]
    assert len(spanning) >= 3, spanning


def _line_span(page: str, sentence: str) -> str:
    """The stretch of ``page`` holding ``sentence`` with its original line breaks."""
    words = [re.escape(w) for w in sentence.split()]
    match = re.search(r"\s+".join(words), page)
    assert match is not None, sentence
    return match.group()


def test_the_covenant_sentence_of_note_9_is_kept_whole(gold: dict[str, dict[str, Any]]) -> None:
    covenant = next(s for s in gold["ferlac"]["signals"] if s["category"] == "covenant")
    assert "85 000 k€" in covenant["sentence"]
    assert "selon la définition contractuelle" in covenant["sentence"]


@pytest.mark.parametrize("slug", SLUGS)
def test_gold_field_pages_hold_their_statement(
    slug: str, pages: dict[str, list[str]], gold: dict[str, dict[str, Any]]
) -> None:
    spec = next(s for s in COMPANIES if s.slug == slug)
    headings = dict(zip(("income", "balance", "cashflow"), spec.style.headings, strict=True))
    for field in gold[slug]["fields"]:
        page = pages[slug][field["page"] - 1]
        assert f"\n{headings[field['statement']]}\n" in page, field
        assert field["label"] in page, field


@pytest.mark.parametrize("spec", COMPANIES, ids=SLUGS)
def test_figures_are_internally_consistent(spec: CompanySpec) -> None:
    for year, lines in derive_years(spec.opening, spec.flows).items():
        assert lines["total_assets"] == lines["total_equity_and_liabilities"], year
        assert lines["total_assets"] == lines["equity"] + lines["total_liabilities"], year
        assert lines["net_debt"] == lines["gross_debt"] - lines["cash"], year
        assert lines["free_cash_flow"] == lines["operating_cash_flow"] + lines["capex"], year
        assert set(lines) == {line.key for line in LINES}


@pytest.mark.parametrize("spec", COMPANIES, ids=SLUGS)
def test_note_tables_add_up_and_match_the_statements(spec: CompanySpec) -> None:
    figures = derive_years(spec.opening, spec.flows)
    totals = {"revenue", "gross_debt", "tangible_assets"}
    checked = 0
    for section in spec.notes:
        for block in section.blocks:
            if not isinstance(block, NoteTable):
                continue
            *parts, (label, total_now, total_before) = block.rows
            assert label.startswith("Total")
            assert sum(p[1] for p in parts) == total_now
            assert sum(p[2] for p in parts) == total_before
            matching = [k for k in totals if figures[spec.year][k] == total_now]
            assert matching, f"{section.title}: total matches no statement line"
            assert figures[spec.year - 1][matching[0]] == total_before
            checked += 1
    assert checked >= 1


def test_reference_figures_of_the_spec(gold: dict[str, dict[str, Any]]) -> None:
    def field(slug: str, key: str, year: int) -> int:
        return int(
            next(f["value"] for f in gold[slug]["fields"] if f["key"] == key and f["year"] == year)
        )

    def ratio(slug: str, suffix: str) -> dict[str, str]:
        found = next(r for r in gold[slug]["ratios"] if r["id"] == f"R-{slug}-{suffix}")
        return dict(found["values"])

    assert ratio("ferlac", "levier") == {"2025": "5.500000", "2024": "3.600000"}
    assert ratio("ferlac", "marge")["2025"] == "-0.500000"
    assert field("ferlac", "free_cash_flow", 2025) == -14_930
    assert field("solvea", "net_income", 2025) == 11_175
    assert field("solvea", "free_cash_flow", 2025) == -47_225


def test_the_opening_balance_must_balance() -> None:
    spec = COMPANIES[0]
    broken = dataclasses.replace(spec.opening, cash=spec.opening.cash + 1)
    with pytest.raises(ValueError, match="off by 1 k€"):
        derive_years(broken, spec.flows)


@pytest.mark.parametrize(
    ("value", "style", "dash", "expected"),
    [
        (-61_300, NegativeStyle.PARENTHESES, False, "(61\u202f300)"),
        (-61_300, NegativeStyle.MINUS, False, "\u221261\u202f300"),
        (142_600, NegativeStyle.MINUS, False, "142\u202f600"),
        (713, NegativeStyle.PARENTHESES, False, "713"),
        (0, NegativeStyle.PARENTHESES, True, "—"),
        (0, NegativeStyle.PARENTHESES, False, "0"),
    ],
    ids=["parentheses", "minus", "positive", "small", "dash-zero", "plain-zero"],
)
def test_format_amount(value: int, style: NegativeStyle, dash: bool, expected: str) -> None:
    assert format_amount(value, style, zero_dash=dash) == expected


def test_fonts_are_bundled_with_their_licence() -> None:
    assert (FONTS_DIR / "DejaVuSans.ttf").stat().st_size > 100_000
    assert (FONTS_DIR / "DejaVuSans-Bold.ttf").stat().st_size > 100_000
    assert "Bitstream" in (FONTS_DIR / "LICENSE").read_text(encoding="utf-8")
    assert FONTS_DIR.parent.name == "corpora"


def test_gold_values_are_exact(gold: dict[str, dict[str, Any]]) -> None:
    for company in gold.values():
        for field in company["fields"]:
            assert isinstance(field["value"], int)
        for ratio in company["ratios"]:
            for value in ratio["values"].values():
                assert Decimal(value).as_tuple().exponent == -6, value
