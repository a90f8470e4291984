"""The one error root of preuve, and its two families.

    PreuveError                      every error preuve raises on purpose
    ├── InputError                   the user must fix an input (file, flag, format, id)
    │   ├── DocumentError            a document cannot be read (corrupt, encrypted, image-only)
    │   ├── ConfigError              a model spec, endpoint or setting is wrong
    │   ├── BudgetError              an input is over its token budget (never truncated)
    │   └── CorruptStoreError        a store's content no longer matches what was recorded
    └── RefusedError                 a model or a check refused the output
        ├── ModelError               the backend failed (transport, malformed body, replay miss)
        └── VerificationError        the output failed verification after its one re-ask

Every error renders as one line (``str(err)``) that says the cause and, where there is one,
the fix. The CLI prints that line and exits 2 for ``InputError``, 1 for ``RefusedError``.
"""

from __future__ import annotations

__all__ = [
    "BudgetError",
    "ConfigError",
    "CorruptStoreError",
    "DocumentError",
    "InputError",
    "ModelError",
    "PreuveError",
    "RefusedError",
    "VerificationError",
]


class PreuveError(Exception):
    """Root of every error preuve raises on purpose."""

    exit_code = 1

    def __init__(self, message: str, *, fix: str | None = None) -> None:
        self.message = " ".join(message.split())
        # Both halves are collapsed: a path or a message quoted in them may hold a newline.
        self.fix = " ".join(fix.split()) if fix is not None else None
        super().__init__(self.one_line())

    def one_line(self) -> str:
        return f"{self.message} ({self.fix})" if self.fix else self.message


class InputError(PreuveError):
    """The user must fix an input: a file, a flag, a format, an id."""

    exit_code = 2


class DocumentError(InputError):
    """A document cannot be read: corrupt, encrypted, image-only, missing."""


class ConfigError(InputError):
    """A model spec, an endpoint or a setting is wrong or unreachable."""


class BudgetError(InputError):
    """An input is over its token budget; preuve never truncates it."""


class CorruptStoreError(InputError):
    """A store's content no longer matches the digests recorded when it was written, or
    cannot be read back (invalid JSON, wrong shapes): it is never served. One line,
    prefixed ``CORRUPT:``."""

    def one_line(self) -> str:
        return f"CORRUPT: {super().one_line()}"


class RefusedError(PreuveError):
    """A model or a check refused the output."""

    exit_code = 1


class ModelError(RefusedError):
    """The backend failed: transport error, malformed body, replay miss."""


class VerificationError(RefusedError):
    """The output failed verification after its one re-ask."""
