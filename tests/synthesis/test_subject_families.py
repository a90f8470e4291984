"""One subject under several names, and the phrasings that carry a value to it.

A candidate listed with its editions (``**Norda Pump / Norda Pump Pro**``), a list item
wrapped onto the next line, the candidate's first word alone (``Norda``), a model code the
item names (``NP-40``): one subject, so that two documents writing two of these names are
compared. Pinned on pumps, routers and compressors, never on a measured dossier's words.
"""

from __future__ import annotations

import pytest

from preuve.core.numbers import Locale
from preuve.synthesis.contradictions import group_values
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.matcher import attribute_key, related_attributes, same_value, value_key
from preuve.synthesis.planner import detect_products, product_aliases
from preuve.synthesis.planner_products import question_entities
from preuve.synthesis.reader import CatalogueEntry, document_reads
from preuve.synthesis.types import Finding, Statement, StatementSource

LEX = default_lexicon()

QUESTION = """\
# Dosing pumps for the 2027 refit: Norda or Vessa?

The Water Board must choose one dosing pump for its twelve treatment works.

Candidates:

- **Norda Pump**: the NP-40 dosing unit with the Norda Cloud Monitor service, from
  Norda Fluidics Ltd.
- **Vessa Doser / Vessa Doser Plus**: a skid-mounted pump on a standard controller,
  from Vessa Works.

Which of the two should the Board buy, and what will it cost over five years?
"""
TEXTS = [
    "Norda Pump NP-40 datasheet\nThe NP-40 doses up to 40 l/h. Norda Cloud Monitor alerts.",
    "Vessa Doser Plus notes\nThe Vessa Doser Plus adds a second head. Vessa Works support.",
    "Pilot minutes\nNorda and Vessa Doser were both run at the Board's works.",
]


def test_a_listed_candidate_keeps_its_editions_and_wrapped_names_as_other_names() -> None:
    products = detect_products(QUESTION, TEXTS, LEX)
    assert products == ("Norda Pump", "Vessa Doser")
    aliases = product_aliases(QUESTION, products)
    assert aliases["NP-40"] == "Norda Pump"
    assert aliases["Norda Cloud Monitor"] == "Norda Pump"  # on the item's wrapped line
    assert aliases["Vessa Doser Plus"] == "Vessa Doser"  # an edition written as alternative
    # the candidate's first word alone is the candidate, no subject of its own
    assert "Norda" not in question_entities(QUESTION, TEXTS, products)


def test_a_status_word_inside_a_licence_name_is_no_state() -> None:
    assert value_key("Orvane Source-Available Licence 2.0")[0] == (
        "licence",
        "orvane source-available licence 2.0",
    )
    assert value_key("fixed in 3.4.2")[:2] == ("status", "fixed")


@pytest.mark.parametrize(
    ("other", "related"),
    [
        pytest.param("median response time", True, id="a plain figure and its median"),
        pytest.param("p95 response time", False, id="a plain figure and a tail percentile"),
    ],
)
def test_a_plain_figure_and_its_median_may_be_one_quantity(other: str, related: bool) -> None:
    plain = attribute_key("response time", "1.2 s", LEX)
    assert related_attributes(plain, attribute_key(other, "2.9 s", LEX), LEX) is related


def _statement(subject: str, value: str, doc_id: str) -> Statement:
    quote = f"{subject} has a response time of {value}."
    return Statement(subject, "response time", value, quote, (StatementSource(doc_id),))


def test_a_group_shows_the_subject_with_the_other_name_a_document_wrote() -> None:
    findings = [
        Finding(
            "t",
            statements=(
                _statement("Norda Pump", "1.2 s", "doc-01"),
                _statement("Norda Pump (NP-40)", "2.9 s", "doc-02"),
            ),
        )
    ]
    [group] = group_values(findings, Locale.EN)
    assert group.subject == "Norda Pump (NP-40)"


CATALOGUE = (
    CatalogueEntry("doc-02", "Router R7 data sheet", "2027-02-03", "vendor note"),
    CatalogueEntry("doc-05", "Board minutes", "2027-01-20", "meeting minutes"),
    CatalogueEntry("doc-09", "Lab results", "2027-06-09", "internal benchmark"),
)


def _reads(text: str, lang: str = "en", locale: Locale = Locale.EN) -> set[tuple[str, str]]:
    document = {"id": "doc-30", "title": "Summary for the board", "text": text}
    found, _ = document_reads(document, ["Router R7"], LEX, lang, locale, catalogue=CATALOGUE)
    return {(r.attribute, r.value) for r in found}


def test_a_value_whose_aside_names_its_source_is_left_to_that_source() -> None:
    text = "| Figure | Router R7 |\n|---|---|\n| Latency, vendor claim | 3 ms (data sheet, Feb) |\n"
    assert not {v for _, v in _reads(text)} & {"3 ms"}


