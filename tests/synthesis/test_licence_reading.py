"""Licences as documents write them, on sentences of domains no dossier here is about
(a mapping engine, a ledger, a telemetry agent): a licence the document names itself
("the Orla Fair Use Licence (OFUL) 1.0"), a known licence stated without the word licence
("Mapforge is AGPLv3"), a name of the lexicon preferred to a capitalized phrase ("the MIT
License"), and the licence of a version branch kept for that branch."""

from __future__ import annotations

import pytest

from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.matcher import same_value
from preuve.synthesis.reader import licence_values
from preuve.synthesis.statements import with_branch

LEX = default_lexicon()


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param(
            "From release 4.0, Mapforge ships under a new licence: the Mapforge Fair Use"
            " Licence (MFUL) 1.0.",
            [("MFUL 1.0", ("licence", "mful 1.0"))],
            id="declared-name-with-acronym-and-version",
        ),
        pytest.param(
            "Le registre est publié sous la Ledgra Community License.",
            [("Ledgra Community License", ("licence", "ledgra community license"))],
            id="declared-name-without-acronym",
        ),
        pytest.param(
            "Mapforge is AGPLv3.", [("AGPLv3", ("licence", "agpl-3.0"))], id="copula-known-name"
        ),
        pytest.param(
            "Le collecteur reste sous BSD.", [("BSD", ("licence", "bsd"))], id="reste-sous"
        ),
        pytest.param(
            "Released under the MIT License.", [("MIT", ("licence", "mit"))], id="lexicon-first"
        ),
        pytest.param(
            "La licence BSD-2-Clause couvre le collecteur.",
            [("BSD-2-Clause", ("licence", "bsd-2-clause"))],
            id="the-longest-name-at-equal-distance",
        ),
        pytest.param(
            "Article Licence « Fleet Pack » 5 ans : 14 200 €.", [], id="a-label-is-no-name"
        ),
        pytest.param(
            "Mapforge : licence MFL (Mapforge Fair License) depuis mai.",
            [("MFL", ("licence", "mfl"))],
            id="an-expansion-in-parentheses-is-the-acronym-s",
        ),
        pytest.param("The GNU GPL v3 no longer applies to Mapforge.", [], id="no-longer"),
        pytest.param("Mapforge needs a licence per seat.", [], id="a-requirement"),
    ],
)
def test_licence_values(sentence: str, expected: list[tuple[str, tuple[str, str]]]) -> None:
    assert [(v.display, v.key) for v in licence_values(sentence, LEX)] == expected


def test_a_written_licence_agrees_with_its_canonical_name() -> None:
    assert same_value("AGPLv3", "AGPL-3.0", LEX)
    assert not same_value("MFUL 1.0", "AGPLv3", LEX)


@pytest.mark.parametrize(
    ("sentence", "subject"),
    [
        pytest.param("The 3.x branch remains under AGPLv3.", "Mapforge 3.x", id="branch"),
        pytest.param("Mapforge is AGPLv3.", "Mapforge", id="no-branch"),
    ],
)
def test_a_branch_s_licence_is_that_branch_s(sentence: str, subject: str) -> None:
    assert with_branch("Mapforge", sentence) == subject


def test_a_licence_without_its_version_agrees_with_it() -> None:
    assert same_value("MFUL", "MFUL 1.0", LEX)
    assert not same_value("MFUL 1.0", "MFUL 2.0", LEX)


def test_a_licence_name_after_under_the_is_the_product_s_licence() -> None:
    """ "open source under the GPL v3": the article between the copula and the name keeps
    it the current licence, read once by its longest name."""
    found = licence_values("Tavel Core is free software under the GPL v3, at no cost.", LEX)
    assert [(v.display, v.key) for v in found] == [("GPL v3", ("licence", "gpl-3.0"))]
