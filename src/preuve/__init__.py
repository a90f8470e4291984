"""preuve: make LLM document synthesis checkable.

The checks and the three workflows as functions and types (see :mod:`preuve.api` and the
README's "Use it from Python")::

    import preuve

    result = preuve.verify_quote(["Le levier atteint 5,5x fin 2025."], 1, "levier atteint 5,5x")
    assert result.verified and (result.start, result.end) == (3, 22)

Names are loaded on first use, so ``import preuve.core.quotes`` stays light.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from preuve.api import *  # noqa: F403  (the names of preuve.api's __all__, for type checkers)
    from preuve.api import __all__ as __all__

__version__ = "0.1.0"

# The public names are preuve.api's ``__all__``, declared there once: reading them here loads
# the API, so ``__all__`` itself is looked up lazily like the names it lists.


def __getattr__(name: str) -> Any:
    # A probe for a dunder (``__wrapped__``) or for a submodule not imported yet (``from
    # preuve import core`` asks ``hasattr`` first) never loads the workflows.
    dunder = name.startswith("__") and name != "__all__"
    if dunder or (name.isidentifier() and importlib.util.find_spec(f"{__name__}.{name}")):
        raise AttributeError(f"module 'preuve' has no attribute {name!r}")
    api = importlib.import_module("preuve.api")
    if name == "__all__" or name in api.__all__:
        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'preuve' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *importlib.import_module("preuve.api").__all__})
