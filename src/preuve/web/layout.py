"""Where things are in a run folder, and the small helpers every loader shares.

:func:`discover` walks the run folder (and two levels below it, skipping hidden and
symlinked folders) and records each section's runs under a *key*, the folder's relative
name. A request names a key, which is looked up in :class:`RunLayout`; it is never joined
to a path. A run file that is a symbolic link (``run.json``, ``journal.sqlite``, ...) is
refused and reported: it could lead out of the run folder. :func:`read_json` opens with
``O_NOFOLLOW`` and refuses a file over :data:`MAX_RUN_FILE_BYTES`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from preuve.core.defects import Defect
from preuve.web.pages import REGISTRY_NAME, read_capped
from preuve.web.views import RunEntry, run_href

__all__ = [
    "MAX_RUN_FILE_BYTES",
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
# Run files of real runs are kilobytes to a few megabytes; the viewer reads no bigger one.
MAX_RUN_FILE_BYTES = 16 * 1024 * 1024
_RUN_FILES = (MEMO_RUN, *_MEMO_MARKERS, "trajectory.json", "digest.sqlite", "journal.sqlite",
              "score.json", "serve.json", REGISTRY_NAME)  # fmt: skip


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
    refused: tuple[str, ...] = ()  # run files that are symbolic links, by relative path

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


def _file(folder: Path, name: str) -> bool:
    """A regular file, not a symbolic link (``is_file`` alone follows links)."""
    path = folder / name
    return path.is_file() and not path.is_symlink()


def _symlinked(root: Path, folder: Path) -> list[str]:
    return [
        (folder / name).relative_to(root).as_posix()
        for name in _RUN_FILES
        if (folder / name).is_symlink()
    ]


def discover(run_dir: Path) -> RunLayout:
    """Find every section's runs under ``run_dir`` (a missing folder finds nothing)."""
    root = run_dir.resolve()
    memo: dict[str, Path] = {}
    synthesis: dict[str, Path] = {}
    digest: dict[str, Path] = {}
    journals: dict[str, Path] = {}
    registries: list[Path] = []
    refused: list[str] = []
    if not root.is_dir():
        return RunLayout(root, memo, synthesis, digest, journals, ())
    for folder in _folders(root):
        key = _key(root, folder)
        refused += _symlinked(root, folder)
        if _file(folder, MEMO_RUN) and any(_file(folder, m) for m in _MEMO_MARKERS):
            memo[key] = folder
        if _file(folder, "trajectory.json"):
            synthesis[key] = folder
        if _file(folder, "digest.sqlite"):
            digest[key] = folder / "digest.sqlite"
        if _file(folder, "journal.sqlite"):
            journals[key] = folder / "journal.sqlite"
        if _file(folder, REGISTRY_NAME):
            registries.append(folder / REGISTRY_NAME)
    problems = tuple(f"{name}: a symbolic link, refused" for name in refused)
    return RunLayout(root, memo, synthesis, digest, journals, tuple(registries), problems)


def read_json(path: Path) -> tuple[Any, str]:
    """``(data, "")``, or ``(None, one-line problem)`` naming the file and the position.
    A symbolic link, and a file over :data:`MAX_RUN_FILE_BYTES`, are refused."""
    try:
        return json.loads(read_capped(path, MAX_RUN_FILE_BYTES).decode("utf-8")), ""
    except FileNotFoundError:
        return None, f"{path.name}: missing"
    except json.JSONDecodeError as err:
        return None, f"{path.name}:{err.lineno}:{err.colno}: invalid JSON ({err.msg})"
    except OSError as err:
        why = "a symbolic link, refused" if path.is_symlink() else f"unreadable ({err.strerror})"
        return None, f"{path.name}: {why}"
    except (ValueError, RecursionError) as err:  # not UTF-8, too large, nested too deep
        return None, f"{path.name}: unreadable ({str(err)[:120] or type(err).__name__})"


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
