"""An English IFRS report in a UK layout (issue 14, s24): "Profit for the year", British
"amortisation", "Trade and other receivables", and a net-assets balance sheet that prints
its liabilities in parentheses under "Current liabilities" / "Non-current liabilities"
section titles, with "Borrowings" and "Lease liabilities" in both. Each repeated row takes
its section's concept (never one of them as the gross debt), liabilities are read as
magnitudes, and "Cash generated from operations" (before interest and tax) is not the
operating cash flow. A made-up report."""

from __future__ import annotations

from decimal import Decimal

from preuve.core.numbers import Locale
from preuve.memo.company import detect_company
from preuve.memo.ratios import compute_ratios, ratios_not_computed
from preuve.memo.statements import extract_statements
from preuve.memo.table_fields import merged_statements

INCOME = """Northbridge Foods plc
Consolidated income statement for the year ended 31 December 2025 (£ million)
2025 2024
Revenue 412.6 398.1
Cost of sales (290.3) (276.9)
Gross profit 122.3 121.2
Administrative expenses (71.5) (68.0)
Operating profit 50.8 53.2
Finance income 1.2 0.9
Finance costs (14.6) (12.1)
Net finance costs (13.4) (11.2)
Profit before tax 37.4 42.0
Income tax expense (9.4) (10.5)
Profit for the year 28.0 31.5
"""
BALANCE = """Consolidated balance sheet at 31 December 2025 (£ million)
2025 2024
Non-current assets
Property, plant and equipment 210.4 198.7
Right-of-use assets 41.0 44.2
Goodwill 65.0 65.0
Total non-current assets 316.4 307.9
Current assets
Inventories 48.2 45.0
Trade and other receivables 61.3 58.8
Cash and cash equivalents 22.5 30.1
Total current assets 132.0 133.9
Total assets 448.4 441.8
Current liabilities
Trade and other payables (72.4) (70.3)
Borrowings (15.0) (12.0)
Lease liabilities (8.1) (7.9)
Total current liabilities (95.5) (90.2)
Non-current liabilities
Borrowings (140.0) (150.0)
Lease liabilities (35.6) (38.9)
Total non-current liabilities (175.6) (188.9)
Total liabilities (271.1) (279.1)
Net assets 177.3 162.7
Equity
Share capital 10.0 10.0
Retained earnings 167.3 152.7
Total equity 177.3 162.7
"""
CASH = """Consolidated cash flow statement for the year ended 31 December 2025 (£ million)
2025 2024
Profit for the year 28.0 31.5
Depreciation and amortisation 24.1 22.8
Cash generated from operations 66.0 70.2
Net cash from operating activities 52.3 58.4
Purchase of property, plant and equipment (31.2) (28.5)
Net cash used in investing activities (31.2) (28.5)
Net cash used in financing activities (28.7) (20.1)
Net (decrease)/increase in cash and cash equivalents (7.6) 9.8
"""
PAGES = [INCOME, BALANCE, CASH]


def test_each_repeated_row_takes_its_sections_concept() -> None:
    statements = merged_statements(PAGES, extract_statements(PAGES))
    got = {
        (f.key, f.year): f.value
        for f in statements.fields
        if f.key.endswith(("debt", "lease_liabilities_current", "lease_liabilities_noncurrent"))
        or f.key in {"current_liabilities", "operating_cash_flow", "net_income", "depreciation"}
    }
    assert {k: v for k, v in got.items() if k[1] == 2025} == {
        ("current_debt", 2025): Decimal("15.0"),
        ("long_term_debt", 2025): Decimal("140.0"),
        ("lease_liabilities_current", 2025): Decimal("8.1"),
        ("lease_liabilities_noncurrent", 2025): Decimal("35.6"),
        ("current_liabilities", 2025): Decimal("95.5"),
        ("operating_cash_flow", 2025): Decimal("52.3"),
        ("net_income", 2025): Decimal("28.0"),
        ("depreciation", 2025): Decimal("24.1"),
    }
    assert not any(f.key == "gross_debt" for f in statements.fields)


def test_every_ratio_of_the_report_is_computed() -> None:
    statements = merged_statements(PAGES, extract_statements(PAGES))
    assert ratios_not_computed(statements) == ()
    ratios = {r.id.rsplit("-", 1)[-1]: r for r in compute_ratios(statements, detect_company(PAGES))}
    rounded = {
        name: ratios[name].value(2025).quantize(Decimal("0.01"))  # type: ignore[union-attr]
        for name in ("levier", "loyers", "liquidite", "fcf", "couverture")
    }
    assert rounded == {
        "levier": Decimal("1.77"),  # (140.0 + 15.0 - 22.5) / (50.8 + 24.1)
        "loyers": Decimal("2.35"),  # (132.5 + 35.6 + 8.1) / 74.9
        "liquidite": Decimal("1.38"),  # 132.0 / 95.5
        "fcf": Decimal("21.10"),  # 52.3 - 31.2
        "couverture": Decimal("3.79"),  # 50.8 / 13.4
    }


def test_ratios_not_computed_are_named_in_the_memo_language() -> None:
    # without its income statement, the report's ratios are refused; an English memo's
    # refusals read "Leverage 2025: no ...", not the French "Levier 2025"
    pages = [BALANCE, CASH]
    statements = merged_statements(pages, extract_statements(pages))
    english = ratios_not_computed(statements, Locale.EN)
    french = ratios_not_computed(statements, Locale.FR)
    assert english and len(english) == len(french)
    assert any(r.startswith("Levier 2025") for r in french)
    assert not any(r.startswith(("Levier", "Marge")) for r in english)
    assert any(r.startswith("Leverage 2025") for r in english)
