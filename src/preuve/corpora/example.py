"""A small bundled example: two pages of a French annual report, a model's quotes, a memo.

The answers reproduce the reference failures of SPEC.md (a faithful summary instead of a
quote, two sentences glued with "[...]", an added final period, a quote cut inside a number,
a number computed by the writer, a lost sign) so that the checks have something real to
refuse. Texts are preuve's own.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EXAMPLE_FACTS", "EXAMPLE_MEMO", "EXAMPLE_PAGES", "EXAMPLE_QUOTES", "ExampleQuote"]

EXAMPLE_PAGES: tuple[str, ...] = (
    "Maison Ferlac SAS — Rapport de gestion 2025\n"
    "Le premier client du groupe représente 38 % du chiffre d\u2019affaires consolidé ;\n"
    "la perte de ce client aurait un effet significatif sur les marges.\n"
    "Les lignes de crédit non tirées sont limitées à 6\u202f000 k€ à la clôture de\n"
    "l\u2019exercice, ce qui réduit la marge de manœuvre en cas de retard de paiement.\n",
    "Note 9 — Emprunt syndiqué\n"
    "Le groupe a souscrit un emprunt syndiqué de 85\u202f000 k€. Le contrat impose un ratio\n"
    "dette nette / EBITDA ajusté au plus égal à 3,5x. Au 31 décembre 2025, ce ratio\n"
    "s\u2019établit à 3,4x selon la définition contractuelle.\n"
    "Le free cash-flow de l\u2019exercice est négatif de 14\u202f930 k€.\n",
)


@dataclass(frozen=True, slots=True)
class ExampleQuote:
    label: str
    page: int
    quote: str


EXAMPLE_QUOTES: tuple[ExampleQuote, ...] = (
    ExampleQuote(
        "copied across a PDF line break",
        1,
        "Les lignes de crédit non tirées sont limitées à 6 000 k€ à la clôture de l'exercice",
    ),
    ExampleQuote(
        "added final period",
        1,
        "Le premier client du groupe représente 38 % du chiffre d'affaires consolidé.",
    ),
    ExampleQuote(
        "faithful summary, not a quote",
        1,
        "Le principal client pèse 38 % du chiffre d'affaires consolidé",
    ),
    ExampleQuote(
        "two sentences glued with [...]",
        2,
        "Le groupe a souscrit un emprunt syndiqué [...] ce ratio s'établit à 3,4x",
    ),
    ExampleQuote("cited on the wrong page", 1, "ce ratio s'établit à 3,4x selon la définition"),
    ExampleQuote("cut inside a number (38 % → 8 %)", 1, "8 % du chiffre d'affaires consolidé"),
    ExampleQuote(
        "cut inside a number (85 000 k€ → 5 000 k€)",
        2,
        "5 000 k€. Le contrat impose un ratio",
    ),
)

EXAMPLE_FACTS = (
    "[R-ferlac-levier] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; "
    "formule : dette nette / EBITDA\n"
    "[A-ferlac-1] Maison Ferlac SAS - Free cash-flow 2025 : -14 930 k€ ; marge nette : -0,5 %\n"
    "[Q-ferlac-3] Maison Ferlac SAS - « Au 31 décembre 2025, ce ratio s'établit à 3,4x selon "
    "la définition contractuelle » (p. 2)\n"
)

EXAMPLE_MEMO: dict[str, list[dict[str, object]]] = {
    "paragraphs": [
        {
            "text": "Le levier de Maison Ferlac SAS atteint 5,5x en 2025 contre 3,6x en 2024.",
            "sources": ["R-ferlac-levier"],
        },
        {
            "text": "Le levier a gagné 1,9 point en un an.",
            "sources": ["R-ferlac-levier"],
        },
        {
            "text": "Le free cash-flow est négatif de 14 930 k€ et la marge nette est de 0,5 %.",
            "sources": ["A-ferlac-1"],
        },
        {"text": "Le covenant reste respecté à 3,4x.", "sources": ["Q-ferlac-9"]},
        {"text": "La dépendance au premier client reste forte.", "sources": []},
    ]
}
