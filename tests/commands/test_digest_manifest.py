"""The dossier manifest and its commands, named events and `audit --gold`, end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preuve.commands.digest import digest_app
from preuve.corpora.digest_corpus import CorpusInfo, generate_digest_corpus
from preuve.digest.grammar import DEFAULT_GRAMMAR, GRAMMAR_FILE
from preuve.digest.manifest import MANIFEST_FILE

runner = CliRunner()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusInfo:
    return generate_digest_corpus(tmp_path_factory.mktemp("digest-manifest"))


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(digest_app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def copy_dossier(corpus: CorpusInfo, name: str, target: Path) -> Path:
    """A user's copy of a corpus dossier (outside the corpus layout: latest versions)."""
    source = corpus.dossier_dir(name)
    for path in sorted(source.rglob("*")):
        if path.is_file():
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(path.read_bytes())
    return target


def statuses(out: str) -> dict[str, str]:
    return {node["node"]: node["status"] for node in json.loads(out)["nodes"]}


def test_a_withdrawal_lives_in_the_manifest_and_no_build_brings_it_back(
    corpus: CorpusInfo, tmp_path: Path
) -> None:
    dossier, store = corpus.dossier_dir("test-05"), tmp_path / "s.sqlite"
    folder = copy_dossier(corpus, "test-05", tmp_path / "mine")
    code, _, _ = invoke("build", folder, "--store", store)
    assert code == 0
    code, out, _ = invoke("withdraw", folder, "doc-04", "--store", store)
    assert code == 0 and out.startswith("withdraw doc-04: access AccessState(active=False")
    manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    assert manifest["documents"]["doc-04"] == {
        "withdrawn": True,
        "revoked": False,
        "access_revision": 1,
    }
    code, out, _ = invoke("serve", folder, "--store", store)
    assert code == 1 and out.startswith(
        "STALE: leaf:doc-04 is stale: access to document doc-04 changed (withdrawn, revoked or "
        "restored) since run"
    )
    # A build that names no flag keeps the withdrawal: the manifest says so.
    code, out, err = invoke("build", folder, "--store", store, "--json")
    assert code == 0 and statuses(out)["leaf:doc-04"] == "INELIGIBLE" and err == ""
    assert json.loads(out)["counters"]["calls_by_task"] == {"reduce": 2}
    assert invoke("serve", folder, "--store", store)[0] == 0
    assert invoke("audit", folder, "--store", store)[0] == 0
    # Only restore undoes it, and it is recorded.
    code, _, _ = invoke("restore", folder, "doc-04", "--store", store)
    assert code == 0 and invoke("serve", folder, "--store", store)[0] == 1
    code, out, _ = invoke("build", folder, "--store", store, "--json")
    assert statuses(out)["leaf:doc-04"] == "VALID"
    code, out, _ = invoke("manifest", folder, "--store", store, "--json")
    recorded = [row["event"] for row in json.loads(out)["recorded"]]
    assert code == 0 and recorded == ["withdraw doc-04", "restore doc-04"]
    events = json.loads(out)["manifest"]["events"]
    assert [(e["event"], e["doc_id"]) for e in events] == [
        ("withdraw", "doc-04"),
        ("restore", "doc-04"),
    ]
    assert dossier.is_dir()  # the corpus itself was never touched


def test_flags_are_one_off_overrides_that_say_so(corpus: CorpusInfo, tmp_path: Path) -> None:
    folder = copy_dossier(corpus, "test-06", tmp_path / "mine")
    store = tmp_path / "s.sqlite"
    code, out, err = invoke("build", folder, "--store", store, "--withdraw", "doc-02", "--json")
    assert code == 0 and statuses(out)["leaf:doc-02"] == "INELIGIBLE"
    assert err == "override for this command only (not in the manifest): --withdraw doc-02\n"
    assert not (folder / MANIFEST_FILE).exists()
    code, out, _ = invoke("build", folder, "--store", store, "--json")
    assert statuses(out)["leaf:doc-02"] == "VALID"


