"""The table reader on held-out material nobody here tuned on (measured, never tuned to).

Two French annual reports in other layouts than the bundled ones, as PDF and as text, and
the statement lines of 12 FinanceBench filings (their PDFs live in ``../shared``; those
tests skip when it is absent). The figures are the README's held-out figures.
"""

from __future__ import annotations

import json
import unicodedata
from decimal import Decimal
from pathlib import Path

import pytest

from preuve.core.documents import Document
from preuve.eval.statements_eval import (
    Score,
    load_gold_rows,
    ratio_deviations,
    score_rows,
    table_rows,
)
from preuve.io.pdf import load_pages, pdf_positions
from preuve.memo.pipeline import analyse_report
from preuve.memo.rules_engine import memo_rules_model
from preuve.memo.tables import read_tables

HELDOUT = Path(__file__).resolve().parents[1] / "heldout"
REPORTS = HELDOUT / "memo" / "reports"
FB_GOLD = HELDOUT / "financebench"


def _pages(path: Path) -> list[str]:
    if path.suffix == ".txt":
        return path.read_text(encoding="utf-8").split("\f")
    return load_pages(path)


def _table_score(path: Path) -> Score:
    """The table reader's rows of a report (a PDF with its x-positions) against its gold."""
    gold = load_gold_rows(path.with_suffix(".gold.json"))
    positions = pdf_positions(path, _pages(path)) if path.suffix == ".pdf" else None
    return score_rows(gold, table_rows(_pages(path), positions))


@pytest.mark.parametrize("name", ["vellorin.pdf", "vellorin.txt", "cardelis.pdf", "cardelis.txt"])
def test_french_reports_every_statement_line(name: str) -> None:
    path = REPORTS / name
    score = score_rows(load_gold_rows(path.with_suffix(".gold.json")), table_rows(_pages(path)))
    assert (score.right, score.wrong) == (score.values, 0)


# The fifth writer's reports (measured blind on arrival: Sorbelle 78 / 140 right, Terravant
# 54 / 144 right and 4 wrong). Floors: what the table reader reaches since; never a wrong one.
FIFTH_WRITER = {
    "sorbelle.pdf": (140, 140),
    "sorbelle.txt": (140, 140),
    "terravant.pdf": (144, 144),
    "terravant.txt": (144, 144),
}


@pytest.mark.parametrize("name", FIFTH_WRITER)
def test_fifth_writer_reports_statement_lines(name: str) -> None:
    score = _table_score(REPORTS / name)
    values, floor = FIFTH_WRITER[name]
    assert (score.values, score.wrong) == (values, 0)
    assert score.right >= floor


def test_the_gold_loader_reads_the_fifth_writers_extra_keys() -> None:
    sorbelle = load_gold_rows(REPORTS / "sorbelle.gold.json")
    # floats at the printed precision (one decimal): 228.0 stays 228.0
    assets = next(r for r in sorbelle if r.label == "Actifs non courants")
    assert sorted(str(v) for v in assets.values.values()) == ["228.0", "239.6"]
    terravant = load_gold_rows(REPORTS / "terravant.gold.json")
    tangible = next(r for r in terravant if r.label == "Immobilisations corporelles")
    assert tangible.other == {
        "brut_2025": Decimal(59120),
        "amortissements_depreciations_2025": Decimal(36510),
    }


@pytest.mark.parametrize("name", ["vellorin.pdf", "cardelis.txt"])
def test_every_value_span_is_the_value_as_printed(name: str) -> None:
    pages = _pages(REPORTS / name)
    cells = [c for t in read_tables(pages) for r in t.rows for c in r.cells]
    assert cells
    spans = [pages[c.page - 1][c.start : c.end] for c in cells]

    # Thousands grouped by a plain or no-break space are one value ("18 450").
    def same(text: str) -> str:
        return text.replace("\u00a0", " ").replace("\u202f", " ")

    assert [same(s) for s in spans] == [same(c.raw) for c in cells]


def test_financebench_statement_lines(financebench_dir: Path) -> None:
    values = right = wrong = 0
    for gold in sorted(FB_GOLD.glob("*.gold.json")):
        pdf = financebench_dir / "pdfs" / gold.name.replace(".gold.json", ".pdf")
        pages = load_pages(pdf)
        score = score_rows(load_gold_rows(gold), table_rows(pages, pdf_positions(pdf, pages)))
        values, right, wrong = values + score.values, right + score.right, wrong + score.wrong
    assert (values, wrong) == (2730, 0)
    # 99.7 %: Corning's blank cells are placed by x-position (2708 from the text alone)
    assert right >= 2723


