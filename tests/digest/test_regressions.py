"""Regressions found by the reliability matrix in workflow 3.

``digest compare`` of two unknown run ids printed IDENTICAL (two empty runs compare
equal); a meta.json nested too deep raised a RecursionError past the CLI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from preuve.core.errors import InputError
from preuve.digest.mutations import stored_nodes
from preuve.eval.reliability_files import write_digest_dossier
from preuve.eval.reliability_stores import build_store
from preuve.io.documents import read_meta
from preuve.io.stores import SqliteStore


def test_an_unknown_run_is_an_error_not_an_empty_run(tmp_path: Path) -> None:
    report = build_store(write_digest_dossier(tmp_path / "dossier"), tmp_path / "s.sqlite")
    with SqliteStore(tmp_path / "s.sqlite", read_only=True) as store:
        assert len(stored_nodes(store, report.run_id)) == len(report.nodes)
        with pytest.raises(InputError, match="no run 'nope'"):
            stored_nodes(store, "nope")


def test_a_meta_file_nested_too_deep_is_an_input_error(tmp_path: Path) -> None:
    meta = tmp_path / "meta.json"
    meta.write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(InputError, match="nested too deeply"):
        read_meta(meta, (1,))
