"""Ratio inputs of statements laid out in another style (issue 14, s28): a balance sheet whose
liabilities run over two pages under their maturity sections, items numbered by roman
numerals and letters, a "statement of profit and loss". Made-up reports and wording."""

from __future__ import annotations

from decimal import Decimal

from preuve.core.numbers import Locale
from preuve.memo import operands as op
from preuve.memo.english import formula_en
from preuve.memo.lexicon import Statement, normalize_label
from preuve.memo.sections import balance_section, continued_pages, qualified_labels
from preuve.memo.statements import Field, Statements, extract_statements
from preuve.memo.table_fields import merged_statements

ASSETS_PAGE = """Orchid Castings Ltd
Consolidated Balance Sheet as at 30 June 2026
(Amounts in thousands)
Particulars                      Note        30 June 2026     30 June 2025
A. Non-current assets
   (a) Property, plant and equipment   3          8,400            7,900
Total non-current assets                           8,400            7,900
B. Current assets
   (a) Inventories                     4          2,100            1,800
   (b) Cash and cash equivalents       5            600              750
Total current assets                               2,700            2,550
Total assets                                      11,100           10,450
Equity and liabilities
   Total equity                                    5,300            5,000
Non-current liabilities
   (a) Financial liabilities
      (i) Borrowings                   6          3,000            2,800
   (b) Provisions                                    200              150
Total non-current liabilities                      3,200            2,950
"""

LIABILITIES_PAGE = """Orchid Castings Ltd
Consolidated Balance Sheet as at 30 June 2026 (continued)
(Amounts in thousands)
Particulars                      Note        30 June 2026     30 June 2025
Current liabilities
   (a) Financial liabilities
      (i) Borrowings                   6          1,100              900
      (ii) Trade payables                         1,500            1,600
Total current liabilities                          2,600            2,500
Total equity and liabilities                      11,100           10,450
"""

INCOME_PAGE = """Orchid Castings Ltd
Consolidated Statement of Profit and Loss for the year ended 30 June 2026
(Amounts in thousands)
Particulars                      Note        Year ended       Year ended
                                             30 June 2026     30 June 2025
I Revenue from operations          10         14,000           12,500
II Other income                                  300              250
III Total income (I + II)                     14,300           12,750
IV Profit for the year (III - V)               1,050              900
Profit for the year attributable to:
   Owners of the Company                         1,000              860
   Non-controlling interests                        50               40
"""


def _values(st: Statements, key: str) -> dict[int, Decimal]:
    return {f.year: f.value for f in st.fields if f.key == key}


def test_a_section_title_names_the_maturity_of_the_rows_under_it() -> None:
    assert balance_section("Non-current liabilities") == "non_current"
    assert balance_section("B. Current assets") == "current"
    assert balance_section("2 Current liabilities:") == "current"
    assert balance_section("Passifs non courants") == "non_current"
    assert balance_section("Current liabilities exceed current assets by far") is None
    assert balance_section("Borrowings") is None
    assert qualified_labels("(i) Borrowings", "non_current")[0] == "non current (i) Borrowings"
    assert qualified_labels("Borrowings", "")[-1] == "Borrowings"
    assert "dettes financières courantes" in qualified_labels("Dettes financières 43", "current")


def test_borrowings_under_each_maturity_section_are_long_term_and_current_debt() -> None:
    st = extract_statements([ASSETS_PAGE, LIABILITIES_PAGE])
    assert _values(st, "long_term_debt") == {2026: Decimal(3000), 2025: Decimal(2800)}
    assert _values(st, "current_debt") == {2026: Decimal(1100), 2025: Decimal(900)}
    # the long-term part alone is not the gross debt
    assert _values(st, "gross_debt") == {}
    assert _values(st, "current_liabilities") == {2026: Decimal(2600), 2025: Decimal(2500)}


def test_the_net_debt_of_a_balance_sheet_over_two_pages_counts_both_maturities() -> None:
    pages = [ASSETS_PAGE, LIABILITIES_PAGE]
    st = merged_statements(pages, extract_statements(pages))
    debt = op.net_debt(st, 2026)
    assert debt is not None
    assert debt.value == Decimal((3000 + 1100 - 600) * 1000)  # in thousands


def test_roman_numerals_number_a_label_and_are_not_part_of_it() -> None:
    assert normalize_label("IX Profit for the year") == "profit for the year"
    assert normalize_label("II Other income") == "other income"
    # a word in capitals is no numeral
    assert normalize_label("VIX levy") == "vix levy"


def test_a_statement_of_profit_and_loss_with_numbered_lines() -> None:
    st = extract_statements([INCOME_PAGE])
    assert _values(st, "revenue") == {2026: Decimal(14000), 2025: Decimal(12500)}
    # the profit for the year, not the owners' share of it
    assert _values(st, "net_income") == {2026: Decimal(1050), 2025: Decimal(900)}


