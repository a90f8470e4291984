"""`preuve digest ...` end to end with the CLI runner: exit codes, tables, JSON, files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.commands import digest as digest_command_module
from preuve.commands.digest import digest_app
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.io.stores import SqliteStore

runner = CliRunner()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest-cli"))


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(digest_app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_public_surface_is_pinned() -> None:
    assert digest_command_module.__all__ == ["digest_app", "eval_digest_command"]


def test_build_serve_then_stale_then_rebuild(corpus: CorpusInfo, tmp_path: Path) -> None:
    dossier, store = corpus.dossier_dir("test-00"), tmp_path / "s.sqlite"
    code, out, _ = invoke("build", dossier, "--store", store)
    assert code == 0 and "engine: rules" in out
    assert "model calls 16 {'map': 12, 'reduce': 4}" in out
    code, out, _ = invoke("serve", dossier, "--store", store, "--json")
    served = json.loads(out)
    assert code == 0 and served["status"] == "SERVED" and len(served["claims"]) == 4
    code, out, _ = invoke("serve", dossier, "--store", store, "--version", "doc-11=2")
    assert code == 1 and out.startswith("STALE: leaf:doc-11 is stale")
    code, out, _ = invoke("build", dossier, "--store", store, "--version", "doc-11=2", "--json")
    built = json.loads(out)
    assert code == 0 and built["counters"]["calls_by_task"] == {"map": 1, "reduce": 2}
    code, out, _ = invoke("serve", dossier, "--store", store, "--version", "doc-11=2", "--json")
    assert code == 0 and json.loads(out)["status"] == "SERVED"
    code, out, _ = invoke("history", "--store", store, "--json")
    runs = json.loads(out)
    assert code == 0 and [r["counters"]["model_calls"] for r in runs] == [16, 3]
    code, out, _ = invoke("compare", runs[0]["run_id"], runs[0]["run_id"], "--store", store)
    assert code == 0 and out.startswith("IDENTICAL: 16 nodes")
    code, out, _ = invoke(
        "compare", runs[0]["run_id"], runs[1]["run_id"], "--store", store, "--json"
    )
    assert code == 1 and json.loads(out)["identical"] is False


def test_withdraw_and_revoke_options(corpus: CorpusInfo, tmp_path: Path) -> None:
    dossier, store = corpus.dossier_dir("test-01"), tmp_path / "s.sqlite"
    code, out, _ = invoke(
        "build", dossier, "--store", store, "--withdraw", "doc-04", "--revoke", "doc-08", "--json"
    )
    nodes = {n["node"]: n for n in json.loads(out)["nodes"]}
    assert code == 0
    assert (
        nodes["leaf:doc-04"]["status"] == "INELIGIBLE"
        and nodes["leaf:doc-08"]["status"] == "INELIGIBLE"
    )
    code, _, _ = invoke("serve", dossier, "--store", store)
    assert code == 1  # the summary was built without doc-04 and doc-08
    code, _, _ = invoke(
        "serve", dossier, "--store", store, "--withdraw", "doc-04", "--revoke", "doc-08"
    )
    assert code == 0


def test_mutate_writes_its_report(corpus: CorpusInfo, tmp_path: Path) -> None:
    code, out, _ = invoke(
        "mutate",
        corpus.dossier_dir("test-02"),
        "--store",
        tmp_path / "s.sqlite",
        "--out",
        tmp_path / "out",
    )
    assert code == 0 and "identical" in out
    rows = json.loads((tmp_path / "out" / "mutations.json").read_text(encoding="utf-8"))
    # Content-based evidence ids: doc-00 v2 changes no claim the root keeps (see
    # tests/digest/test_mutations.py), so the root is cut off.
    assert [r["incremental"]["counters"]["model_calls"] for r in rows] == [2, 2, 2]
    assert all(r["comparison"]["identical"] for r in rows)


def test_audit_with_gold_and_prov_export(corpus: CorpusInfo, tmp_path: Path) -> None:
    dossier, store = corpus.dossier_dir("test-03"), tmp_path / "s.sqlite"
    invoke("build", dossier, "--store", store)
    gold = corpus.gold_path("test-03")
    code, out, _ = invoke(
        "audit", dossier, "--store", store, "--gold", gold, "--json", "--out", tmp_path / "out"
    )
    result = json.loads(out)
    assert code == 0
    assert result["audit"]["supported"] == 4 and result["audit"]["gold_tuples"] == 48
    assert result["review"]["review_status"] == "PENDING"
    assert (tmp_path / "out" / "audit.json").is_file()
    run_id = json.loads(invoke("history", "--store", store, "--json")[1])[0]["run_id"]
    code, _, _ = invoke("prov", run_id, "--store", store, "--out", tmp_path / "prov.jsonld")
    document = json.loads((tmp_path / "prov.jsonld").read_text(encoding="utf-8"))
    assert code == 0 and document["@context"]["prov"] == "http://www.w3.org/ns/prov#"


def test_history_table_prints_run_ids_that_compare_accepts(
    corpus: CorpusInfo, tmp_path: Path
) -> None:
    dossier, store = corpus.dossier_dir("test-04"), tmp_path / "s.sqlite"
    invoke("build", dossier, "--store", store)
    run_id = json.loads(invoke("history", "--store", store, "--json")[1])[0]["run_id"]
    code, out, _ = invoke("history", "--store", store)
    assert code == 0 and run_id in out  # whole, not cut to a prefix no command accepts
    code, out, _ = invoke("compare", run_id, run_id, "--store", store)
    assert code == 0 and out.startswith("IDENTICAL: 16 nodes")


def test_a_users_folder_shows_its_latest_versions(tmp_path: Path) -> None:
    folder = tmp_path / "my-dossier"
    for doc, versions in {
        "alpha": ["site: Kesby depot", "site: Calder yard"],
        "beta": ["status: packed"],
    }.items():
        (folder / doc).mkdir(parents=True)
        for number, fact in enumerate(versions, start=1):
            (folder / doc / f"v{number}.txt").write_text(
                f"Note.\nProduct P-01-0{number} {fact}.\n", encoding="utf-8"
            )
    code, out, _ = invoke("build", folder, "--store", tmp_path / "s.sqlite", "--json")
    root = json.loads(out)["root"]
    claims = root["claims"]
    assert code == 0 and {c["value"] for c in claims} == {"Calder yard", "packed"}
    # The evidence id names the line by content; it resolves into version 2.
    assert all(
        root["evidence"][c["evidence"][0]].startswith("alpha@2:")
        for c in claims
        if c["value"] == "Calder yard"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["build", "{missing}"], "not a folder"),
        (["build", "{dossier}", "--version", "doc-00"], "is not DOC=N"),
        (["build", "{dossier}", "--withdraw", "doc-99"], "no such document"),
        (["build", "{dossier}", "--model", "gpt"], "unknown model spec"),
        (["serve", "{dossier}", "--store", "{nostore}"], "does not exist"),
        (["prov", "nope", "--store", "{store}"], "no run 'nope'"),
    ],
    ids=[
        "missing-folder",
        "bad-version",
        "unknown-document",
        "bad-model",
        "no-store",
        "unknown-run",
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    corpus: CorpusInfo, tmp_path: Path, args: list[str], message: str
) -> None:
    store = tmp_path / "s.sqlite"
    SqliteStore(store).close()
    values = {
        "missing": tmp_path / "nope",
        "dossier": corpus.dossier_dir("test-04"),
        "nostore": tmp_path / "none" / "s.sqlite",
        "store": store,
    }
    code, _, err = invoke(*[a.format(**values) for a in args])
    assert code == 2
    assert err.startswith("preuve: error:") and message in err and err.count("\n") == 1
