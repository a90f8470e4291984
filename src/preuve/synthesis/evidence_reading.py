"""The evidence dossier read back from its rendering: what the rules synthesizer works from.

The rules synthesizer is given the prompt a model is given (:meth:`EvidenceDossier.render
<preuve.synthesis.evidence_dossier.EvidenceDossier.render>`), no side channel, and reads
back from it what its template uses: the question (its language), each sub-task's question
and status and its statements (subject, attribute, context, value, each source's id), the
contradictions found by code (subject, attribute, context, retained and rejected values
with their sources, the rule), the values computed by code (exact digits), and the date and
source type of every document a line describes. The rows' cells are escaped
(:mod:`preuve.core.cells`), so each field reads back as it was; a line this module does not
know (a limit, a gap) is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from preuve.core.cells import split_items, split_row, unescape
from preuve.synthesis.evidence_dossier import (
    COMPUTED_HEAD,
    CONTRADICTIONS_HEAD,
    LIMITS_HEAD,
    NOT_INVESTIGATED,
    QUESTION_HEAD,
    REJECTED,
    RETAINED,
    SUBTASK_HEAD,
    UNRESOLVED,
    read_number,
)
from preuve.synthesis.types import ComputedValue, Contradiction, SourcedValue

__all__ = [
    "DocumentSeen",
    "ReadEvidence",
    "ReadStatement",
    "ReadSubtask",
    "read_evidence",
]

_SOURCE = re.compile(
    r"^(?P<id>.+?) \((?P<date>\d{4}-\d{2}-\d{2}|non daté), (?P<type>.*?), rang -?\d+\)"
    r"(?:, valeur lue : « .* »)?$",
    re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class DocumentSeen:
    """A document as a line of the dossier describes it."""

    date: str | None
    source_type: str


@dataclass(frozen=True, slots=True)
class ReadStatement:
    subject: str
    attribute: str
    context: str
    value: str
    sources: tuple[str, ...]


@dataclass(slots=True)
class ReadSubtask:
    id: str
    question: str
    investigated: bool = True
    statements: list[ReadStatement] = field(default_factory=list)


@dataclass(slots=True)
class ReadEvidence:
    """What :func:`read_evidence` finds in a rendered evidence dossier."""

    question: str = ""
    subtasks: list[ReadSubtask] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    computed: list[ComputedValue] = field(default_factory=list)
    documents: dict[str, DocumentSeen] = field(default_factory=dict)


def _sources(text: str, documents: dict[str, DocumentSeen]) -> tuple[str, ...]:
    """The ids of one cell of described sources, each recorded in ``documents``."""
    ids = []
    for described in split_items(text):
        match = _SOURCE.match(described)
        if match is None:
            continue
        day = None if match["date"] == "non daté" else match["date"]
        documents.setdefault(match["id"], DocumentSeen(day, match["type"]))
        ids.append(match["id"])
    return tuple(ids)


def _sections(lines: list[str]) -> Iterator[tuple[str, str]]:
    """(section, line) for every line after the question."""
    section = ""
    for line in lines:
        if line.startswith(SUBTASK_HEAD):
            section = SUBTASK_HEAD
        elif line in (CONTRADICTIONS_HEAD, COMPUTED_HEAD, LIMITS_HEAD):
            section = line
            continue
        yield section, line


def _question(lines: list[str]) -> tuple[str, list[str]]:
    """The committee's question (its lines as written) and the lines after it."""
    if QUESTION_HEAD not in lines:
        return "", lines
    start = lines.index(QUESTION_HEAD) + 1
    end = next(
        (
            i
            for i in range(start, len(lines))
            if lines[i].startswith(SUBTASK_HEAD) or lines[i] == CONTRADICTIONS_HEAD
        ),
        len(lines),
    )
    return "\n".join(lines[start:end]).strip(), lines[end:]


def _subtask_line(line: str, task: ReadSubtask, read: ReadEvidence) -> None:
    if line.startswith(f"  {NOT_INVESTIGATED}"):
        task.investigated = False
        return
    if not line.startswith("  - "):
        return
    cells = split_row(line[4:])
    if len(cells) < 6 or not cells[4].startswith("« "):
        return  # a gap, or "aucun"
    subject, attribute, context, value = (unescape(c) for c in cells[:4])
    sources = _sources(cells[5], read.documents)
    task.statements.append(ReadStatement(subject, attribute, context, value, sources))


def _contradiction_line(line: str, read: ReadEvidence) -> None:
    if line.startswith("  - ") and read.contradictions:
        cells = split_row(line[4:])
        if len(cells) != 3 or cells[0] not in (RETAINED, REJECTED):
            return
        value = SourcedValue(unescape(cells[1]), _sources(cells[2], read.documents))
        last = read.contradictions[-1]
        read.contradictions[-1] = (
            Contradiction(last.subject, last.attribute, value, last.rejected, last.rule, "",
                          last.context)
            if cells[0] == RETAINED
            else Contradiction(last.subject, last.attribute, last.retained,
                               (*last.rejected, value), last.rule, "", last.context)
        )  # fmt: skip
    elif line.startswith("- "):
        cells = split_row(line[2:])
        if len(cells) != 4:
            return
        rule = None if cells[3] == UNRESOLVED else int(cells[3].removeprefix("règle "))
        subject, attribute, context = (unescape(c) for c in cells[:3])
        read.contradictions.append(Contradiction(subject, attribute, None, (), rule, "", context))


def _computed_line(line: str, read: ReadEvidence) -> None:
    cells = split_row(line[2:]) if line.startswith("- ") else []
    number = read_number(cells[1]) if len(cells) == 5 else None
    if number is None:
        return
    label, unit, formula = (unescape(cells[i]) for i in (0, 2, 3))
    sources = tuple(split_items(cells[4]))
    read.computed.append(ComputedValue(label, number, unit, formula, sources))


def read_evidence(text: str) -> ReadEvidence:
    """Read a rendered evidence dossier back (see the module docstring)."""
    question, rest = _question(text.split("\n"))
    read = ReadEvidence(question=question)
    for section, line in _sections(rest):
        if section == SUBTASK_HEAD and line.startswith(SUBTASK_HEAD):
            cells = split_row(line.removeprefix(SUBTASK_HEAD))
            question = unescape(cells[1]) if len(cells) > 1 else ""
            read.subtasks.append(ReadSubtask(unescape(cells[0]), question))
        elif section == SUBTASK_HEAD and read.subtasks:
            _subtask_line(line, read.subtasks[-1], read)
        elif section == CONTRADICTIONS_HEAD:
            _contradiction_line(line, read)
        elif section == COMPUTED_HEAD:
            _computed_line(line, read)
    return read
