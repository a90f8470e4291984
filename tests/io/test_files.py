"""Atomic output files (preuve.io.files): whole or absent, never half-written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from preuve.io.files import TEMP_PREFIX, write_bytes_atomic, write_json_atomic, write_text_atomic


def test_writes_whole_files_with_the_usual_permissions(tmp_path: Path) -> None:
    target = tmp_path / "run.json"
    write_json_atomic(target, {"status": "VALID", "ratio": "5,5x"})
    assert target.read_text(encoding="utf-8") == '{\n  "status": "VALID",\n  "ratio": "5,5x"\n}\n'
    write_text_atomic(tmp_path / "memo.md", "é\n")
    assert (tmp_path / "memo.md").read_bytes() == "é\n".encode()
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    assert not list(tmp_path.glob(f"{TEMP_PREFIX}*"))


def test_a_failed_write_keeps_the_previous_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "synthesis.json"
    target.write_text("previous", encoding="utf-8")

    def disk_full(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(OSError, match="No space"):
        write_bytes_atomic(target, b"new and longer")
    assert target.read_text(encoding="utf-8") == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["synthesis.json"]


def test_a_missing_folder_is_an_os_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_text_atomic(tmp_path / "absent" / "x.md", "x")
