"""Values measured under a condition: a column of conditions, a condition in a label.

Domains: boilers, heat pumps, kilns. A test of two machines at two temperatures gives each
value its temperature as context; a datasheet row "Output at 7 °C" is measured at 7 °C; two
attribute names of one subject measured under the same condition, one's words within the
other's, are one quantity; the same flow written per second and per hour is one value. And a
price stated without an item in a document whose title names another offer of the brand.
"""

from __future__ import annotations

from datetime import date

import pytest

from preuve.core.numbers import Locale
from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.reader import document_reads
from preuve.synthesis.types import Finding, Statement, StatementSource

PRODUCTS = ("Calvo C-12", "Thermia TX-90")
TRIAL = """\
| Machine | Outdoor temperature | Heat output | Water flow |
|---|---|---|---|
| Calvo C-12 | 7 °C | 41 kW | 0.9 l/s |
| Calvo C-12 | -7 °C | 30 kW | 0.9 l/s |
| Thermia TX-90 | 7 °C | 44 kW | 3.6 m³/h |
| Thermia TX-90 | -7 °C | 35 kW | 3.6 m³/h |
"""
SHEET = """\
| Parameter | Value |
|---|---|
| Heat output at 7 °C | 52 kW |
| Heat output at -7 °C | 38 kW |
| Water flow | 3.24 m³/h |
"""


def _reads(text: str, title: str) -> set[tuple[str, str, str, str]]:
    document = {"id": "doc-01", "title": title, "text": text}
    reads, _ = document_reads(document, PRODUCTS, default_lexicon(), "en", Locale.EN)
    return {(r.subject, r.attribute, r.value, ", ".join(r.context)) for r in reads}


def test_a_column_of_conditions_is_the_context_of_each_row() -> None:
    got = _reads(TRIAL, "Site trial of two heat pumps")
    assert {
        ("Calvo C-12", "heat output", "41 kW", "at 7 °C"),
        ("Calvo C-12", "heat output", "30 kW", "at -7 °C"),
        ("Thermia TX-90", "heat output", "44 kW", "at 7 °C"),
    } <= got
    assert not {r for r in got if r[2] in {"7 °C", "-7 °C"}}  # a condition is no value


@pytest.mark.parametrize(
    ("rows", "conditioned"),
    [
        pytest.param(TRIAL, True, id="two-subjects-at-the-same-temperatures"),
        pytest.param(
            "| Machine | Heat output | Water flow |\n|---|---|---|\n"
            "| Calvo C-12 | 41 kW | 0.9 l/s |\n| Calvo C-12 | 30 kW | 0.9 l/s |\n"
            "| Thermia TX-90 | 44 kW | 3.6 m³/h |\n| Thermia TX-90 | 35 kW | 3.6 m³/h |\n",
            False,
            id="measured-columns-differ-between-subjects",
        ),
    ],
)
def test_only_conditions_set_out_alike_are_conditions(rows: str, conditioned: bool) -> None:
    contexts = {r[3] for r in _reads(rows, "Trial") if r[1] == "heat output"}
    assert (contexts != {""}) is conditioned


def test_a_label_states_its_condition() -> None:
    got = _reads(SHEET, "Calvo C-12 datasheet")
    assert ("Calvo C-12", "heat output", "52 kW", "at 7 °C") in got
    assert ("Calvo C-12", "heat output", "38 kW", "at -7 °C") in got


def _finding(doc_id: str, subject: str, attribute: str, value: str, context: str) -> Finding:
    quote = f"{attribute} {value}"
    statement = Statement(
        subject=subject, attribute=attribute, value=value, text=quote, context=context,
        sources=(StatementSource(doc_id, value, quote),),
    )  # fmt: skip
    return Finding(f"t-{doc_id}", (statement,))


