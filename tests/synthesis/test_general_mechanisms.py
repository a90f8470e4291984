"""The general mechanisms of workflow 2's rules engine: lexicon, values by meaning, matcher,
tables, reported sources, rank tables, computations."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from preuve.core.errors import InputError
from preuve.core.numbers import Locale
from preuve.loaders import load_dossier, load_lexicon
from preuve.models import LoopStatus
from preuve.synthesis.computations import compute_values
from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.matcher import attribute_key, group_key, same_value
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.synthesis.rank_files import split_rank_section
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.reader import CatalogueEntry, document_reads
from preuve.synthesis.types import Finding, Statement

S = Statement.of


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        pytest.param("0.8 s", "800 ms", True, id="seconds-milliseconds"),
        pytest.param("1 200 € par mois", "1200 euros/mois", True, id="euros-two-spellings"),
        pytest.param("1 200 € par mois", "14 400 € par an", True, id="monthly-yearly"),
        pytest.param("USD 4,950 per month", "$59,400 per year", True, id="dollars-word-symbol"),
        pytest.param("30 juin 2027", "2027-06-30", True, id="date-french-iso"),
        pytest.param("June 30, 2027", "30/06/2027", True, id="date-english-slashes"),
        pytest.param("2 TB", "2000 GB", True, id="data-units"),
        pytest.param("corrigée en 3.4.2", "fixed in 3.4.2", True, id="status-both-languages"),
        pytest.param("aucun correctif", "no fix available", True, id="unfixed-both-languages"),
        pytest.param("Apache License 2.0", "Apache-2.0", True, id="licence-spellings"),
        pytest.param("340 ms", "120 ms", False, id="two-latencies"),
        pytest.param("corrigée en 3.4.2", "corrigée en 3.4.1", False, id="two-fix-versions"),
        pytest.param("38 000 € par an", "38 000 $ par an", False, id="two-currencies"),
    ],
)
def test_values_compare_by_meaning(a: str, b: str, same: bool) -> None:
    assert same_value(a, b) is same


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        pytest.param("latence p99", "p99 latency", True, id="word-order-and-language"),
        pytest.param("latence au 99e centile", "99th-percentile latency", True, id="percentiles"),
        pytest.param("temps de réponse p99", "latence p99", True, id="synonym"),
        pytest.param("latence p95", "latence p99", False, id="other-percentile"),
        pytest.param("prix", "coût", True, id="price-synonyms"),
        pytest.param("prix option API", "prix abonnement", False, id="two-fees"),
        pytest.param("sustained throughput", "throughput sustained", True, id="content-words"),
    ],
)
def test_attributes_match_by_concept_or_words(a: str, b: str, same: bool) -> None:
    value = "10 €/mois" if "prix" in a or "coût" in a else "12 ms"
    if "throughput" in a:
        value = "50 msg/s"
    assert (attribute_key(a, value) == attribute_key(b, value)) is same


def test_a_count_and_a_price_are_never_one_quantity() -> None:
    assert attribute_key("capacité", "12 GPU") != attribute_key("capacité", "12 €")


SOURCES = {
    "a": SourceInfo("a", None, SourceType.VENDOR_NOTE),
    "b": SourceInfo("b", None, SourceType.INTERNAL_BENCHMARK),
    "m": SourceInfo("m", None, SourceType.MEETING_MINUTES),
}


def test_a_document_quoting_two_sources_side_by_side_contradicts_no_one() -> None:
    statements = (
        S("K", "latence p99", "4 ms", "", "a"),
        S("K", "latence p99", "11.5 ms", "", "b"),
        S("K", "latence p99", "4 ms", "", "m"),
        S("K", "latence p99", "11.5 ms", "", "m"),
    )
    [found] = find_contradictions([Finding("t", statements)], SOURCES)
    assert found.retained is not None
    assert (found.retained.sources, [v.sources for v in found.rejected]) == (("b",), [("a",)])


def test_values_of_other_periods_or_a_target_are_not_compared() -> None:
    drafts = (
        Statement("Parc", "nombre de gpu", "6 GPU", "", (), "2026"),
        Statement("Parc", "nombre de gpu", "12 GPU", "", (), "2027"),
        Statement("K", "latence p99", "25 ms", "", (), "target"),
        S("K", "latence p99", "11.5 ms", "", "b"),
    )
    sources = S("", "", "", "", "b").sources
    statements = tuple(
        Statement(s.subject, s.attribute, s.value, s.text, sources, s.context) for s in drafts
    )
    assert find_contradictions([Finding("t", statements)], SOURCES) == ()
    assert len({group_key(s.subject, s.attribute, s.value, s.context) for s in statements}) == 4


def reads(text: str, products: list[str], catalogue: tuple[CatalogueEntry, ...] = ()) -> set[
    tuple[str, str, str]
]:  # fmt: skip
    document = {"id": "x", "title": "Note", "text": text}
    found, _ = document_reads(
        document, products, default_lexicon(), "en", Locale.EN, catalogue=catalogue
    )
    return {(r.subject, r.attribute, r.value) for r in found}


def test_a_markdown_table_gives_one_statement_per_cell_with_the_header_unit() -> None:
    text = "| Product | Latency p99 (ms) |\n|---|---|\n| Alpha | 12 |\n| Beta | 9.5 |\n"
    assert reads(text, ["Alpha", "Beta"]) == {
        ("Alpha", "latency p99", "12 ms"),
        ("Beta", "latency p99", "9.5 ms"),
    }


def test_an_aligned_text_table_is_read_too() -> None:
    text = (
        "Results.\n\n"
        "  Candidate   Sustained msg/s   Latency p99\n"
        "  Alpha       47,300            11.5 ms\n"
        "  Beta        52,000            8.7 ms\n"
    )
    assert ("Alpha", "latency p99", "11.5 ms") in reads(text, ["Alpha", "Beta"])
    assert ("Beta", "sustained", "52,000 msg/s") in reads(text, ["Alpha", "Beta"])


CATALOGUE = (
    CatalogueEntry("x", "Minutes", "2026-08-01", "meeting minutes"),
    CatalogueEntry("doc-02", "Alpha product sheet", "2026-02-03", "vendor note"),
    CatalogueEntry("doc-06", "Lab results", "2026-07-09", "internal benchmark"),
)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("According to the data sheet of February, Alpha answers in 4 ms.", id="type"),
        pytest.param("As reported in doc-02, Alpha answers in 4 ms.", id="doc-id"),
    ],
)
def test_a_value_reported_from_an_identified_document_is_left_to_it(text: str) -> None:
    assert reads(text, ["Alpha"], CATALOGUE) == set()


def test_a_value_reported_from_an_unknown_source_keeps_its_own_context() -> None:
    document = {
        "id": "x",
        "title": "Minutes",
        "text": "According to a blog, Alpha answers in 4 ms.",
    }
    found, _ = document_reads(
        document, ["Alpha"], default_lexicon(), "en", Locale.EN, catalogue=CATALOGUE
    )
    assert [(r.value, r.context) for r in found] == [("4 ms", ("reported blog",))]


def test_the_lexicon_is_data_a_user_extends(tmp_path: Path) -> None:
    extra = tmp_path / "mine.toml"
    extra.write_text(
        '[[concepts]]\nid = "accuracy"\nlabel = { en = "accuracy" }\n'
        'terms = ["positioning error", "accuracy"]\n\n'
        '[source_types]\n"rumour" = { rank = 0, aliases = ["gossip"] }\n',
        encoding="utf-8",
    )
    lexicon = load_lexicon([extra])
    assert lexicon.concept("accuracy") is not None
    assert lexicon.concept("latency") is not None  # the bundled ones stay
    assert lexicon.source_aliases["gossip"] == "rumour"
    assert default_lexicon().concept("accuracy") is None


def test_a_malformed_lexicon_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[[concepts]]\nlabel = 3\n", encoding="utf-8")
    with pytest.raises(InputError, match="concepts"):
        load_lexicon([bad])


def _dossier(root: Path, question: str, source_type: str, ranks: str | None = None) -> Path:
    (root / "documents").mkdir(parents=True)
    (root / "question.md").write_text(question, encoding="utf-8")
    header = f"---\nid: d-1\ntitle: T\ndate: 2026-01-01\nsource_type: {source_type}\n---\n\nx\n"
    (root / "documents" / "d-1.md").write_text(header, encoding="utf-8")
    if ranks is not None:
        (root / "ranks.toml").write_text(ranks, encoding="utf-8")
    return root


def test_a_dossier_ships_its_own_rank_table(tmp_path: Path) -> None:
    folder = _dossier(tmp_path / "a", "Q ?", "rumour", '[ranks]\n"rumour" = 0\n"audit" = 3\n')
    dossier = load_dossier(folder)
    assert dossier.documents[0].source_type == "rumour"
    assert dossier.source_infos()["d-1"].rank == 0


def test_a_rank_section_of_the_question_replaces_the_table(tmp_path: Path) -> None:
    question = "Which one?\n\n## Source ranks\n- lab report: 3\n- blog = 0\n"
    dossier = load_dossier(_dossier(tmp_path / "b", question, "Lab report"))
    assert dossier.question == "Which one?"
    assert dossier.source_infos()["d-1"].rank == 3
    assert split_rank_section(question)[1] == [(4, "- lab report: 3"), (5, "- blog = 0")]


def test_an_unknown_type_is_refused_with_how_to_declare_it(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"d-1\.md:5: unknown source_type 'rumour'.*ranks\.toml"):
        load_dossier(_dossier(tmp_path / "c", "Q ?", "rumour"))


def test_french_seed_type_names_are_aliases(tmp_path: Path) -> None:
    dossier = load_dossier(_dossier(tmp_path / "d", "Q ?", "benchmark-interne"))
    assert dossier.source_infos()["d-1"].source_type is SourceType.INTERNAL_BENCHMARK
    assert dossier.source_infos()["d-1"].rank == 3


def test_computations_cite_their_inputs_and_never_sum_a_stock() -> None:
    statements = (
        Statement("Parc", "nombre de gpu", "6 GPU", "", S("", "", "", "", "p").sources, "2026"),
        Statement("Parc", "nombre de gpu", "12 GPU", "", S("", "", "", "", "p").sources, "2027"),
        S("Location", "prix", "2 300 € HT par GPU et par mois", "", "q"),
    )
    computed = {c.label: c for c in compute_values([Finding("t", statements)], ())}
    total = computed["coût annuel de 12 GPU en 2027"]
    assert (total.value, total.sources) == (Decimal(331200), ("p", "q"))
    assert total.formula == "12 GPU x 2 300 € HT par GPU et par mois x 12 mois"
    growth = computed["Parc, GPU : croissance 2026-2027"]
    assert (growth.value, growth.unit) == (Decimal("100.00"), "%")
    assert Decimal(18) not in {c.value for c in computed.values()}


def test_a_flow_is_summed_over_years_and_a_contradiction_has_its_gap() -> None:
    src = S("", "", "", "", "a").sources
    statements = (
        Statement("K", "coût", "38 000 € par an", "", src, "2026"),
        Statement("K", "coût", "40 000 € par an", "", src, "2027"),
    )
    computed = {c.label: c for c in compute_values([Finding("t", statements)], ())}
    total = computed["K, coût : total 2026-2027"]
    assert (total.value, total.unit) == (Decimal(78000), "€")
    assert total.formula == "38 000 € (2026) + 40 000 € (2027)"


def test_the_gap_between_retained_and_rejected_values() -> None:
    findings = [
        Finding(
            "t",
            (S("K", "latence p95", "120 ms", "", "a"), S("K", "latence p95", "340 ms", "", "b")),
        )
    ]
    found = find_contradictions(findings, SOURCES)
    computed = {c.label: c.value for c in compute_values(findings, found)}
    assert computed["K, latence p95 : écart retenu - rejeté"] == Decimal(220)
    assert computed["K, latence p95 : rapport retenu / rejeté"] == Decimal("2.83")


# (the default lexicon knows accuracy and error as one measurement kind: the synonym taught
# here is one it does not know)
ACCURACY = (
    '[[concepts]]\nid = "repair_time"\nlabel = { en = "time to repair" }\n'
    'terms = ["time to repair", "mttr"]\n'
)


def _accuracy_dossier(root: Path, extension: str | None) -> Path:
    (root / "documents").mkdir(parents=True)
    (root / "question.md").write_text("Which tracker, Alpha or Beta?\n", encoding="utf-8")
    bodies = {
        "d-1": ("vendor note", "2026-02-01", "Alpha has a time to repair of 2.5 h."),
        "d-2": ("internal benchmark", "2026-06-01", "Alpha: MTTR of 6.8 h in our test."),
        "d-3": ("vendor note", "2026-02-01", "Beta has a time to repair of 3 h."),
    }
    for doc_id, (kind, day, body) in bodies.items():
        header = f"---\nid: {doc_id}\ntitle: Note {doc_id}\ndate: {day}\nsource_type: {kind}\n---\n"
        (root / "documents" / f"{doc_id}.md").write_text(f"{header}\n{body}\n", encoding="utf-8")
    if extension is not None:
        (root / "lexicon.toml").write_text(extension, encoding="utf-8")
    return root


@pytest.mark.parametrize(("extension", "found"), [(None, 0), (ACCURACY, 1)], ids=["bare", "ext"])
def test_a_dossier_s_lexicon_teaches_the_engine_a_synonym(
    tmp_path: Path, extension: str | None, found: int
) -> None:
    dossier = load_dossier(_accuracy_dossier(tmp_path / "t", extension))
    run = synthesize(dossier, synthesis_rules_model())
    assert run.status is LoopStatus.VALID
    assert len(run.contradictions) == found
    if found:
        [c] = run.contradictions
        assert (c.subject, c.rule, c.retained and c.retained.value) == ("Alpha", 1, "6.8 h")


def _numbered_question_dossier(root: Path) -> Path:
    """A committee question carrying numbers of its own (a fleet size, a standard's version)
    and two latencies that disagree, so that code computes a negative gap."""
    (root / "documents").mkdir(parents=True)
    question = (
        "Which picking robot for our 24 robots site, Alpha or Beta? Cover: 1. order latency "
        "as measured by us; 2. support of the EDIFACT 2023011 standard.\n"
    )
    (root / "question.md").write_text(question, encoding="utf-8")
    bodies = {
        "d-1": ("vendor note", "2026-02-01", "Alpha has an order latency of 1.1 s."),
        "d-2": ("internal benchmark", "2026-06-01", "Alpha: order latency of 0.41 s measured."),
        "d-3": ("vendor note", "2026-02-01", "Beta has an order latency of 0.9 s."),
    }
    for doc_id, (kind, day, body) in bodies.items():
        header = f"---\nid: {doc_id}\ntitle: Note {doc_id}\ndate: {day}\nsource_type: {kind}\n---\n"
        (root / "documents" / f"{doc_id}.md").write_text(f"{header}\n{body}\n", encoding="utf-8")
    return root


def test_the_rules_synthesis_of_a_question_with_numbers_passes_the_number_check(
    tmp_path: Path,
) -> None:
    """Found on a blind dossier: the rules synthesizer wrote its sub-tasks' questions as lead-ins
    ("24 robots", "SCRIPT 2023011": numbers no finding holds) and lost the sign of a negative
    computed gap ("0,69" for -0.69): the number check refused its own engine's synthesis twice."""
    run = synthesize(
        load_dossier(_numbered_question_dossier(tmp_path / "q")), synthesis_rules_model()
    )
    assert run.status is LoopStatus.VALID, run.defects
    assert run.synthesis is not None
    text = " ".join(p.text for p in run.synthesis.paragraphs)
    assert "24" not in text and "2023011" not in text
    gap = {c.label: c.value for c in run.synthesis.numbers}
    assert Decimal("-0.69") in gap.values(), gap
    assert "-0,69 s" in text
