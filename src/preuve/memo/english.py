"""English wording of workflow 1's facts and memo, for reports written in English.

Facts, memo and known limits follow the report's language (``--lang`` overrides): the
French wording lives where it is built (:mod:`preuve.memo.ratios`, :mod:`preuve.memo.alerts`,
:mod:`preuve.memo.writer`); its English counterpart is declared here, as data.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from preuve.memo.cues import CATEGORY_INFO

__all__ = [
    "CATEGORY_LABELS_EN",
    "KNOWN_LIMITS_EN",
    "RATIO_NAMES_EN",
    "WRITER_SYSTEM_EN",
    "format_decimal_en",
    "formula_en",
]

RATIO_NAMES_EN: dict[str, str] = {
    "levier": "Leverage",
    "marge": "Net margin",
    "gearing": "Gearing",
    "levier-loyers": "Leverage including lease liabilities",
    "levier-ajuste": "Leverage on adjusted EBITDA",
    "levier-loyers-ajuste": "Leverage including lease liabilities, on adjusted EBITDA",
    "couverture": "Interest cover",
    "marge-ebitda": "EBITDA margin",
    "liquidite": "Current ratio",
    "capex": "Capex intensity",
    "roe": "Return on equity",
    "roa": "Return on assets",
    "liquidite-reduite": "Quick ratio",
    "dso": "Days sales outstanding",
    "dio": "Days inventory outstanding",
    "dpo": "Days payables outstanding",
    "rotation-immo": "Fixed-asset turnover",
    "variation-ca": "Revenue change",
    "variation-ebitda": "EBITDA change",
    "fcf": "Free cash flow",
}

# The operands' French words and their English ones (longest first when replacing).
_TERMS: dict[str, str] = {
    "(résultat d'exploitation + amortissements)": "(operating income + D&A)",
    "(résultat d'exploitation + amortissements + amortissements des incorporels)": (
        "(operating income + depreciation + amortization of intangibles)"
    ),
    "(résultat d'exploitation + amortissements corporels + des droits d'utilisation"
    " + amortissements des incorporels)": (
        "(operating income + depreciation of property, plant and equipment and of"
        " right-of-use assets + amortization of intangibles)"
    ),
    "(résultat d'exploitation + amortissements corporels + amortissements des incorporels)": (
        "(operating income + depreciation of property, plant and equipment"
        " + amortization of intangibles)"
    ),
    "(emprunts et dettes financières - disponibilités - valeurs mobilières de placement)": (
        "(borrowings - cash - marketable securities)"
    ),
    "résultat d'exploitation + dotations d'exploitation - reprises et transferts de charges": (
        "operating income + operating depreciation and provisions"
        " - reversals and transfers of charges"
    ),
    " - autres produits": " - other operating income",
    " + autres charges": " + other operating charges",
    "(dettes financières - trésorerie)": "(borrowings - cash)",
    "(emprunts et dettes financières - disponibilités)": "(borrowings - cash)",
    "(ventes de marchandises + production vendue)": "(sales of goods + production sold)",
    "production vendue": "production sold",
    "EBITDA ajusté": "adjusted EBITDA",
    "(dette brute - trésorerie)": "(gross debt - cash)",
    "(flux de trésorerie d'exploitation - investissements corporels)": (
        "(operating cash flow - capital expenditure)"
    ),
    "flux de trésorerie d'exploitation": "operating cash flow",
    "(actif courant - stocks)": "(current assets - inventories)",
    "immobilisations corporelles": "property, plant and equipment",
    "dettes fournisseurs": "trade payables",
    "de l'exercice précédent": "of the year before",
    "achats consommés": "purchases consumed",
    "créances clients": "trade receivables",
    "free cash-flow": "free cash flow",
    "coût des ventes": "cost of sales",
    "variation": "change in",
    " par jour": " per day",
    "stocks": "inventories",
    "coût de l'endettement net": "net cost of debt",
    "(- résultat financier)": "(- financial result)",
    "(résultat avant impôt + coût de l'endettement net)": (
        "(profit before tax + net cost of debt)"
    ),
    "(résultat avant impôt - résultat financier)": "(profit before tax - financial result)",
    "(résultat avant impôt + charges financières)": "(profit before tax + financial charges)",
    "résultat avant éléments exceptionnels et impôt + charges financières - autres produits"
    " + amortissements": (
        "profit before exceptional items and tax + finance costs - other income + D&A"
    ),
    "résultat avant éléments exceptionnels et impôt + charges financières + amortissements": (
        "profit before exceptional items and tax + finance costs + D&A"
    ),
    "résultat avant éléments exceptionnels et impôt + charges financières - autres produits": (
        "profit before exceptional items and tax + finance costs - other income"
    ),
    "résultat avant éléments exceptionnels et impôt + charges financières": (
        "profit before exceptional items and tax + finance costs"
    ),
    "(résultat avant impôt + charges financières - produits financiers)": (
        "(profit before tax + financial charges - financial income)"
    ),
    "résultat avant impôt + coût de l'endettement net + amortissements": (
        "profit before tax + net cost of debt + D&A"
    ),
    "résultat avant impôt - résultat financier + amortissements": (
        "profit before tax - financial result + D&A"
    ),
    "résultat avant impôt + charges financières + amortissements": (
        "profit before tax + financial charges + D&A"
    ),
    "résultat avant impôt + charges financières - produits financiers + amortissements": (
        "profit before tax + financial charges - financial income + D&A"
    ),
    "investissements corporels et incorporels": (
        "capital expenditure on tangible and intangible assets"
    ),
    "investissements corporels": "capital expenditure",
    "(charges financières - produits financiers)": "(financial charges - financial income)",
    "capitaux propres part du groupe": "equity attributable to the parent",
    "(dettes - dettes financières + dettes financières à moins d'un an"
    " + concours bancaires courants)": (
        "(liabilities - financial debts + financial debts due within one year + bank overdrafts)"
    ),
    "(dettes - dettes financières + dettes financières à moins d'un an)": (
        "(liabilities - financial debts + financial debts due within one year)"
    ),
    "intérêts minoritaires": "minority interests",
    "résultat opérationnel": "operating income",
    "charges financières": "financial charges",
    "dettes de location": "lease liabilities",
    "capital restant dû des contrats de location hors bilan": (
        "principal outstanding of the off-balance-sheet leases"
    ),
    "loyers restant dus des contrats de location hors bilan": (
        "rents still due on the off-balance-sheet leases"
    ),
    "chiffre d'affaires": "revenue",
    "capitaux propres": "equity",
    "passif courant": "current liabilities",
    "actif courant": "current assets",
    "résultat net": "net income",
    "dette nette": "net debt",
    "total actif": "total assets",
}
_MONTHS = re.compile(r" \(sur (\d+) mois\)")

CATEGORY_LABELS_EN: dict[str, str] = {c.name: c.label_en for c in CATEGORY_INFO}  # data/cues.json

KNOWN_LIMITS_EN: tuple[str, ...] = (
    "A causal claim without a number is not checked (for example “free cash flow driven by "
    "working-capital management” citing a fact that says nothing of it).",
    "An exact quote can mislead out of context: open the cited page to see it.",
    "Subject, period, direction and polarity are only checked where the sentence states them "
    "with declared words (company names and aliases of the facts, years, quarters, halves, "
    "words of rise or fall, comparison, explicit negation); a paraphrase, a change with no "
    "second value in the facts, a pronoun for another company or a company with no legal form "
    "that no fact names stay unchecked and are counted as such under each paragraph.",
)

WRITER_SYSTEM_EN = (
    "You write, in English, a credit memo on one company from the facts given only, one per "
    "line, each after its identifier in square brackets.\n"
    'Answer with a JSON object only: {"paragraphs": [{"text": "...", "sources": '
    '["ID", ...]}]}.\n'
    "Rules:\n"
    "- each paragraph lists in sources the identifiers of the facts it uses, and no "
    "identifier outside the list;\n"
    "- each number is copied as written in a fact cited by the paragraph; never compute "
    "anything (no difference, change or average);\n"
    "- a negative value keeps its minus sign, or the same clause says “negative”, “loss” or "
    "“deficit”;\n"
    "- each figure is said of its fact's company and year; a direction word (rise, fall, "
    "above, below) or a negation says what the facts say;\n"
    "- a quote in “ ” is copied as is from a Q- fact."
)


def formula_en(formula: str) -> str:
    """A ratio's French formula in English words."""
    for french in sorted(_TERMS, key=len, reverse=True):
        formula = formula.replace(french, _TERMS[french])
    return _MONTHS.sub(r" (over \1 months)", formula)


def format_decimal_en(value: Decimal, places: int) -> str:
    """English decimal: ``-0.5``; thousands grouped by commas (``18,992.8``)."""
    quantum = Decimal(1).scaleb(-places)
    rounded = value.quantize(quantum, rounding=ROUND_HALF_UP)
    return f"{rounded:,.{places}f}" if places else f"{rounded:,.0f}"
