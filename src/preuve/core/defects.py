"""A defect: one failed check, with a message a human and a model can both act on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

__all__ = ["Defect", "render_defects"]


@dataclass(frozen=True, slots=True)
class Defect:
    """One failed check.

    Serialized in one shape everywhere (run files, ``--json`` output), its four fields:
    ``{"code": str, "detail": str, "paragraph": int | null, "path": str}``.

    ``code`` is a stable machine name (``no_source``, ``number_not_in_facts``, ...);
    ``detail`` says what is wrong and what would fix it; ``paragraph`` (from 1) or ``path``
    (e.g. ``claims[2].evidence``) say where.
    """

    code: str
    detail: str
    paragraph: int | None = None
    path: str = ""
    # Read by pydantic at the I/O edge (preuve.io.records): an unknown key is refused.
    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}

    def render(self) -> str:
        where = []
        if self.paragraph is not None:
            where.append(f"paragraph {self.paragraph}")
        if self.path:
            where.append(self.path)
        prefix = f"{', '.join(where)}: " if where else ""
        return f"{prefix}[{self.code}] {self.detail}"


def render_defects(defects: tuple[Defect, ...] | list[Defect]) -> str:
    """One defect per line, for a re-ask message or a terminal."""
    return "\n".join(f"- {d.render()}" for d in defects)
