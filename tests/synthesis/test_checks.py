"""Checks in code over a synthesis, replaying the reference failures, and code arithmetic."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from preuve.core.defects import Defect
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.loaders import load_dossier
from preuve.synthesis.checks import (
    DossierLimits,
    QuantityKind,
    check_arbitrations,
    check_citations,
    check_computations,
    check_missing_contradictions,
    check_numbers,
    check_synthesis,
    dossier_limits,
    product,
    read_documents,
    total_over_periods,
)
from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.evidence_dossier import limit_lines
from preuve.synthesis.ranks import SourceInfo
from preuve.synthesis.types import (
    Contradiction,
    Finding,
    Paragraph,
    SourcedValue,
    Synthesis,
)
from tests.synthesis import reference


@pytest.fixture(scope="module")
def dossier(tmp_path_factory: pytest.TempPathFactory) -> Dossier:
    return load_dossier(generate_synthesis_dossier(tmp_path_factory.mktemp("dossier")).dossier)


@pytest.fixture(scope="module")
def sources(dossier: Dossier) -> dict[str, SourceInfo]:
    return dict(dossier.source_infos())


def codes(defects: list[Defect] | tuple[Defect, ...]) -> list[str]:
    return [d.code for d in defects]


def with_paragraphs(*paragraphs: Paragraph) -> Synthesis:
    """A synthesis of these paragraphs only (no contradiction listed)."""
    return Synthesis(paragraphs, ())


def with_contradictions(*contradictions: Contradiction) -> Synthesis:
    return replace(reference.good_synthesis(), contradictions=contradictions)


def test_good_synthesis_has_no_defect(sources: dict[str, SourceInfo]) -> None:
    defects = check_synthesis(
        reference.good_synthesis(),
        reference.findings(),
        sources,
        computed=(reference.GPU_COST_2027,),
    )
    assert defects == ()


# --- citations -------------------------------------------------------------------------


def test_doc_77_is_an_unknown_citation(sources: dict[str, SourceInfo]) -> None:
    synthesis = with_paragraphs(Paragraph("Kestrel Serve : 340 ms.", ("doc-06", "doc-77")))
    defects = check_citations(synthesis, sources, read_documents(reference.findings()))
    assert codes(defects) == ["unknown_citation"]
    assert defects[0].paragraph == 1
    assert "doc-77" in defects[0].detail


def test_citing_a_document_no_sub_agent_read(sources: dict[str, SourceInfo]) -> None:
    # doc-32 exists, but no sub-task of the reference plan read it.
    synthesis = with_paragraphs(Paragraph("Tout s'héberge en interne.", ("doc-32",)))
    defects = check_citations(synthesis, sources, read_documents(reference.findings()))
    assert codes(defects) == ["unread_citation"]


def test_documents_of_a_failed_sub_task_are_not_read(sources: dict[str, SourceInfo]) -> None:
    findings = (
        *reference.findings()[:2],
        Finding.not_investigated("security", "timeout", ("doc-16", "doc-17", "doc-13")),
    )
    synthesis = with_paragraphs(reference.P_SECURITY)
    defects = check_citations(synthesis, sources, read_documents(findings))
    assert codes(defects) == ["unread_citation", "unread_citation"]


def test_paragraph_without_source(sources: dict[str, SourceInfo]) -> None:
    synthesis = with_paragraphs(Paragraph("Conclusion sans source.", ()))
    defects = check_citations(synthesis, sources, read_documents(reference.findings()))
    assert codes(defects) == ["no_source"]


def test_contradiction_sources_are_checked_too(sources: dict[str, SourceInfo]) -> None:
    bad = replace(reference.C2, rejected=(SourcedValue("Apache 2.0", ("doc-77",)),))
    defects = check_citations(
        with_contradictions(bad), sources, read_documents(reference.findings())
    )
    assert [(d.code, d.path) for d in defects] == [("unknown_citation", "contradictions[0]")]


# --- arbitrations ----------------------------------------------------------------------


def swapped(contradiction: Contradiction, reason: str) -> Contradiction:
    assert contradiction.retained is not None
    [rejected] = contradiction.rejected
    return replace(
        contradiction, retained=rejected, rejected=(contradiction.retained,), reason=reason
    )


@pytest.mark.parametrize(
    "contradiction",
    [
        pytest.param(swapped(reference.C2, "règle 2"), id="C2-blog-Apache-retained"),
        pytest.param(
            swapped(reference.C3, "the most recent document wins (doc-17)"),
            id="C3-doc-16-retained",
        ),
        pytest.param(swapped(reference.C1_LATENCY, "règle 1"), id="C1-vendor-retained"),
        pytest.param(swapped(reference.C4, "règle 3"), id="C4-minutes-retained"),
    ],
)
def test_swapped_arbitration_is_suspicious(
    contradiction: Contradiction, sources: dict[str, SourceInfo]
) -> None:
    defects = check_arbitrations(with_contradictions(contradiction), sources)
    assert codes(defects) == ["suspicious_arbitration"]
    assert "swapped" in defects[0].detail


def test_correct_arbitrations_pass(sources: dict[str, SourceInfo]) -> None:
    assert check_arbitrations(reference.good_synthesis(), sources) == []


def test_newer_but_less_reliable_retained_is_a_mismatch(sources: dict[str, SourceInfo]) -> None:
    # A blog newer than the benchmark is "more recent", so not suspicious by the SPEC's
    # definition; the ordered rule applied in code still retains the benchmark.
    blog = Contradiction(
        "Kestrel Serve",
        "latence p95",
        SourcedValue("120 ms", ("doc-18",)),
        (SourcedValue("340 ms", ("doc-06",)),),
        3,
        "",
    )
    sources = {**sources, "doc-18": replace(sources["doc-18"], date=sources["doc-31"].date)}
    defects = check_arbitrations(with_contradictions(blog), sources)
    assert codes(defects) == ["arbitration_mismatch"]
    assert "rule 1" in defects[0].detail


@pytest.mark.parametrize(
    ("contradiction", "expected"),
    [
        pytest.param(replace(reference.C1_LATENCY, rule=2), ["wrong_rule"], id="C1-rule-2"),
        pytest.param(replace(reference.C1_LATENCY, rule=3), [], id="C1-rule-3-also-holds"),
        pytest.param(replace(reference.C2, rule=3), [], id="C2-rule-3-also-holds"),
        pytest.param(replace(reference.C3, rule=1), ["wrong_rule"], id="C3-rule-1"),
        pytest.param(replace(reference.C2, rule=None), ["missing_rule"], id="C2-no-rule"),
    ],
)
def test_cited_rule(
    contradiction: Contradiction, expected: list[str], sources: dict[str, SourceInfo]
) -> None:
    assert codes(check_arbitrations(with_contradictions(contradiction), sources)) == expected


def test_unresolved_listing_that_code_resolves(sources: dict[str, SourceInfo]) -> None:
    unresolved = replace(reference.C4, retained=None, rule=None, rejected=reference.C4.values)
    defects = check_arbitrations(with_contradictions(unresolved), sources)
    assert codes(defects) == ["arbitration_mismatch"]
    assert "left unresolved, but rule 3" in defects[0].detail


def test_truly_unresolved_listing_passes(sources: dict[str, SourceInfo]) -> None:
    tie = Contradiction(
        "Orvet",
        "ORV-SA-2026-004",
        None,
        (SourcedValue("a", ("doc-16",)), SourcedValue("b", ("doc-16",))),
        None,
        "same document, same date",
    )
    assert check_arbitrations(with_contradictions(tie), sources) == []


def test_contradiction_with_one_value(sources: dict[str, SourceInfo]) -> None:
    lonely = replace(reference.C2, rejected=())
    assert codes(check_arbitrations(with_contradictions(lonely), sources)) == [
        "incomplete_contradiction"
    ]


# --- contradictions found in code but missing --------------------------------------------


def test_empty_contradiction_list_misses_every_one(sources: dict[str, SourceInfo]) -> None:
    found = find_contradictions(reference.findings(), sources)
    defects = check_missing_contradictions(with_contradictions(), found)
    assert codes(defects) == ["missing_contradiction"] * 5
    assert "'120 ms' (doc-02)" in defects[0].detail
    assert "rule 1" in defects[0].detail


def test_listed_contradictions_match_despite_phrasing(sources: dict[str, SourceInfo]) -> None:
    found = find_contradictions(reference.findings(), sources)
    rephrased = [
        replace(c, subject=c.subject.upper(), attribute="autre libellé")
        for c in reference.good_synthesis().contradictions
    ]
    c4 = rephrased[4]
    assert c4.retained is not None
    rephrased[4] = replace(c4, retained=SourcedValue("le 30 juin 2027", c4.retained.sources))
    assert check_missing_contradictions(with_contradictions(*rephrased), found) == []


def test_only_the_missing_one_is_reported(sources: dict[str, SourceInfo]) -> None:
    found = find_contradictions(reference.findings(), sources)
    listed = reference.good_synthesis().contradictions[:4]
    [defect] = check_missing_contradictions(with_contradictions(*listed), found)
    assert "fin de support" in defect.detail


# --- numbers and arithmetic ----------------------------------------------------------------


def test_summed_yearly_fleets_are_refused() -> None:
    paragraph = Paragraph("6 GPU en 2026 et 12 GPU en 2027, soit 18 GPU.", ("doc-09",))
    defects = check_numbers(with_paragraphs(paragraph), reference.findings())
    assert codes(defects) == ["number_not_supported"]
    assert "'18'" in defects[0].detail


def test_yearly_fleets_alone_pass() -> None:
    paragraph = Paragraph("Le parc passe de 6 GPU en 2026 à 12 GPU en 2027.", ("doc-09",))
    assert check_numbers(with_paragraphs(paragraph), reference.findings()) == []


@pytest.mark.parametrize(
    ("text", "unsupported"),
    [
        pytest.param("Latence retenue selon la règle 1 : 340 ms.", [], id="regle-1"),
        pytest.param("Latency kept by rule 3: 340 ms.", [], id="rule-3"),
        pytest.param("Retenu selon la règle n° 2 : 340 ms.", [], id="regle-no-2"),
        pytest.param("Selon la règle 4 : 340 ms.", ["'4'"], id="no-such-rule"),
        pytest.param("Une latence de 1 ms selon la règle.", ["'1'"], id="not-after-the-word"),
    ],
)
def test_a_rule_number_is_a_name_not_a_figure(text: str, unsupported: list[str]) -> None:
    paragraph = Paragraph(text, ("doc-06",))
    defects = check_numbers(with_paragraphs(paragraph), reference.findings())
    assert [d.detail.split(" ")[0] for d in defects] == unsupported


def test_a_number_must_come_from_the_cited_documents() -> None:
    # 340 ms is a finding of doc-06, but this paragraph cites only doc-02.
    paragraph = Paragraph("Kestrel Serve : latence p95 de 340 ms.", ("doc-02",))
    defects = check_numbers(with_paragraphs(paragraph), reference.findings())
    assert codes(defects) == ["number_not_supported"]


def test_computed_value_is_allowed_only_when_code_computed_it() -> None:
    synthesis = with_paragraphs(reference.P_GPU)
    assert check_numbers(synthesis, reference.findings(), (reference.GPU_COST_2027,)) == []
    defects = check_numbers(synthesis, reference.findings(), ())
    assert codes(defects) == ["number_not_supported"]
    assert "'331 200'" in defects[0].detail


def test_years_of_document_dates_are_allowed(sources: dict[str, SourceInfo]) -> None:
    paragraph = Paragraph("Le banc de 2026 donne 340 ms.", ("doc-06",))
    findings = reference.findings()[:1]
    assert check_numbers(with_paragraphs(paragraph), findings, (), sources) == []
    no_year = Paragraph("Le banc de 2031 donne 340 ms.", ("doc-06",))
    assert codes(check_numbers(with_paragraphs(no_year), findings, (), sources)) == [
        "number_not_supported"
    ]


def test_numbers_in_listed_values_are_checked() -> None:
    invented = replace(reference.C1_LATENCY, retained=SourcedValue("350 ms", ("doc-06",)))
    defects = check_numbers(
        Synthesis((), (invented,)), reference.findings(), (reference.GPU_COST_2027,)
    )
    assert [(d.code, d.path) for d in defects] == [("number_not_supported", "contradictions[0]")]


def test_unknown_computation() -> None:
    fake = replace(reference.GPU_COST_2027, label="parc GPU total", value=Decimal(18))
    synthesis = replace(reference.good_synthesis(), numbers=(fake,))
    assert codes(check_computations(synthesis, (reference.GPU_COST_2027,))) == [
        "unknown_computation"
    ]
    assert check_computations(reference.good_synthesis(), (reference.GPU_COST_2027,)) == []


def test_code_refuses_to_sum_a_stock_across_years() -> None:
    with pytest.raises(ValueError, match="refusing to add a stock"):
        total_over_periods(
            "parc GPU",
            [("2026", Decimal(6)), ("2027", Decimal(12))],
            "GPU",
            QuantityKind.STOCK,
        )


def test_code_sums_a_flow_with_its_formula() -> None:
    total = total_over_periods(
        "location GPU 2026-2027",
        [("2026", Decimal(165600)), ("2027", Decimal(331200))],
        "€ HT",
        QuantityKind.FLOW,
        ("doc-09", "doc-21"),
    )
    assert total.value == Decimal(496800)
    assert total.formula == "165 600 € HT (2026) + 331 200 € HT (2027)"


def test_product_with_its_formula() -> None:
    cost = product(
        "location du parc GPU 2027",
        [(Decimal(12), "GPU"), (Decimal(2300), "€/mois"), (Decimal(12), "mois")],
        "€ HT par an",
    )
    assert cost.value == reference.GPU_COST_2027.value
    assert cost.formula == reference.GPU_COST_2027.formula
    with pytest.raises(ValueError, match="at least one factor"):
        product("vide", [], "€")


# --- the whole check, replaying the reference failures ------------------------------------


def test_reference_failures_each_produce_their_defect(sources: dict[str, SourceInfo]) -> None:
    failing = Synthesis(
        paragraphs=(
            Paragraph("Kestrel Serve : 340 ms.", ("doc-06", "doc-77")),
            Paragraph("6 GPU en 2026 et 12 GPU en 2027, soit 18 GPU.", ("doc-09",)),
        ),
        contradictions=(swapped(reference.C3, "the most recent document wins (doc-17)"),),
    )
    defects = check_synthesis(failing, reference.findings(), sources)
    assert sorted(set(codes(defects))) == [
        "missing_contradiction",
        "number_not_supported",
        "suspicious_arbitration",
        "unknown_citation",
    ]
    # C3 is listed (swapped): the 4 others are missing.
    assert codes(defects).count("missing_contradiction") == 4


# --- limits of the dossier -------------------------------------------------------------------


def test_dossier_limits(dossier: Dossier) -> None:
    plan = reference.plan()
    plan = replace(plan, subtasks=tuple(t for t in plan.subtasks if t.id != "longevity"))
    findings = (
        *reference.findings()[:2],
        reference.merged_security_finding(),
        Finding.not_investigated("capacity", "model output cut by its token limit", ("doc-09",)),
    )
    limits = dossier_limits(plan, findings, dossier.ids)
    assert "doc-30" in limits.uncovered and "doc-31" in limits.uncovered
    assert "doc-32" in limits.uncovered and "doc-24" in limits.uncovered
    assert limits.read_but_not_used == ("doc-01", "doc-20", "doc-09")
    assert limits.not_investigated == (("capacity", "model output cut by its token limit"),)
    assert limits.merged == (("security", "Orvet", "ORV-SA-2026-004"),)
    lines = limits.lines()
    assert "- doc-30: covered by no sub-task (never read)" in lines
    assert "- doc-20: read but used by no statement" in lines
    assert any("NOT INVESTIGATED" in line for line in lines)
    assert any("merges sources" in line for line in lines)


def test_the_limits_are_one_list_said_in_either_language() -> None:
    limits = DossierLimits(
        uncovered=("d-1",),
        read_but_not_used=("d-2",),
        not_investigated=(("t-1", "cut on length"),),
        merged=(("t-2", "Pompe", "débit"),),
        coverage=(("d-1", "an index page"), ("d-3", "assigned by code")),
        unknown_types=(("d-4", "plaquette"),),
        refused=(("t-3", "Pompe", "débit", "12 m3/h", "d-5"),),
    )
    english, french = limits.lines("en"), limits.lines("fr")
    assert english[0] == "- d-1: covered by no sub-task (never read): an index page"
    assert french[0] == "- d-1 : couvert par aucune sous-tâche (jamais lu) : an index page"
    assert english[1:3] == (
        "- d-3: assigned by code",
        "- d-4: source type 'plaquette' is in no rank table (ranked as unknown)",
    )
    assert french[-1] == (
        "- sous-tâche t-3 : constat Pompe / débit = '12 m3/h' (d-5) refusé : sa citation n'a"
        " pas passé la vérification (écarté, non utilisé)"
    )
    assert len(english) == len(french) == 7 and limit_lines(limits) == list(french)


@pytest.mark.parametrize(
    ("text", "unsupported"),
    [
        pytest.param("Tamaris coûte 38 000 € HT par an.", [], id="as-the-finding-writes"),
        pytest.param("Tamaris coûte 38 000 k€ par an.", ["38 000"], id="another-scale"),
        pytest.param("Tamaris coûte 38 000 $ par an.", ["38 000"], id="another-currency"),
        pytest.param("Tamaris coûte 38 000 % de plus.", ["38 000"], id="another-unit"),
        pytest.param("Tamaris coûte 38 000 par an.", [], id="unit-not-written"),
    ],
)
def test_a_number_is_checked_by_scale_and_unit(text: str, unsupported: list[str]) -> None:
    paragraph = Paragraph(text, ("doc-07",))
    defects = check_numbers(with_paragraphs(paragraph), reference.findings())
    assert [d.detail.split("'")[1] for d in defects] == unsupported
