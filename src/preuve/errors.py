"""Public re-export of the error hierarchy (defined, and its names listed, in
:mod:`preuve.core.errors`)."""

from preuve.core.errors import *  # noqa: F403
from preuve.core.errors import __all__ as __all__  # noqa: PLC0414  (the same list)
