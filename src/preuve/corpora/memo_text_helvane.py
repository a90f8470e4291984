"""Prose of the Helvane annual report: management report and notes (preuve's own text).

Six risk signals are planted (concentration, dependency, liquidity, going concern, covenant,
litigation); everything else is neutral prose a reader should not flag.
"""

from __future__ import annotations

from preuve.corpora.memo_prose import KeyFigures, NoteTable, Para, Section, Signal

__all__ = ["HELVANE_NOTES", "HELVANE_REPORT"]

HELVANE_REPORT: tuple[Section, ...] = (
    Section(
        "1. Présentation du groupe et de l’exercice",
        (
            Para(
                (
                    "Helvane conçoit et fabrique des automates d’analyse et les réactifs "
                    "associés pour les laboratoires hospitaliers et les centres de biologie "
                    "médicale.",
                    "Le parc installé compte 1 870 automates en France, en Belgique et en Suisse.",
                )
            ),
            Para(
                (
                    "Le chiffre d’affaires s’élève à 36 800 k€ contre 41 200 k€ en 2024, en "
                    "raison du report de plusieurs appels d’offres hospitaliers.",
                    Signal(
                        "concentration",
                        "Les trois premiers clients, des groupements d’achats hospitaliers, "
                        "représentent ensemble 46 % du chiffre d’affaires.",
                    ),
                    "Les ventes de réactifs, récurrentes, comptent pour 61 % de l’activité.",
                )
            ),
            Para(
                (
                    Signal(
                        "dependency",
                        "Le principal réactif commercialisé par le groupe est fabriqué sous une "
                        "licence exclusive concédée par Orbis Diagnostics, résiliable avec un "
                        "préavis de douze mois.",
                    ),
                    "Le laboratoire de recherche de Grenoble a déposé trois demandes de brevet "
                    "au cours de l’exercice.",
                )
            ),
        ),
    ),
    Section(
        "2. Chiffres clés",
        (KeyFigures(("revenue", "ebitda", "operating_income", "net_income", "cash")),),
    ),
    Section(
        "3. Situation financière",
        (
            Para(
                (
                    "L’EBITDA recule à 1 150 k€ et le résultat net est une perte de 2 900 k€, "
                    "après un crédit d’impôt recherche de 600 k€.",
                    "Les investissements, limités à 2 600 k€, ont porté sur le développement "
                    "de la nouvelle génération d’automates.",
                )
            ),
            Para(
                (
                    Signal(
                        "liquidity",
                        "La trésorerie disponible de 3 400 k€ ne couvre les besoins "
                        "d’exploitation que jusqu’à la fin du troisième trimestre 2026.",
                    ),
                    "Un plan de réduction des frais généraux a été engagé en novembre.",
                )
            ),
        ),
    ),
    Section(
        "4. Perspectives",
        (
            Para(
                (
                    "La direction a engagé une levée de fonds auprès d’investisseurs "
                    "spécialisés dans la santé, dont le closing est visé au deuxième trimestre "
                    "2026.",
                    "Le lancement commercial de l’automate Helvane H7 est prévu à l’automne.",
                )
            ),
        ),
    ),
)

HELVANE_NOTES: tuple[Section, ...] = (
    Section(
        "Note 1 – Référentiel comptable",
        (
            Para(
                (
                    "Les comptes consolidés sont établis selon les règles et principes "
                    "comptables français et présentés en milliers d’euros.",
                    "Les frais de développement sont inscrits à l’actif lorsque les critères "
                    "d’activation sont remplis.",
                )
            ),
        ),
    ),
    Section(
        "Note 2 – Continuité d’exploitation",
        (
            Para(
                (
                    "Le conseil d’administration a arrêté les comptes en tenant compte des "
                    "prévisions de trésorerie établies pour les douze prochains mois.",
                    Signal(
                        "going_concern",
                        "Dans ce contexte, il existe une incertitude significative sur la "
                        "continuité d’exploitation de la société, qui dépend de l’aboutissement "
                        "des négociations en cours avec ses prêteurs et de la levée de fonds "
                        "envisagée.",
                    ),
                )
            ),
        ),
    ),
    Section(
        "Note 8 – Dettes financières",
        (
            NoteTable(
                (
                    ("Prêt bancaire", 14_800, 16_400),
                    ("Avances remboursables Bpifrance", 4_300, 4_500),
                    ("Dettes de location", 2_500, 2_500),
                    ("Total", 21_600, 23_400),
                )
            ),
            Para(
                (
                    Signal(
                        "covenant",
                        "Le ratio de levier prévu par le contrat de prêt bancaire n’était pas "
                        "respecté au 31 décembre 2025 ; les prêteurs ont accordé une "
                        "renonciation temporaire valable jusqu’au 30 juin 2026.",
                    ),
                    "Le prêt bancaire porte intérêt à taux fixe.",
                )
            ),
        ),
    ),
    Section(
        "Note 12 – Litiges",
        (
            Para(
                (
                    Signal(
                        "litigation",
                        "Un concurrent a assigné Helvane en contrefaçon de brevet devant le "
                        "tribunal judiciaire de Paris et réclame 6 500 k€ de dommages et "
                        "intérêts.",
                    ),
                    "La société conteste le bien-fondé de cette action.",
                )
            ),
        ),
    ),
)