def test_a_page_headed_continued_is_a_page_of_its_statement() -> None:
    other = (
        "Orchid Castings Ltd\nBalance Sheet of the parent company\nTotal current liabilities 9 8\n"
    )
    pages = [ASSETS_PAGE, LIABILITIES_PAGE, other]
    assert continued_pages(pages, Statement.BALANCE, {1}) == {2}
    assert continued_pages(pages, Statement.INCOME, {1}) == set()
    assert continued_pages([ASSETS_PAGE, other], Statement.BALANCE, {1}) == set()


def _income(key: str, value: int, label: str) -> Field:
    return Field(key, label, 2026, Decimal(value), 1, "", Statement.INCOME, str(value), 1, 12)


def test_an_ebitda_before_the_exceptional_items_and_the_other_income() -> None:
    """A statement printing no operating line but a profit before exceptional items: the
    operating profit is that profit with the finance costs added back and the other
    (non-operating) income taken out; the exceptional items stay out of it."""
    st = Statements(
        fields=(
            _income("other_income", 300, "Other income"),
            _income("financial_charges", 400, "Finance costs"),
            _income("depreciation", 700, "Depreciation and amortisation expense"),
            _income("pre_exceptional_income", 2_000, "Profit before exceptional items and tax"),
            _income("pre_tax_income", 1_500, "Profit before tax"),
        ),
        locale=Locale.EN,
    )
    earnings = op.ebit(st, 2026)
    assert earnings is not None and earnings.value == Decimal(2_000 + 400 - 300)
    found = op.ebitda(st, 2026)
    assert found is not None and found.value == Decimal(2_000 + 400 - 300 + 700)
    assert "Profit before tax" not in {f.label for f in found.inputs}


def test_the_ebitda_before_the_exceptional_items_in_english() -> None:
    french = "(résultat avant éléments exceptionnels et impôt + charges financières"
    french += " - autres produits + amortissements)"
    assert formula_en(french) == (
        "(profit before exceptional items and tax + finance costs - other income + D&A)"
    )


# Statutory accounts in the Belgian scheme (debts by maturity, each a row with its own total;
# the long-term debts falling due within the year and the short-term investments apart):
# made-up figures, in euros.
BELGIAN_ASSETS = """Brasserie Vanhoutte SA
Bilan après répartition (en euros)
ACTIF                                              2025            2024
Actifs circulants                             5 200 000       4 700 000
  Placements de trésorerie                      300 000         200 000
  Valeurs disponibles                           900 000         750 000
"""

BELGIAN_LIABILITIES = """Brasserie Vanhoutte SA
Bilan après répartition (en euros)
PASSIF                                             2025            2024
Capitaux propres                              8 400 000       7 950 000
Dettes                                        6 300 000       6 050 000
  Dettes à plus d'un an                       3 600 000       3 900 000
    Dettes financières                        3 500 000       3 800 000
    Autres dettes                               100 000         100 000
  Dettes à un an au plus                      2 700 000       2 150 000
    Dettes à plus d'un an échéant dans l'année  400 000         380 000
    Dettes financières                          250 000         100 000
    Dettes commerciales                       1 600 000       1 300 000
"""


def test_belgian_debts_by_maturity_give_the_ratio_inputs() -> None:
    st = extract_statements([BELGIAN_ASSETS + BELGIAN_LIABILITIES])
    assert _values(st, "long_term_debt") == {2025: Decimal(3_500_000), 2024: Decimal(3_800_000)}
    assert _values(st, "current_debt") == {2025: Decimal(250_000), 2024: Decimal(100_000)}
    assert _values(st, "current_maturities") == {2025: Decimal(400_000), 2024: Decimal(380_000)}
    assert _values(st, "current_liabilities") == {
        2025: Decimal(2_700_000),
        2024: Decimal(2_150_000),
    }
    # the long-term financial debts are no gross debt of their own
    assert _values(st, "gross_debt") == {}
    debt = op.net_debt(st, 2025)
    assert debt is not None
    assert debt.value == Decimal(3_500_000 + 250_000 + 400_000 - 900_000 - 300_000)


def test_a_section_title_with_figures_is_a_section_title() -> None:
    assert balance_section("Dettes à plus d'un an") == "non_current"
    assert balance_section("Dettes à un an au plus") == "current"
    assert balance_section("Dettes à un an au plus 6.9") == "current"  # a note reference
    assert balance_section("Creditors: amounts falling due within one year") == "current"
    assert balance_section("Amounts falling due after more than one year") == "non_current"
