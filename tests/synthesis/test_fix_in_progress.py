"""A fix being worked on is no fix yet: "the team is working on a corrected build" states no
fixed state of the advisory (the bulletin's "no patched version" is its state)."""

from __future__ import annotations

import pytest

from preuve.core.numbers import Locale
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.reader import document_reads

LEX = default_lexicon()


@pytest.mark.parametrize(
    ("lang", "locale", "text"),
    [
        (
            "en",
            Locale.EN,
            "# Advisory HGA-2027-02: Hydra Gate admin port\n\n"
            "Hydra Gate 3 exposes its admin port without a password. No patched version "
            "is available today. Our team is working on a corrected build and will "
            "revise this notice.\n",
        ),
        (
            "fr",
            Locale.FR,
            "# Avis HGA-2027-02 : port d'administration de Hydra Gate\n\n"
            "Hydra Gate 3 expose son port d'administration sans mot de passe. Aucune version "
            "corrigée n'est disponible à ce jour. L'équipe travaille sur une version corrigée "
            "et mettra à jour cet avis.\n",
        ),
    ],
)
def test_a_fix_being_worked_on_is_not_a_fixed_state(lang: str, locale: Locale, text: str) -> None:
    document = {"id": "doc-40", "title": text.splitlines()[0].lstrip("# "), "text": text}
    reads, _ = document_reads(document, ("Hydra Gate",), LEX, lang, locale)
    states = [r for r in reads if r.attribute == "HGA-2027-02"]
    assert states, reads
    assert all(r.value_key[:2] != ("status", "fixed") for r in states), states
