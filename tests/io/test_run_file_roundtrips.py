"""Every typed run file survives a write and a read-back unchanged (hypothesis).

The strategies are derived from the dataclasses' own type hints, so a field added to a
run-file type is generated (and round-tripped) without touching this test.
"""

from __future__ import annotations

import tempfile
import types
import typing
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preuve.core.defects import Defect
from preuve.digest.run_files import ServeAnswerEntry
from preuve.io.runfolder import RunFolder
from preuve.memo.run_files import DashboardFile, MemoRunFile

_JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def strategy(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a run-file type hint: dataclasses field by field, JSON-able leaves."""
    simple: dict[Any, st.SearchStrategy[Any]] = {
        str: st.text(max_size=12),
        int: st.integers(-(10**9), 10**9),
        float: st.floats(allow_nan=False, allow_infinity=False),
        bool: st.booleans(),
        type(None): st.none(),
        Any: _JSON,
    }
    if hint in simple:
        return simple[hint]
    if is_dataclass(hint) and isinstance(hint, type):
        hints = typing.get_type_hints(hint)
        parts = {f.name: strategy(hints[f.name]) for f in fields(hint) if f.init}
        return st.builds(hint, **parts)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([strategy(a) for a in args])
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(strategy(args[0]), max_size=3).map(tuple)
    if origin is tuple:
        return st.tuples(*(strategy(a) for a in args))
    if origin is dict:
        return st.dictionaries(st.text(max_size=6), strategy(args[1]), max_size=3)
    raise AssertionError(f"no strategy for {hint!r}")


RUN_FILES = [
    pytest.param(MemoRunFile, "run.json", id="memo-run.json"),
    pytest.param(DashboardFile, "dashboard.json", id="memo-dashboard.json"),
    pytest.param(ServeAnswerEntry, "serve.json", id="digest-serve.json"),
]


@pytest.mark.parametrize(("kind", "name"), RUN_FILES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_run_file_reads_back_as_written(kind: type[Any], name: str, data: st.DataObject) -> None:
    value = data.draw(strategy(kind))
    with tempfile.TemporaryDirectory() as work:
        folder = RunFolder.create(Path(work))
        folder.write_json(name, value)
        assert folder.read(name, kind) == value


@settings(max_examples=60, deadline=None)
@given(defects=st.lists(strategy(Defect), max_size=4).map(tuple))
def test_defects_read_back_as_written(defects: tuple[Defect, ...]) -> None:
    with tempfile.TemporaryDirectory() as work:
        folder = RunFolder.create(Path(work))
        folder.write_records("defects.json", defects, Defect)
        assert folder.read_records("defects.json", Defect) == defects
