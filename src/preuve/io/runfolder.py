"""A run folder: the one place where a workflow's results become files, and are read back.

Every workflow (memo, synthesis, digest, demo, evaluations) hands its results to a
:class:`RunFolder`; command modules never open an output file themselves. Every write is
atomic (:mod:`preuve.io.files`: a temporary file in the same folder, flushed, fsynced, then
``os.replace``), so an interrupted run leaves the previous file or none, never half a file.

Run files are read back typed: :meth:`RunFolder.read` parses a file into its dataclass
(strictly, through :mod:`preuve.io.records`) or raises an :class:`~preuve.core.errors.InputError`
of one line naming the file (exit 2 in the CLI). Reads refuse a symbolic link and a file
over :data:`MAX_RUN_FILE_BYTES`: a run folder may come from someone else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, is_dataclass
from pathlib import Path
from typing import Any, TypeVar

from preuve.core.errors import InputError
from preuve.io.files import read_capped, write_bytes_atomic, write_json_atomic, write_text_atomic
from preuve.io.jsonfile import parse_json
from preuve.io.records import dump_record, dump_records, load_record, load_records
from preuve.io.registry import REGISTRY_NAME, RegistryEntry, copy_into, registry_data

__all__ = ["MAX_RUN_FILE_BYTES", "RunFileError", "RunFolder"]

T = TypeVar("T")

# Run files of real runs are kilobytes to a few megabytes; no bigger one is read back.
MAX_RUN_FILE_BYTES = 16 * 1024 * 1024


class RunFileError(InputError):
    """A run file is missing, unreadable, not JSON, or not of its type: one line naming it."""


@dataclass(frozen=True, slots=True)
class RunFolder:
    """The folder of one run. ``name`` arguments are paths relative to it (``run.json``,
    ``documents/doc-01.txt``); their folders are created on write."""

    root: Path
    # False: errors name files relative to the folder (the viewer shows no server paths).
    show_root: bool = True
    limit: int = MAX_RUN_FILE_BYTES  # the largest file read back, in bytes

    @classmethod
    def create(cls, root: Path) -> RunFolder:
        """The run folder at ``root``, created (with its parents) if missing."""
        root.mkdir(parents=True, exist_ok=True)
        return cls(root)

    def path(self, name: str) -> Path:
        return self.root / name

    def _shown(self, name: str) -> str:
        return str(self.root / name) if self.show_root else name

    def _target(self, name: str) -> Path:
        target = self.root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        return target

    # --- writes: whole or not at all ---------------------------------------------------------

    def write_bytes(self, name: str, data: bytes) -> Path:
        target = self._target(name)
        write_bytes_atomic(target, data)
        return target

    def write_text(self, name: str, text: str) -> Path:
        target = self._target(name)
        write_text_atomic(target, text)
        return target

    def write_json(self, name: str, value: object) -> Path:
        """``value`` (a run-file dataclass, or plain JSON data) as indented JSON."""
        data = dump_record(value) if is_dataclass(value) else value
        target = self._target(name)
        write_json_atomic(target, data)
        return target

    def write_records(self, name: str, values: Iterable[T], item: type[T]) -> Path:
        """A JSON array of ``item`` records (``defects.json``)."""
        target = self._target(name)
        write_json_atomic(target, dump_records(values, item))
        return target

    def copy_in(self, source: Path, name: str) -> Path:
        """Copy a document into the folder (the exact bytes that were verified)."""
        target = self._target(name)
        return copy_into(source, target.parent, target.name)

    def write_registry(self, entries: Sequence[RegistryEntry]) -> Path:
        """``documents.json``: which documents the run verified, paths relative to it."""
        return self.write_json(REGISTRY_NAME, registry_data(self.root, entries))

    def remove(self, *names: str) -> None:
        """Remove files a rerun must not leave behind (a previous verdict, say)."""
        for name in names:
            (self.root / name).unlink(missing_ok=True)

    # --- typed read-back -----------------------------------------------------------------------

    def read_bytes(self, name: str) -> bytes:
        path, shown = self.root / name, self._shown(name)
        try:
            return read_capped(path, self.limit, cap="run-file limit")
        except FileNotFoundError:
            raise RunFileError(f"{shown}: missing") from None
        except OSError as err:
            if path.is_symlink():
                raise RunFileError(f"{shown}: a symbolic link, refused") from None
            raise RunFileError(f"{shown}: unreadable ({err.strerror})") from None
        except ValueError as err:
            raise RunFileError(f"{shown}: unreadable ({err})") from None

    def read_text(self, name: str) -> str:
        try:
            return self.read_bytes(name).decode("utf-8")
        except UnicodeDecodeError as err:
            shown = self._shown(name)
            raise RunFileError(f"{shown}: unreadable (not UTF-8: {err.reason})") from None

    def read_json(self, name: str) -> Any:
        """The file's JSON data, untyped (for files with no fixed shape, such as figures)."""
        return self._parsed(name, self.read_text(name))

    def _parsed(self, name: str, text: str) -> Any:
        try:
            return parse_json(text, self._shown(name))
        except InputError as err:
            raise RunFileError(err.message, fix=err.fix) from None

    def read(self, name: str, kind: type[T]) -> T:
        """The file read back into ``kind``, a run-file dataclass."""
        text = self.read_text(name)
        self._parsed(name, text)  # a syntax error is reported with its line and column
        try:
            result: T = load_record(kind, text, self._shown(name))
        except InputError as err:
            raise RunFileError(err.message, fix=err.fix) from None
        return result

    def read_records(self, name: str, item: type[T]) -> tuple[T, ...]:
        """A JSON array of ``item`` records read back."""
        text = self.read_text(name)
        self._parsed(name, text)
        try:
            return load_records(item, text, self._shown(name))
        except InputError as err:
            raise RunFileError(err.message, fix=err.fix) from None

    def read_with(self, name: str, parse: Callable[[Any, str], T]) -> T:
        """The file's JSON through a workflow's own reader ``parse(data, source)``."""
        return parse(self.read_json(name), self._shown(name))
