"""Settings: every knob of a run, read from flags and ``PREUVE_*`` variables in one place.

:func:`read_settings` is the only function that interprets configuration: a flag wins over
its environment variable, which wins over the default (:data:`SETTINGS` lists them, and the
README's table is that list). It reads a mapping it is given; the CLI passes the process's
environment (:func:`preuve.commands.common.process_environment`), so nothing below the
edge reads ``os.environ``. The result is frozen: a run cannot change its configuration
half-way.

``store`` and ``executor`` are specs handed as they are to the store factory
(``open_store(spec)``, ``sqlite:PATH`` or ``postgresql://…``) and the executor factory
(``make_executor(spec)``, ``local`` or ``ray[:ADDRESS]``); this module does not interpret
them beyond their defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from preuve.core.errors import ConfigError

__all__ = [
    "DEFAULT_CONCURRENCY",
    "DEFAULT_EXECUTOR",
    "SETTINGS",
    "Setting",
    "Settings",
    "default_home",
    "default_store",
    "read_settings",
]

DEFAULT_CONCURRENCY = 4
DEFAULT_EXECUTOR = "local"
DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})


def default_home() -> Path:
    """Where preuve keeps its files when ``$PREUVE_HOME`` is not set: ``~/.preuve``."""
    return Path.home() / ".preuve"


def default_store(home: Path) -> str:
    """Today's digest store: the SQLite file ``digest.sqlite`` under ``home``."""
    return f"sqlite:{home / 'digest.sqlite'}"


@dataclass(frozen=True, slots=True)
class Settings:
    """One run's configuration (see :data:`SETTINGS` for each field's flag and variable).

    ``environ`` is the environment the backends may read their keys from (the variable
    ``api_key_env`` names) and that every artefact is scrubbed of; it is neither shown nor
    compared.
    """

    model: str = "rules"
    record: Path | None = None
    home: Path = field(default_factory=default_home)
    context_window: int | None = None
    api_key_env: str = DEFAULT_API_KEY_ENV
    progress: bool = True
    concurrency: int = DEFAULT_CONCURRENCY
    store: str = ""  # "" stands for default_store(home), filled in below
    executor: str = DEFAULT_EXECUTOR
    environ: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType({}), repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, not {self.concurrency}")
        if self.context_window is not None and self.context_window <= 0:
            raise ConfigError(f"the context window must be positive, not {self.context_window}")
        if not self.store:
            object.__setattr__(self, "store", default_store(self.home))


@dataclass(frozen=True, slots=True)
class Setting:
    """One row of the settings table: field, variable, flag, default, meaning."""

    field: str
    env: str
    flag: str
    default: str
    meaning: str


SETTINGS: tuple[Setting, ...] = (
    Setting("model", "PREUVE_MODEL", "--model", "rules", "the model spec of every role"),
    Setting(
        "record",
        "PREUVE_RECORD",
        "",
        "(off)",
        "record every model call to this JSONL file (replay it with `--model replay:FILE`)",
    ),
    Setting("home", "PREUVE_HOME", "", "~/.preuve", "where preuve keeps its own files"),
    Setting(
        "context_window",
        "PREUVE_CONTEXT_WINDOW",
        "",
        "the model's, else 32768",
        "the model's context window in tokens: every call's input budget is this window "
        "less the answer's room",
    ),
    Setting(
        "api_key_env",
        "PREUVE_API_KEY_ENV",
        "",
        "OPENAI_API_KEY",
        "the variable holding an `openai:` endpoint's key",
    ),
    Setting(
        "progress",
        "PREUVE_QUIET",
        "--quiet",
        "0",
        "1: no progress lines on stderr (model calls, workflow steps)",
    ),
    Setting(
        "concurrency",
        "PREUVE_CONCURRENCY",
        "--concurrency",
        str(DEFAULT_CONCURRENCY),
        "at most this many model calls in flight per endpoint, across the workflows of a "
        "command (`--concurrency` on digest commands)",
    ),
    Setting(
        "store",
        "PREUVE_STORE",
        "--store",
        "sqlite:$PREUVE_HOME/digest.sqlite",
        "the digest store: `sqlite:PATH`, a path, or `postgresql://…` (see Store)",
    ),
    Setting(
        "executor",
        "PREUVE_EXECUTOR",
        "--executor",
        DEFAULT_EXECUTOR,
        "where independent work runs: `local`, `ray`, `ray:HOST:PORT` (see Run it on a cluster)",
    ),
)
_ENV = {s.field: s.env for s in SETTINGS}


def _flag_or_env(flags: Mapping[str, Any], environ: Mapping[str, str], name: str) -> Any:
    """The flag when given (not None), else the variable's text when set and non-blank."""
    if flags.get(name) is not None:
        return flags[name]
    raw = environ.get(_ENV[name], "").strip()
    return raw or None


def _positive(value: Any, name: str) -> int:
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdigit() or int(text) <= 0:
        raise ConfigError(f"${_ENV[name]} must be a positive number, not {text!r}")
    return int(text)


def _quiet(flags: Mapping[str, Any], environ: Mapping[str, str]) -> bool:
    if flags.get("quiet"):
        return True
    raw = environ.get(_ENV["progress"], "").strip().lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ConfigError(f"${_ENV['progress']} must be 1 or 0, not {raw!r}")


def read_settings(environ: Mapping[str, str], **flags: Any) -> Settings:
    """The run's settings: each flag given (not None) over its variable over the default.

    ``flags`` are named by field (``model``, ``concurrency``, ``store``, ``executor``),
    plus ``quiet`` for ``--quiet``. A malformed variable is a one-line ConfigError naming it.
    """
    unknown = set(flags) - {*_ENV, "quiet"}
    if unknown:
        raise TypeError(f"unknown settings: {', '.join(sorted(unknown))}")
    home_raw = _flag_or_env(flags, environ, "home")
    home = Path(home_raw) if home_raw is not None else default_home()
    record = _flag_or_env(flags, environ, "record")
    window = _flag_or_env(flags, environ, "context_window")
    concurrency = _flag_or_env(flags, environ, "concurrency")
    return Settings(
        model=str(_flag_or_env(flags, environ, "model") or "rules"),
        record=Path(record) if record is not None else None,
        home=home,
        context_window=None if window is None else _positive(window, "context_window"),
        api_key_env=str(_flag_or_env(flags, environ, "api_key_env") or DEFAULT_API_KEY_ENV),
        progress=not _quiet(flags, environ),
        concurrency=(
            DEFAULT_CONCURRENCY if concurrency is None else _positive(concurrency, "concurrency")
        ),
        store=str(_flag_or_env(flags, environ, "store") or default_store(home)),
        executor=str(_flag_or_env(flags, environ, "executor") or DEFAULT_EXECUTOR),
        environ=MappingProxyType(dict(environ)),
    )
