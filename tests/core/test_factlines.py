"""Fact lines read as structure: subject, metric, period and values, French and English."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.factlines import parse_fact_structure, structure_of
from preuve.core.facts import Fact, FactStructure, FactValue
from preuve.core.numbers import Locale

FR, EN = Locale.FR, Locale.EN
D = Decimal

CASES = [
    ("fr-ratio-with-prior", FR,
     "Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; formule : dette nette / EBITDA",
     "Maison Ferlac SAS", "Levier", "2025",
     [(D("5.5"), "x", "Levier", "2025"), (D("3.6"), "x", "Levier", "2024")]),
    ("fr-second-metric-inherits-period", FR,
     "Maison Ferlac SAS - Free cash-flow 2025 : -14 930 k€ ; marge nette : -0,5 %",
     "Maison Ferlac SAS", "Free cash-flow", "2025",
     [(D("-14930"), "k€", "Free cash-flow", "2025"), (D("-0.5"), "%", "marge nette", "2025")]),
    ("en-colon-without-space-accounting-negative", EN,
     "Acme Inc. - Free cash flow 2025: (14,930) ; net margin: (0.5)%",
     "Acme Inc.", "Free cash flow", "2025",
     [(D("-14930"), None, "Free cash flow", "2025"), (D("-0.5"), "%", "net margin", "2025")]),
    ("quarters-and-two-priors", FR,
     "Helvane - Chiffre d'affaires T3 2025 : 12 000 k€ (T3 2024 : 11 000 k€ ; T3 2023 : 9 500 k€)",
     "Helvane", "Chiffre d'affaires", "2025-Q3",
     [(D("12000"), "k€", "Chiffre d'affaires", "2025-Q3"),
      (D("11000"), "k€", "Chiffre d'affaires", "2024-Q3"),
      (D("9500"), "k€", "Chiffre d'affaires", "2023-Q3")]),
    ("unit-word", EN, "Marlow plc - Inventory days 2025: 96 days (2024: 78 days)",
     "Marlow plc", "Inventory days", "2025",
     [(D("96"), "days", "Inventory days", "2025"), (D("78"), "days", "Inventory days", "2024")]),
    ("en-fiscal-year-and-half", EN, "Brill GmbH - Revenue H1 2025: 410 (FY2024: 790)",
     "Brill GmbH", "Revenue", "2025-H1",
     [(D("410"), None, "Revenue", "2025-H1"), (D("790"), None, "Revenue", "2024")]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("locale", "text", "head", "values"),
    [(c[1], c[2], c[3:6], c[6]) for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_metric_lines(
    locale: Locale,
    text: str,
    head: tuple[str, str, str],
    values: list[tuple[Decimal, str | None, str, str]],
) -> None:
    structure = parse_fact_structure(text, locale)
    assert (structure.subject, structure.metric, structure.period) == head
    assert [(v.value, v.unit, v.metric, v.period) for v in structure.values] == values
    assert structure.statement == ""


def test_an_alert_sentence_gives_periods_and_directions_from_its_clauses() -> None:
    text = (
        "Maison Ferlac SAS - EBITDA en baisse de 17,2 % : 14 200 k€ en 2025 contre 17 150 k€ "
        "en 2024"
    )
    structure = parse_fact_structure(text, FR)
    assert structure.subject == "Maison Ferlac SAS" and structure.metric is None
    assert [(v.value, v.period, v.direction) for v in structure.values] == [
        (D("17.2"), None, "down"),
        (D("14200"), "2025", None),
        (D("17150"), "2024", None),
    ]
    assert structure.statement.startswith("EBITDA en baisse")


def test_a_quote_line_is_its_quote() -> None:
    text = "Helvane - « Les prêteurs ont accordé une renonciation jusqu'au 30 juin 2026 » (p. 7)"
    structure = parse_fact_structure(text, FR)
    assert structure.subject == "Helvane"
    assert structure.statement == "Les prêteurs ont accordé une renonciation jusqu'au 30 juin 2026"
    assert structure.values == ()


def test_a_line_without_subject_keeps_its_text() -> None:
    structure = parse_fact_structure("Levier 2025 : 5,5x", FR)
    assert structure.subject is None and structure.values[0].period == "2025"


def test_a_built_structure_wins_over_the_text() -> None:
    built = FactStructure("X SA", "Levier", "2025", (FactValue(D("1"), "x", "Levier", "2025"),))
    fact = Fact("R-x", "anything at all", structure=built)
    assert structure_of(fact, FR) is built
    assert fact == Fact("R-x", "anything at all")  # structure takes no part in equality
