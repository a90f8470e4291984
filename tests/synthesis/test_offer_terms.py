"""An offer's own terms are not claims about what it offers: each quote's validity period
belongs to that quote, so two quotes giving their validity never contradict each other."""

from __future__ import annotations

from datetime import date

from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.types import Finding, Statement

S = Statement.of
QUOTES = {
    "q-1": SourceInfo("q-1", date(2025, 9, 1), SourceType.QUOTE_ESTIMATE),
    "q-2": SourceInfo("q-2", date(2025, 11, 3), SourceType.QUOTE_ESTIMATE),
}


def test_two_quotes_valid_for_different_periods_are_no_contradiction() -> None:
    first = S("County Hospital", "valid", "30 days", "Offer valid for 30 days from issue.", "q-1")
    second = S("County Hospital", "valid", "45 days", "This offer is valid 45 days.", "q-2")
    assert find_contradictions([Finding("terms", (first, second))], QUOTES) == ()


def test_a_french_validity_term_is_no_contradiction_either() -> None:
    first = S("Pompe P-12", "validité de l'offre", "2 mois", "Validité de l'offre : 2 mois", "q-1")
    second = S("Pompe P-12", "validité de l'offre", "60 jours", "Offre valable 60 jours", "q-2")
    assert find_contradictions([Finding("terms", (first, second))], QUOTES) == ()


def test_a_validity_that_ends_on_a_date_is_still_compared() -> None:
    """A certificate's or a licence's end date is a claim about it (a date, not a term)."""
    first = S("Pompe P-12", "certificate valid until", "31 March 2027", "", "q-1")
    second = S("Pompe P-12", "certificate valid until", "30 June 2026", "", "q-2")
    [found] = find_contradictions([Finding("cert", (first, second))], QUOTES)
    assert found.retained is not None and found.retained.value == "30 June 2026"
