"""Serve re-verifies what it serves (issue 11, item 4): a store edited after the build is
CORRUPT, one line, exit 2, never served; identity by content keeps re-uploads servable."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.commands.digest import digest_app
from preuve.core.errors import CorruptStoreError
from preuve.digest.build import build_digest
from preuve.digest.rules_summarizer import rules_summarizer
from preuve.digest.serve import ServeStatus, serve_digest
from preuve.digest.summarize import DigestSettings
from preuve.io.documents import load_versions
from preuve.io.stores import SqliteStore

runner = CliRunner()
SETTINGS = DigestSettings()

NOTES = {
    "alpha": "Shipping note.\nProduct P-10-01 delivery: 12 October 2026.\nBy the office.\n",
    "beta": "Site note.\nProduct P-10-02 site: Kesby depot.\n",
    "gamma": "Status note.\nProduct P-10-03 status: packed.\n",
}


def write_dossier(folder: Path) -> Path:
    for doc_id, text in NOTES.items():
        (folder / doc_id).mkdir(parents=True)
        (folder / doc_id / "v1.txt").write_text(text, encoding="utf-8")
    return folder


def tamper(store: Path, sql: str) -> None:
    """Edit the store behind preuve's back (the append-only triggers dropped first)."""
    conn = sqlite3.connect(store)
    try:
        for table in ("nodes", "run_nodes"):
            conn.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
        conn.execute(sql)
        conn.commit()
    finally:
        conn.close()


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(digest_app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    folder, store = write_dossier(tmp_path / "dossier"), tmp_path / "s.sqlite"
    code, _, _ = invoke("build", folder, "--store", store)
    assert code == 0
    code, out, _ = invoke("serve", folder, "--store", store, "--json")
    served = json.loads(out)
    assert code == 0 and served["status"] == "SERVED"
    assert {"subject": "P-10-01", "field": "delivery", "value": "12 October 2026"} in [
        {k: c[k] for k in ("subject", "field", "value")} for c in served["claims"]
    ]
    return folder, store


def test_a_one_byte_edit_of_a_stored_claim_is_corrupt_and_never_served(
    built: tuple[Path, Path],
) -> None:
    folder, store = built
    tamper(
        store,
        "UPDATE nodes SET claims = replace(claims, '12 October', '19 October')"
        " WHERE node_id = 'root'",
    )
    code, out, err = invoke("serve", folder, "--store", store)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("preuve: error: CORRUPT: digest store")
    assert "digest recorded at build time" in err and "19 October" not in out + err
    code, out, err = invoke("audit", folder, "--store", store)
    assert code == 2 and "CORRUPT" in err and "19 October" not in out


@pytest.mark.parametrize(
    ("name", "sql", "message"),
    [
        (
            "quote-and-claim",
            "UPDATE nodes SET claims = replace(claims, '12 October', '19 October'),"
            " spans = replace(spans, '12 October', '19 October') WHERE node_id = 'root'",
            "digest recorded at build time",
        ),
        (
            "leaf-claim",
            "UPDATE nodes SET claims = replace(claims, '12 October', '19 October')"
            " WHERE node_id = 'leaf:alpha'",
            "digest recorded at build time",
        ),
        (
            "row-digest",
            "UPDATE nodes SET digest = '0000' || substr(digest, 5) WHERE node_id = 'root'",
            "digest",
        ),
        (
            "root-status",
            "UPDATE nodes SET status = 'PARTIAL' WHERE node_id = 'root'",
            "digest recorded at build time",
        ),
        (
            "dropped-evidence",
            "UPDATE nodes SET spans = '[]' WHERE node_id = 'root'",
            "which the row does not hold",
        ),
    ],
    ids=["quote-and-claim", "leaf-claim", "row-digest", "root-status", "dropped-evidence"],
)
def test_every_kind_of_store_edit_is_caught(
    built: tuple[Path, Path], name: str, sql: str, message: str
) -> None:
    folder, store = built
    tamper(store, sql)
    snapshot = load_versions(folder, default="latest")
    with SqliteStore(store, read_only=True) as opened, pytest.raises(CorruptStoreError) as err:
        serve_digest(
            snapshot,
            opened,
            SETTINGS,
            identity=rules_summarizer().identity,
            dossier=str(folder.resolve()),
        )
    assert message in err.value.one_line(), name
    assert err.value.exit_code == 2 and err.value.one_line().startswith("CORRUPT: ")


def test_an_identical_re_upload_as_a_new_version_costs_nothing_and_stays_servable(
    built: tuple[Path, Path],
) -> None:
    folder, store = built
    (folder / "alpha" / "v2.txt").write_bytes((folder / "alpha" / "v1.txt").read_bytes())
    code, out, _ = invoke("serve", folder, "--store", store, "--json")
    served = json.loads(out)
    assert code == 0 and served["status"] == "SERVED"
    # The evidence still resolves to exact offsets, now in version 2.
    locations = [loc for loc in served["evidence"].values() if loc.startswith("alpha@")]
    assert locations == ["alpha@2:15:57"]
    code, out, _ = invoke("build", folder, "--store", store, "--json")
    built_report = json.loads(out)
    assert code == 0 and built_report["counters"]["model_calls"] == 0
    with SqliteStore(store, read_only=True) as opened:
        runs = opened.runs()
    assert [run.snapshot[0]["version"] for run in runs] == [1, 2]  # history records it


def test_an_edit_that_shifts_later_offsets_costs_one_map_call(tmp_path: Path) -> None:
    folder = write_dossier(tmp_path / "dossier")
    model = rules_summarizer()
    with SqliteStore(tmp_path / "s.sqlite") as store:
        first = build_digest(load_versions(folder), model, store, SETTINGS, dossier="d")
        longer = NOTES["alpha"].replace("Shipping note.", "Shipping note, second issue.")
        (folder / "alpha" / "v2.txt").write_text(longer, encoding="utf-8")
        after = load_versions(folder, default="latest")
        report = build_digest(after, model, store, SETTINGS, dossier="d")
        full = build_digest(after, model, store, SETTINGS, mode="full", dossier="d")
        answer = serve_digest(after, store, SETTINGS, identity=model.identity, dossier="d")
    assert report.counters.calls_by_task == {"map": 1}
    assert report.root.claims == first.root.claims
    assert [(n.node_id, n.key, n.status, n.claims) for n in report.nodes] == [
        (n.node_id, n.key, n.status, n.claims) for n in full.nodes
    ]
    assert answer.status is ServeStatus.SERVED
    shifted = next(span for span in answer.spans if span.doc_id == "alpha")
    assert shifted.version == 2 and after.documents["alpha"].text[shifted.start : shifted.end] == (
        "Product P-10-01 delivery: 12 October 2026."
    )
    before = next(span for span in first.root.spans if span.doc_id == "alpha")
    assert shifted.id == before.id and shifted.start == before.start + len(", second issue")
