"""EBITDA from its parts, for statements that print no EBITDA and no single D&A line.

Two layouts, each recognised by lines of its own (never guessed from one total):

- French statutory accounts (Plan comptable général) print their operating depreciation,
  provisions and reversals on lines of their own: their EBE is the operating result with the
  depreciation and provisions added back and the reversals and transfers of charges, the other
  operating income and charges taken out, as the *soldes intermédiaires de gestion* define it
  (:func:`statutory_ebe`);
- an IFRS income statement by function prints no D&A: its cash-flow statement adds back the
  depreciation of property, plant and equipment, of the right-of-use assets and the
  amortization of the intangibles on lines of their own (:func:`by_function_ebitda`).

Each returns the value, its formula (French, as :mod:`preuve.memo.operands`) and the fields
it was built from, or None when a line it needs is missing.
"""

from __future__ import annotations

from decimal import Decimal

from preuve.memo.statements import Field, Statements

__all__ = ["Parts", "by_function_ebitda", "statutory_ebe"]

Parts = tuple[Decimal, str, tuple[Field, ...]]


def _sum(fields: tuple[Field, ...]) -> Decimal:
    return sum((abs(f.amount) for f in fields), Decimal(0))


def statutory_ebe(st: Statements, year: int) -> Parts | None:
    """The EBE of statutory accounts that print their reversals line (the PCG's layout)
    and their operating depreciation."""
    operating, depreciation = st.get("operating_income", year), st.get("depreciation", year)
    reversals = st.get("operating_reversals", year)
    if operating is None or depreciation is None or reversals is None:
        return None
    provisions = tuple(
        f
        for key in ("operating_provisions_assets", "operating_provisions_risks")
        if (f := st.get(key, year)) is not None
    )
    other_income = st.get("other_operating_income", year)
    other_charges = st.get("other_operating_charges", year)
    value = operating.amount + _sum((depreciation, *provisions)) - abs(reversals.amount)
    words = "résultat d'exploitation + dotations d'exploitation - reprises et transferts de charges"
    if other_income is not None:
        value -= abs(other_income.amount)
        words += " - autres produits"
    if other_charges is not None:
        value += abs(other_charges.amount)
        words += " + autres charges"
    inputs = (operating, depreciation, *provisions, reversals)
    inputs += tuple(f for f in (other_income, other_charges) if f is not None)
    return value, f"({words})", inputs


def by_function_ebitda(st: Statements, year: int) -> Parts | None:
    """Operating income plus the cash-flow statement's depreciation of property, plant and
    equipment, of the right-of-use assets (when printed) and amortization of intangibles."""
    operating = st.get("operating_income", year)
    tangible, amortization = st.get("depreciation_tangible", year), st.get("amortization", year)
    if operating is None or tangible is None or amortization is None:
        return None
    rights = st.get("depreciation_right_of_use", year)
    parts = (tangible, amortization) if rights is None else (tangible, rights, amortization)
    words = "amortissements corporels" + (" + des droits d'utilisation" if rights else "")
    return (
        operating.amount + _sum(parts),
        f"(résultat d'exploitation + {words} + amortissements des incorporels)",
        (operating, *parts),
    )
