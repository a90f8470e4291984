"""Regular expressions built at run time from declared words, compiled once.

The lexicons' terms, aliases and cues become patterns in the readers' loops; there are
more of them than the ``re`` module keeps compiled (512), so ``re.search(pattern, text)``
recompiled most of them on every sentence. :func:`compiled` keeps every one it has seen.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["compiled"]


@lru_cache(maxsize=16384)
def compiled(pattern: str) -> re.Pattern[str]:
    """``re.compile(pattern)``, kept for the process."""
    return re.compile(pattern)
