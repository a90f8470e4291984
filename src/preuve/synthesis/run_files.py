"""The files of a workflow 2 run folder, and their typed read-back.

``preuve synthesize`` writes, through :class:`preuve.io.runfolder.RunFolder`:

===========================  ==============================================================
``trajectory.json``          :func:`~preuve.synthesis.trajectory.trajectory_data` (plan, reads,
                             findings, calls; its types: :class:`TrajectoryFile`)
``synthesis.json``           :class:`~preuve.synthesis.entries.SynthesisEntry`, VALID runs only
``synthesis.refused.json``   the same for a refused synthesis (never ``synthesis.json``)
``defects.json``             the run's defects, a list of :class:`Defect` (one shape)
``synthesis.md``             the synthesis as Markdown
``documents/``, ``documents.json``  the text of each document as read, registered by id
===========================  ==============================================================

The readers below return the run's own types (:class:`SynthesisRun`, :class:`Synthesis`,
:class:`Defect`) or raise an InputError of one line naming the file.
"""

from __future__ import annotations

from preuve.core.defects import Defect
from preuve.core.errors import InputError
from preuve.io.runfolder import RunFolder
from preuve.synthesis.pipeline import SynthesisRun
from preuve.synthesis.trajectory import run_from_data
from preuve.synthesis.types import Synthesis, synthesis_from_dict

__all__ = [
    "DEFECTS_FILE",
    "REFUSED_SYNTHESIS_FILE",
    "SYNTHESIS_FILE",
    "TRAJECTORY_FILE",
    "read_defects",
    "read_synthesis",
    "read_trajectory",
]

TRAJECTORY_FILE = "trajectory.json"
SYNTHESIS_FILE = "synthesis.json"
REFUSED_SYNTHESIS_FILE = "synthesis.refused.json"
DEFECTS_FILE = "defects.json"


def _run(data: object, source: str) -> SynthesisRun:
    if not isinstance(data, dict):
        raise InputError(f"{source}: not a synthesis run (a JSON object expected)")
    return run_from_data(data, source)


def read_trajectory(folder: RunFolder) -> SynthesisRun:
    """``trajectory.json`` read back as the run it records."""
    return folder.read_with(TRAJECTORY_FILE, _run)


def read_synthesis(folder: RunFolder, name: str = SYNTHESIS_FILE) -> Synthesis:
    """``synthesis.json`` (or ``synthesis.refused.json``) read back."""
    return folder.read_with(name, synthesis_from_dict)


def read_defects(folder: RunFolder) -> tuple[Defect, ...]:
    """``defects.json`` read back."""
    return folder.read_records(DEFECTS_FILE, Defect)
