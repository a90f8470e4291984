"""What is written around a number and gives it its dimensions: currencies before the digits
(``$``, ``S$``, ``USD``, ``EUR 9,9``) and units or scales after them (``%``, ``k€``,
``million``, ``x``, ordinals), read by :mod:`preuve.core.numbers`.

Dollars are told apart: letters written before ``$`` name the country's dollar (``S$`` and
``SGD``, ``A$`` and ``AUD``, ``HK$``, ``NZ$``, ``C$``/``CA$``/``CAD``, ``US$``/``USD``; any
other capitals before ``$`` are a dollar of their own). A bare ``$`` (or ``dollars``) names
no country: it stands for the report's declared dollar, the US dollar unless declared
otherwise (:func:`same_currency`). So ``$41.7m`` matches ``US$41.7m`` and ``USD41.7m`` by
default, and ``$318.4m`` does not match ``S$318.4m`` unless the report's currency is
declared to be the Singapore dollar.
"""

from __future__ import annotations

import re

from preuve.core.errors import InputError

__all__ = [
    "CURRENCIES",
    "CURRENCY_BEFORE",
    "DIMENSIONS",
    "KNOWN_CURRENCIES",
    "NUMBER_PREFIX",
    "UNITS",
    "canonical_currency",
    "report_dollar",
    "same_currency",
]

# Currency signs that may stand right before accounting parentheses: "$(1,577)".
CURRENCIES = "$€£¥"

# The dollars written with their country letters or ISO code, by their canonical sign.
_DOLLAR_LETTERS = {
    "US": "US$", "U.S.": "US$", "S": "S$", "SG": "S$", "A": "A$", "AU": "A$", "C": "C$",
    "CA": "C$", "CAN": "C$", "HK": "HK$", "NZ": "NZ$", "NT": "NT$", "R": "R$", "MX": "MX$",
}  # fmt: skip
_CODES = {
    "USD": "US$", "SGD": "S$", "AUD": "A$", "CAD": "C$", "HKD": "HK$", "NZD": "NZ$",
    "TWD": "NT$", "BRL": "R$", "MXN": "MX$", "EUR": "€", "GBP": "£", "CHF": "CHF", "JPY": "¥",
}  # fmt: skip
# Every currency as compared (a declared report currency must be one of them).
KNOWN_CURRENCIES = frozenset({"$", *_CODES.values(), *_DOLLAR_LETTERS.values()})
_CODE_ALTERNATION = "|".join(sorted(_CODES, key=lambda code: (-len(code), code)))

# A currency written right before the digits (searched in the few characters before them).
CURRENCY_BEFORE = re.compile(
    rf"(?:(?<![\w$.])(?P<currency>{_CODE_ALTERNATION}|U\.S\.\$|[A-Z]{{1,3}}\$) ?"
    r"|(?P<sign>[$€£¥]))$"
)
# Letters written before a number that are not part of it: an ISO currency code ("USD9.9",
# "SGD27.9m") or an abbreviation with its period ("env.9,9x", "ca.12").
NUMBER_PREFIX = re.compile(rf"(?:{_CODE_ALTERNATION}|[^\W\d_]{{1,6}}\.)(?=[-‐‑]?\d)")


def canonical_currency(written: str) -> str:
    """The currency ``written`` before or after digits, as compared: ``USD`` → ``US$``,
    ``SGD`` and ``SG$`` → ``S$``, ``€`` → ``€``; a bare ``$`` stays ``$``."""
    if written in _CODES:
        return _CODES[written]
    if written.endswith("$") and len(written) > 1:
        letters = written[:-1]
        return _DOLLAR_LETTERS.get(letters, f"{letters}$")
    return written


def same_currency(written: str, source: str, *, dollar: str = "US$") -> bool:
    """Whether two canonical currencies are one, a bare ``$`` on either side standing for
    ``dollar`` (the report's declared dollar)."""
    return (dollar if written == "$" else written) == (dollar if source == "$" else source)


def report_dollar(currency: str | None) -> str:
    """The dollar a bare ``$`` stands for in a report whose declared currency is
    ``currency`` (a sign or ISO code): that dollar, else the US dollar. An unknown
    currency is a usage error."""
    if currency is None:
        return "US$"
    canonical = canonical_currency(currency.strip())
    if canonical not in KNOWN_CURRENCIES:
        known = ", ".join(sorted(KNOWN_CURRENCIES))
        raise InputError(f"unknown currency {currency!r}: use a sign or ISO code ({known})")
    return canonical if canonical.endswith("$") and canonical != "$" else "US$"


