"""A planted contradiction may have several losing values: the grid's ``rejected`` is then a
list of objects, and the contradiction counts as found in the right direction only when each
of them matches one of the values the synthesis drops (one ``rejected`` object still means
"one of the dropped values matches")."""

from __future__ import annotations

from typing import Any

import pytest

from preuve.core.errors import InputError
from preuve.eval.grid import grade, grid_from_dict
from preuve.synthesis.types import Contradiction, SourcedValue, Synthesis

GRID: dict[str, Any] = {
    "documents": ["doc-01", "doc-02", "doc-03"],
    "facts": [{"id": "F1", "pattern": "Lyre"}],
    "contradictions": [{
        "id": "C1", "subject_pattern": "lyre",
        "retained": {"pattern": "15 mars 2027"},
        "rejected": [{"pattern": "30 novembre 2026"}, {"pattern": "31 janvier 2027"}],
    }],
}  # fmt: skip


def _synthesis(*dropped: str) -> Synthesis:
    contradiction = Contradiction(
        subject="Lyre L-2",
        attribute="livraison",
        retained=SourcedValue("15 mars 2027", ("doc-03",)),
        rejected=tuple(SourcedValue(v, ("doc-01",)) for v in dropped),
        rule=3,
        reason="rule 3",
    )
    return Synthesis((), (contradiction,))


@pytest.mark.parametrize(
    ("dropped", "found"),
    [
        (("30 novembre 2026", "31 janvier 2027"), ("C1",)),
        (("30 novembre 2026",), ()),
        (("31 janvier 2027", "1er mars 2026"), ()),
    ],
    ids=["both-losers-named", "one-loser-missing", "other-loser-missing"],
)
def test_every_listed_loser_must_be_dropped(
    dropped: tuple[str, ...], found: tuple[str, ...]
) -> None:
    score = grade(grid_from_dict(GRID), _synthesis(*dropped))
    assert score.contradictions_right == found


def test_a_rejected_entry_that_is_no_object_is_refused() -> None:
    bad = {**GRID, "contradictions": [{**GRID["contradictions"][0], "rejected": ["x"]}]}
    with pytest.raises(InputError, match="one per losing value"):
        grid_from_dict(bad)
