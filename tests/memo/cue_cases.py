"""The two tests every file of widened risk cues runs on its own sentences: each signal
sentence is classified in its category, each look-alike sentence in none."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from preuve.memo.cues import classify_sentence

__all__ = ["cue_case_tests"]


def cue_case_tests(
    signals: Mapping[str, tuple[str, str]], not_signals: Mapping[str, str]
) -> tuple[Callable[[str, str], None], Callable[[str], None]]:
    """The pair of parametrized tests over ``signals`` (id -> sentence, category) and
    ``not_signals`` (id -> sentence), for a test module to bind to its own names."""

    @pytest.mark.parametrize(("sentence", "category"), signals.values(), ids=signals.keys())
    def test_widened_cues_name_the_risk(sentence: str, category: str) -> None:
        found = classify_sentence(sentence)
        assert found is not None and found[0] == category

    @pytest.mark.parametrize("sentence", not_signals.values(), ids=not_signals.keys())
    def test_the_same_words_without_the_risk_are_no_signal(sentence: str) -> None:
        assert classify_sentence(sentence) is None

    return test_widened_cues_name_the_risk, test_the_same_words_without_the_risk_are_no_signal
