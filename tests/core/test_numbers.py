"""Oracle cases and properties for locale-aware number extraction and comparison."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.numbers import (
    Locale,
    NumberMention,
    detect_locale,
    extract_numbers,
    french_number,
    parse_number,
    same_magnitude,
    same_value,
)

FR, EN = Locale.FR, Locale.EN
NBSP, NNBSP = "\u00a0", "\u202f"

# (raw, value, signed, unit, is_year)
Row = tuple[str, str, bool, str | None, bool]


def rows(text: str, locale: Locale) -> list[Row]:
    """Extract, check every span against its raw text, and flatten for comparison."""
    found = extract_numbers(text, locale)
    for mention in found:
        assert text[mention.start : mention.end] == mention.raw
    return [(m.raw, str(m.value), m.signed, m.unit, m.is_year) for m in found]


PARSE_CASES = [
    ("fr-space-thousands", "11 175", FR, "11175"),
    ("fr-nbsp-thousands", f"11{NBSP}175", FR, "11175"),
    ("fr-narrow-nbsp-thousands", f"11{NNBSP}175", FR, "11175"),
    ("fr-millions", "1 234 567", FR, "1234567"),
    ("fr-decimal-comma", "3,4", FR, "3.4"),
    ("fr-comma-is-not-thousands", "11,175", FR, "11.175"),
    ("fr-decimal-point-tolerated", "5.5", FR, "5.5"),
    ("fr-grouped-decimal", "12 345 678,9", FR, "12345678.9"),
    ("en-comma-thousands", "1,577", EN, "1577"),
    ("en-comma-thousands-decimal", "1,577.5", EN, "1577.5"),
    ("en-accounting-negative", "(1,577)", EN, "-1577"),
    ("fr-accounting-negative", "(1 577)", FR, "-1577"),
    ("en-currency-accounting", "$(2,000)", EN, "-2000"),
    ("fr-minus-percent", "-0,5 %", FR, "-0.5"),
    ("fr-unicode-minus-k-euro", f"−14{NNBSP}930 k€", FR, "-14930"),
    ("fr-en-dash-minus", "–3,2", FR, "-3.2"),
    ("fr-plus", "+3,2 %", FR, "3.2"),
    ("fr-multiple", "5,5x", FR, "5.5"),
    ("fr-multiple-trailing-zero", "5,50x", FR, "5.50"),
    ("fr-k-euro", "85 000 k€", FR, "85000"),
    ("fr-m-euro", "12,5 M€", FR, "12.5"),
    ("en-dollar-million", "$1.2 million", EN, "1.2"),
    ("en-billion", "12.5 billion", EN, "12.5"),
    ("en-negative-dollar", "-$1.2", EN, "-1.2"),
    ("year", "2025", FR, "2025"),
    ("surrounding-space", "  3,4  ", FR, "3.4"),
    # Every grouping convention a report may print, in either locale.
    ("fr-swiss-apostrophe", "131'480", FR, "131480"),
    ("en-swiss-apostrophe", "131'480", EN, "131480"),
    ("swiss-typographic-apostrophe", "2\u2019045\u2019300", FR, "2045300"),
    ("swiss-apostrophe-decimal-point", "1'234.50", FR, "1234.50"),
    ("swiss-apostrophe-decimal-comma", "1'234,50", EN, "1234.50"),
    ("swiss-en-dash-negative", "\u20131'260", FR, "-1260"),
    ("swiss-minus-sign-negative", "\u22127'415", EN, "-7415"),
    ("swiss-accounting-negative", "(3'905)", FR, "-3905"),
    ("en-indian-lakh", "12,34,567", EN, "1234567"),
    ("en-indian-crore-decimal", "1,23,45,678.90", EN, "12345678.90"),
    ("fr-indian-lakh", "12,34,567.89", FR, "1234567.89"),
    ("en-indian-negative", "\u22124,56,789", EN, "-456789"),
    ("fr-dot-thousands-decimal-comma", "1.234,5", FR, "1234.5"),
    ("en-dot-thousands-decimal-comma", "1.234.567,5", EN, "1234567.5"),
    ("fr-comma-thousands-decimal-point", "1,234.5", FR, "1234.5"),
    ("en-space-thousands-decimal-comma", "1 234 567,5", EN, "1234567.5"),
    ("en-narrow-nbsp-thousands", f"1{NNBSP}234{NNBSP}567", EN, "1234567"),
]


@pytest.mark.parametrize(
    ("raw", "locale", "expected"), [c[1:] for c in PARSE_CASES], ids=[c[0] for c in PARSE_CASES]
)
def test_parse_number(raw: str, locale: Locale, expected: str) -> None:
    assert parse_number(raw, locale) == Decimal(expected)


NOT_ONE_NUMBER = [
    ("empty", "", FR),
    ("words", "abc", FR),
    ("two-numbers", "12 et 13", FR),
    ("en-comma-not-thousands", "1,5", EN),
    ("bad-grouping", "1 234 5678", FR),
    ("version", "3.4.2", EN),
    ("identifier", "A-2", FR),
    ("slashed-date", "31/12/2025", FR),
    ("trailing-word", "12 clients", FR),
    ("apostrophe-not-a-group-of-three", "5'11", FR),
    ("indian-groups-not-of-two", "12,345,67", EN),
]


@pytest.mark.parametrize(
    ("raw", "locale"), [c[1:] for c in NOT_ONE_NUMBER], ids=[c[0] for c in NOT_ONE_NUMBER]
)
def test_parse_number_rejects(raw: str, locale: Locale) -> None:
    assert parse_number(raw, locale) is None


EXTRACT_CASES: list[tuple[str, str, Locale, list[Row]]] = [
    (
        "spec-fact-fcf-and-margin",
        "Free cash-flow 2025 : -14 930 k€ ; marge nette : -0,5 %",
        FR,
        [
            ("2025", "2025", False, None, True),
            ("-14 930", "-14930", True, "k€", False),
            ("-0,5", "-0.5", True, "%", False),
        ],
    ),
    (
        "spec-fact-leverage",
        "Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; formule : dette nette / EBITDA",
        FR,
        [
            ("2025", "2025", False, None, True),
            ("5,5", "5.5", False, "x", False),
            ("2024", "2024", False, None, True),
            ("3,6", "3.6", False, "x", False),
        ],
    ),
    (
        "years-not-glued",
        "entre 2024 et 2025",
        FR,
        [("2024", "2024", False, None, True), ("2025", "2025", False, None, True)],
    ),
    (
        "single-digits-not-glued",
        "p. 12 3 signaux",
        FR,
        [("12", "12", False, None, False), ("3", "3", False, None, False)],
    ),
    (
        "year-then-amount-not-glued",
        "2025 11 175 k€",
        FR,
        [("2025", "2025", False, None, True), ("11 175", "11175", False, "k€", False)],
    ),
    (
        "year-then-three-digits-not-glued",
        "en 2025 175 clients",
        FR,
        [("2025", "2025", False, None, True), ("175", "175", False, None, False)],
    ),
    (
        "year-comma-amount",
        "en 2025, 11 175 k€",
        FR,
        [("2025", "2025", False, None, True), ("11 175", "11175", False, "k€", False)],
    ),
    (
        "grouped-is-not-a-year",
        "2 025 k€",
        FR,
        [("2 025", "2025", False, "k€", False)],
    ),
    ("fr-comma-decimal", "11,175", FR, [("11,175", "11.175", False, None, False)]),
    ("en-comma-thousands", "11,175", EN, [("11,175", "11175", False, None, False)]),
    (
        "en-comma-not-thousands-splits",
        "items 1,5 and 3",
        EN,
        [
            ("1", "1", False, None, False),
            ("5", "5", False, None, False),
            ("3", "3", False, None, False),
        ],
    ),
    (
        "identifiers-are-not-numbers",
        "[A-solvea-2] [P-03-07] doc-77 ORV-SA-2026-004 R-ferlac-levier Q3 v3.4 CO2",
        FR,
        [],
    ),
    (
        # Changed deliberately (issue 11): ordinals are numbers (they were identifiers).
        "ordinals-are-numbers",
        "le 1er client, le 2e trimestre, the 3rd quarter",
        FR,
        [
            ("1", "1", False, "ordinal", False),
            ("2", "2", False, "ordinal", False),
            ("3", "3", False, "ordinal", False),
        ],
    ),
    (
        "references-are-not-numbers",
        "version 3.4.2, section 3.4, § 2, note 9, art. 12, au 31/12/2025 et le 31.12.2025",
        FR,
        [],
    ),
    (
        # Changed deliberately (issue 11): the day of a date is a number of its own kind
        # (compared with the days of the facts), no longer skipped.
        "day-of-a-date-is-a-day",
        "au 31 décembre 2025 ; December 31, 2025 ; 5 may rise ; en mai 12 000 k€",
        FR,
        [
            ("31", "31", False, None, False),
            ("2025", "2025", False, None, True),
            ("31", "31", False, None, False),
            ("2025", "2025", False, None, True),
            ("5", "5", False, None, False),
            ("12 000", "12000", False, "k€", False),
        ],
    ),
    (
        "fiscal-year-second-half-is-not-a-figure",
        "exercice 2024-25, mais 2024-26",
        FR,
        [
            ("2024", "2024", False, None, True),
            ("2024", "2024", False, None, True),
            ("26", "26", False, None, False),
        ],
    ),
    (
        "dot-thousands-are-a-number",
        "1.234.567 € ; 1.234.567,5 € ; 31.12.2025 ; 1.234",
        FR,
        [
            ("1.234.567", "1234567", False, "€", False),
            ("1.234.567,5", "1234567.5", False, "€", False),
            ("1.234", "1.234", False, None, False),
        ],
    ),
    (
        "en-accounting-and-currency",
        "(1,577) and $(2,000), -$1.2 million",
        EN,
        [
            ("(1,577)", "-1577", True, None, False),
            ("$(2,000)", "-2000", True, "$", False),
            ("-$1.2", "-1.2", True, "million", False),
        ],
    ),
    (
        "en-percent-and-billion",
        "up 3.4% to $12.5 billion",
        EN,
        [("3.4", "3.4", False, "%", False), ("$12.5", "12.5", False, "billion", False)],
    ),
    (
        "year-in-parentheses-is-not-negative",
        "un recul de 12 % (2024)",
        FR,
        [("12", "12", False, "%", False), ("2024", "2024", False, None, True)],
    ),
    (
        "range-is-not-a-minus",
        "10-15 % sur 2024–2025",
        FR,
        [
            # the low bound of a range takes the unit written after the high one (s28)
            ("10", "10", False, "%", False),
            ("15", "15", False, "%", False),
            ("2024", "2024", False, None, True),
            ("2025", "2025", False, None, True),
        ],
    ),
    (
        "spaced-dash-is-not-a-minus",
        "Maison Ferlac SAS - 38 % du chiffre d'affaires",
        FR,
        [("38", "38", False, "%", False)],
    ),
    (
        "units-normalized",
        "1,9 point, 5 fois, 12 pts, 3 Md€, 85000k€, 25 bp, 4 MEUR, 7 millions",
        FR,
        [
            ("1,9", "1.9", False, "pt", False),
            ("5", "5", False, "x", False),
            ("12", "12", False, "pt", False),
            ("3", "3", False, "Md€", False),
            ("85000", "85000", False, "k€", False),
            ("25", "25", False, "bp", False),
            ("4", "4", False, "M€", False),
            ("7", "7", False, "million", False),
        ],
    ),
    (
        "spaced-x-is-not-a-unit",
        "3 x 4",
        FR,
        [("3", "3", False, None, False), ("4", "4", False, None, False)],
    ),
    (
        "narrow-nbsp-and-unicode-minus",
        f"FCF : −14{NNBSP}930{NNBSP}k€",
        FR,
        [("−14\u202f930", "-14930", True, "k€", False)],
    ),
    (
        "grouped-numbers-are-read-whole",
        "Ventes 131'480 kCHF ; perte \u20131\u2019260 ; INR 12,34,567 ; 1.234,5 € ; (2'045)",
        FR,
        [
            ("131'480", "131480", False, "kCHF", False),
            ("\u20131\u2019260", "-1260", True, None, False),
            ("12,34,567", "1234567", False, None, False),
            ("1.234,5", "1234.5", False, "€", False),
            ("(2'045)", "-2045", True, None, False),
        ],
    ),
    (
        "swiss-franc-units-with-their-scale",
        "131'480 kCHF ; 12,5 MCHF ; 4 Mio. CHF ; 2 Mrd. CHF",
        FR,
        [
            ("131'480", "131480", False, "kCHF", False),
            ("12,5", "12.5", False, "MCHF", False),
            ("4", "4", False, "MCHF", False),
            ("2", "2", False, "MdCHF", False),
        ],
    ),
    (
        "apostrophes-in-words-are-not-groups",
        "l'an 2025 et aujourd'hui 12 ; 5'11 de haut",
        FR,
        [
            ("2025", "2025", False, None, True),
            ("12", "12", False, None, False),
            ("5", "5", False, None, False),
            ("11", "11", False, None, False),
        ],
    ),
    (
        "plus-sign",
        "une hausse de +3,2 %",
        FR,
        [("+3,2", "3.2", True, "%", False)],
    ),
]


@pytest.mark.parametrize(
    ("text", "locale", "expected"),
    [c[1:] for c in EXTRACT_CASES],
    ids=[c[0] for c in EXTRACT_CASES],
)
def test_extract_numbers(text: str, locale: Locale, expected: list[Row]) -> None:
    assert rows(text, locale) == expected


def one(text: str, locale: Locale) -> NumberMention:
    [mention] = extract_numbers(text, locale)
    return mention


COMPARE_CASES = [
    ("trailing-zero", "5,5x", "5,50x", FR, True, True),
    ("thousands-vs-decimal-fr", "11 175", "11,175", FR, False, False),
    ("thousands-space-vs-comma-en", "11 175", "11,175", EN, True, True),
    ("sign-differs", "-14 930", "14 930", FR, False, True),
    ("parentheses-vs-minus", "(1,577)", "-1,577", EN, True, True),
    ("units-not-compared", "3,4 %", "3,4x", FR, True, True),
]


@pytest.mark.parametrize(
    ("left", "right", "locale", "value", "magnitude"),
    [c[1:] for c in COMPARE_CASES],
    ids=[c[0] for c in COMPARE_CASES],
)
def test_same_value_and_magnitude(
    left: str, right: str, locale: Locale, value: bool, magnitude: bool
) -> None:
    a, b = one(left, locale), one(right, locale)
    assert same_value(a, b) is value
    assert same_magnitude(a, b) is magnitude


LOCALE_CASES = [
    ("fr-memo", "Le levier de la société atteint 5,5x en 2025 et la marge est négative.", FR),
    ("en-filing", "The company reported revenue of $1,577.5 million for the year.", EN),
    ("fr-numbers-only", f"11{NNBSP}175 k€ ; 3,4 %", FR),
    ("en-numbers-only", "$1,577.5 ; 3.4", EN),
    ("empty-defaults-to-fr", "", FR),
]


@pytest.mark.parametrize(
    ("text", "expected"), [c[1:] for c in LOCALE_CASES], ids=[c[0] for c in LOCALE_CASES]
)
def test_detect_locale(text: str, expected: Locale) -> None:
    assert detect_locale(text) is expected


# ---------------------------------------------------------------- properties
SEPARATORS = {FR: [" ", NBSP, NNBSP, "'", "\u2019"], EN: [",", " ", NBSP, NNBSP, "'", "\u2019"]}
UNITS = [("", None), ("%", "%"), (" %", "%"), ("x", "x"), (" k€", "k€"), (f"{NBSP}M€", "M€")]


@st.composite
def written_numbers(draw: st.DrawFn) -> tuple[Locale, str, Decimal, bool]:
    """A random value written the way a French or English report would write it."""
    locale = draw(st.sampled_from(Locale))
    integer = draw(st.integers(min_value=0, max_value=10**13))
    fraction = draw(st.text(alphabet="0123456789", max_size=4))
    separator = draw(st.sampled_from(SEPARATORS[locale]))
    body = f"{integer:,}".replace(",", separator)
    if fraction:
        body += ("," if locale is FR else ".") + fraction
    value = Decimal(f"{integer}.{fraction}" if fraction else str(integer))
    negative = draw(st.sampled_from([None, "-", "−", "()"]))
    if negative == "()":
        body = f"({body})"
    elif negative is not None:
        body = negative + body
    return locale, body, -value if negative else value, negative is not None


@given(written_numbers())
def test_written_number_parses_back(case: tuple[Locale, str, Decimal, bool]) -> None:
    locale, raw, value, _ = case
    assert parse_number(raw, locale) == value


@given(written_numbers(), st.sampled_from(UNITS))
def test_written_number_is_found_in_text(
    case: tuple[Locale, str, Decimal, bool], unit: tuple[str, str | None]
) -> None:
    locale, raw, value, signed = case
    written_unit, normalized_unit = unit
    text = f"Montant : {raw}{written_unit} ; source interne."
    [mention] = extract_numbers(text, locale)
    assert mention.raw == raw
    assert text[mention.start : mention.end] == raw
    assert mention.value == value
    assert mention.signed is signed
    assert mention.unit == normalized_unit


@given(
    st.lists(st.integers(min_value=0, max_value=999), min_size=1, max_size=6),
    st.sampled_from([" et ", ", ", " ; "]),
)
def test_small_numbers_in_a_list_are_never_glued(values: list[int], joiner: str) -> None:
    text = joiner.join(str(v) for v in values)
    assert [m.value for m in extract_numbers(text, FR)] == [Decimal(v) for v in values]


@pytest.mark.parametrize(
    ("value", "trim", "written"),
    [
        pytest.param("331200", True, "331 200", id="grouped"),
        pytest.param("-0.69", True, "-0,69", id="negative-below-one-keeps-its-sign"),
        pytest.param("-1234.5", True, "-1 234,5", id="negative-grouped"),
        pytest.param("2.50", True, "2,5", id="trimmed"),
        pytest.param("2.50", False, "2,50", id="untrimmed"),
        pytest.param("0", True, "0", id="zero"),
    ],
)
def test_french_number_keeps_the_sign_and_groups_digits(
    value: str, trim: bool, written: str
) -> None:
    assert french_number(Decimal(value), trim=trim) == written
    assert [m.value for m in extract_numbers(written, Locale.FR)] == [Decimal(value)]


def _indian(integer: int) -> str:
    """``integer`` grouped the Indian way: the last three digits, then groups of two."""
    digits = str(integer)
    head, tail = digits[:-3], digits[-3:]
    groups: list[str] = []
    while len(head) > 2:
        head, groups = head[:-2], [head[-2:], *groups]
    return ",".join([g for g in [head, *groups] if g] + [tail])


@given(st.integers(min_value=100_000, max_value=10**13), st.sampled_from(Locale))
def test_indian_grouping_reads_whole(integer: int, locale: Locale) -> None:
    written = _indian(integer)
    assert parse_number(written, locale) == Decimal(integer)


@given(written_numbers())
def test_no_number_is_read_inside_a_grouped_one(case: tuple[Locale, str, Decimal, bool]) -> None:
    """A grouped number is one mention: no piece of it ("480" of "131'480") is a number of
    its own that a memo could cite."""
    locale, raw, value, _ = case
    text = f"Montant : {raw} ; source interne."
    assert [m.value for m in extract_numbers(text, locale)] == [value]