@pytest.mark.parametrize(
    ("statements", "expected"),
    [
        pytest.param(
            [("doc-01", "Calvo C-12", "output", "41 kW", "at 7 °C"),
             ("doc-02", "Calvo C-12", "output nominal heating", "52 kW", "at 7 °C")],
            [("Calvo C-12", {"41 kW", "52 kW"})],
            id="one-condition-one-name-within-the-other",
        ),
        pytest.param(
            [("doc-01", "Calvo C-12", "output", "41 kW", ""),
             ("doc-02", "Calvo C-12", "output nominal heating", "52 kW", "")],
            [],
            id="without-a-condition-two-names-stay-apart",
        ),
        pytest.param(
            [("doc-01", "Calvo C-12", "heat output", "41 kW", "at 7 °C"),
             ("doc-02", "Calvo C-12", "heat output", "30 kW", "at -7 °C")],
            [],
            id="two-conditions-are-two-quantities",
        ),
        pytest.param(
            [("doc-01", "Thermia TX-90", "water flow", "0.9 l/s", ""),
             ("doc-02", "Thermia TX-90", "water flow", "3.24 m³/h", "")],
            [],
            id="one-flow-per-second-and-per-hour",
        ),
    ],
)  # fmt: skip
def test_contradictions_under_conditions(
    statements: list[tuple[str, str, str, str, str]], expected: list[tuple[str, set[str]]]
) -> None:
    findings = [_finding(*s) for s in statements]
    sources = {
        s[0]: SourceInfo(s[0], date(2027, 1, int(s[0][-2:])), SourceType.BLOG) for s in statements
    }
    found = [
        (c.subject, {v.value for v in (c.retained, *c.rejected) if v is not None})
        for c in find_contradictions(findings, sources, Locale.EN)
    ]
    assert found == expected


@pytest.mark.parametrize(
    ("title", "attribute"),
    [
        pytest.param(
            "Calvo announcement: new terms for Calvo Cloud monitoring",
            "price Cloud",
            id="the-title-names-another-offer-of-the-brand",
        ),
        pytest.param("Calvo C-12 price list", "price", id="the-title-names-the-product"),
        pytest.param("Calvo Systems price list", "price", id="the-title-names-the-company"),
    ],
)
def test_a_price_without_item_is_of_the_offer_the_title_names(title: str, attribute: str) -> None:
    text = "Calvo moves to a yearly subscription.\n\n- Price: £900 per site per year."
    got = {(r[1], r[2]) for r in _reads(text, title)}
    assert (attribute, "£900 per site per year") in got


def test_a_label_names_another_row_as_its_condition() -> None:
    sheet = (
        "| Parameter | Value |\n|---|---|\n| **Rated pressure** | 4 bar |\n"
        "| **Irradiance at rated pressure** | 30 mW/cm² |\n| Weight | 12 kg |\n"
    )
    got = {(r[0], r[2], r[3]) for r in _reads(sheet, "Calvo C-12 datasheet")}
    assert ("Calvo C-12", "30 mW/cm²", "at 4 bar") in got
    assert ("Calvo C-12", "12 kg", "") in got


@pytest.mark.parametrize(
    ("statements", "expected"),
    [
        pytest.param(
            [("doc-01", "Calvo C-12", "delivered irradiance", "22 mW/cm²", "at 40 l/min"),
             ("doc-02", "Calvo C-12", "validated fluence", "30 mW/cm²", "at 40 l/min")],
            [("Calvo C-12", {"22 mW/cm²", "30 mW/cm²"})],
            id="one-condition-a-unit-over-another",
        ),
        pytest.param(
            [("doc-01", "Calvo C-12", "heat output", "41 kW", "at 7 °C"),
             ("doc-02", "Calvo C-12", "electrical input", "12 kW", "at 7 °C")],
            [],
            id="one-condition-two-powers-stay-apart",
        ),
    ],
)  # fmt: skip
def test_a_unit_over_another_under_one_condition(
    statements: list[tuple[str, str, str, str, str]], expected: list[tuple[str, set[str]]]
) -> None:
    test_contradictions_under_conditions(statements, expected)
