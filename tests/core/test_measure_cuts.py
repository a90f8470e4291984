"""A quote edge inside a number's unit or scale, inside a range, or across table rules that
keep two cells apart drops what gives the number its meaning (made-up pages, s29)."""

from __future__ import annotations

import pytest

from preuve.core.quotes import Verdict, verify_quote
from preuve.core.tokens import cell_join

PAGE = (
    "Les stocks de grain se situent entre 4–6 semaines de consommation. Le fret maritime\n"
    "coûtera de 2,5 à 3 M€ de plus en 2026. La prime de risque s'est élargie de 35 pb et la\n"
    "créance douteuse atteint 0,8 milliard d'euros. The buffer covers 8 to 12 weeks of\n"
    "output, while the overdraft reached $2.1 billion; margin fell to 7% in the spring.\n"
    "Le solde de change s'établit à −4,3 M€ sur l'exercice."
)

CUT = {
    "range low bound": ("Les stocks de grain se situent entre 4", "4–6"),
    "range high bound": ("6 semaines de consommation", "4–6"),
    "de ... à, low bound": ("Le fret maritime coûtera de 2,5", "2,5 à 3 M€"),
    "bare to, low bound": ("The buffer covers 8", "8 to 12"),
    "unit pb dropped": ("La prime de risque s'est élargie de 35", "35 pb"),
    "scale word dropped": ("la créance douteuse atteint 0,8", "0,8 milliard"),
    "English scale dropped": ("while the overdraft reached $2.1", "$2.1 billion"),
    "percent dropped": ("margin fell to 7", "7%"),
    "sign dropped": ("4,3 M€ sur l'exercice", "4,3"),
}


@pytest.mark.parametrize("case", CUT)
def test_a_quote_inside_a_measure_is_refused(case: str) -> None:
    quote, token = CUT[case]
    result = verify_quote([PAGE], 1, quote)
    assert result.verdict is Verdict.CUTS_TOKEN, result.reason
    assert token.lower() in result.reason.lower()


WHOLE = (
    "Les stocks de grain se situent entre 4–6 semaines de consommation.",
    "Le fret maritime coûtera de 2,5 à 3 M€ de plus en 2026.",
    "The buffer covers 8 to 12 weeks of output",
    "la créance douteuse atteint 0,8 milliard d'euros",
    "Le solde de change s'établit à −4,3 M€ sur l'exercice.",
)


@pytest.mark.parametrize("quote", WHOLE)
def test_a_whole_measure_is_verified(quote: str) -> None:
    assert verify_quote([PAGE], 1, quote).verified


TABLE = "Poste | Note | 2025 | 2024\nCharges de maintenance | 9 | 310 | 295\nLoyers | | 640 | 655"


def test_a_quote_that_glues_two_cells_into_one_number_is_refused() -> None:
    glued = verify_quote([TABLE], 1, "Charges de maintenance 9 310")
    assert glued.verdict is Verdict.CUTS_TOKEN  # inside "9 310 295" as the rules vanish
    columns = verify_quote([TABLE], 1, "Loyers 640 655")
    assert columns.verdict is Verdict.CUTS_TOKEN
    assert "table cells" in columns.reason


def test_a_row_copied_with_its_rules_is_verified() -> None:
    assert verify_quote([TABLE], 1, "Charges de maintenance | 9 | 310 | 295").verified


def test_cell_join() -> None:
    assert cell_join("Loyers | | 640 | 655") is not None
    assert cell_join("Loyers | 640 € | 2025") is None
    assert cell_join("Loyers 640 655") is None
