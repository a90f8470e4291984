"""A ratio's name is no claim about its change: "Ratio de liquidité réduite" rising from
0,98x to 0,99x was refused as "réduite" said a fall (a rules memo seen REFUSED on a
held-out report, s25). A direction word outside the name is still checked. Made-up
company and figures."""

from __future__ import annotations

from decimal import Decimal

import pytest

from preuve.core.claims import WRONG_DIRECTION
from preuve.core.memocheck import Paragraph, check_memo
from preuve.core.numbers import Locale
from preuve.memo.ratio_facts import Ratio, RatioValue

QUICK = Ratio(
    "R-orme-liquidite-reduite",
    "ORME INDUSTRIES",
    "Ratio de liquidité réduite",
    "(actif courant - stocks) / passif courant",
    "x",
    2,
    (
        RatioValue(2025, Decimal("0.99"), Decimal(99), Decimal(100)),
        RatioValue(2024, Decimal("0.98"), Decimal(98), Decimal(100)),
    ),
).to_fact()

CASES: dict[str, tuple[str, list[str]]] = {
    "the name written out, values rising": (
        "ORME INDUSTRIES : ratio de liquidité réduite de 0,99x en 2025, contre 0,98x en 2024.",
        [],
    ),
    "as the rules writer writes it": (
        "ORME INDUSTRIES : ratios calculés à partir des états financiers. Ratio de liquidité"
        " réduite ((actif courant - stocks) / passif courant) : 0,99x en 2025, contre 0,98x"
        " en 2024.",
        [],
    ),
    "a fall word outside the name is still checked": (
        "ORME INDUSTRIES : le ratio de liquidité réduite baisse à 0,99x en 2025, contre 0,98x"
        " en 2024.",
        [WRONG_DIRECTION],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_metric_name_states_no_direction(case: str) -> None:
    text, codes = CASES[case]
    defects = check_memo(
        [Paragraph(text, (QUICK.id,))], [QUICK], locale=Locale.FR, years=(2024, 2025)
    )
    assert [d.code for d in defects] == codes, defects
