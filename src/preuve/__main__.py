"""``python -m preuve``: the ``preuve`` command, for an environment whose scripts are not on
the PATH (the same app, the same exit codes)."""

from __future__ import annotations

from preuve.cli import main

if __name__ == "__main__":
    main()