def test_set_version_pins_a_version_and_serve_follows_it(
    corpus: CorpusInfo, tmp_path: Path
) -> None:
    folder = copy_dossier(corpus, "test-07", tmp_path / "mine")
    store = tmp_path / "s.sqlite"
    assert invoke("set-version", folder, "doc-03", "1", "--store", store)[0] == 0
    code, out, _ = invoke("build", folder, "--store", store, "--json")
    assert code == 0 and json.loads(out)["counters"]["model_calls"] == 16
    assert invoke("serve", folder, "--store", store)[0] == 0  # no flag to repeat
    code, out, _ = invoke("set-version", folder, "doc-03", "latest", "--store", store)
    assert code == 0 and "version 2" in out
    code, out, _ = invoke("serve", folder, "--store", store)
    assert code == 1 and "leaf:doc-03 is stale: the text of document doc-03 changed" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("withdraw", "doc-99"), "no document 'doc-99'"),
        (("set-version", "doc-01", "7"), "doc-01 has no version 7"),
        (("set-version", "doc-01", "seven"), "is not a number"),
        (("restore", "doc-01"), "nothing to restore"),
    ],
    ids=["unknown-document", "unknown-version", "bad-version", "nothing-to-restore"],
)
def test_bad_manifest_commands_are_one_line_errors(
    corpus: CorpusInfo, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    folder = copy_dossier(corpus, "test-08", tmp_path / "mine")
    code, out, err = invoke(args[0], folder, *args[1:], "--store", tmp_path / "s.sqlite")
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err
    assert not (folder / MANIFEST_FILE).exists()


def test_a_second_withdrawal_and_a_broken_manifest_are_refused(
    corpus: CorpusInfo, tmp_path: Path
) -> None:
    folder = copy_dossier(corpus, "test-09", tmp_path / "mine")
    store = tmp_path / "s.sqlite"
    assert invoke("withdraw", folder, "doc-01", "--store", store)[0] == 0
    code, _, err = invoke("withdraw", folder, "doc-01", "--store", store)
    assert code == 2 and "already withdrawn" in err
    (folder / MANIFEST_FILE).write_text('{"format": "preuve.digest.manifest/1", "x": 1}')
    code, _, err = invoke("build", folder, "--store", store)
    assert code == 2 and "x: Unexpected keyword argument" in err and err.count("\n") == 1


def test_mutate_takes_named_events_on_any_documents(corpus: CorpusInfo, tmp_path: Path) -> None:
    code, out, _ = invoke(
        "mutate",
        corpus.dossier_dir("test-03"),
        "--store",
        tmp_path / "s.sqlite",
        "--event",
        "reupload:doc-05",
        "--event",
        "distractor-edit:doc-06",
        "--event",
        "new-version:doc-10=2",
        "--event",
        "withdraw:doc-01",
        "--event",
        "restore:doc-01",
        "--out",
        tmp_path / "out",
    )
    assert code == 0 and "identical re-upload of doc-05" in out
    rows = json.loads((tmp_path / "out" / "mutations.json").read_text(encoding="utf-8"))
    calls = [r["incremental"]["counters"]["calls_by_task"] for r in rows]
    assert calls[0] == {} and calls[1] == {"map": 1}
    assert all(r["comparison"]["identical"] for r in rows)
    events = tmp_path / "events.json"
    events.write_text(json.dumps([{"event": "revoke", "doc_id": "doc-07"}]), encoding="utf-8")
    code, out, _ = invoke(
        "mutate", corpus.dossier_dir("test-03"), "--store", tmp_path / "t.sqlite",
        "--events", events,
    )  # fmt: skip
    assert code == 0 and "revocation of doc-07" in out


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ("explode:doc-01", "is not NAME:DOC"),
        ("new-version:doc-01", "needs a version"),
        ("reupload:doc-01=2", "not byte-identical"),
        ("withdraw:doc-99", "no document 'doc-99'"),
    ],
    ids=["unknown-event", "no-version", "not-identical", "unknown-document"],
)
def test_bad_events_are_one_line_errors(
    corpus: CorpusInfo, tmp_path: Path, event: str, message: str
) -> None:
    code, _, err = invoke(
        "mutate", corpus.dossier_dir("test-03"), "--store", tmp_path / "s.sqlite",
        "--event", event,
    )  # fmt: skip
    assert code == 2 and message in err and err.count("\n") == 1


def test_audit_scores_against_a_gold_file(corpus: CorpusInfo, tmp_path: Path) -> None:
    folder = copy_dossier(corpus, "test-10", tmp_path / "mine")
    store = tmp_path / "s.sqlite"
    invoke("set-version", folder, "doc-00", "1", "--store", store)
    invoke("build", folder, "--store", store)
    code, out, _ = invoke("audit", folder, "--store", store, "--gold", corpus.gold_path("test-10"))
    figures = json.loads(
        invoke("audit", folder, "--store", store, "--gold", corpus.gold_path("test-10"), "--json")[
            1
        ]
    )["audit"]
    assert code == 0 and "precision: 1.0" in out
    assert figures["gold_tuples"] == 48 and figures["true_positives"] == 4
    bad = tmp_path / "gold.json"
    bad.write_text('{"documents": {"doc-00": {"1": [{"subject": "x"}]}}}', encoding="utf-8")
    code, _, err = invoke("audit", folder, "--store", store, "--gold", bad)
    assert code == 2 and "a fact needs subject, field and value" in err


