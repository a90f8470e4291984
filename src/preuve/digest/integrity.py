"""Stored results are re-verified before they are reused or served.

Every node row records, at build time, the digest of what it produced (status, claims,
and each cited evidence id with its line: :func:`~preuve.digest.summarize.node_digest`),
and every run records that digest again beside the node's key. Before a stored result is
reused by a build or served, :func:`verified_row` recomputes the digest from the claims
and spans read back and compares it with both records; a claim citing evidence the row
does not hold, a status or key that differs from the run's record, or a row whose JSON
no longer has the recorded shape, is :class:`~preuve.core.errors.CorruptStoreError`:
one line (``CORRUPT: ...``), exit 2, never served. A one-byte edit of a stored claim
("12 October" → "19 October") is caught here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from preuve.core.errors import CorruptStoreError
from preuve.digest.schema import Claim, NodeStatus
from preuve.digest.summarize import claims_digest
from preuve.io.store_rows import NodeRow

__all__ = ["VerifiedRow", "verified_row"]


@dataclass(frozen=True, slots=True)
class VerifiedRow:
    """A stored result whose content matches the digest recorded when it was written."""

    row: NodeRow
    status: NodeStatus
    claims: tuple[Claim, ...]
    quotes: Mapping[str, str]


def _corrupt(row: NodeRow, where: str, what: str) -> CorruptStoreError:
    return CorruptStoreError(
        f"{where}: result row {row.row_id} ({row.node_id}) {what}",
        fix="the store was altered after it was written; rebuild into a new --store",
    )


def _parts(row: NodeRow, where: str) -> tuple[NodeStatus, tuple[Claim, ...], dict[str, str]]:
    try:
        status = NodeStatus(row.status)
        claims = tuple(Claim.from_mapping(claim) for claim in row.claims)
        quotes = {str(span["id"]): str(span["quote"]) for span in row.spans}
    except (KeyError, TypeError, ValueError) as err:
        raise _corrupt(row, where, f"cannot be read back ({type(err).__name__}: {err})") from None
    return status, claims, quotes


def verified_row(
    row: NodeRow,
    where: str,
    *,
    recorded_digest: str | None = None,
    recorded_key: str | None = None,
    recorded_status: str | None = None,
) -> VerifiedRow:
    """``row`` once its content matches its recorded digest (and the run's records)."""
    status, claims, quotes = _parts(row, where)
    for claim in claims:
        missing = [e for e in claim.evidence if e not in quotes]
        if missing:
            raise _corrupt(row, where, f"cites {missing[0]!r}, which the row does not hold")
    actual = claims_digest(status.value, claims, quotes)
    if actual != row.digest:
        raise _corrupt(
            row, where, "does not match the digest recorded at build time (its claims changed)"
        )
    if recorded_digest is not None and recorded_digest != row.digest:
        raise _corrupt(row, where, "has another digest than the run recorded for it")
    if recorded_key is not None and recorded_key != row.key:
        raise _corrupt(row, where, "has another key than the run recorded for it")
    if recorded_status is not None and recorded_status != row.status:
        raise _corrupt(row, where, "has another status than the run recorded for it")
    return VerifiedRow(row, status, claims, quotes)
