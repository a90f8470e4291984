"""RunFolder: whole files or none, and typed read-back with one-line errors naming the file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from preuve.core.defects import Defect
from preuve.io.files import TEMP_PREFIX
from preuve.io.records import RecordError, dump_records, load_records
from preuve.io.runfolder import RunFileError, RunFolder

PREVIOUS = '{\n  "status": "VALID"\n}\n'


@dataclass(frozen=True, slots=True)
class Status:
    status: str
    attempts: int = 1


def _outputs(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith(TEMP_PREFIX))


def test_writes_and_reads_back_typed_records(tmp_path: Path) -> None:
    folder = RunFolder.create(tmp_path / "run")
    path = folder.write_json("status.json", Status("VALID", 2))
    assert path.read_text(encoding="utf-8") == '{\n  "status": "VALID",\n  "attempts": 2\n}\n'
    assert folder.read("status.json", Status) == Status("VALID", 2)
    defects = (Defect("no_source", "cite a fact", 2), Defect("schema", "x", path="claims[0]"))
    folder.write_records("defects.json", defects, Defect)
    assert folder.read_records("defects.json", Defect) == defects
    folder.write_text("notes/memo.md", "é\n")
    assert folder.read_text("notes/memo.md") == "é\n"
    assert _outputs(folder.root) == ["defects.json", "notes", "status.json"]


def test_a_defect_has_one_shape() -> None:
    assert dump_records([Defect("no_source", "cite a fact", 2)], Defect) == [
        {"code": "no_source", "detail": "cite a fact", "paragraph": 2, "path": ""}
    ]


@pytest.mark.parametrize(
    ("old", "read"),
    [
        ('[{"code": "c", "detail": "d", "paragraph": 3}]', Defect("c", "d", 3)),
        (
            '[{"code": "c", "detail": "d", "path": "signals[0]"}]',
            Defect("c", "d", None, "signals[0]"),
        ),
    ],
    ids=["memo-writer-before", "memo-reader-before"],
)
def test_the_two_older_partial_defect_shapes_still_read_back(old: str, read: Defect) -> None:
    assert load_records(Defect, old, "run.json") == (read,)


def test_a_failure_between_write_and_replace_keeps_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = RunFolder.create(tmp_path)
    (tmp_path / "run.json").write_text(PREVIOUS, encoding="utf-8")

    def disk_full(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(OSError, match="No space"):
        folder.write_json("run.json", Status("REFUSED"))
    with pytest.raises(OSError, match="No space"):
        folder.copy_in(tmp_path / "run.json", "reports/copy.json")
    assert (tmp_path / "run.json").read_text(encoding="utf-8") == PREVIOUS
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["reports", "run.json"]


_KILLED_WRITER = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from preuve.io.runfolder import RunFolder

    def killed(src, dst):  # the process dies after the data is flushed, before the rename
        os.kill(os.getpid(), signal.SIGKILL)

    os.replace = killed
    RunFolder(Path(sys.argv[1])).write_text("run.json", "x" * 5_000_000)
    """
)


def test_a_process_killed_mid_write_leaves_the_previous_file_whole(tmp_path: Path) -> None:
    (tmp_path / "run.json").write_text(PREVIOUS, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", _KILLED_WRITER, str(tmp_path)], env=env, check=False, timeout=60
    )
    assert done.returncode == -9
    assert (tmp_path / "run.json").read_text(encoding="utf-8") == PREVIOUS
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(TEMP_PREFIX)]
    assert len(leftovers) == 1  # hidden, recognisable, never read as the run file
    assert RunFolder(tmp_path).read_json("run.json") == {"status": "VALID"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"status": ', "run.json:1:12: invalid JSON (Expecting value)"),
        ('{"status": 1}', "run.json: status: Input should be a valid string"),
        ('{"attempts": 2}', "run.json: status: Field required"),
        ('{"status": "VALID", "status": "REFUSED"}', 'run.json: invalid JSON (key "status"'),
        ("[1, 2]", "run.json: (top level): Input should be an object"),
    ],
    ids=["syntax", "wrong-type", "missing-field", "duplicate-key", "not-an-object"],
)
def test_a_malformed_run_file_is_one_line_naming_it(
    tmp_path: Path, content: str, message: str
) -> None:
    (tmp_path / "run.json").write_text(content, encoding="utf-8")
    with pytest.raises(RunFileError) as raised:
        RunFolder(tmp_path, show_root=False).read("run.json", Status)
    line = str(raised.value)
    assert line.startswith(message)
    assert "\n" not in line
    assert raised.value.exit_code == 2


def test_errors_name_the_full_path_unless_asked_not_to(tmp_path: Path) -> None:
    with pytest.raises(RunFileError, match=f"^{re.escape(str(tmp_path))}/run\\.json: missing$"):
        RunFolder(tmp_path).read("run.json", Status)


def test_an_unknown_key_is_refused_where_the_type_forbids_extras() -> None:
    with pytest.raises(RecordError, match=r"defects\.json: \[0\]\.severity: Unexpected keyword"):
        load_records(Defect, '[{"code": "c", "detail": "d", "severity": 3}]', "defects.json")


def test_a_symbolic_link_and_an_oversized_file_are_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.json").write_text('{"status": "VALID"}', encoding="utf-8")
    (tmp_path / "run.json").symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(RunFileError, match=r"^run\.json: a symbolic link, refused$"):
        RunFolder(tmp_path, show_root=False).read("run.json", Status)
    small = RunFolder(tmp_path, show_root=False, limit=10)
    with pytest.raises(RunFileError, match=r"^elsewhere.json: unreadable \(19 bytes, over the"):
        small.read("elsewhere.json", Status)