def test_mutate_replays_a_users_folder_from_its_first_versions(
    corpus: CorpusInfo, tmp_path: Path
) -> None:
    folder = copy_dossier(corpus, "test-11", tmp_path / "mine")
    out = tmp_path / "out"
    args = ("mutate", folder, "--store", tmp_path / "s.sqlite", "--out", out)
    code, _, _ = invoke(*args, "--event", "new-version:doc-11=2")
    rows = json.loads((out / "mutations.json").read_text(encoding="utf-8"))
    assert code == 0 and rows[0]["incremental"]["counters"]["calls_by_task"]["map"] == 1


def own_grammar() -> dict[str, Any]:
    """A French grammar a user ships with their folder: other labels, other separators."""
    data: dict[str, Any] = json.loads(json.dumps(DEFAULT_GRAMMAR.data))
    data["subject"]["labels"] = ["Article"]
    data["fields"] = {
        "delivery": {"labels": ["livraison"], "value": "date"},
        "site": {"labels": ["entrepôt"], "value": "place"},
    }
    data["months"] = [*data["months"], "janvier", "octobre"]
    data["separators"] = [" :", ":"]
    return data


def test_a_folder_ships_its_own_grammar(tmp_path: Path) -> None:
    folder = tmp_path / "dossier"
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "v1.txt").write_text(
        "Note.\nArticle AR-12 livraison : 3 octobre 2027.\nArticle AR-12 entrepôt : Besançon.\n",
        encoding="utf-8",
    )
    store = tmp_path / "s.sqlite"
    code, out, _ = invoke("build", folder, "--store", store, "--json")
    assert code == 0 and json.loads(out)["root"]["claims"] == []  # the default grammar: none
    (folder / GRAMMAR_FILE).write_text(json.dumps(own_grammar()), encoding="utf-8")
    code, out, _ = invoke("build", folder, "--store", store, "--json")
    claims = [(c["field"], c["value"]) for c in json.loads(out)["root"]["claims"]]
    assert code == 0 and claims == [("delivery", "3 octobre 2027"), ("site", "Besançon")]
    assert invoke("serve", folder, "--store", store)[0] == 0
    (folder / GRAMMAR_FILE).write_text('{"format": "preuve.digest.grammar/1"}', encoding="utf-8")
    code, out, err = invoke("build", folder, "--store", store)
    assert code == 2 and out == "" and err.count("\n") == 1 and "'subject'" in err


DEEP = "[" * 10_000 + "]" * 10_000
BAD_FILES = [
    ("not-json", b'{"format": ', ":1:12: invalid JSON"),
    ("not-utf8", '{"format": "caf\xe9"}'.encode("latin-1"), "not UTF-8"),
    ("duplicate-key", b'{"format": "a", "format": "b"}', "appears more than once"),
    ("nested-10000", DEEP.encode(), ""),
    ("integer-too-long", b'{"format": ' + b"9" * 5000 + b"}", ""),
    ("not-an-object", b"[1, 2]", ""),
]


@pytest.mark.parametrize("target", [MANIFEST_FILE, GRAMMAR_FILE])
@pytest.mark.parametrize(
    ("content", "message"), [c[1:] for c in BAD_FILES], ids=[c[0] for c in BAD_FILES]
)
def test_a_broken_manifest_or_grammar_file_is_one_line_and_exit_2(
    tmp_path: Path, target: str, content: bytes, message: str
) -> None:
    folder = tmp_path / "dossier"
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "v1.txt").write_text("Item A-1 status: packed.\n", encoding="utf-8")
    (folder / target).write_bytes(content)
    code, out, err = invoke("build", folder, "--store", tmp_path / "s.sqlite")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert str(folder / target) in err and message in err
    assert not (tmp_path / "s.sqlite").exists()  # nothing half-written


@pytest.mark.parametrize(
    ("content", "message"), [c[1:] for c in BAD_FILES], ids=[c[0] for c in BAD_FILES]
)
def test_broken_events_and_gold_files_are_one_line_and_exit_2(
    corpus: CorpusInfo, tmp_path: Path, content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    dossier = corpus.dossier_dir("test-12")
    store = tmp_path / "s.sqlite"
    mutate: tuple[str | Path, ...] = ("mutate", dossier, "--store", store, "--events", bad)
    audit: tuple[str | Path, ...] = ("audit", dossier, "--store", store, "--gold", bad)
    invoke("build", dossier, "--store", store)
    for args in (mutate, audit):
        code, _, err = invoke(*args)
        assert code == 2 and err.count("\n") == 1 and str(bad) in err and message in err, args