@pytest.mark.parametrize("name", ["vellorin", "cardelis", "sorbelle"])
def test_french_reports_ratios_within_half_a_percent(name: str) -> None:
    gold = REPORTS / f"{name}.gold.json"
    deviations = ratio_deviations(gold, load_pages(REPORTS / f"{name}.pdf"))
    # six ratios and free cash flow, two years; the covenant ratio published for the last
    assert len(deviations) == 15
    assert {k: v for k, v in deviations.items() if v is None or v > 0.005} == {}


def test_french_gaap_report_ratios() -> None:
    """Terravant (French GAAP): leverage with leases adds the leasing principal its
    off-balance-sheet commitments note lists; the current ratio's current liabilities are
    its maturity note's total due within one year, dated 2025, and for 2024 the amount a
    note's sentence states at that date (s25; 2024's was not computed before, never
    invented); the covenant ratio it publishes without an ``x`` (R1 3,3 for 3,0) is found;
    interest cover is minus the financial result, where the writer took the financial
    charges: the other value is a variant its gold lists."""
    pages = load_pages(REPORTS / "terravant.pdf")
    deviations = ratio_deviations(REPORTS / "terravant.gold.json", pages)
    assert {k for k, v in deviations.items() if v is None} == set()
    off = {k for k, v in deviations.items() if v is not None and v > 0.005}
    assert off == {"interest_cover 2025", "interest_cover 2024"}
    loose = ratio_deviations(REPORTS / "terravant.gold.json", pages, variants=True)
    assert {k for k, v in loose.items() if v is not None and v > 0.005} == set()


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
    return " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split()).rstrip(".")


@pytest.mark.parametrize("name", ["vellorin", "cardelis"])
def test_french_reports_signals_are_risks_not_reassurance(name: str) -> None:
    gold = json.loads((REPORTS / f"{name}.gold.json").read_text(encoding="utf-8"))
    pages = load_pages(REPORTS / f"{name}.pdf")
    company = analyse_report(Document.from_pages(name, pages), memo_rules_model())
    quoted = [_plain(f.text) for f in company.facts if f.id.startswith("Q-")]

    def cited(entry: dict[str, str]) -> bool:
        sentence = _plain(entry.get("sentence_plain_spaces", entry["sentence"]))
        return any(sentence[:60] in quote for quote in quoted)

    assert [s["sentence"] for s in gold["signals"] if not cited(s)] == []
    assert [s["sentence"] for s in gold["not_signals"] if cited(s)] == []


# Recall floors reached on the fifth writer's reports (blind on arrival: 5 / 7 and 2 / 8,
# with 3 and 1 gold not-signals kept; 6 / 7 and 6 / 8 while no category named an order book
# falling, idle assets not written down or a small impairment headroom: now activity and
# asset_value do). Terravant 8 -> 7 in s28: its sole-source sentence ("d'une seule carrière")
# rested on a noun and a form copied from it into the cues, now removed.
FIFTH_WRITER_SIGNALS = {"sorbelle": 7, "terravant": 7}


def _signals_kept(name: str) -> tuple[list[str], list[str], int]:
    """A report of ``memo/reports`` through the rules memo pipeline: the gold signals it
    quotes, the gold not-signals it quotes, and how many sentences it quotes in all."""
    gold = json.loads((REPORTS / f"{name}.gold.json").read_text(encoding="utf-8"))
    company = analyse_report(
        Document.from_pages(name, load_pages(REPORTS / f"{name}.pdf")), memo_rules_model()
    )
    quoted = [_plain(f.text) for f in company.facts if f.id.startswith("Q-")]

    def cited(entry: dict[str, str]) -> bool:
        return any(_plain(entry["sentence"])[:60] in quote for quote in quoted)

    return (
        [s["sentence"] for s in gold["signals"] if cited(s)],
        [s["sentence"] for s in gold["not_signals"] if cited(s)],
        len(quoted),
    )


@pytest.mark.parametrize("name", FIFTH_WRITER_SIGNALS)
def test_fifth_writer_reports_signals(name: str) -> None:
    recalled, not_signals, quoted = _signals_kept(name)
    assert len(recalled) >= FIFTH_WRITER_SIGNALS[name]
    assert not_signals == []
    assert quoted == len(recalled)  # every sentence kept is a gold signal


