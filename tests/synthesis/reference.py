"""Hand-written findings and syntheses for the bundled dossier, shared by the tests.

``findings()`` is what a faithful sub-agent would return; ``good_synthesis()`` states the
12 expected facts and lists the 5 contradictions code finds (C1 counts twice: latency and
throughput); ``reference_synthesis()`` reproduces the reference run's misses (doc-30 and
doc-31 dropped by the planner, doc-16 and doc-17 merged by a sub-agent).
"""

from __future__ import annotations

from decimal import Decimal

from preuve.synthesis.types import (
    ComputedValue,
    Contradiction,
    Finding,
    Paragraph,
    Plan,
    SourcedValue,
    Statement,
    StatementSource,
    SubTask,
    Synthesis,
)

S = Statement.of
KESTREL, TAMARIS, ORVET = "Kestrel Serve", "Tamaris Inference", "Orvet"
ADVISORY = "ORV-SA-2026-004"
UNFIXED = "vulnérabilité critique, aucun correctif disponible"
FIXED = "corrigée dans Orvet 3.4.2"

GPU_COST_2027 = ComputedValue(
    label="location du parc GPU 2027",
    value=Decimal(331200),
    unit="€ HT par an",
    formula="12 GPU x 2 300 €/mois x 12 mois",
    sources=("doc-09", "doc-21"),
)


def plan() -> Plan:
    return Plan(
        question="Quel serveur d'inférence retenir ?",
        subtasks=(
            SubTask("perf", "Performances mesurées", ("doc-01", "doc-02", "doc-06", "doc-20")),
            SubTask(
                "cost",
                "Licence et coût",
                ("doc-04", "doc-05", "doc-07", "doc-08", "doc-10", "doc-14", "doc-21", "doc-23"),
            ),
            SubTask("security", "Sécurité", ("doc-11", "doc-12", "doc-13", "doc-16", "doc-17")),
            SubTask("longevity", "Pérennité", ("doc-19", "doc-30", "doc-31")),
            SubTask("capacity", "Besoin en GPU", ("doc-09",)),
        ),
    )


def findings() -> tuple[Finding, ...]:
    return (
        Finding(
            "perf",
            (
                S(
                    KESTREL,
                    "latence p95",
                    "120 ms",
                    "Kestrel Serve : latence p95 de 120 ms.",
                    "doc-02",
                ),
                S(
                    KESTREL,
                    "latence p95",
                    "340 ms",
                    "Kestrel Serve : latence p95 de 340 ms.",
                    "doc-06",
                ),
                S(
                    KESTREL,
                    "débit",
                    "2 400 tok/s",
                    "Kestrel Serve : débit de 2 400 tok/s.",
                    "doc-02",
                ),
                S(
                    KESTREL,
                    "débit",
                    "1 900 tok/s",
                    "Kestrel Serve : débit de 1 900 tok/s.",
                    "doc-06",
                ),
                S(
                    TAMARIS,
                    "latence p95",
                    "280 ms",
                    "Tamaris Inference : latence p95 de 280 ms.",
                    "doc-06",
                ),
                S(
                    TAMARIS,
                    "débit",
                    "2 100 tok/s",
                    "Tamaris Inference : débit de 2 100 tok/s.",
                    "doc-06",
                ),
                S(ORVET, "latence p95", "410 ms", "Orvet : latence p95 de 410 ms.", "doc-06"),
                S(ORVET, "débit", "1 500 tok/s", "Orvet : débit de 1 500 tok/s.", "doc-06"),
            ),
            docs_read=("doc-01", "doc-02", "doc-06", "doc-20"),
        ),
        Finding(
            "cost",
            (
                S(TAMARIS, "licence", "Apache 2.0", "licence Apache 2.0, gratuite", "doc-04"),
                S(TAMARIS, "licence", "TSL", "licence TSL depuis juin 2026", "doc-05"),
                S(TAMARIS, "prix", "38 000 € HT par an", "prix de 38 000 € HT par an", "doc-07"),
                S(KESTREL, "prix", "52 000 € HT par an", "prix de 52 000 € HT par an", "doc-08"),
                S(KESTREL, "licence", "commerciale propriétaire", "licence commerciale", "doc-10"),
                S(ORVET, "licence", "MIT", "Orvet : licence MIT.", "doc-14"),
                S(ORVET, "prix", "24 000 € HT par an", "prix de 24 000 € HT par an", "doc-23"),
                S("Location de GPU", "prix", "2 300 € HT par GPU et par mois", "", "doc-21"),
            ),
            docs_read=(
                "doc-04",
                "doc-05",
                "doc-07",
                "doc-08",
                "doc-10",
                "doc-14",
                "doc-21",
                "doc-23",
            ),
        ),
        Finding(
            "security",
            (
                S(ORVET, ADVISORY, UNFIXED, f"{ADVISORY} : {UNFIXED}.", "doc-16"),
                S(ORVET, ADVISORY, FIXED, f"{ADVISORY} : {FIXED}.", "doc-17", "doc-13"),
            ),
            docs_read=("doc-11", "doc-12", "doc-13", "doc-16", "doc-17"),
        ),
        Finding(
            "longevity",
            (
                S("Kestrel Serve 2.x", "fin de support", "31 décembre 2028", "", "doc-30"),
                S("Kestrel Serve 2.x", "fin de support", "30 juin 2027", "", "doc-31"),
            ),
            docs_read=("doc-19", "doc-30", "doc-31"),
        ),
        Finding(
            "capacity",
            (
                S("Parc GPU d'inférence", "parc 2026", "6 GPU en 2026", "", "doc-09"),
                S("Parc GPU d'inférence", "parc 2027", "12 GPU en 2027", "", "doc-09"),
            ),
            docs_read=("doc-09",),
        ),
    )


