"""The rules synthesizer reads the evidence dossier back from the prompt a model is given:
every field its template uses comes back exactly (no side channel)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.synthesis.checks import DossierLimits
from preuve.synthesis.evidence_dossier import (
    EvidenceDossier,
    build_evidence_dossier,
    exact_number,
    read_number,
)
from preuve.synthesis.evidence_reading import DocumentSeen, ReadStatement, read_evidence
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.types import (
    ComputedValue,
    Contradiction,
    Finding,
    Plan,
    SourcedValue,
    Statement,
    SubTask,
)
from tests.synthesis import reference

SOURCES = MappingProxyType(
    {
        "doc-1": SourceInfo("doc-1", date(2026, 2, 10), SourceType("vendor note")),
        "doc-2": SourceInfo("doc-2", None, SourceType("internal benchmark")),
    }
)


def hostile_evidence() -> EvidenceDossier:
    """Fields holding every separator of the rendering, a context, and exact digits."""
    latency = Statement.of("Kestrel | Serve", "latence; p95", "120 ms", "ligne\nsuivante", "doc-1")
    measured = replace(
        Statement.of("Kestrel | Serve", "latence; p95", "340 ms", "« 340 » | x", "doc-2"),
        context="mesure interne (protocole v2)",
    )
    plan = Plan("Quelle offre ?", (SubTask("perf | 1", "Performances\n(mesurées)", ("doc-1",)),))
    contradiction = Contradiction(
        "Kestrel | Serve",
        "latence; p95",
        SourcedValue("340 ms", ("doc-2",)),
        (SourcedValue("120 ms ; à froid", ("doc-1",)),),
        1,
        "a reason code wrote",
        "mesure interne (protocole v2)",
    )
    computed = ComputedValue("prix | an", Decimal("100.00"), "€ HT; par an", "a = b", ("doc-1",))
    return EvidenceDossier(
        question="  Quelle offre ?\n\nDeux lignes.  ",
        plan=plan,
        findings=(Finding("perf | 1", (latency, measured), docs_read=("doc-1", "doc-2")),),
        sources=SOURCES,
        contradictions=(contradiction,),
        computed=(computed,),
        limits=DossierLimits((), (), (), ()),
    )


def test_every_field_the_template_uses_reads_back_exactly() -> None:
    evidence = hostile_evidence()
    read = read_evidence(evidence.render())
    assert read.question == "Quelle offre ?\n\nDeux lignes."
    assert [(t.id, t.question, t.investigated) for t in read.subtasks] == [
        ("perf | 1", "Performances\n(mesurées)", True)
    ]
    assert read.subtasks[0].statements == [
        ReadStatement("Kestrel | Serve", "latence; p95", "", "120 ms", ("doc-1",)),
        ReadStatement(
            "Kestrel | Serve", "latence; p95", "mesure interne (protocole v2)", "340 ms", ("doc-2",)
        ),
    ]
    # the code's reason is not rendered: the rules synthesizer writes its own
    assert read.contradictions == [replace(evidence.contradictions[0], reason="")]
    assert read.computed == list(evidence.computed)
    assert str(read.computed[0].value) == "100.00"  # every digit, not french_number's "100"
    assert read.documents == {
        "doc-1": DocumentSeen("2026-02-10", "vendor note"),
        "doc-2": DocumentSeen(None, "internal benchmark"),
    }


def test_an_unresolved_contradiction_and_a_failed_subtask_read_back() -> None:
    evidence = hostile_evidence()
    values = (SourcedValue("MIT", ("doc-1",)), SourcedValue("TSL", ("doc-2",)))
    unresolved = Contradiction("Orvet", "licence", None, values, None, "")
    failed = Finding.not_investigated("perf | 1", "timeout\nafter 60 s")
    read = read_evidence(
        replace(evidence, findings=(failed,), contradictions=(unresolved,)).render()
    )
    assert [t.investigated for t in read.subtasks] == [False]
    assert read.subtasks[0].statements == []
    assert read.contradictions == [unresolved]


def test_the_bundled_evidence_reads_back_as_built() -> None:
    plan, findings = reference.plan(), reference.findings()
    sources = {
        d: SourceInfo(d, date(2026, 1, 1), SourceType("blog"))
        for t in plan.subtasks
        for d in t.scope
    }
    evidence = build_evidence_dossier(plan.question, plan, findings, sources)
    read = read_evidence(evidence.render())
    assert read.contradictions == [replace(c, reason="") for c in evidence.contradictions]
    assert read.computed == list(evidence.computed)
    statements = [s for t in read.subtasks for s in t.statements]
    assert [(s.subject, s.attribute, s.value, s.sources) for s in statements] == [
        (s.subject, s.attribute, s.value, s.doc_ids) for f in findings for s in f.statements
    ]


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (Decimal("100.00"), "100,00"),
        (Decimal("331200"), "331 200"),
        (Decimal("-0.50"), "-0,50"),
        (Decimal("1E+2"), "1E+2"),  # the French form would lose the exponent
    ],
)
def test_exact_numbers_keep_every_digit(value: Decimal, written: str) -> None:
    assert exact_number(value) == written
    read = read_number(written)
    assert read is not None and read.as_tuple() == value.as_tuple()


@given(st.decimals(allow_nan=False, allow_infinity=False))
def test_exact_numbers_round_trip(value: Decimal) -> None:
    read = read_number(exact_number(value))
    assert read is not None and read.as_tuple() == value.as_tuple()
