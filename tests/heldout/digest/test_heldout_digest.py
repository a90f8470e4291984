"""Workflow 3 measured on held-out dossiers written by someone who never saw the code.

The dossiers, the writer's gold and notes are in this folder as delivered (see README.md);
``hd-NN.gold.json`` and ``hd-NN.events.json`` are converted from the writer's gold by
``convert_writer_gold.py``. The rules engine reads only the dossier folders; the gold is
read by :mod:`preuve.eval.digest_dossier` and by these tests. These are measurements
pinned as found, not goals the engine was tuned to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preuve.cli import app
from preuve.core.documents import Snapshot
from preuve.digest.audit import audit_claims
from preuve.digest.extractive import parse_fact_line
from preuve.digest.grammar import DEFAULT_GRAMMAR
from preuve.digest.lines import document_lines
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.schema import Claim
from preuve.eval.digest_dossier import evaluate_dossier, read_gold_lines
from preuve.io.documents import list_versions, load_version
from preuve.io.stores import SqliteStore
from preuve.loaders import events_from_file

HERE = Path(__file__).resolve().parent
DOSSIERS = sorted(p.name for p in HERE.iterdir() if p.is_dir() and p.name.startswith("hd-"))

# Per dossier: events, genuine fact rows, those claimable once context is read, incremental
# and full calls over all events, claims a context-blind reader takes from lines the gold
# says are not affirmed.
EXPECTED: dict[str, dict[str, int]] = {
    "hd-01": {"events": 7, "genuine": 55, "claimable": 55, "inc": 12, "full": 74},
    "hd-02": {"events": 9, "genuine": 73, "claimable": 73, "inc": 18, "full": 141},
    "hd-03": {"events": 10, "genuine": 98, "claimable": 84, "inc": 21, "full": 207},
}
DENIED_CLAIMS = {"hd-01": 33, "hd-02": 34, "hd-03": 47}
NOT_AFFIRMED_ROWS = {"hd-01": 33, "hd-02": 34, "hd-03": 48}  # the writer's NOTES: 115 in all


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for name in DOSSIERS:
        path = tmp_path_factory.mktemp(name) / "s.sqlite"
        with SqliteStore(path) as store:
            found[name] = evaluate_dossier(
                HERE / name,
                HERE / f"{name}.gold.json",
                events_from_file(HERE / f"{name}.events.json"),
                rules_summarizer(),
                store,
            )
    return found


def test_every_delivered_dossier_is_measured() -> None:
    assert sorted(EXPECTED) == DOSSIERS


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_incremental_equals_full_on_every_event(
    reports: dict[str, dict[str, Any]], name: str
) -> None:
    report, expected = reports[name], EXPECTED[name]
    assert report["events"] == report["identical_to_full"] == expected["events"]
    assert report["differences"] == []
    assert (report["incremental_calls"], report["full_calls"]) == (
        expected["inc"],
        expected["full"],
    )


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_re_uploads_cost_nothing_and_distractor_edits_one_map_call(
    reports: dict[str, dict[str, Any]], name: str
) -> None:
    calls = reports[name]["calls_by_event"]
    assert all(c == {} for c in calls.get("reupload", []))
    assert calls["distractor_edit"] == [{"map": 1}]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_no_claim_comes_from_a_line_the_gold_says_is_not_affirmed(
    reports: dict[str, dict[str, Any]], name: str
) -> None:
    claims = reports[name]["claims"]
    assert claims["leaf_claims"] > 0 and claims["root_claims"] > 0
    assert claims.get("leaf_from_not_affirmed", 0) == claims.get("root_from_not_affirmed", 0) == 0
    audit = reports[name]["audit"]
    assert audit["supported"] == audit["claims"] and audit["precision"] == 1.0


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_default_grammar_reads_every_genuine_fact(
    reports: dict[str, dict[str, Any]], name: str
) -> None:
    coverage, expected = reports[name]["coverage"], EXPECTED[name]
    assert coverage["genuine"] == coverage["grammar_parses"] == expected["genuine"]
    assert coverage["claimable"] == expected["claimable"]
    assert coverage.get("fact_shaped_kept", 0) == coverage["not_affirmed_kept"] == 0
    assert coverage["not_affirmed_rows"] == NOT_AFFIRMED_ROWS[name]


def naive_claims(doc_lines: list[tuple[str, str]]) -> list[Claim]:
    """What a summarizer reading lines one by one, without context, would claim: every
    fact shape it sees, whole line or inside a quote or a sentence."""
    claims = []
    for evidence_id, text in doc_lines:
        whole = parse_fact_line(text)
        for fact in (whole,) if whole is not None else DEFAULT_GRAMMAR.embedded(text):
            claims.append(Claim(fact.subject, fact.field, fact.value, (evidence_id,)))
    return claims


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_audit_flags_every_claim_from_a_not_affirmed_line(name: str) -> None:
    folder = HERE / name
    gold = read_gold_lines(HERE / f"{name}.gold.json")
    flagged_denied = denied_claims = flagged_genuine = 0
    for doc_id, versions in list_versions(folder).items():
        for version in versions:
            doc = load_version(folder, doc_id, version)
            lines = [(line.id, line.quote) for line in document_lines(doc)]
            audit = audit_claims(naive_claims(lines), Snapshot.of([doc]))
            denied = {line.strip() for line, _ in gold.not_affirmed.get((doc_id, str(version)), ())}
            quotes = dict(lines)
            for claim_audit in audit.claims:
                quote = quotes[claim_audit.claim.evidence[0]]
                if quote in denied:
                    denied_claims += 1
                    flagged_denied += claim_audit.not_affirmed
                else:
                    flagged_genuine += claim_audit.not_affirmed
    assert denied_claims == DENIED_CLAIMS[name]
    assert flagged_denied == denied_claims  # every one is flagged
    assert flagged_genuine == EXPECTED[name]["genuine"] - EXPECTED[name]["claimable"]


def test_the_converted_gold_keeps_the_writers_lines() -> None:
    for name in DOSSIERS:
        writer = json.loads((HERE / f"{name}.writer-gold.json").read_text(encoding="utf-8"))
        ours = json.loads((HERE / f"{name}.gold.json").read_text(encoding="utf-8"))
        for doc_id, versions in writer["documents"].items():
            for version, entry in versions.items():
                converted = ours["documents"][doc_id][version]
                assert [f["line"] for f in converted["facts"]] == [
                    f["line"] for f in entry["facts"]
                ]
                assert converted["not_affirmed"] == entry["not_affirmed"]
                assert all(
                    f["subject"].endswith(" " + g["subject"])
                    for f, g in zip(entry["facts"], converted["facts"], strict=True)
                )


def test_eval_digest_measures_one_dossier_from_the_command_line(tmp_path: Path) -> None:
    name = DOSSIERS[0]
    args = [
        "eval", "digest", "--dossier", str(HERE / name), "--gold", str(HERE / f"{name}.gold.json"),
        "--events", str(HERE / f"{name}.events.json"), "--out", str(tmp_path), "--json",
    ]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["identical_to_full"] == figures["events"] == EXPECTED[name]["events"]
    assert (tmp_path / f"{name}.json").is_file()
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 2 and "already exists" in again.stderr
