"""Where things are in a run folder, and the small helpers every loader shares.

:func:`discover` walks the run folder (and two levels below it, skipping hidden and
symlinked folders) and records each section's runs under a *key*, the folder's relative
name. A request names a key, which is looked up in :class:`RunLayout`; it is never joined
to a path. A run file that is a symbolic link (``run.json``, ``journal.sqlite``, ...) is
refused and reported: it could lead out of the run folder. :func:`read_json` opens with
``O_NOFOLLOW`` and refuses a file over :data:`MAX_RUN_FILE_BYTES`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from preuve.digest.run_files import SERVE_FILE, read_serve_answers
from preuve.io.runfolder import MAX_RUN_FILE_BYTES, RunFileError, RunFolder
from preuve.memo.run_files import DASHBOARD_FILE, MEMO_RUN_FILE, DashboardFile, MemoRunFile
from preuve.synthesis.run_files import read_trajectory
from preuve.web.pages import REGISTRY_NAME
from preuve.web.views import RunEntry, run_href

__all__ = [
    "MAX_RUN_FILE_BYTES",
    "MEMO_RUN",
    "RunLayout",
    "check_run_files",
    "discover",
    "read_json",
    "read_run_file",
    "run_entries",
    "scalar",
]

MEMO_RUN = MEMO_RUN_FILE
_MEMO_MARKERS = ("memo.md", "facts.txt", "dashboard.json")
_MAX_DEPTH = 2
T = TypeVar("T")
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
        return RunFolder(path.parent, False, MAX_RUN_FILE_BYTES).read_json(path.name), ""
    except RunFileError as err:
        return None, str(err)


def check_run_files(layout: RunLayout) -> None:
    """Read back every typed run file of the layout (memo ``run.json`` and
    ``dashboard.json``, synthesis ``trajectory.json``, digest ``serve.json``); the first
    that does not read back raises its one-line :class:`~preuve.core.errors.InputError`
    naming the file (the CLI exits 2 before serving)."""
    for folder in layout.memo.values():
        RunFolder(folder).read(MEMO_RUN_FILE, MemoRunFile)
        if (folder / DASHBOARD_FILE).is_file():
            RunFolder(folder).read(DASHBOARD_FILE, DashboardFile)
    for folder in layout.synthesis.values():
        read_trajectory(RunFolder(folder))
    for store in layout.digest.values():
        if (store.parent / SERVE_FILE).is_file():
            read_serve_answers(RunFolder(store.parent))


def read_run_file(folder: Path, name: str, kind: type[T]) -> tuple[T | None, str]:
    """The run file read back typed (:meth:`RunFolder.read`), or ``(None, problem)``: a
    file that does not read back is one line on the page, never an error page."""
    try:
        return RunFolder(folder, False, MAX_RUN_FILE_BYTES).read(name, kind), ""
    except RunFileError as err:
        return None, err.message


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


def run_entries(section: str, runs: Mapping[str, Path]) -> tuple[RunEntry, ...]:
    return tuple(RunEntry(key, key, run_href(section, key)) for key in runs)
