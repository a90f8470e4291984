"""Subjects found by declared aliases: legal forms, short names, accents, never a list."""

from __future__ import annotations

import pytest

from preuve.core.claim_lexicon import DEFAULT_LEXICON
from preuve.core.subjects import SubjectIndex, subject_key

INDEX = SubjectIndex.of(["Maison Ferlac SAS", "Solvéa Énergies SA", "Acme Holdings plc"])

CASES = [
    ("full-name", "Maison Ferlac SAS publie", [("Maison Ferlac SAS", "maison ferlac")]),
    ("no-legal-form", "Maison Ferlac publie", [("Maison Ferlac", "maison ferlac")]),
    ("short-name", "Chez Ferlac, le levier", [("Ferlac", "maison ferlac")]),
    ("accents-dropped", "Solvea Energies publie", [("Solvea Energies", "solvea energies")]),
    ("dotted-legal-form", "Solvéa Énergies S.A. publie",
     [("Solvéa Énergies S.A.", "solvea energies")]),
    ("possessive", "Acme's leverage", [("Acme", "acme holdings")]),
    ("lower-case-word-is-not-a-name", "une acme de la crise", []),
    ("unknown-with-legal-form", "Delmar Industries GmbH reports",
     [("Delmar Industries GmbH", "delmar industries")]),
    ("generic-only-is-not-a-name", "The Corporation reports", []),
    ("short-word-before-lower-form", "Comme sa filiale", []),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_mentions(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(text[m.start : m.end], m.key) for m in INDEX.mentions(text)] == expected


def test_a_shared_short_name_names_neither() -> None:
    index = SubjectIndex.of(["Ferlac Industrie SA", "Maison Ferlac SAS"])
    assert [m.key for m in index.mentions("Ferlac publie")] == []
    assert [m.key for m in index.mentions("Maison Ferlac publie")] == ["maison ferlac"]


def test_declared_aliases() -> None:
    lexicon = DEFAULT_LEXICON.extended({"aliases": {"Maison Ferlac SAS": ["MFS"]}})
    index = SubjectIndex.of(["Maison Ferlac SAS"], lexicon)
    assert [m.name for m in index.mentions("MFS publie")] == ["Maison Ferlac SAS"]


def test_quoted_passages_are_skipped() -> None:
    text = "Ferlac cite « Delmar Industries SA »"
    assert [m.key for m in INDEX.mentions(text, skip=[(12, len(text))])] == ["maison ferlac"]


def test_subject_key_drops_legal_forms_only_at_the_end() -> None:
    assert subject_key("SA Rocher SA") == "sa rocher"
    assert subject_key("Brill GmbH & Co. KG") == "brill"
