"""The variants a held-out gold ratio lists (``eval.statements_eval.listed_variants``): the
readings writers differ on, per year, in French and English gold texts."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.eval.statements_eval import listed_variants

D = Decimal

CASES: dict[str, tuple[str, dict[str, tuple[Decimal, ...]]]] = {
    "french 'Variantes', two readings over ';', in the gold's year order": (
        "résultat opérationnel / coût de l'endettement ; 2025 8.2/2.1. Variantes : résultat "
        "courant / coût 4.1 / 3.9 ; EBITDA / coût 7.5 / 6.8",
        {"2025": (D("4.1"), D("7.5")), "2024": (D("3.9"), D("6.8"))},
    ),
    "english 'Variants:'": (
        "operating profit / net finance costs; 2025 33.5/20.6. Variants: EBITDA / net finance "
        "costs 4.1165 / 5.1636",
        {"2025": (D("4.1165"),), "2024": (D("5.1636"),)},
    ),
    "english 'Alternative', one value for the latest year, the aside's figures left out": (
        "net debt / adjusted EBITDA. Alternative with EBITDA (33.5 + 41.7 = 75.2): 2.3857",
        {"2025": (D("2.3857"),), "2024": ()},
    ),
    "years named, French thousands and a minus sign": (
        "flux A − acquisitions. Variante incluant les cessions : 2025 −1 477 531, 2024 731 739",
        {"2025": (D(-1477531),), "2024": (D(731739),)},
    ),
    "a labelled reading after a colon, decimal commas": (
        "dette nette / capitaux propres totaux ; 2025 53 805 / 80 435. Part du groupe seule : "
        "0,6818 / 0,4632",
        {"2025": (D("0.6818"),), "2024": (D("0.4632"),)},
    ),
    "a reading at the end of the computation's own sentence": (
        "résultat net de l'ensemble consolidé / chiffre d'affaires ; part du groupe : 0.4372 / "
        "1.3113",
        {"2025": (D("0.4372"),), "2024": (D("1.3113"),)},
    ),
    "english thousands after a year": (
        "net cash provided by operating activities − capital expenditures. Including disposal "
        "proceeds: 2025 2,388",
        {"2025": (D(2388),), "2024": ()},
    ),
    "a note without figures, an amount in parentheses: no variant": (
        "(borrowings − cash) / EBITDA ; 2025 98.9 / 39.9. Avances remboursables (6,0) incluses,"
        " comme au bilan. Liabilities are printed negative: use absolute values",
        {"2025": (), "2024": ()},
    ),
    "three figures for two years: ambiguous, none taken": (
        "EBITDA / revenue. Other readings: 1.2 / 1.3 / 1.4",
        {"2025": (), "2024": ()},
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_listed_variants(case: str) -> None:
    text, expected = CASES[case]
    entry = {"2025": 1.0, "2024": 1.0, "inputs": text}
    assert {year: listed_variants(entry, year) for year in ("2025", "2024")} == expected


def test_no_inputs_no_variants() -> None:
    assert listed_variants({"2025": 1.0}) == ()
    assert listed_variants("not an entry") == ()
