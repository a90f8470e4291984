"""Dollars of different countries are different units (made-up facts, s30): letters before
``$`` and ISO codes name the dollar; a bare ``$`` is the report's declared dollar, the US
dollar unless declared."""

from __future__ import annotations

import pytest

from preuve.core.errors import InputError
from preuve.core.facts import parse_facts
from preuve.core.memocheck import UNIT_MISMATCH, Paragraph, check_memo
from preuve.core.number_units import canonical_currency, report_dollar, same_currency
from preuve.core.numbers import Locale, extract_numbers, reference_tokens

EN = Locale.EN


@pytest.mark.parametrize(
    ("written", "currency"),
    [
        ("S$318.4m", "S$"),
        ("SGD27.9m", "S$"),
        ("SGD 27.9m", "S$"),
        ("SG$4", "S$"),
        ("A$1,204m", "A$"),
        ("AUD 12", "A$"),
        ("HK$5,860m", "HK$"),
        ("NZ$3.1m", "NZ$"),
        ("C$88.6m", "C$"),
        ("CA$88.6m", "C$"),
        ("CAD88.6m", "C$"),
        ("US$88.6m", "US$"),
        ("USD88.6m", "US$"),
        ("$41.7m", "$"),
        ("12 000 SGD", "S$"),
        ("41.7 dollars", "$"),
        ("ZW$5", "ZW$"),  # capitals before $ not declared: a dollar of their own
        ("€9.9", "€"),
    ],
)
def test_a_dollar_keeps_its_country(written: str, currency: str) -> None:
    [mention] = extract_numbers(written, EN)
    assert mention.currency == currency
    assert not reference_tokens(written)  # "SGD27.9m" is an amount, not an identifier


def test_canonical_currency_and_the_bare_dollar() -> None:
    assert canonical_currency("SGD") == canonical_currency("S$") == "S$"
    assert canonical_currency("$") == "$"
    assert same_currency("$", "US$")
    assert not same_currency("$", "S$")
    assert same_currency("$", "S$", dollar="S$")
    assert not same_currency("US$", "S$", dollar="S$")


FACTS = parse_facts(
    "[A-tj-1] Tanjong Harbour Holdings Ltd - Revenue 2025: S$318.4m; net profit 2025: S$27.9m\n"
    "[A-el-1] Ellery Tools Inc. - Revenue 2025: $41.7m\n"
)


def _codes(text: str, sources: tuple[str, ...], currency: str | None = None) -> list[str]:
    defects = check_memo([Paragraph(text, sources)], FACTS, locale=EN, currency=currency)
    return [d.code for d in defects]


def test_a_bare_dollar_against_a_singapore_dollar_fact_needs_the_declared_currency() -> None:
    text = "Tanjong Harbour's revenue reached $318.4m in 2025."
    assert _codes(text, ("A-tj-1",)) == [UNIT_MISMATCH]
    assert _codes(text, ("A-tj-1",), currency="SGD") == []
    assert _codes(text, ("A-tj-1",), currency="S$") == []
    assert _codes(text, ("A-tj-1",), currency="A$") == [UNIT_MISMATCH]


def test_another_country_s_dollar_is_refused_whatever_is_declared() -> None:
    text = "Tanjong Harbour's revenue reached US$318.4m in 2025."
    assert _codes(text, ("A-tj-1",)) == [UNIT_MISMATCH]
    assert _codes(text, ("A-tj-1",), currency="S$") == [UNIT_MISMATCH]
    assert _codes("Ellery's revenue came to S$41.7m in 2025.", ("A-el-1",)) == [UNIT_MISMATCH]


def test_a_bare_dollar_fact_reads_as_us_dollars_by_default() -> None:
    assert _codes("Ellery's revenue came to USD41.7m in 2025.", ("A-el-1",)) == []
    assert _codes("Ellery's revenue came to US$41.7m in 2025.", ("A-el-1",)) == []
    declared = _codes("Ellery's revenue came to S$41.7m in 2025.", ("A-el-1",), currency="SGD")
    assert declared == []


def test_report_dollar() -> None:
    assert report_dollar(None) == "US$"
    assert report_dollar("SGD") == "S$"
    assert report_dollar("€") == "US$"  # a euro report: a bare $ is still the US dollar
    with pytest.raises(InputError, match="unknown currency"):
        report_dollar("dollars of Oz")
