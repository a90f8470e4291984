"""Prose of the Solvéa Énergies SA annual report: management report and notes (preuve's own
text).

Six risk signals are planted (refinancing, dependency, concentration, liquidity, covenant,
litigation); everything else is neutral prose a reader should not flag.
"""

from __future__ import annotations

from preuve.corpora.memo_prose import KeyFigures, NoteTable, Para, Section, Signal

__all__ = ["SOLVEA_NOTES", "SOLVEA_REPORT"]

SOLVEA_REPORT: tuple[Section, ...] = (
    Section(
        "Activité et faits marquants",
        (
            Para(
                (
                    "Solvéa Énergies développe, construit et exploite des parcs éoliens "
                    "terrestres et des centrales solaires en France métropolitaine.",
                    "La capacité installée atteint 1 140 MW au 31 décembre 2025, après la mise "
                    "en service de quatre centrales solaires dans l’Hérault et le Gard.",
                    "La production s’élève à 2 310 GWh, en hausse de 8 % sur un an, grâce à des "
                    "conditions de vent favorables au second semestre.",
                )
            ),
            Para(
                (
                    "Le chiffre d’affaires atteint 98 400 k€, contre 91 700 k€ en 2024.",
                    Signal(
                        "dependency",
                        "Près de 70 % du chiffre d’affaires provient de contrats de complément "
                        "de rémunération conclus avec l’État, dont les conditions pourraient "
                        "être révisées par les pouvoirs publics.",
                    ),
                    Signal(
                        "concentration",
                        "Un acheteur unique, Électra Négoce, absorbe 55 % de l’électricité "
                        "vendue hors mécanismes de soutien.",
                    ),
                )
            ),
        ),
    ),
    Section(
        "Chiffres clés",
        (KeyFigures(("revenue", "ebitda", "net_income", "operating_cash_flow", "capex")),),
    ),
    Section(
        "Résultats et financement",
        (
            Para(
                (
                    "L’EBITDA progresse à 57 400 k€ et le résultat net ressort à 11 175 k€.",
                    "Les investissements de l’exercice atteignent 86 000 k€ et portent sur six "
                    "parcs en construction, si bien que le flux de trésorerie disponible est "
                    "négatif de 47 225 k€.",
                    "Ils ont été financés par de nouveaux financements de projet et par la "
                    "trésorerie.",
                )
            ),
            Para(
                (
                    Signal(
                        "refinancing",
                        "Les obligations vertes de 120 000 k€ émises en 2020 arrivent à "
                        "échéance en mars 2027 et devront être refinancées sur un marché "
                        "obligataire où les taux ont sensiblement augmenté.",
                    ),
                    Signal(
                        "liquidity",
                        "À la date du présent rapport, le programme d’investissement de 2026 "
                        "n’est financé qu’à hauteur de 60 %, le solde devant être couvert par de "
                        "nouveaux emprunts ou par la trésorerie disponible.",
                    ),
                )
            ),
        ),
    ),
    Section(
        "Environnement et gouvernance",
        (
            Para(
                (
                    "Le conseil d’administration s’est réuni sept fois au cours de l’exercice.",
                    "Les émissions évitées par la production du groupe sont estimées à "
                    "310 000 tonnes équivalent CO2.",
                    "Un nouveau directeur des opérations a rejoint le comité exécutif en "
                    "septembre.",
                )
            ),
        ),
    ),
    Section(
        "Perspectives",
        (
            Para(
                (
                    "Le groupe prévoit la mise en service de 180 MW supplémentaires en 2026 et "
                    "poursuit le développement d’un portefeuille de projets de 2 100 MW.",
                )
            ),
        ),
    ),
)

SOLVEA_NOTES: tuple[Section, ...] = (
    Section(
        "Note 1 – Principes comptables",
        (
            Para(
                (
                    "Les comptes consolidés sont établis selon les principes comptables "
                    "français ; les montants sont présentés en milliers d’euros.",
                    "Les parcs sont amortis sur leur durée d’utilité, de vingt à trente ans.",
                )
            ),
        ),
    ),
    Section(
        "Note 4 – Immobilisations corporelles",
        (
            NoteTable(
                (
                    ("Parcs en exploitation", 430_600, 392_100),
                    ("Parcs en construction", 69_500, 52_800),
                    ("Total", 500_100, 444_900),
                )
            ),
        ),
    ),
    Section(
        "Note 10 – Dettes financières",
        (
            NoteTable(
                (
                    ("Obligations vertes", 120_000, 120_000),
                    ("Financements de projet", 252_500, 208_800),
                    ("Autres emprunts", 15_500, 14_200),
                    ("Total", 388_000, 343_000),
                )
            ),
            Para(
                (
                    "Les financements de projet sont sans recours sur la société mère.",
                    Signal(
                        "covenant",
                        "Les financements de projet imposent un ratio de couverture du service "
                        "de la dette d’au moins 1,15x, et deux parcs éoliens affichaient un "
                        "ratio de 1,18x au 31 décembre 2025.",
                    ),
                )
            ),
        ),
    ),
    Section(
        "Note 13 – Litiges",
        (
            Para(
                (
                    Signal(
                        "litigation",
                        "Le constructeur du parc solaire de Saint-Aurèle a engagé une procédure "
                        "d’arbitrage pour obtenir le paiement de 9 800 k€ de travaux "
                        "supplémentaires que la société conteste.",
                    ),
                    "La sentence est attendue au second semestre 2026.",
                )
            ),
        ),
    ),
    Section(
        "Note 15 – Engagements hors bilan",
        (
            Para(
                (
                    "Les commandes d’éoliennes et de panneaux passées pour les projets de 2026 "
                    "représentent un engagement de 41 000 k€.",
                )
            ),
        ),
    ),
)