# The reports nobody tuned on (``tests/heldout/memo/blind``, a fourteenth writer's in s27,
# measured on arrival (main 4688fc1) and after the s27 merges, which never saw them:
# Delvaux-Mertens, Belgian GAAP statutory accounts in whole euros with a codes column and dot
# thousands, 19 / 206 from the PDF with 21 wrong values kept (17 from the text file), worked on
# in s28 and now in ``memo/reports``: 204 / 206 once a one-group ``58.000`` is read as its
# table's other amounts use the dot, the "Exercice / Exercice précédent" columns take the
# heading block's periods and the codes column is kept out of values and labels (EBITDA,
# stated in prose only, is the one row missed); Sahyadri Polymers, Ind AS in rupees lakhs with
# Indian digit grouping and a balance sheet across two pages, 100 / 210 on arrival, 126 after
# the s27 merges, 0 wrong; 208 in s28 once Schedule III's "statement of profit and loss" heads
# an income statement and the signatures' "Pune, 22 May 2025" no longer restarts the columns
# of the balance sheet's second page, EBITDA in prose missed; now in ``memo/reports`` too:
# no report is blind until the next writer's arrive). The floors are what the
# table reader reads. The twelfth writer's pair (s26, now in ``memo/reports``, worked on in
# s27: apostrophe thousands read whole, the "Annexe" notes column kept out of the labels,
# Rochat 140 / 140; Bremer 160 / 160 once IAS 1's "statement of profit or loss", a notes
# range "10-12", a non-IFRS table announced by a sentence and a reconciliation note are
# read) and the tenth writer's (s25, worked on in s26) keep their floors below.
BLIND = HELDOUT / "memo" / "blind"
BLIND_FILES = sorted(
    p.name for p in (BLIND.iterdir() if BLIND.is_dir() else ()) if p.suffix in {".pdf", ".txt"}
)
# A fifteenth writer's pair (s28, never tuned on, measured on arrival at main 6299cb3):
# Grandvaux, French statutory accounts under the Plan comptable général in whole euros (a
# Brut / Amortissements / Net N / Net N-1 balance sheet, an income statement across two pages
# with France / Export columns), 142 / 228 from the PDF, 0 wrong, and 124 with 10 wrong from
# the text file; Marula Ridge, South African IFRS in R'000 with the comparative year printed
# first and unlabelled subtotals, 165 / 172 with 3 wrong from the PDF, 7 / 172 with 3 wrong
# from its text file (cells separated by tabs). After the s28 merges, which never saw them:
# Grandvaux 184 / 228 from the PDF (0 wrong) and 168 with 10 wrong from the text; Marula
# unchanged. Worked on in s29 and now in ``memo/reports``: 0 wrong from either (a tab sets
# cells apart; an English report grouping its thousands by spaces has them read whole; a
# cut the column gaps do not show is doubtful), Marula 168 / 172 from the PDF and the text;
# Grandvaux 224 / 228 from the PDF and 226 from the text once a "Tableau de flux de
# trésorerie" heads a cash-flow statement and a tab-separated row has a cell under each of
# its heading's captions (France | Export | Total | Total: the periods' are the last).
# A seventeenth writer's pair (s30, never tuned on, measured on arrival at main fe96568):
# Kerian Precision, a Malaysian group in RM'000 printing Group 2025 | Group 2024 | Company
# 2025 | Company 2024 after a Note column (the gold is the Group's), 16 / 204 from the PDF
# and 8 from the text with 172 wrong (the Company columns read as the periods'); Tamri, a
# Moroccan canner in KMAD under the CGNC (own-year / prior-year / total columns in the
# income statement, Brut / Amortissements / Net assets, statements across two pages), 118 /
# 300 from either, 0 wrong. After the s30 merges, which never saw them: Kerian 192 / 204 from
# the PDF and 184 from the text, 0 wrong (statement columns keyed by entity: the group's are
# the statement, the company's kept apart); Tamri unchanged.
BLIND_FLOORS: dict[str, int] = {
    "kerian.pdf": 192,
    "kerian.txt": 184,
    "tamri.pdf": 118,
    "tamri.txt": 118,
}
BLIND_WRONG: frozenset[str] = frozenset()
WORKED_ON_FLOORS = {
    "kestrel": 191,
    "vivarais": 200,
    "rochat": 140,
    "bremer": 160,
    "delvaux_mertens": 204,
    "sahyadri_polymers": 208,
    "grandvaux": 224,
    "marula": 168,
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            name,
            marks=pytest.mark.xfail(
                name in BLIND_WRONG,
                reason="issue 14: wrong values kept on a report nobody tuned on",
                strict=True,
            ),
        )
        for name in BLIND_FILES
    ],
)
def test_reports_nobody_tuned_on_keep_no_wrong_value(name: str) -> None:
    score = _table_score(BLIND / name)
    print(f"\n{name}: {score.right}/{score.values} right, {score.wrong} wrong")
    assert score.wrong == 0
    assert score.right >= BLIND_FLOORS[name]


