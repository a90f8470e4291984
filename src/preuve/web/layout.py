"""Where things are in a run folder, and the small helpers every loader shares.

:func:`discover` walks the run folder (and two levels below it, skipping hidden and
symlinked folders) and records each section's runs under a *key*, the folder's relative
name. A request names a key, which is looked up in :class:`RunLayout`; it is never joined
to a path.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from preuve.core.defects import Defect
from preuve.web.pages import REGISTRY_NAME
from preuve.web.views import RunEntry, run_href

__all__ = [
    "MEMO_RUN",
    "RunLayout",
    "defect_line",
    "discover",
    "read_json",
    "run_entries",
    "scalar",
]

MEMO_RUN = "run.json"
_MEMO_MARKERS = ("memo.md", "facts.txt", "dashboard.json")
_MAX_DEPTH = 2


@dataclass(frozen=True, slots=True)
class RunLayout:
    """What a run folder holds, by section: ``key → path``. Keys are relative folder names;
    a request names a key, which is looked up here, never joined to a path."""

    root: Path
    memo: Mapping[str, Path]
    synthesis: Mapping[str, Path]
    digest: Mapping[str, Path]
    journals: Mapping[str, Path]
    registries: tuple[Path, ...]

    @property
    def empty(self) -> bool:
        return not (self.memo or self.synthesis or self.digest or self.journals)


def _folders(root: Path) -> Iterator[Path]:
    """The run folder and its sub-folders up to two levels, hidden and symlinked ones
    skipped (a link could lead out of the run folder)."""
    level = [root]
    for depth in range(_MAX_DEPTH + 1):
        yield from level
        if depth == _MAX_DEPTH:
            return
        level = [
            child
            for folder in level
            for child in sorted(folder.iterdir())
            if child.is_dir() and not child.is_symlink() and not child.name.startswith(".")
        ]


def _key(root: Path, folder: Path) -> str:
    rel = folder.relative_to(root).as_posix()
    return rel if rel != "." else root.name or "run"


def discover(run_dir: Path) -> RunLayout:
    """Find every section's runs under ``run_dir`` (a missing folder finds nothing)."""
    root = run_dir.resolve()
    memo: dict[str, Path] = {}
    synthesis: dict[str, Path] = {}
    digest: dict[str, Path] = {}
    journals: dict[str, Path] = {}
    registries: list[Path] = []
    if not root.is_dir():
        return RunLayout(root, memo, synthesis, digest, journals, ())
    for folder in _folders(root):
        key = _key(root, folder)
        if (folder / MEMO_RUN).is_file() and any((folder / m).is_file() for m in _MEMO_MARKERS):
            memo[key] = folder
        if (folder / "trajectory.json").is_file():
            synthesis[key] = folder
        if (folder / "digest.sqlite").is_file():
            digest[key] = folder / "digest.sqlite"
        if (folder / "journal.sqlite").is_file():
            journals[key] = folder / "journal.sqlite"
        if (folder / REGISTRY_NAME).is_file():
            registries.append(folder / REGISTRY_NAME)
    return RunLayout(root, memo, synthesis, digest, journals, tuple(registries))


def read_json(path: Path) -> tuple[Any, str]:
    """``(data, "")``, or ``(None, one-line problem)`` naming the file and the position."""
    try:
        return json.loads(path.read_text(encoding="utf-8")), ""
    except FileNotFoundError:
        return None, f"{path.name}: missing"
    except (OSError, UnicodeDecodeError) as err:
        return None, f"{path.name}: unreadable ({err})"
    except json.JSONDecodeError as err:
        return None, f"{path.name}:{err.lineno}:{err.colno}: invalid JSON ({err.msg})"


def scalar(value: object) -> str:
    """A JSON value as one short display string."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list | tuple):
        return ", ".join(scalar(v) for v in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {scalar(v)}" for k, v in value.items()) or "—"
    return str(value)


def defect_line(item: object) -> str:
    """A defect as stored (a dict of :class:`Defect` fields, or already a line)."""
    if isinstance(item, dict) and "code" in item and "detail" in item:
        paragraph = item.get("paragraph")
        return Defect(
            str(item["code"]),
            str(item["detail"]),
            paragraph if isinstance(paragraph, int) else None,
            str(item.get("path") or ""),
        ).render()
    return scalar(item)


def run_entries(section: str, runs: Mapping[str, Path]) -> tuple[RunEntry, ...]:
    return tuple(RunEntry(key, key, run_href(section, key)) for key in runs)
