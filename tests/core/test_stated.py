"""A value must be stated by the passages it cites: one check for workflow 3 (a claim's
cited lines) and workflow 2 (a statement's quoted passage, its document as context)."""

from __future__ import annotations

import pytest

from preuve.core.stated import YesNoCues, unstated, value_outside

LINE = "Product P-10-36 quantity: 2,100 units."
DATE = "Product P-10-36 delivery: 10 December 2026."
FR = "Produit P-7 : quantité livrée 1 250,5 tonnes."


@pytest.mark.parametrize(
    ("value", "lines", "stated"),
    [
        pytest.param("2,100 units", [LINE], True, id="copied"),
        pytest.param("2100 units", [LINE], True, id="same-number-other-format"),
        pytest.param("10 December 2026", [DATE], True, id="date"),
        pytest.param("1 250,5 tonnes", [FR], True, id="french-decimal"),
        pytest.param("Units", [LINE], True, id="case-folded"),
        pytest.param("2,345.67", [LINE], False, id="rewritten-figure"),
        pytest.param(".2, ", [LINE], False, id="fragment-of-a-number"),
        pytest.param(", ", [LINE], False, id="no-word-no-number"),
        pytest.param("2,100 pallets", [LINE], False, id="word-of-the-model"),
        pytest.param("21 units", [LINE], False, id="digits-cut-from-a-number"),
        pytest.param("11 December 2026", [DATE], False, id="day-changed"),
        pytest.param("1 250,5 tonnes", [LINE, FR], True, id="second-line-states-it"),
    ],
)
def test_a_value_is_stated_by_its_cited_lines(value: str, lines: list[str], stated: bool) -> None:
    why = unstated(value, lines)
    assert (why is None) is stated, why
    if not stated:
        assert why is not None and repr(value) in why


YES_NO = YesNoCues(yes=("oui", "yes"), no=("non", "no"), affirm=("open source",), deny=("sans",))
ROW = "| Cobalt Vault | 47 | 410 |"
TABLE = "| produit | RTO (min) | débit (MB/s) |\n" + ROW


@pytest.mark.parametrize(
    ("value", "passage", "context", "attribute", "missing"),
    [
        pytest.param("Apache 2.0", "sous licence Apache-2.0.", "", "", [], id="as-written"),
        pytest.param("2 400 tok/s", "2400 tok/s", "", "", [], id="number-by-value"),
        pytest.param("20 ms", "latence de 120 ms", "", "", ["20"], id="digits-of-a-number"),
        pytest.param("100 units", LINE, "", "", ["100"], id="group-of-a-number"),
        pytest.param("5 units", "change: -5 units", "", "", ["5"], id="sign-kept"),
        pytest.param("47 min", ROW, TABLE, "", [], id="unit-in-the-context"),
        pytest.param("47 heures", ROW, TABLE, "", ["heures"], id="unit-of-the-model"),
        pytest.param("Kesby", ROW, "Kesby depot", "", ["kesby"], id="word-only-in-its-passage"),
        pytest.param("30/06/2030", "avancée au 30/06/2030 ;", "", "", [], id="date-as-written"),
        pytest.param("30/06/2031", "avancée au 30/06/2030 ;", "", "", ["its digits as written"],
                     id="date-changed"),
        pytest.param("oui", "Le produit est open source.", "", "produit", [], id="yes-by-cue"),
        pytest.param("non", "Le produit est open source.", "", "produit", ["no cue of 'non'"],
                     id="no-against-a-yes-cue"),
        pytest.param("oui", "Il est open source.", "", "chiffrement", ["nothing of 'chiffrement'"],
                     id="yes-about-another-attribute"),
    ],
)  # fmt: skip
def test_one_value_check_for_both_workflows(
    value: str, passage: str, context: str, attribute: str, missing: list[str]
) -> None:
    found = value_outside(
        value, [passage], context=[context] if context else [], attribute=attribute, yes_no=YES_NO
    )
    assert found == missing