def merged_security_finding() -> Finding:
    """The reference failure: doc-16 and doc-17 folded into one statement."""
    return Finding(
        "security",
        (
            Statement(
                ORVET,
                ADVISORY,
                FIXED,
                f"{ADVISORY} : vulnérabilité critique, {FIXED}.",
                (StatementSource("doc-16", UNFIXED), StatementSource("doc-17", FIXED)),
            ),
        ),
        docs_read=("doc-16", "doc-17"),
    )


def _v(value: str, *ids: str) -> SourcedValue:
    return SourcedValue(value, ids)


C1_LATENCY = Contradiction(
    KESTREL, "latence p95", _v("340 ms", "doc-06"), (_v("120 ms", "doc-02"),), 1, "règle 1"
)
C1_THROUGHPUT = Contradiction(
    KESTREL, "débit", _v("1 900 tok/s", "doc-06"), (_v("2 400 tok/s", "doc-02"),), 1, "règle 1"
)
C2 = Contradiction(TAMARIS, "licence", _v("TSL", "doc-05"), (_v("Apache 2.0", "doc-04"),), 2, "")
C3 = Contradiction(
    ORVET, ADVISORY, _v(FIXED, "doc-17", "doc-13"), (_v(UNFIXED, "doc-16"),), 3, "règle 3"
)
C4 = Contradiction(
    "Kestrel Serve 2.x",
    "fin de support",
    _v("30 juin 2027", "doc-31"),
    (_v("31 décembre 2028", "doc-30"),),
    3,
    "règle 3",
)

P_PERF = Paragraph(
    "Selon le protocole commun, Kestrel Serve atteint une latence p95 de 340 ms et un débit "
    "de 1 900 tok/s ; Tamaris Inference 280 ms et 2 100 tok/s ; Orvet 410 ms et 1 500 tok/s.",
    ("doc-06",),
)
P_COST = Paragraph(
    "Tamaris Inference est sous licence TSL, à 38 000 € HT par an. Kestrel Serve Entreprise "
    "coûte 52 000 € HT par an. Orvet est sous licence MIT, support à 24 000 € HT par an.",
    ("doc-05", "doc-07", "doc-08", "doc-14", "doc-23"),
)
P_SECURITY = Paragraph(
    "La vulnérabilité ORV-SA-2026-004 d'Orvet est corrigée dans Orvet 3.4.2.",
    ("doc-17", "doc-13"),
)
P_LONGEVITY = Paragraph(
    "La fin de support de Kestrel Serve 2.x est fixée au 30 juin 2027.", ("doc-31",)
)
P_GPU = Paragraph(
    "Le parc sera de 6 GPU en 2026 et de 12 GPU en 2027, loués 2 300 € HT par GPU et par "
    "mois, soit 331 200 € HT par an pour le parc 2027.",
    ("doc-09", "doc-21"),
)


def good_synthesis() -> Synthesis:
    return Synthesis(
        paragraphs=(P_PERF, P_COST, P_SECURITY, P_LONGEVITY, P_GPU),
        contradictions=(C1_LATENCY, C1_THROUGHPUT, C2, C3, C4),
        numbers=(GPU_COST_2027,),
        engine="rules",
    )


def reference_synthesis() -> Synthesis:
    """Facts 11/12 (no end of support), contradictions 2/4 (C3 merged away, C4 never read),
    25 citations, all valid, no noise: the reference's 80.8."""
    merged = Paragraph(
        "L'avis ORV-SA-2026-004 d'Orvet est corrigé dans Orvet 3.4.2.", ("doc-16", "doc-17")
    )
    advice = Paragraph(
        "Tamaris Inference offre la meilleure latence mesurée ; sa licence TSL a un coût.",
        ("doc-06", "doc-05", "doc-07", "doc-12"),
    )
    operations = Paragraph(
        "Les trois candidats s'installent sur l'infrastructure interne.",
        ("doc-10", "doc-14", "doc-22", "doc-32", "doc-15"),
    )
    return Synthesis(
        paragraphs=(P_PERF, P_COST, merged, P_GPU, advice, operations),
        contradictions=(C1_LATENCY, C1_THROUGHPUT, C2),
        engine="scripted",
    )