@pytest.mark.parametrize(
    "name", [f"{stem}.{ext}" for stem in WORKED_ON_FLOORS for ext in ("pdf", "txt")]
)
def test_the_reports_worked_on_keep_their_floors(name: str) -> None:
    score = _table_score(REPORTS / name)
    assert score.wrong == 0
    assert score.right >= WORKED_ON_FLOORS[Path(name).stem]


@pytest.mark.parametrize(
    ("folder", "name"), [(REPORTS, "kestrel"), (REPORTS, "breval"), (REPORTS, "ardwell")]
)
def test_every_printed_ratio_input_gives_its_ratio(folder: Path, name: str) -> None:
    """s26: Kestrel's lease leverage (US "lease liabilities, net of current portion") and
    covenant ("not more than 3.50 to 1.00; the ratio was 3.23 to 1.00"); Bréval's current
    ratio from a debt note's "dont ... à moins d'un an (hors concours)" row plus its
    overdrafts; Ardwell's leverage on the adjusted EBITDA its gold is defined on."""
    pdf = folder / f"{name}.pdf"
    pages = load_pages(pdf)
    deviations = ratio_deviations(
        folder / f"{name}.gold.json", pages, positions=pdf_positions(pdf, pages)
    )
    assert {k: v for k, v in deviations.items() if v is None or v > 0.005} == {}


@pytest.mark.parametrize("name", ["rochat.pdf", "rochat.txt"])
def test_rochat_ratios_from_swiss_gaap_statements(name: str) -> None:
    """s27: Rochat's ratios (0 / 15 computed before: no amount read) from its Swiss GAAP RPC
    lines (Code of obligations wording) and its operating-leasing note. The interest cover
    divides by the printed financial result, which includes the FX result (a variant its
    gold lists); the covenant is read from "ne doit pas dépasser 2.50 ; ... il s'élevait à
    2.43"."""
    path = REPORTS / name
    pages = _pages(path)
    positions = pdf_positions(path, pages) if path.suffix == ".pdf" else None
    gold = path.with_suffix(".gold.json")
    deviations = ratio_deviations(gold, pages, positions=positions)
    assert {k for k, v in deviations.items() if v is None} == set()
    off = {k for k, v in deviations.items() if v is not None and v > 0.005}
    assert off == {"interest_cover 2025", "interest_cover 2024"}
    loose = ratio_deviations(gold, pages, variants=True, positions=positions)
    assert {k for k, v in loose.items() if v is not None and v > 0.005} == set()


# Signals on the same pair (s26 on arrival: Rochat 3 / 9 with one gold not-signal kept,
# Bremer 7 / 9; s27, with cues widened on sentences of its own tests: 9 / 9 each, none kept;
# s28: 7 / 9 and 8 / 9, those figures rested on cue forms copied from the two reports
# (a single-source form, a covenant sensitivity "suffirait à", debt "exposed to floating
# rates"), removed as copied vocabulary).
WORKED_ON_SIGNALS = {"rochat": 7, "bremer": 8}


@pytest.mark.parametrize("name", WORKED_ON_SIGNALS)
def test_the_twelfth_writer_s_reports_signals(name: str) -> None:
    recalled, not_signals, _ = _signals_kept(name)
    assert len(recalled) >= WORKED_ON_SIGNALS[name]
    assert not_signals == []


def test_bremer_ratios_without_an_operating_line() -> None:
    """s27: Bremer prints no operating-profit line and its EBITDA only in the directors'
    report's non-IFRS table (net finance costs positive there): leverage on that EBITDA,
    interest cover on profit before tax plus the finance lines, net margin on "revenue from
    contracts with customers". Only free cash flow is off: the memo subtracts the payments
    for intangible assets too (its gold takes property, plant and equipment alone)."""
    pdf = REPORTS / "bremer.pdf"
    pages = load_pages(pdf)
    deviations = ratio_deviations(
        REPORTS / "bremer.gold.json", pages, positions=pdf_positions(pdf, pages)
    )
    assert {k for k, v in deviations.items() if v is None} == set()
    assert {k for k, v in deviations.items() if v is not None and v > 0.005} == {
        "free_cash_flow 2025",
        "free_cash_flow 2024",
    }


