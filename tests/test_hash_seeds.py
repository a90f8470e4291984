"""Outputs do not depend on Python's string hashing.

A criterion id once depended on the order of a ``set`` of strings, which changes with
``PYTHONHASHSEED`` from one process to the next: every test passed in the process that ran
them, and a second run wrote another plan. Here workflow 2 runs with the rules engine on the
bundled dossier and on a held-out one (its own source ranks and lexicon) in two processes with
different hash seeds; every file of each run folder must be the same byte for byte, and the
journal must hold the same calls (same requests, same answers).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.models.journal import Journal

HELDOUT = Path(__file__).parent / "heldout" / "synthesis" / "val-orsenne-enneigement"
JOURNAL = "journal.sqlite"  # its rows carry the time of each call: compared by content

RUN = """\
import sys
from pathlib import Path
from preuve.commands.synthesize import write_run
from preuve.loaders import load_dossier
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.models.journal import Journal
out = Path(sys.argv[1])
for n, folder in enumerate(sys.argv[2:]):
    dossier = load_dossier(Path(folder))
    (out / str(n)).mkdir(parents=True)
    with Journal(out / str(n) / "journal.sqlite") as journal:
        run = synthesize(dossier, synthesis_rules_model(), journal=journal)
    write_run(run, out / str(n), dossier)
"""


def _run(seed: str, out: Path, dossiers: list[Path]) -> None:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(out), *map(str, dossiers)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != JOURNAL
    }


def _calls(path: Path) -> list[tuple[str, str, str | None]]:
    with Journal(path) as journal:
        return sorted((c.task, c.request_hash, c.raw_output) for c in journal.calls())


@pytest.mark.skipif(not HELDOUT.is_dir(), reason="the held-out dossier is not in this checkout")
def test_workflow_2_writes_the_same_bytes_under_two_hash_seeds(tmp_path: Path) -> None:
    bundled = generate_synthesis_dossier(tmp_path / "bundled").dossier
    dossiers = [bundled, HELDOUT]
    _run("1", tmp_path / "seed-1", dossiers)
    _run("2718", tmp_path / "seed-2718", dossiers)
    first, second = _files(tmp_path / "seed-1"), _files(tmp_path / "seed-2718")
    assert any(name.endswith("trajectory.json") for name in first)
    assert first.keys() == second.keys()
    assert [n for n in first if first[n] != second[n]] == []
    for n in range(len(dossiers)):
        one, two = (tmp_path / s / str(n) / JOURNAL for s in ("seed-1", "seed-2718"))
        assert _calls(one) and _calls(one) == _calls(two)
