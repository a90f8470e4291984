"""A percentage keeps its base: a margin (a share of revenue) is no growth of the metric,
and a value is not said of another metric its fact names (made-up facts, s30)."""

from __future__ import annotations

import pytest

from preuve.core.claim_base import WRONG_BASE
from preuve.core.claim_state import WRONG_METRIC
from preuve.core.facts import parse_facts
from preuve.core.memocheck import Paragraph, check_memo
from preuve.core.numbers import Locale

FACTS = parse_facts(
    "[R-tarn-1] Tarnelle SA - Marge opérationnelle 2025 : 7,3 % (2024 : 6,8 %) ; "
    "formule : résultat opérationnel / chiffre d'affaires\n"
    "[A-tarn-2] Tarnelle SA - Chiffre d'affaires 2025 : 318,0 M€ ; croissance du chiffre "
    "d'affaires 2025 : 5,1 % ; marge opérationnelle 2025 : 7,3 %\n"
    "[R-holt-1] Holt Brothers Ltd - Gross margin 2025: 31.5% (2024: 29.0%); formula: gross "
    "profit / revenue\n"
    "[A-holt-2] Holt Brothers Ltd - Revenue 2025: £84.0m; revenue growth 2025: 4.6%; gross "
    "margin 2025: 31.5%\n"
)

# A share written as a change is the base check's: one defect, wrong_base.
BASE_REFUSED = {
    "une marge écrite en croissance": (
        "Le résultat opérationnel de Tarnelle progresse de 7,3 % en 2025.", "R-tarn-1", Locale.FR),
    "a margin written as growth": (
        "Holt's gross profit grew 31.5% in 2025.", "R-holt-1", Locale.EN),
    "a margin with no formula written as growth": (
        "Holt's gross profit grew 31.5% in 2025.", "A-holt-2", Locale.EN),
}  # fmt: skip


@pytest.mark.parametrize("case", BASE_REFUSED)
def test_a_share_written_as_a_change_is_refused_once(case: str) -> None:
    text, source, locale = BASE_REFUSED[case]
    defects = check_memo([Paragraph(text, (source,))], FACTS, locale=locale)
    assert [d.code for d in defects] == [WRONG_BASE]


REFUSED = {
    "une croissance écrite en marge": (
        "La marge opérationnelle de Tarnelle atteint 5,1 % en 2025.", "A-tarn-2", Locale.FR),
    "a growth written as a margin": (
        "Holt's gross margin reached 4.6% in 2025.", "A-holt-2", Locale.EN),
}  # fmt: skip


@pytest.mark.parametrize("case", REFUSED)
def test_a_value_said_of_another_base_is_refused(case: str) -> None:
    text, source, locale = REFUSED[case]
    defects = check_memo([Paragraph(text, (source,))], FACTS, locale=locale)
    assert [d.code for d in defects] == [WRONG_METRIC]


ACCEPTED = {
    "la marge au niveau": ("La marge opérationnelle de Tarnelle atteint 7,3 % en 2025.",
                           "R-tarn-1", Locale.FR),
    "la marge progresse à": ("La marge opérationnelle de Tarnelle progresse à 7,3 % en 2025.",
                             "R-tarn-1", Locale.FR),
    "la croissance": ("Le chiffre d'affaires de Tarnelle progresse de 5,1 % en 2025.",
                      "A-tarn-2", Locale.FR),
    "the margin level": ("Holt's gross margin was 31.5% in 2025.", "A-holt-2", Locale.EN),
    "revenue growth": ("Holt's revenue grew 4.6% in 2025.", "A-holt-2", Locale.EN),
    "the margin rose to": ("Holt's gross margin rose to 31.5% in 2025.", "R-holt-1", Locale.EN),
    "a metric named as the base": ("In 2025 Holt kept 31.5% of revenue as gross profit.",
                                   "A-holt-2", Locale.EN),
    "a metric named after the value": ("Holt kept 4.6% more, in revenue growth terms, in 2025.",
                                       "A-holt-2", Locale.EN),
}  # fmt: skip


@pytest.mark.parametrize("case", ACCEPTED)
def test_a_value_said_of_its_own_metric_is_accepted(case: str) -> None:
    text, source, locale = ACCEPTED[case]
    assert check_memo([Paragraph(text, (source,))], FACTS, locale=locale) == []
