"""Public re-export of the error hierarchy (defined in :mod:`preuve.core.errors`)."""

from preuve.core.errors import (
    BudgetError,
    ConfigError,
    CorruptStoreError,
    DocumentError,
    InputError,
    ModelError,
    PreuveError,
    RefusedError,
    VerificationError,
)

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
