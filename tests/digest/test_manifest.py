"""manifest.json written and read back by the one record mechanism: exact bytes of the
written data, a round trip, and one-line errors that name the wrong place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from preuve.core.errors import InputError
from preuve.digest.manifest import (
    MANIFEST_FILE,
    DocumentState,
    Manifest,
    apply_event,
    manifest_data,
    manifest_from_data,
)
from preuve.loaders import read_manifest, write_manifest

FORMAT = "preuve.digest.manifest/1"
AVAILABLE = {"doc-00": (1, 2), "doc-01": (1,)}


def test_the_data_keeps_its_key_order_and_leaves_an_unpinned_version_out() -> None:
    manifest = Manifest(
        versions="first",
        documents={"doc-01": DocumentState(withdrawn=True, access_revision=1),
                   "doc-00": DocumentState(version=2)},
    )  # fmt: skip
    assert manifest_data(manifest) == {
        "format": FORMAT,
        "versions": "first",
        "principal": "default",
        "documents": {
            "doc-00": {"withdrawn": False, "revoked": False, "access_revision": 0, "version": 2},
            "doc-01": {"withdrawn": True, "revoked": False, "access_revision": 1},
        },
        "events": [],
    }


def test_a_written_manifest_reads_back_equal(tmp_path: Path) -> None:
    manifest = apply_event(Manifest(), "withdraw", "doc-01", AVAILABLE, at="2026-01-02T03:04:05")
    manifest = apply_event(manifest, "set-version", "doc-00", AVAILABLE, version=2, at="x")
    write_manifest(tmp_path, manifest)
    assert read_manifest(tmp_path) == manifest
    assert read_manifest(tmp_path / "none") is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param({"format": "other"}, "not a dossier manifest", id="wrong-format"),
        pytest.param({"format": FORMAT, "x": 1}, "x: Unexpected keyword argument",
                     id="unknown-key"),
        pytest.param({"format": FORMAT, "documents": {"doc-00": {"revokd": True}}},
                     "documents.doc-00.revokd: Unexpected keyword argument",
                     id="unknown-document-key"),
        pytest.param({"format": FORMAT, "documents": {"doc-00": {"version": 0}}},
                     "documents.doc-00.version: Input should be greater than or equal to 1",
                     id="version-zero"),
        pytest.param({"format": FORMAT, "documents": {"doc-00": {"withdrawn": "yes"}}},
                     "documents.doc-00.withdrawn: Input should be a valid boolean",
                     id="flag-not-boolean"),
        pytest.param({"format": FORMAT, "versions": "newest"}, "versions: Input should be",
                     id="unknown-rule"),
        pytest.param({"format": FORMAT, "principal": ""}, "principal: String should have",
                     id="empty-principal"),
        pytest.param({"format": FORMAT, "events": [1]}, "events[0]: Input should be",
                     id="event-not-object"),
    ],
)  # fmt: skip
def test_a_broken_manifest_is_one_line_naming_the_place(data: Any, message: str) -> None:
    with pytest.raises(InputError) as caught:
        manifest_from_data(data)
    text = str(caught.value)
    assert text.startswith(f"{MANIFEST_FILE}: ") and message in text and "\n" not in text
