"""Grading a synthesis with the bundled grid: the reference's 80.8, 100, and penalties."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from preuve.core.errors import InputError
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier, grid_data
from preuve.eval.grid import Grid, ScoreEntry, grade, grid_from_dict, load_grid
from preuve.io.records import dump_record
from preuve.synthesis.types import Paragraph, Synthesis
from tests.synthesis import reference


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Grid:
    info = generate_synthesis_dossier(tmp_path_factory.mktemp("grid"))
    return load_grid(info.grid)


def test_reference_misses_score_80_8(grid: Grid) -> None:
    score = grade(grid, reference.reference_synthesis())
    assert (len(score.facts_found), score.facts_missed) == (11, ("F09",))
    assert score.contradictions_right == ("C1", "C2")
    assert score.contradictions_missed == ("C3", "C4")
    assert (score.citations_valid, score.citations_total) == (25, 25)
    assert score.off_topic_cited == ()
    assert score.facts_points == pytest.approx(50 * 11 / 12)
    assert score.contradictions_points == pytest.approx(15)
    assert score.citations_points == pytest.approx(20)
    assert score.total == pytest.approx(80.8333, abs=1e-4)
    assert score.rounded == 80.8
    assert score.lines()[0] == "score: 80.8/100"


def test_good_synthesis_scores_100(grid: Grid) -> None:
    score = grade(grid, reference.good_synthesis())
    assert score.facts_missed == ()
    assert score.contradictions_missed == ()
    assert score.citations_valid == score.citations_total == 22
    assert score.rounded == 100.0
    assert dump_record(ScoreEntry.of(score))["total"] == 100.0


def test_an_off_topic_citation_costs_5(grid: Grid) -> None:
    good = reference.good_synthesis()
    noisy = replace(good, paragraphs=(*good.paragraphs, Paragraph("Cafétéria.", ("doc-27",))))
    score = grade(grid, noisy)
    assert score.off_topic_cited == ("doc-27",)
    assert score.penalty == 5
    assert score.rounded == 95.0  # the citation is valid: only the penalty applies
    twice = replace(noisy, paragraphs=(*noisy.paragraphs, Paragraph("Encore.", ("doc-27",))))
    assert grade(grid, twice).penalty == 5  # per document, not per citation


def test_an_unknown_citation_lowers_the_share(grid: Grid) -> None:
    good = reference.good_synthesis()
    bad = replace(good, paragraphs=(*good.paragraphs, Paragraph("Voir doc-77.", ("doc-77",))))
    score = grade(grid, bad)
    assert (score.citations_valid, score.citations_total) == (22, 23)
    assert score.rounded == round(80 + 20 * 22 / 23, 1)


def test_a_swapped_contradiction_does_not_count(grid: Grid) -> None:
    good = reference.good_synthesis()
    c2 = reference.C2
    assert c2.retained is not None
    swapped = replace(c2, retained=c2.rejected[0], rejected=(c2.retained,))
    score = grade(grid, replace(good, contradictions=(*good.contradictions, swapped)))
    assert "C2" in score.contradictions_missed
    assert score.contradictions_points == pytest.approx(30 * 3 / 4)


def test_an_unresolved_listing_is_not_a_right_direction(grid: Grid) -> None:
    c4 = replace(reference.C4, retained=None, rule=None, rejected=reference.C4.values)
    synthesis = Synthesis(reference.good_synthesis().paragraphs, (c4,))
    assert grade(grid, synthesis).contradictions_right == ()


def test_facts_are_matched_across_spaces_and_case(grid: Grid) -> None:
    text = "Kestrel : 340\u202fMS, 1\u00a0900 TOK/S ; parc de 6 GPU en 2026."
    synthesis = Synthesis((Paragraph(text, ("doc-06",)),), ())
    assert grade(grid, synthesis).facts_found == ("F01", "F02", "F10")


def test_a_sum_of_fleets_does_not_state_either_year(grid: Grid) -> None:
    synthesis = Synthesis((Paragraph("Il faudra 18 GPU en 2027.", ("doc-09",)),), ())
    assert grade(grid, synthesis).facts_found == ()


def test_empty_synthesis_scores_zero(grid: Grid) -> None:
    score = grade(grid, Synthesis((), ()))
    assert (score.total, score.citations_total) == (0.0, 0)


def test_score_never_goes_below_zero(grid: Grid) -> None:
    noise = tuple(Paragraph("bruit", (doc_id,)) for doc_id in sorted(grid.off_topic))
    assert grade(grid, Synthesis(noise, ())).total == 0.0


def mutated(change: str) -> dict[str, Any]:
    data = grid_data()
    if change == "bad-regex":
        data["facts"][0]["pattern"] = "(unclosed"
    elif change == "no-facts":
        data["facts"] = []
    elif change == "no-retained":
        del data["contradictions"][0]["retained"]
    elif change == "bad-points":
        data["points"]["facts"] = -1
    elif change == "bad-off-topic":
        data["off_topic"] = "doc-24"
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("bad-regex", "not a valid regex"),
        ("no-facts", "'facts' must be a non-empty list"),
        ("no-retained", "needs 'retained' and 'rejected'"),
        ("bad-points", "'points'"),
        ("bad-off-topic", "'off_topic' must be a list"),
    ],
    ids=["bad-regex", "no-facts", "no-retained", "bad-points", "bad-off-topic"],
)
def test_malformed_grid(change: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        grid_from_dict(mutated(change), "grid.json")


def test_grid_file_errors(tmp_path: Path) -> None:
    path = tmp_path / "grid.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match=r"grid\.json:1:2: invalid JSON"):
        load_grid(path)
    path.write_text(json.dumps([1, 2]), encoding="utf-8")
    with pytest.raises(InputError, match="a grid is a JSON object"):
        load_grid(path)
    with pytest.raises(InputError, match=r"absent\.json: no such file"):
        load_grid(tmp_path / "absent.json")


def test_points_come_from_the_grid_file() -> None:
    data = grid_data()
    data["points"] = {"facts": 60, "contradictions": 20, "citations": 20, "off_topic_penalty": 10}
    score = grade(grid_from_dict(data), reference.reference_synthesis())
    assert score.total == pytest.approx(60 * 11 / 12 + 10 + 20)
