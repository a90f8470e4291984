"""Values an accounting identity puts in doubt are kept out of the ratios.

A statement whose identity does not hold for a year (total assets against total equity
and liabilities, a flow against the change in cash...) holds at least one misread or
misprinted value, and the check cannot tell which: every field the identity names is
doubtful for that year. Those fields are taken out of the statements the ratios are
computed from, and :attr:`Statements.doubtful` says which and why, so that a ratio is
refused with its reason rather than computed from a figure that may be false. The
identity's violation stays a defect in the dashboard.
"""

from __future__ import annotations

import dataclasses

from preuve.memo.identities import IdentityReport
from preuve.memo.statements import Statements

__all__ = ["without_doubtful"]


def without_doubtful(statements: Statements, identities: IdentityReport) -> Statements:
    """``statements`` without the fields of a violated identity (see the module)."""
    known = {f.key for f in statements.fields}
    doubtful: dict[tuple[str, int], str] = {}
    for violation in identities.violations:
        names = {violation.total} | {key for key, _ in violation.parts}
        for key in sorted(names & known):
            doubtful.setdefault((key, violation.year), f"{violation.formula} does not hold")
    if not doubtful:
        return statements
    kept = tuple(f for f in statements.fields if (f.key, f.year) not in doubtful)
    reasons = tuple(f"{year} {key}: {why}" for (key, year), why in sorted(doubtful.items()))
    return dataclasses.replace(statements, fields=kept, doubtful=statements.doubtful + reasons)