# After the digits, a dollar's ISO code: "12 000 SGD".
_DOLLAR_CODES_AFTER = tuple(
    (code, sign, False) for code, sign in _CODES.items() if sign.endswith("$")
)

# (pattern, normalized unit, only when glued to the digits). Order matters: longest first.
UNITS: tuple[tuple[str, str, bool], ...] = (
    (r"(?i:points? de base|basis points?|bps?|pb)", "bp", False),
    (r"(?i:points? de pourcentage|percentage points?|points?|pts?|pp)", "pt", False),
    (r"%|(?i:pour ?cent|percent|per cent)", "%", False),
    (r"[kK](?:€|EUR)", "k€", False),
    (r"[kK]USD", "kUS$", False),
    (r"[kK]\$", "k$", False),
    # Swiss francs with their scale: "kCHF", "MCHF", "Mio. CHF", "Mrd. CHF".
    (r"[kK]CHF", "kCHF", False),
    (r"(?:Mrd|Mds?)\.? ?CHF", "MdCHF", False),
    (r"(?:M|Mio\.? ?)CHF", "MCHF", False),
    (r"M(?:ds?|rds?)(?:€|EUR)", "Md€", False),
    (r"M(?:ds?|rds?)USD", "MdUS$", False),
    (r"M(?:ds?|rds?)\$", "Md$", False),
    (r"[mM](?:€|EUR)", "M€", False),
    (r"[mM]USD", "MUS$", False),
    (r"[mM]\$", "M$", False),
    (r"[bB](?:€|EUR)", "Md€", True),
    (r"[bB]USD", "MdUS$", True),
    (r"[bB]\$", "Md$", True),
    # A scale with its currency spelled out: "2,3 millions d'euros", "4.8 million dollars".
    (r"(?i:milliards? d['’]euros|billions? (?:of )?euros?)", "Md€", False),
    (r"(?i:milliards? de dollars|billions? (?:of )?dollars)", "Md$", False),
    (r"(?i:millions? d['’]euros|millions? (?:of )?euros?)", "M€", False),
    (r"(?i:millions? de dollars|millions? (?:of )?dollars)", "M$", False),
    (r"(?i:milliers? d['’]euros|thousands? (?:of )?euros?)", "k€", False),
    (r"(?i:milliers? de dollars|thousands? (?:of )?dollars)", "k$", False),
    (r"(?i:milliards?|billions?|bn)|Mds?|Mrds?", "billion", False),
    (r"(?i:millions?|mn|mio)", "million", False),
    (r"(?i:thousands?|milliers?)", "thousand", False),
    (r"€|EUR|(?i:euros?)", "€", False),
    *_DOLLAR_CODES_AFTER,
    (r"\$|(?i:dollars?)", "$", False),
    (r"£|GBP|(?i:pounds? sterling)", "£", False),
    (r"CHF|(?i:francs? suisses?)", "CHF", False),
    (r"¥|JPY|(?i:yens?)", "¥", False),
    (r"(?i:fois)|×", "x", False),
    (r"[xX]", "x", True),
    (r"mm|MM", "million", True),  # "$9.9mm": the finance desk's million
    (r"[bB]", "billion", True),
    (r"[kK]", "thousand", True),
    (r"[mM]", "million", True),
    # Ordinals are numbers too: "1er", "2e", "3ème", "1st", "2nd", "3rd", "4th".
    (r"(?:er|re|ère|ere|e|ème|eme|nde?|st|rd|th)", "ordinal", True),
)
_SCALES = {"k": "thousand", "M": "million", "Md": "billion"}
# What each normalized unit is made of: (currency, scale, kind).
DIMENSIONS: dict[str, tuple[str | None, str | None, str | None]] = {
    "ordinal": (None, None, "ordinal"),
    "bp": (None, None, "bp"),
    "pt": (None, None, "pt"),
    "%": (None, None, "%"),
    "x": (None, None, "x"),
    **{
        f"{prefix}{currency}": (currency, scale, None)
        for prefix, scale in _SCALES.items()
        for currency in ("€", "$", "US$", "CHF")
    },
    "thousand": (None, "thousand", None),
    "million": (None, "million", None),
    "billion": (None, "billion", None),
    **{sign: (sign, None, None) for sign in ("€", "$", "£", "CHF", "¥", *_CODES.values())},
}
