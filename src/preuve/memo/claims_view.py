"""How a paragraph's claim checks are shown: one line under the paragraph, in French.

Each claim (a number as written, or a statement's first words) lists the dimensions its
sentence stated, with their status: ``✓`` checked and consistent, ``✗`` a defect, ``?``
not checked (counted, never shown as verified). Dimensions the sentence did not state
are left out. Example::

    Contrôles : 5,5 [sujet ✓, période ✓, sens ✓] · « Aucun contrat… » [polarité ?]
"""

from __future__ import annotations

from collections.abc import Sequence

from preuve.core.claims import DIMENSIONS, ClaimRecord

__all__ = ["DIMENSION_LABELS", "claims_line", "unchecked_share"]

DIMENSION_LABELS = {
    "subject": "sujet",
    "period": "période",
    "direction": "sens",
    "polarity": "polarité",
}
_MARKS = {"ok": "✓", "defect": "✗", "unchecked": "?"}


def _claim(record: ClaimRecord, english: bool = False) -> str | None:
    shown = [
        f"{d if english else DIMENSION_LABELS[d]} {_MARKS[record.status(d)]}"
        for d in DIMENSIONS
        if record.status(d) in _MARKS
    ]
    if not shown:
        return None
    name = (
        record.claim
        if record.claim[:1].isdigit() or record.claim[:1] in "-−("
        else (f"“{record.claim}”" if english else f"« {record.claim} »")
    )
    return f"{name} [{', '.join(shown)}]"


def claims_line(records: Sequence[ClaimRecord], english: bool = False) -> str:
    """``Contrôles : ...`` for one paragraph, with how many claims stayed unchecked
    (``Checks: ...`` in English)."""
    parts = [part for part in (_claim(r, english) for r in records) if part is not None]
    if not parts:
        if english:
            return "Checks: no claim of subject, period, direction or polarity found."
        return "Contrôles : aucune affirmation de sujet, période, sens ou polarité relevée."
    unchecked = sum(1 for r in records if r.unchecked())
    stated = sum(1 for r in records if r.unchecked() or r.checked())
    if english:
        return (
            f"Checks ({stated - unchecked}/{stated} claims fully checked, ? = not checked):"
            f" {' · '.join(parts)}"
        )
    return (
        f"Contrôles ({stated - unchecked}/{stated} affirmations entièrement vérifiées, "
        f"? = non vérifié) : {' · '.join(parts)}"
    )


def unchecked_share(records: Sequence[Sequence[ClaimRecord]]) -> tuple[int, int]:
    """(claims with a dimension left unchecked, claims stating any dimension)."""
    stated = [r for paragraph in records for r in paragraph if r.unchecked() or r.checked()]
    return sum(1 for r in stated if r.unchecked()), len(stated)
