"""A typed shim over atheris (optional, untyped): only what the preuve harnesses use.

atheris is not a dependency of preuve: ``.venv/bin/pip install atheris`` to fuzz. It is
imported by name at run time, so type checkers and linters never need it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol, cast

__all__ = ["Provider", "fuzz", "instrumented", "provider"]


class Provider(Protocol):
    """The part of ``atheris.FuzzedDataProvider`` the harnesses call."""

    def ConsumeUnicode(self, count: int) -> str: ...  # noqa: N802 - atheris' names
    def ConsumeUnicodeNoSurrogates(self, count: int) -> str: ...  # noqa: N802
    def ConsumeIntInRange(self, low: int, high: int) -> int: ...  # noqa: N802
    def ConsumeInt(self, count: int) -> int: ...  # noqa: N802
    def ConsumeBool(self) -> bool: ...  # noqa: N802
    def PickValueInList(self, values: list[Any]) -> Any: ...  # noqa: N802
    def remaining_bytes(self) -> int: ...


def _atheris() -> Any:
    try:
        return importlib.import_module("atheris")
    except ImportError:
        sys.exit("atheris is not installed: .venv/bin/pip install atheris")


def instrumented() -> AbstractContextManager[None]:
    """Coverage instrumentation of the modules imported inside the block."""
    return cast(AbstractContextManager[None], _atheris().instrument_imports())


def provider(data: bytes) -> Provider:
    return cast(Provider, _atheris().FuzzedDataProvider(data))


def fuzz(test_one_input: Callable[[bytes], None]) -> None:
    """Hand ``sys.argv`` (libFuzzer flags, corpus folders) to atheris and run."""
    atheris = _atheris()
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
