"""A state negated by the grammar ("no fixed ...") is shown with the rest of its clause, as
written, and keeps its meaning; a state phrase of the lexicon ("aucune version corrigée") is
shown alone (sentences of domains no dossier here is about: a PLC, a badge reader)."""

from __future__ import annotations

import pytest

from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.matcher import same_value, value_key
from preuve.synthesis.reader_states import status_of

LEX = default_lexicon()


@pytest.mark.parametrize(
    ("sentence", "shown", "state"),
    [
        pytest.param(
            "State: no fixed PLC image is available yet; use the workaround.",
            "no fixed PLC image is available yet",
            "unfixed",
            id="en-negated-with-its-clause",
        ),
        pytest.param(
            "Le lecteur de badges : aucun firmware corrigé n'est disponible, contournement seul.",
            "aucun firmware corrigé n'est disponible",
            "unfixed",
            id="fr-negated-with-its-clause",
        ),
        pytest.param(
            "Aucune version corrigée n'est disponible à ce jour, seul un contournement existe.",
            "Aucune version corrigée",
            "unfixed",
            id="a-state-phrase-of-the-lexicon-is-shown-alone",
        ),
        pytest.param(
            "The badge reader flaw is fixed in 2.4.1.", "fixed in 2.4.1", "fixed", id="not-negated"
        ),
    ],
)
def test_a_negated_state_is_shown_with_its_clause(sentence: str, shown: str, state: str) -> None:
    value = status_of(sentence, LEX, "en", LEX.advisory_states)
    assert value is not None
    assert value.display == shown
    assert value_key(value.display, LEX)[:2] == ("status", state)


def test_the_shown_clause_agrees_with_the_bare_negation() -> None:
    assert same_value("no fixed PLC image is available yet", "no fixed", LEX)
    assert not same_value("no fixed PLC image is available", "fixed in 2.4.1", LEX)
