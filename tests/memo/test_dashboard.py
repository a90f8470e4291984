"""The dashboard: one row per company and the summary line, with and without gold figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.io.documents import load_documents
from preuve.memo.dashboard import CompanyScore, build_dashboard, dashboard_table, format_percent
from preuve.memo.pipeline import MemoRun, run_memo
from preuve.memo.rules_engine import memo_rules_model
from preuve.memo.writer import MemoStatus
from preuve.models.journal import Journal
from preuve.models.scripted import ScriptedModel


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("memo-corpus")
    generate_memo_corpus(out)
    return out


@pytest.fixture(scope="module")
def run(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> MemoRun:
    reports = [corpus / "reports" / f"{slug}.pdf" for slug in ("ferlac", "solvea")]
    with Journal(tmp_path_factory.mktemp("j") / "journal.sqlite") as journal:
        return run_memo(load_documents(reports), memo_rules_model(), journal=journal)


def test_rows_without_gold_show_what_was_extracted(run: MemoRun) -> None:
    dashboard = build_dashboard(run)
    ferlac, solvea = dashboard.rows
    assert ferlac.company == "Maison Ferlac SAS"
    assert ferlac.fields == "68 extracted"
    assert ferlac.ratios == (
        "Levier 5,5x · Marge nette -0,5 % · Gearing 2,12x · Couverture des intérêts 0,9x"
        " · Marge d'EBITDA 10,0 % · Intensité capitalistique 12,6 %"
        " · Rentabilité des capitaux propres -1,9 % · Rentabilité de l'actif -0,4 %"
        # issue 14: days, turnover, year-on-year change and free cash flow
        " · Délai de recouvrement clients 79 jours · Rotation des stocks 170 jours"
        " · Délai de paiement fournisseurs 135 jours"
        " · Rotation des immobilisations corporelles 1,93x"
        " · Variation du chiffre d'affaires -5,8 % · Variation de l'EBITDA -17,2 %"
        " · Free cash-flow -14\u202f930 k€"
        " · Ratio de covenant (définition contractuelle, publié) 3,4x"
    )
    assert ferlac.memo_status == "VERIFIED"
    assert (ferlac.signals_rejected, ferlac.signals_cited) == (0, "6/6")
    assert (ferlac.ratio_deviation, ferlac.signal_recall) == ("—", "—")
    assert solvea.ratios.startswith("Levier 6,0x")
    assert dashboard.summary.line() == (
        "field accuracy: n/a · max ratio deviation: n/a · signal recall: n/a · memo verified: yes"
        " · claims unchecked: 2%"  # more checked claims (issue 14 ratios), same unchecked
    )
    # the alert paragraph's opening sentence matches no fact: its polarity stays unchecked
    assert (ferlac.claims_unchecked, solvea.claims_unchecked) == (
        "1/51 (2%)",
        "1/44 (2%)",
    )  # issue 14


def test_rows_with_evaluation_figures(run: MemoRun) -> None:
    ferlac, solvea = (c.report for c in run.companies)
    scores = {
        ferlac: CompanyScore(68, 68, 0.0, 6, 6),
        solvea: CompanyScore(60, 68, 0.0123, 3, 6),
    }
    dashboard = build_dashboard(run, scores)
    first, second = dashboard.rows
    assert (first.fields, first.ratio_deviation, first.signal_recall) == (
        "68/68", "0.00%", "6/6 (100%)",
    )  # fmt: skip
    assert (second.fields, second.ratio_deviation, second.signal_recall) == (
        "60/68", "1.23%", "3/6 (50%)",
    )  # fmt: skip
    summary = dashboard.summary
    assert summary.field_accuracy == pytest.approx(128 / 136)
    assert summary.max_ratio_deviation == pytest.approx(0.0123)
    assert summary.signal_recall == pytest.approx(0.75)
    assert summary.line() == (
        "field accuracy: 94.1% · max ratio deviation: 1.23% · signal recall: 75% · "
        "memo verified: yes · claims unchecked: 2%"  # issue 14: more claims checked
    )
    data = json.loads(json.dumps(dashboard.to_dict()))
    assert data["engine"] == "rules" and len(data["rows"]) == 2
    assert data["summary"]["memo_verified"] is True


def test_a_refused_memo_makes_the_summary_say_no(corpus: Path, tmp_path: Path) -> None:
    reader = '{"signals": []}'
    bad = '{"paragraphs": [{"text": "Le levier a gagné 1,9 point.", "sources": []}]}'
    model = ScriptedModel([reader, bad, bad])
    with Journal(tmp_path / "j.sqlite") as journal:
        refused = run_memo(
            load_documents([corpus / "reports" / "helvane.pdf"]), model, journal=journal
        )
    dashboard = build_dashboard(refused)
    (row,) = dashboard.rows
    assert row.memo_status == MemoStatus.REFUSED.value
    assert row.signals_cited == "0/0"
    assert dashboard.engine == "scripted:scripted"
    # "a gagné" with no number from a cited fact: a direction claim left unchecked
    assert dashboard.summary.line().endswith("memo verified: no · claims unchecked: 100%")


def test_table_renders_every_column(run: MemoRun) -> None:
    console = Console(record=True, width=200)
    console.print(dashboard_table(build_dashboard(run)))
    text = console.export_text()
    for header in ("company", "fields", "signals rejected", "signal recall", "Maison Ferlac SAS"):
        assert header in text


@pytest.mark.parametrize(
    ("value", "places", "shown"),
    [
        pytest.param(None, 1, "n/a", id="no-gold"),
        pytest.param(1.0, 1, "100.0%", id="full"),
        pytest.param(0.000_04, 2, "0.00%", id="tiny-deviation"),
    ],
)
def test_format_percent(value: float | None, places: int, shown: str) -> None:
    assert format_percent(value, places) == shown
