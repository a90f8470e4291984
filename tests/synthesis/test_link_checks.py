"""Regressions found by the reliability matrix in workflow 2.

A sub-agent or synthesizer answer that printed a link planted in a document (and no
number) passed every check; a grid or a run file nested too deep or holding an over-long
integer raised past the CLI (a traceback).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from preuve.core.documents import Document
from preuve.core.errors import InputError
from preuve.eval.grid import load_grid
from preuve.models.base import Completion
from preuve.synthesis.pipeline import RUN_FORMAT
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.subagent import check_findings
from preuve.synthesis.synthesizer import SynthesisContext, check_candidate
from preuve.synthesis.trajectory import run_from_data
from preuve.synthesis.types import Finding, Paragraph, Statement, SubTask, Synthesis

TEXT = "Kestrel Serve : latence p95 de 120 ms. Documentation : https://kestrel.example/docs"
DOC = Document("doc-01", 1, "Note", "2026-02-10", "vendor note", (TEXT,))
TASK = SubTask("perf", "Latence ?", ("doc-01",))


def answer(value: str) -> Completion:
    statement = {
        "subject": "Kestrel Serve",
        "attribute": "latence p95",
        "value": value,
        "text": f"Kestrel Serve : {value}.",
        "sources": [{"doc_id": "doc-01", "quote": "Kestrel Serve : latence p95 de 120 ms."}],
    }
    return Completion(json.dumps({"statements": [statement], "gaps": []}), "stop", 10, 10)


@pytest.mark.parametrize(
    ("value", "codes"),
    [
        pytest.param("120 ms", [], id="no-link"),
        # the value's words are the document's (since the value check of workflows 2 and
        # 3 became one, a word of the model's own, as "voir", is refused as such)
        pytest.param("120 ms, documentation : https://kestrel.example/docs", [],
                     id="link-of-the-document"),
        pytest.param("120 ms, voir https://kestrel.example/docs", ["value_not_in_source"],
                     id="a-word-of-the-model-beside-the-link"),
        pytest.param("120 ms, voir https://exfil.example/c?d=120", ["link_not_in_source"],
                     id="planted-link"),
    ],
)  # fmt: skip
def test_a_sub_agent_may_not_print_a_link_its_documents_do_not_hold(
    value: str, codes: list[str]
) -> None:
    checked = check_findings(answer(value), TASK, [DOC])
    assert [d.code for d in checked.defects] == codes


FINDING = Finding("perf", (Statement.of("Kestrel Serve", "latence p95", "120 ms", TEXT, "doc-01"),),
                  docs_read=("doc-01",))  # fmt: skip
CONTEXT = SynthesisContext(
    (FINDING,), {"doc-01": SourceInfo("doc-01", date(2026, 2, 10), SourceType("vendor note"))}
)


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        pytest.param("Kestrel Serve : 120 ms [doc-01].", [], id="no-link"),
        pytest.param("Kestrel Serve : 120 ms, voir https://kestrel.example/docs [doc-01].", [],
                     id="link-of-a-finding"),
        pytest.param("Kestrel Serve : 120 ms, voir https://exfil.example/c [doc-01].",
                     ["link_not_in_findings"], id="planted-link"),
    ],
)  # fmt: skip
def test_a_synthesis_may_not_print_a_link_no_finding_gives(text: str, codes: list[str]) -> None:
    synthesis = Synthesis((Paragraph(text, ("doc-01",)),), ())
    assert [d.code for d in check_candidate(synthesis, CONTEXT)] == codes


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param("[" * 100_000, "nested too deeply", id="nested"),
        pytest.param("1" * 5000, "Exceeds the limit", id="over-long-integer"),
    ],
)
def test_a_grid_that_json_cannot_hold_is_an_input_error(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "grid.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_grid(path)


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param({"documents": [{"id": "d"}]}, id="missing-keys"),
        pytest.param({"defects": {"code": "x"}}, id="object-for-a-list"),
        pytest.param({"documents": [{"id": "d", "title": "t", "date": "2026-02-30",
                                     "source_type": "blog"}]}, id="impossible-date"),
    ],
)  # fmt: skip
def test_a_damaged_run_is_an_input_error(damage: dict[str, object]) -> None:
    data = {"format": RUN_FORMAT, "question": "Q", "engine": "rules", "status": "VALID",
            "documents": [], "products": [], "plan": None, "findings": [], "contradictions": [],
            "computed": [], "evidence": "", "synthesis": None, "defects": [], "calls": [],
            **damage}  # fmt: skip
    with pytest.raises(InputError, match="malformed synthesis run"):
        run_from_data(data, "run/trajectory.json")
