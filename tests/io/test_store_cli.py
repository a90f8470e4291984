"""`preuve store ...` and `preuve digest ... --store URL` end to end, on real stores."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preuve.cli import build_app
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.io import open_store
from preuve.io.stores import SCHEMA_VERSION

runner = CliRunner()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("store-cli"))


def invoke(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(build_app(), [str(a) for a in args], env=env)
    return result.exit_code, result.stdout, result.stderr


def built_sqlite(corpus: CorpusInfo, tmp_path: Path) -> Path:
    """A store with two runs and a manifest event (on a copy: withdraw writes the folder)."""
    path = tmp_path / "source.sqlite"
    dossier = shutil.copytree(corpus.dossier_dir("test-00"), tmp_path / "test-00")
    assert invoke("digest", "build", dossier, "--store", f"sqlite:{path}")[0] == 0
    assert invoke("digest", "withdraw", dossier, "doc-04", "--store", path)[0] == 0
    assert invoke("digest", "build", dossier, "--store", path)[0] == 0
    return path


def test_export_sqlite_import_postgresql_export_again_is_identical(
    corpus: CorpusInfo, pg_url: str, tmp_path: Path
) -> None:
    source = built_sqlite(corpus, tmp_path)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    code, out, err = invoke("store", "export", "--store", source, "--out", first)
    assert code == 0, err
    code, out, err = invoke("store", "import", first, "--store", pg_url, "--json")
    assert code == 0, err
    imported = json.loads(out)
    assert imported["rows"]["runs"] == 2 and imported["rows"]["manifests"] == 1
    assert imported["checked"]["nodes"] == imported["rows"]["nodes"] > 16
    assert invoke("store", "export", "--store", pg_url, "--out", second)[0] == 0
    assert first.read_bytes() == second.read_bytes()
    # The imported store serves the dossier exactly as the source does.
    dossier = tmp_path / "test-00"
    served = [
        json.loads(invoke("digest", "serve", dossier, "--store", spec, "--json")[1])
        for spec in (str(source), pg_url)
    ]
    assert served[0] == served[1] and served[0]["status"] == "SERVED"
    # Back into SQLite: the same file again.
    third = tmp_path / "c.jsonl"
    back = tmp_path / "back.sqlite"
    assert invoke("store", "import", second, "--store", back)[0] == 0
    assert invoke("store", "export", "--store", back, "--out", third)[0] == 0
    assert third.read_bytes() == first.read_bytes()


def _tampered(dump: Path, out: Path) -> Path:
    lines = dump.read_text().splitlines()
    for number, line in enumerate(lines):
        entry = json.loads(line)
        if entry.get("table") == "nodes" and entry["row"]["claims"] != "[]":
            claims = json.loads(entry["row"]["claims"])
            claims[0]["value"] = "tampered"
            entry["row"]["claims"] = json.dumps(claims)
            lines[number] = json.dumps(entry)
            break
    out.write_text("\n".join(lines) + "\n")
    return out


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        pytest.param("tamper", "CORRUPT", id="a-claim-changed"),
        pytest.param("cut", "cut short", id="cut-short"),
        pytest.param("junk", "not JSON", id="not-json"),
    ],
)
def test_a_damaged_dump_is_refused_and_nothing_is_imported(
    corpus: CorpusInfo, pg_url: str, tmp_path: Path, damage: str, message: str
) -> None:
    source = built_sqlite(corpus, tmp_path)
    dump = tmp_path / "a.jsonl"
    assert invoke("store", "export", "--store", source, "--out", dump)[0] == 0
    if damage == "tamper":
        dump = _tampered(dump, tmp_path / "t.jsonl")
    elif damage == "cut":
        dump.write_text("\n".join(dump.read_text().splitlines()[:-1]) + "\n")
    else:
        dump.write_text(dump.read_text() + "{oops\n")
    code, _, err = invoke("store", "import", dump, "--store", pg_url)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    with open_store(pg_url, read_only=True) as store:
        assert set(store.row_counts().values()) == {0}


def test_import_into_a_store_that_is_not_empty_is_refused(
    corpus: CorpusInfo, tmp_path: Path
) -> None:
    source = built_sqlite(corpus, tmp_path)
    dump = tmp_path / "a.jsonl"
    assert invoke("store", "export", "--store", source, "--out", dump)[0] == 0
    code, _, err = invoke("store", "import", dump, "--store", source)
    assert code == 2 and "is not empty" in err


def test_migrate_is_idempotent_and_stats_reports_the_store(pg_url: str) -> None:
    code, out, _ = invoke("store", "migrate", "--store", pg_url)
    assert code == 0 and f"schema version 0 -> {SCHEMA_VERSION} (applied 1, 2)" in out
    code, out, _ = invoke("store", "migrate", "--store", pg_url)
    assert code == 0 and f"schema version {SCHEMA_VERSION}, nothing to do" in out
    code, out, _ = invoke("store", "stats", "--store", pg_url, "--json")
    stats = json.loads(out)
    assert code == 0 and stats["kind"] == "postgresql"
    assert stats["schema_version"] == SCHEMA_VERSION and stats["size_bytes"] > 0
    assert set(stats["rows"].values()) == {0}


def test_digest_commands_read_the_store_from_preuve_store(corpus: CorpusInfo, pg_url: str) -> None:
    dossier = corpus.dossier_dir("test-00")
    env = {"PREUVE_STORE": pg_url}
    code, out, _ = invoke("digest", "build", dossier, env=env)
    assert code == 0 and "model calls 16" in out
    code, out, _ = invoke("digest", "serve", dossier, "--json", env=env)
    assert code == 0 and json.loads(out)["status"] == "SERVED"
    code, out, _ = invoke("digest", "history", "--json", env=env)
    assert code == 0 and len(json.loads(out)) == 1
    with open_store(pg_url, read_only=True) as store:
        assert store.row_counts()["runs"] == 1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param("mysql://u@h/db", "unknown kind 'mysql'", id="unknown-kind"),
        pytest.param("postgresql://u:pw@127.0.0.1:9/db", "running and reachable", id="no-server"),
        pytest.param("sqlite:", "names no file", id="sqlite-no-path"),
    ],
)
def test_bad_store_specs_are_one_line_and_exit_2(spec: str, message: str) -> None:
    for args in (("store", "stats", "--store", spec), ("digest", "history", "--store", spec)):
        code, _, err = invoke(*args)
        assert code == 2 and message in err, err
        assert len(err.strip().splitlines()) == 1 and "pw@" not in err