def test_vivarais_ratios_off_only_by_the_shareholder_accounts() -> None:
    """Every Vivarais ratio is computed (s26: lease leverage from the crédit-bail note's
    rents still due, the current ratio 2025 from note 3.7, the covenant 2,55 published
    without an x); the ones off count the row "Emprunts et dettes financières divers (dont
    comptes courants d'associés)" in net debt, which its gold leaves out (a variant it lists
    for leverage)."""
    pdf = REPORTS / "vivarais.pdf"
    pages = load_pages(pdf)
    gold = REPORTS / "vivarais.gold.json"
    deviations = ratio_deviations(gold, pages, positions=pdf_positions(pdf, pages))
    assert {k for k, v in deviations.items() if v is None} == set()
    off = {k.split()[0] for k, v in deviations.items() if v is not None and v > 0.005}
    assert off == {"leverage_net_debt_ebitda", "leverage_with_leases", "gearing"}
    loose = ratio_deviations(gold, pages, variants=True, positions=pdf_positions(pdf, pages))
    assert {k for k, v in loose.items() if v is not None and v > 0.005} == {
        "leverage_with_leases 2025",
        "leverage_with_leases 2024",
        "gearing 2025",
        "gearing 2024",
    }


# The fifteenth writer's pair, worked on from s29 (in ``memo/blind`` until it moves to
# ``memo/reports``). Ratios within 0.5 % on arrival: Grandvaux 0 / 14 (4 computed), Marula
# 5 / 15 (9 computed); after s29: Marula 11 / 15 (leverage, with leases and gearing once the
# current portion of its borrowings and its bank overdraft are net debt and its statement by
# function takes its D&A from the cash-flow statement), Grandvaux 6 / 14 (the covenant it
# publishes without "x" before its "plafond contractuel", leverage on the EBE its statutory
# income statement's operating lines give, net debt less its marketable securities, net margin
# on a turnover that counts the production sold of services too, the current ratio on its
# maturity table dated "à la clôture"). Interest
# cover stays on the declared default (net financial charge), where both golds take the gross
# interest; the rest waits for lines the table reader does not read yet (Grandvaux's equity
# total, its turnover beside the France / Export columns, its cash-flow table; Marula's
# unlabelled current subtotals).
FIFTEENTH_WRITER_RATIOS = {
    "marula": (11, {"leverage_net_debt_ebitda 2025", "gearing 2024", "covenant 2025"}),
    "grandvaux": (
        8,  # 6 on its branch; 8 with the cash-flow statement read (free cash flow 2024-25)
        {
            "current_ratio 2025",
            "leverage_net_debt_ebitda 2025",
            "leverage_net_debt_ebitda 2024",
            "net_margin 2025",
            "net_margin 2024",
            "covenant 2025",
        },
    ),
}


def _fifteenth(name: str) -> Path:
    return next(p for p in (REPORTS / name, BLIND / name) if p.exists())


@pytest.mark.parametrize("name", FIFTEENTH_WRITER_RATIOS)
def test_the_fifteenth_writer_s_ratios(name: str) -> None:
    pdf = _fifteenth(f"{name}.pdf")
    pages = load_pages(pdf)
    gold = pdf.with_suffix(".gold.json")
    deviations = ratio_deviations(gold, pages, positions=pdf_positions(pdf, pages))
    within = {k for k, v in deviations.items() if v is not None and v <= 0.005}
    floor, named = FIFTEENTH_WRITER_RATIOS[name]
    assert len(within) >= floor
    assert named <= within


# Signals on the same pair: on arrival recall 5 / 10 and 7 / 10 with 21 sentences quoted and one
# gold not-signal kept (a risk removed from the register); s29: 10 / 10 each, none kept, 14 and
# 12 quoted (the others are neither signal nor not-signal in the golds: a second customer-share
# sentence, the claim's amount after the lawsuit, a hypothetical sensitivity, an order book
# down 6 %, a dividend withheld to preserve liquidity).
FIFTEENTH_WRITER_SIGNALS = {"grandvaux": (10, 14), "marula": (10, 12)}


@pytest.mark.parametrize("name", FIFTEENTH_WRITER_SIGNALS)
def test_the_fifteenth_writer_s_signals(name: str) -> None:
    pdf = _fifteenth(f"{name}.pdf")
    gold = json.loads(pdf.with_suffix(".gold.json").read_text(encoding="utf-8"))
    company = analyse_report(Document.from_pages(name, load_pages(pdf)), memo_rules_model())
    quoted = [_plain(f.text) for f in company.facts if f.id.startswith("Q-")]

    def cited(entry: dict[str, str]) -> bool:
        return any(_plain(entry["sentence"])[:60] in quote for quote in quoted)

    recall, most = FIFTEENTH_WRITER_SIGNALS[name]
    assert len([s for s in gold["signals"] if cited(s)]) >= recall
    assert [s["sentence"] for s in gold["not_signals"] if cited(s)] == []
    assert len(quoted) <= most
