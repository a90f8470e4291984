"""Prose of the Maison Ferlac SAS annual report: management report and notes (preuve's own text).

Six risk signals are planted (concentration, liquidity, dependency, refinancing, covenant,
litigation); everything else is neutral prose a reader should not flag.
"""

from __future__ import annotations

from preuve.corpora.memo_prose import KeyFigures, NoteTable, Para, Section, Signal

__all__ = ["FERLAC_NOTES", "FERLAC_REPORT"]

FERLAC_REPORT: tuple[Section, ...] = (
    Section(
        "1.1 Activité de l’exercice",
        (
            Para(
                (
                    "Maison Ferlac conçoit, fabrique et distribue des articles culinaires en "
                    "acier inoxydable et en fonte émaillée, ainsi que des couteaux de cuisine "
                    "forgés dans ses ateliers de Thiers.",
                    "L’exercice 2025 a été marqué par le transfert de la ligne d’émaillage sur "
                    "le site principal et par le lancement de la gamme « Atelier », vendue en "
                    "France et dans onze pays européens.",
                )
            ),
            Para(
                (
                    "Le chiffre d’affaires s’établit à 142 600 k€, contre 151 300 k€ en 2024, "
                    "sous l’effet d’un recul des volumes dans les magasins spécialisés.",
                    Signal(
                        "concentration",
                        "Le premier client du groupe, une enseigne nationale de la grande "
                        "distribution, a représenté 38 % du chiffre d’affaires de l’exercice, "
                        "contre 34 % en 2024.",
                    ),
                    "Les ventes en ligne progressent et atteignent 9 % de l’activité.",
                )
            ),
            Para(
                (
                    "L’effectif moyen s’établit à 612 salariés.",
                    "Deux nouveaux fours de trempe ont été installés au printemps et la "
                    "consommation d’énergie par pièce produite a baissé de 6 %.",
                )
            ),
        ),
    ),
    Section(
        "1.2 Chiffres clés",
        (
            KeyFigures(
                ("revenue", "ebitda", "net_income", "free_cash_flow", "net_debt"),
            ),
        ),
    ),
    Section(
        "1.3 Résultats et situation financière",
        (
            Para(
                (
                    "L’EBITDA s’établit à 14 200 k€ (17 150 k€ en 2024), la hausse du prix de "
                    "l’acier n’ayant été que partiellement répercutée sur les prix de vente.",
                    "Après les dotations aux amortissements et le coût de l’endettement, le "
                    "résultat net est une perte de 713 k€.",
                    "Les investissements de l’exercice, soit 18 000 k€, ont porté pour "
                    "l’essentiel sur la nouvelle ligne d’émaillage.",
                )
            ),
            Para(
                (
                    "La dette financière nette atteint 78 100 k€ à la clôture.",
                    Signal(
                        "liquidity",
                        "Au 31 décembre 2025, les lignes de crédit confirmées non tirées sont "
                        "limitées à 6 000 k€, ce qui laisse une marge de manœuvre réduite face "
                        "aux variations saisonnières du besoin en fonds de roulement.",
                    ),
                )
            ),
        ),
    ),
    Section(
        "1.4 Principaux risques et incertitudes",
        (
            Para(
                (
                    Signal(
                        "dependency",
                        "La fabrication des gammes en acier multicouche dépend d’un fournisseur "
                        "unique de tôles plaquées, établi en Allemagne, avec lequel aucun "
                        "contrat pluriannuel n’a été signé.",
                    ),
                    "Les achats de cuivre et d’aluminium sont répartis entre quatre "
                    "fournisseurs européens.",
                )
            ),
            Para(
                (
                    Signal(
                        "refinancing",
                        "Le crédit syndiqué arrive à échéance en juillet 2027 et les "
                        "discussions en vue de son refinancement n’avaient pas abouti à la "
                        "date d’arrêté des comptes.",
                    ),
                    "La société est accompagnée par un conseil financier indépendant.",
                )
            ),
        ),
    ),
    Section(
        "1.5 Perspectives",
        (
            Para(
                (
                    "Pour 2026, la direction vise une stabilisation du chiffre d’affaires et un "
                    "redressement de la marge d’EBITDA grâce aux gains de productivité de la "
                    "nouvelle ligne.",
                    "Le carnet de commandes du premier trimestre est comparable à celui de 2025.",
                )
            ),
        ),
    ),
    Section(
        "1.6 Affectation du résultat",
        (
            Para(
                (
                    "Il sera proposé à l’assemblée générale d’affecter la perte de l’exercice, "
                    "soit 713 k€, au compte de report à nouveau.",
                    "Aucun dividende ne sera versé au titre de l’exercice 2025.",
                )
            ),
        ),
    ),
)

FERLAC_NOTES: tuple[Section, ...] = (
    Section(
        "Note 1 – Règles et méthodes comptables",
        (
            Para(
                (
                    "Les comptes consolidés sont établis selon les règles et principes "
                    "comptables français (règlement ANC n° 2020-01).",
                    "Les montants sont exprimés en milliers d’euros (k€), sauf mention contraire.",
                )
            ),
        ),
    ),
    Section(
        "Note 3 – Chiffre d’affaires par zone géographique",
        (
            NoteTable(
                (
                    ("France", 104_100, 112_000),
                    ("Export", 38_500, 39_300),
                    ("Total", 142_600, 151_300),
                )
            ),
            Para(("Les ventes à l’export sont réalisées pour l’essentiel en Europe.",)),
        ),
    ),
    Section(
        "Note 9 – Emprunts et dettes financières",
        (
            NoteTable(
                (
                    ("Crédit syndiqué", 85_000, 73_000),
                    ("Autres emprunts bancaires", 3_900, 4_600),
                    ("Dettes de location", 2_450, 1_750),
                    ("Total des emprunts et dettes financières", 91_350, 79_350),
                )
            ),
            Para(
                (
                    "Le crédit syndiqué a été conclu en juillet 2021 avec un pool de cinq "
                    "banques et il est garanti par le nantissement des titres des filiales.",
                    Signal(
                        "covenant",
                        "Le crédit syndiqué de 85 000 k€ est assorti d’un engagement de ne pas "
                        "dépasser un ratio dette nette / EBITDA ajusté de 3,5x ; au 31 décembre "
                        "2025, ce ratio s’établit à 3,4x selon la définition contractuelle, qui "
                        "retraite notamment les coûts de réorganisation.",
                    ),
                    "Le taux d’intérêt est indexé sur l’Euribor à trois mois.",
                )
            ),
        ),
    ),
    Section(
        "Note 14 – Litiges",
        (
            Para(
                (
                    Signal(
                        "litigation",
                        "Un ancien distributeur exclusif a assigné la société devant le "
                        "tribunal de commerce de Clermont-Ferrand et réclame 4 200 k€ au titre "
                        "de la rupture brutale de relations commerciales établies.",
                    ),
                    "Sur la base de l’avis de ses conseils, la société estime cette demande "
                    "infondée et n’a pas constitué de provision.",
                )
            ),
        ),
    ),
    Section(
        "Note 16 – Événements postérieurs à la clôture",
        (
            Para(
                (
                    "Aucun événement significatif n’est intervenu entre la date de clôture et "
                    "la date d’arrêté des comptes.",
                )
            ),
        ),
    ),
)
