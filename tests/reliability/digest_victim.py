"""The build the SIGKILL tests kill: a digest build with a slowed rules model.

    python tests/reliability/digest_victim.py STORE DOSSIER PRINCIPAL DELAY [CONCURRENCY]

A thin script over :func:`preuve.eval.reliability_victim.main` (which ``preuve
reliability`` runs as ``python -m``), so the tests and the report kill the same build.
"""

from __future__ import annotations

from preuve.eval.reliability_victim import main

if __name__ == "__main__":
    raise SystemExit(main())
