"""Two current-debt lines of one balance sheet, the short-term borrowings and the part of
the long-term debt due within the year, are both kept: the net debt counts each (one taken
for the other undercounts it). Made-up company and figures."""

from __future__ import annotations

from decimal import Decimal

from preuve.memo import operands as op
from preuve.memo.statements import Statements, extract_statements
from preuve.memo.table_fields import merged_statements

BALANCE = """Larchmont Valve Co.
Consolidated Balance Sheets
(In thousands) 2025 2024
Cash and cash equivalents 4,250 3,980
Inventories 18,600 17,100
Total current assets 22,850 21,080
Property, plant and equipment, net 40,300 38,900
Total assets 63,150 59,980
Accounts payable 9,140 8,720
Short-term borrowings 3,000 1,500
Current portion of long-term debt 2,400 2,400
Total current liabilities 14,540 12,620
Long-term debt, net of current portion 21,600 24,000
Total liabilities 36,140 36,620
Total stockholders' equity 27,010 23,360
Total liabilities and stockholders' equity 63,150 59,980
"""


def _values(st: Statements, key: str) -> dict[int, Decimal]:
    return {f.year: f.value for f in st.fields if f.key == key}


def test_both_current_debt_lines_are_kept() -> None:
    st = merged_statements([BALANCE], extract_statements([BALANCE]))
    assert _values(st, "current_debt") == {2025: Decimal(3000), 2024: Decimal(1500)}
    assert _values(st, "current_maturities") == {2025: Decimal(2400), 2024: Decimal(2400)}


def test_the_net_debt_counts_both_current_debt_lines() -> None:
    st = merged_statements([BALANCE], extract_statements([BALANCE]))
    debt = op.net_debt(st, 2025)
    assert debt is not None
    assert debt.value == Decimal((21_600 + 3_000 + 2_400 - 4_250) * 1000)  # in thousands