def test_what_a_person_told_at_a_meeting_is_left_to_its_minutes() -> None:
    text = (
        "At our January meeting your engineer told us the Router R7 would be supported to "
        "the end of 2031."
    )
    assert _reads(text) == set()


@pytest.mark.parametrize(
    ("lang", "locale", "text", "expected"),
    [
        pytest.param(
            "en",
            Locale.EN,
            "The vendor said the Router R7 would be supported to the end of 2031 at the "
            "earliest, and that no successor was planned before 2028.",
            {("end of support", "2031")},
            id="to the end of, a later year in another clause",
        ),
        pytest.param(
            "en",
            Locale.EN,
            "Support for the Router R7 ends in 2030.",
            {("end of support", "2030")},
            id="support ... ends",
        ),
        pytest.param(
            "fr",
            Locale.FR,
            "Le support du Router R7 prend fin en juin 2030.",
            {("fin de support", "juin 2030")},
            id="support ... prend fin",
        ),
    ],
)
def test_end_of_support_phrasings(
    lang: str, locale: Locale, text: str, expected: set[tuple[str, str]]
) -> None:
    assert _reads(text, lang, locale) == expected


QUOTE = """\
Date: 3 March 2027 · Valid for 30 days · Prices in EUR, excluding VAT

| Line | Description | Qty | Unit price | Line total |
|---|---|---:|---:|---:|
| 1 | Router R7 chassis, with rails | 12 | 1,900.00 | 22,800.00 |
| 2 | Router R7 support plan — per unit, per year | 12 | 310.00 | 3,720.00 |
"""


def test_a_bare_figure_under_a_price_header_is_in_the_currency_the_document_declares() -> None:
    document = {"id": "doc-31", "title": "Quotation Q-77", "text": QUOTE}
    found, _ = document_reads(document, ["Router R7"], LEX, "en", Locale.EN)
    prices = {(r.value, r.quote.split("|")[1].strip()) for r in found if r.kind == "money"}
    assert ("310.00 EUR", "2") in prices
    assert ("1,900.00 EUR", "1") in prices
    # the quantity column is no amount
    assert not any(r.value.startswith("12 ") and r.kind == "money" for r in found)


@pytest.mark.parametrize(
    ("text", "context"),
    [
        pytest.param(
            "Teams may run Router R7 free of charge in up to 5 sites.", ("target",), id="tier"
        ),
        pytest.param("Router R7 updates are included at no extra cost.", (), id="free"),
    ],
)
def test_a_price_of_zero_bounded_by_a_count_is_a_free_tier(
    text: str, context: tuple[str, ...]
) -> None:
    document = {"id": "doc-32", "title": "Router R7 terms", "text": text}
    found, _ = document_reads(document, ["Router R7"], LEX, "en", Locale.EN)
    assert [r.context for r in found if r.kind == "free" or r.value_key[:2] == ("money", "free")]
    assert all(r.context == context for r in found if r.value_key[:2] == ("money", "free"))


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        pytest.param("| Packet loss | less than 0.5 % |", ("less than 0.5 %", ()), id="claim"),
        pytest.param("| Taux de pertes | inférieur à 0,5 % |", ("inférieur à 0,5 %", ()), id="fr"),
        pytest.param(
            "| Required uptime | at least 99.9 % |", ("99.9 %", ("target",)), id="requirement"
        ),
    ],
)
def test_a_sheet_row_opening_on_a_bound_claims_that_bound(
    row: str, expected: tuple[str, tuple[str, ...]]
) -> None:
    text = f"| Property | Value |\n|---|---|\n{row}\n"
    locale = Locale.FR if "," in row else Locale.EN
    document = {"id": "doc-33", "title": "Router R7 data sheet", "text": text}
    found, _ = document_reads(document, ["Router R7"], LEX, "en", locale)
    assert [(r.value, r.context) for r in found] == [expected]


@pytest.mark.parametrize(
    ("bound", "point", "agree"),
    [
        pytest.param("less than 0.4 %", "0.3 %", True, id="within"),
        pytest.param("inférieur à 0,4 %", "1,3 %", False, id="beyond"),
        pytest.param("< 200 ms", "0.3 s", False, id="beyond, another unit"),
        pytest.param("at least 99.9 %", "99.95 %", True, id="lower bound"),
        pytest.param("less than 0.4 %", "0.3 s", False, id="another quantity"),
    ],
)
def test_a_bound_agrees_with_the_values_it_holds(bound: str, point: str, agree: bool) -> None:
    assert same_value(bound, point) is agree
    assert same_value(point, bound) is agree
