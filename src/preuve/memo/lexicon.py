"""What statement lines and headings are called, in French and English reports.

The statement parser relies on general cues only: a heading names the statement, a header
row gives the years, and a row's label is looked up here. Labels are compared after
:func:`normalize_label` (NFKC, case-folded, typographic apostrophes made plain, punctuation
and hyphens turned into spaces, trailing note references dropped); each rule is a list of
regular expressions that must match the whole normalized label. A label that matches no
rule is kept as an unmapped row, never guessed.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "LEXICON",
    "LabelRule",
    "Statement",
    "heading_kind",
    "lookup_label",
    "normalize_label",
    "unit_of",
]


class Statement(StrEnum):
    """The three statements whose lines are extracted."""

    INCOME = "income"
    BALANCE = "balance"
    CASHFLOW = "cashflow"


@dataclass(frozen=True, slots=True)
class LabelRule:
    """A field key, the statements its label counts in (preferred first), and its labels."""

    key: str
    statements: tuple[Statement, ...]
    patterns: tuple[str, ...]

    def matches(self, normalized: str) -> bool:
        return any(re.fullmatch(p, normalized) for p in self.patterns)


_I, _B, _C = (Statement.INCOME,), (Statement.BALANCE,), (Statement.CASHFLOW,)
_OWNERS = r"(?:stockholders|shareholders|shareowners)"
_NET_CASH = r"net cash (?:(?:provided|generated|used|received)(?: by| from| in| for)? )*"

LEXICON: tuple[LabelRule, ...] = (
    # Income statement.
    LabelRule(
        "revenue",
        _I,
        (
            r"chiffre d'affaires(?: net| consolidé| total)?",
            r"produits des activités ordinaires",
            r"ventes(?: nettes)?",
            r"(?:total )?(?:net )?(?:revenues?|sales)",
            r"turnover",
        ),
    ),
    LabelRule(
        "cost_of_sales",
        _I,
        (
            r"(?:total )?cost of (?:sales|revenues?|goods sold)",
            r"coût des ventes",
        ),
    ),
    LabelRule(
        "purchases",
        _I,
        (
            r"achats consommés",
            r"achats et variations? (?:des |de )?stocks",
            r"achats de marchandises(?: consommées)?",
            r"achats de matières premières(?: et autres approvisionnements)?(?: consommés)?",
            r"purchases(?: of goods)?(?: consumed)?",
            r"raw materials and consumables used",
        ),
    ),
    LabelRule(
        "external_charges",
        _I,
        (
            r"(?:autres achats et )?charges externes",
            r"services extérieurs",
            r"(?:other )?external (?:charges|expenses)",
        ),
    ),
    LabelRule(
        "personnel_expenses",
        _I,
        (
            r"charges de personnel",
            r"frais de personnel",
            r"salaires et charges sociales",
            r"(?:staff|personnel|employee benefits?) (?:costs|expenses)",
        ),
    ),
    LabelRule(
        "taxes_duties",
        _I,
        (
            r"impôts taxes et versements assimilés",
            r"impôts et taxes",
            r"taxes other than (?:on )?income(?: taxes)?",
        ),
    ),
    LabelRule(
        "ebitda",
        _I,
        (
            r"ebitda",
            r"ebitda excédent brut d'exploitation",
            r"excédent brut d'exploitation",
            r"excédent brut d'exploitation ebe",
            r"ebe",
        ),
    ),
    LabelRule(
        "depreciation",
        (Statement.INCOME, Statement.CASHFLOW),
        (
            r"dotations(?: nettes)? aux amortissements"
            r"(?: et (?:aux )?(?:provisions|dépréciations))?",
            r"amortissements(?: et provisions)?",
            r"depreciation(?: and| &)? amortization(?: and impairment)?(?: of .*)?",
            r"depreciation",
        ),
    ),
    LabelRule(
        "operating_income",
        _I,
        (
            r"résultat d'exploitation",
            r"résultat opérationnel(?: courant)?",
            r"operating (?:income|profit)(?: loss)?",
            r"(?:income|profit) from operations",
        ),
    ),
    LabelRule(
        "net_financial_expense",
        _I,
        (
            r"coût de l'endettement financier net",
            r"charges financières(?: nettes)?",
            r"frais financiers(?: nets)?",
            r"(?:net )?interest expense(?: net)?",
            r"interest net",
        ),
    ),
    LabelRule(
        "pre_tax_income",
        _I,
        (
            r"résultat (?:courant )?avant impôts?(?: sur les résultats)?",
            r"(?:income|earnings|profit)(?: loss)? (?:from continuing operations )?before "
            r"(?:provision for )?(?:income )?tax(?:es)?(?: on income)?",
        ),
    ),
    LabelRule(
        "income_tax",
        _I,
        (
            r"impôts? sur les (?:résultats|bénéfices|sociétés)",
            r"impôt sur le résultat",
            r"charge d'impôts?(?: sur le résultat)?",
            r"(?:provision for |benefit from )?income tax(?:es)?(?: expense| provision| benefit)*",
            r"provision for (?:income )?taxes(?: on income)?",
        ),
    ),
    LabelRule(
        "net_income",
        _I,
        (
            r"résultat net(?: de l'exercice| consolidé| de l'ensemble consolidé| part du groupe)?",
            r"bénéfice net",
            r"perte nette",
            r"net (?:income|earnings|profit|loss)(?: loss)?(?: for the (?:year|period))?",
            r"net (?:income|earnings) attributable to (?!non ?controlling|redeemable).*",
        ),
    ),
    # Balance sheet.
    LabelRule(
        "intangible_assets",
        _B,
        (
            r"immobilisations incorporelles(?: nettes)?",
            r"(?:other )?intangible assets(?: net)?",
        ),
    ),
    LabelRule(
        "tangible_assets",
        _B,
        (
            r"immobilisations corporelles(?: nettes)?",
            r"property(?: plant)? and equipment(?: net)?(?: of .*)?",
            r"land buildings and equipment(?: net)?",
        ),
    ),
    LabelRule(
        "inventories",
        _B,
        (
            r"stocks(?: et (?:travaux )?en cours)?",
            r"inventor(?:y|ies)(?: net)?",
        ),
    ),
    LabelRule(
        "trade_receivables",
        _B,
        (
            r"clients et comptes rattachés",
            r"créances clients(?: et comptes rattachés)?",
            r"(?:trade )?(?:accounts )?receivables?(?: net)?(?: of .*)?",
        ),
    ),
    LabelRule(
        "other_receivables",
        _B,
        (
            r"autres créances(?: et comptes de régularisation)?",
            r"other receivables",
        ),
    ),
    LabelRule(
        "cash",
        _B,
        (
            r"trésorerie et équivalents(?: de trésorerie)?",
            r"trésorerie",
            r"disponibilités(?: et valeurs mobilières de placement)?",
            r"cash and (?:cash )?equivalents",
            r"cash",
        ),
    ),
    LabelRule("current_assets", _B, (r"(?:total )?actif circulant", r"total current assets")),
    LabelRule("total_assets", _B, (r"total (?:de l')?actif", r"total assets")),
    LabelRule(
        "equity",
        _B,
        (
            r"(?:total )?capitaux propres(?: de l'ensemble consolidé)?",
            r"total equity",
        ),
    ),
    LabelRule(
        "parent_equity",
        _B,
        (
            r"(?:total )?capitaux propres part du groupe",
            rf"total {_OWNERS} equity(?: attributable to .*)?",
        ),
    ),
    LabelRule(
        "gross_debt",
        _B,
        (
            r"emprunts et dettes financières",
            r"dettes financières(?: brutes)?",
            r"dette financière brute",
            r"endettement (?:financier )?brut",
            r"total (?:financial )?(?:debt|borrowings)",
            r"borrowings",
            r"gross debt",
        ),
    ),
    LabelRule(
        "long_term_debt",
        _B,
        (
            r"emprunts et dettes financières à long terme",
            r"dettes financières non courantes",
            r"long term (?:debt|borrowings)(?: net)?"
            r"(?: (?:of|less|excluding) current (?:portion|maturities))?",
        ),
    ),
    LabelRule(
        "current_debt",
        _B,
        (
            r"dettes financières (?:à court terme|courantes)",
            r"current (?:portion|maturities) of long term (?:debt|borrowings)",
            r"short term (?:debt|borrowings)",
        ),
    ),
    LabelRule(
        "trade_payables",
        _B,
        (
            r"fournisseurs et comptes rattachés",
            r"dettes fournisseurs(?: et comptes rattachés)?",
            r"(?:trade )?accounts payable",
            r"trade payables",
        ),
    ),
    LabelRule(
        "other_liabilities",
        _B,
        (
            r"autres dettes(?: et comptes de régularisation)?",
            r"other liabilities",
        ),
    ),
    LabelRule("current_liabilities", _B, (r"total current liabilities", r"passif circulant")),
    LabelRule("total_liabilities", _B, (r"total (?:des )?dettes", r"total liabilities")),
    LabelRule(
        "total_equity_and_liabilities",
        _B,
        (
            r"total (?:du )?passif",
            r"total capitaux propres et passif",
            rf"total liabilities and (?:{_OWNERS} )?equity",
        ),
    ),
    LabelRule(
        "net_debt",
        _B,
        (
            r"dette financière nette",
            r"endettement (?:financier )?net",
            r"net (?:financial )?debt",
        ),
    ),
    # Cash-flow statement.
    LabelRule(
        "funds_from_operations",
        _C,
        (
            r"capacité d'autofinancement(?: avant coût de l'endettement financier net et impôt)?",
            r"marge brute d'autofinancement",
            r"funds from operations",
        ),
    ),
    LabelRule(
        "working_capital_change",
        _C,
        (
            r"variation du (?:besoin en fonds de roulement|bfr)(?: lié à l'activité)?",
            r"changes? in (?:operating )?working capital",
        ),
    ),
    LabelRule(
        "operating_cash_flow",
        _C,
        (
            r"flux (?:net )?de trésorerie (?:nets? )?(?:liés à|générés? par|provenant de) "
            r"l'activité",
            r"flux (?:net )?de trésorerie (?:nets? )?(?:liés aux|provenant des) activités "
            r"opérationnelles",
            rf"{_NET_CASH}operating activities",
            r"cash flows? from operating activities",
            r"net cash from operations",
        ),
    ),
    LabelRule(
        "capex",
        _C,
        (
            r"acquisitions? d'immobilisations(?: corporelles(?: et incorporelles)?"
            r"| incorporelles et corporelles)?",
            r"investissements corporels(?: et incorporels)?",
            r"décaissements liés aux acquisitions d'immobilisations(?: .*)?",
            r"capital expenditures?",
            r"(?:purchases?|additions|acquisitions?|payments) (?:of|to|for) property(?: plant)? "
            r"and equipment(?: .*)?",
            r"purchases? of land buildings and equipment",
        ),
    ),
    LabelRule(
        "investing_cash_flow",
        _C,
        (
            r"flux (?:net )?de trésorerie (?:nets? )?liés aux (?:opérations|activités) "
            r"d'investissement",
            rf"{_NET_CASH}investing activities",
        ),
    ),
    LabelRule(
        "free_cash_flow",
        _C,
        (
            r"flux de trésorerie disponible(?: free cash flow)?",
            r"free cash flow",
            r"cash flow libre",
        ),
    ),
    LabelRule(
        "net_borrowings",
        _C,
        (
            r"variation nette des emprunts",
            r"variation des emprunts(?: et dettes financières)?",
            r"net (?:change in|proceeds from) (?:borrowings|debt)",
            r"net borrowings",
        ),
    ),
    LabelRule(
        "dividends",
        _C,
        (
            r"dividendes versés(?: aux actionnaires)?(?: de la société mère)?",
            r"(?:cash )?dividends paid(?: to .*)?",
            r"common stock cash dividends paid",
        ),
    ),
    LabelRule(
        "financing_cash_flow",
        _C,
        (
            r"flux (?:net )?de trésorerie (?:nets? )?liés aux (?:opérations|activités) de "
            r"financement",
            rf"{_NET_CASH}financing activities",
        ),
    ),
    LabelRule(
        "net_change_in_cash",
        _C,
        (
            r"variation (?:nette )?de (?:la )?trésorerie(?: et des équivalents de trésorerie)?",
            r"(?:net )?(?:increase|decrease|change)(?: (?:increase|decrease))? in cash"
            r"(?: and cash equivalents)?(?: .*)?",
        ),
    ),
)

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_NOTE_SUFFIX = re.compile(r"(?:\s+(?:notes?\s+)?\d{1,2}(?:\s*[.,]\s*\d{1,2})?[a-z]?)+$")
_NUMBERING = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2})*\.?|[ivx]{1,4}\.|[a-z]\))\s+")
_PARENTHETICAL = re.compile(r"\([^()]*\)")


def normalize_label(label: str) -> str:
    """Comparable form of a row label: ``Chiffre d’affaires (note 3) :`` → ``chiffre
    d'affaires``; ``Cash and cash equivalents, end of year`` → ``cash and cash equivalents
    end of year``."""
    text = unicodedata.normalize("NFKC", label).translate(_APOSTROPHES).casefold()
    text = _NUMBERING.sub("", text.strip())
    text = re.sub(r"[^\w']+", " ", text).replace("_", " ")
    text = re.sub(r"'(?=\s|$)|(?<=\s)'|^'", " ", text)  # possessives: stockholders' equity
    text = " ".join(text.split())
    return _NOTE_SUFFIX.sub("", text).strip("' ")


def lookup_label(label: str, statement: Statement) -> LabelRule | None:
    """The rule whose labels match ``label`` in ``statement``: first as written, then with
    parenthetical asides removed (``Net cash (used in) provided by ...``)."""
    candidates = [normalize_label(label), normalize_label(_PARENTHETICAL.sub(" ", label))]
    for candidate in dict.fromkeys(candidates):
        for rule in LEXICON:
            if statement in rule.statements and rule.matches(candidate):
                return rule
    return None


_QUALIFIERS = r"(?:(?:condensed|consolidated|combined|interim|unaudited|abridged)\s+)*"
_HEADINGS: tuple[tuple[Statement | None, re.Pattern[str]], ...] = (
    (
        Statement.INCOME,
        re.compile(
            rf"{_QUALIFIERS}(?:statements?\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings)"
            r"|income\s+statements?|profit\s+and\s+loss(?:\s+account)?"
            r"|comptes?\s+de\s+résultats?|état\s+du\s+résultat(?!\s+global))\b"
        ),
    ),
    (
        Statement.BALANCE,
        re.compile(
            rf"{_QUALIFIERS}(?:balance\s+sheets?|statements?\s+of\s+financial\s+"
            r"(?:position|condition)|bilans?|état\s+de\s+la\s+situation\s+financière)\b"
        ),
    ),
    (
        Statement.CASHFLOW,
        re.compile(
            rf"{_QUALIFIERS}(?:statements?\s+of\s+(?:consolidated\s+)?cash\s+flows?"
            r"|cash\s+flows?\s+statements?|tableaux?\s+des\s+flux\s+de\s+trésorerie"
            r"|état\s+des\s+flux\s+de\s+trésorerie|tableau\s+de\s+financement)\b"
        ),
    ),
    # Headings that end a statement without starting one of the three.
    (
        None,
        re.compile(
            rf"{_QUALIFIERS}(?:statements?\s+of\s+(?:comprehensive|changes|stockholders|"
            r"shareholders|shareowners|equity)|comprehensive\s+income\s+statements?"
            rf"|{_OWNERS}\s+equity\s+statements?|notes\s+to\s+(?:the\s+)?"
            r"(?:condensed\s+)?(?:consolidated\s+)?financial\s+statements"
            r"|annexes?(?:\s+aux\s+comptes)?|notes\s+annexes|tableau\s+de\s+variation"
            r"|variation\s+des\s+capitaux\s+propres|état\s+du\s+résultat\s+global)\b"
        ),
    ),
)
_MAX_HEADING_WORDS = 14
_MAX_PREFIX_WORDS = 5
_PROSE_WORDS = frozenset(
    {"the", "of", "to", "in", "on", "and", "from", "for", "with", "see", "our", "these"}
    | {"la", "le", "les", "de", "du", "des", "au", "aux", "dans", "sur", "et", "en", "par"}
)


def heading_kind(line: str) -> tuple[bool, Statement | None]:
    """Whether ``line`` is a statement heading, and which statement it opens (None for a
    heading that closes one, such as the notes). Headings are short lines that start with
    the statement's name and are not sentences."""
    text = " ".join(unicodedata.normalize("NFKC", line).translate(_APOSTROPHES).split())
    if not text or len(text.split()) > _MAX_HEADING_WORDS or text.endswith((".", ";", ",")):
        return False, None
    text = _NUMBERING.sub("", text.casefold())
    # The name may follow a short prefix naming the company ("NIKE, Inc. Consolidated ..."),
    # never a phrase of prose ("... to the consolidated statements of income").
    starts = [0, *[m.end() for m in re.finditer(r"\s+", text)][:_MAX_PREFIX_WORDS]]
    for start in starts:
        if set(text[:start].split()) & _PROSE_WORDS:
            break
        for statement, pattern in _HEADINGS:
            if pattern.match(text, start):
                return True, statement
    return False, None


_UNITS: tuple[tuple[re.Pattern[str], str, int], ...] = (
    (re.compile(r"milliards? d'euros|\bmd€|\bmds? ?€|\bmdeur\b", re.I), "Md€", 10**9),
    (re.compile(r"millions? d'euros|\bm€|\bmeur\b|en millions", re.I), "M€", 10**6),
    (re.compile(r"milliers d'euros|\bk€|\bkeur\b|en milliers", re.I), "k€", 10**3),
    (re.compile(r"in billions|\(billions|\$ ?billions|billions of", re.I), "billions", 10**9),
    (re.compile(r"in millions|\(millions|\$ ?millions|millions of", re.I), "millions", 10**6),
    (re.compile(r"in thousands|\(thousands|\$ ?thousands|thousands of", re.I), "thousands", 10**3),
)


def unit_of(text: str) -> tuple[str, int] | None:
    """The amount unit stated in ``text`` (``k€``, ``M€``, ``millions`` ...) and its scale,
    or None. English units get their currency when ``$`` is written: ``$ millions``."""
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    for pattern, unit, scale in _UNITS:
        if pattern.search(text):
            if unit in {"billions", "millions", "thousands"} and "$" in text:
                return f"$ {unit}", scale
            return unit, scale
    return None
