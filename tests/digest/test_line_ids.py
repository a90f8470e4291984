"""Properties of content-based evidence ids (preuve.digest.lines)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from preuve.core.documents import Document, Snapshot
from preuve.digest.lines import (
    LineResolver,
    LineSpan,
    LineSpanEntry,
    document_lines,
    line_catalogue,
    parse_line_id,
)
from preuve.io.records import dump_record

LINE = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\n\r\f"),
    min_size=1,
    max_size=30,
).filter(lambda text: text.strip() != "")


def _stored(line: LineSpan) -> dict[str, Any]:
    """A line span as the store keeps it."""
    data: dict[str, Any] = dump_record(LineSpanEntry.of_line(line))
    return data


def make_doc(lines: list[str], version: int = 1) -> Document:
    return Document("d-1", version, "t", "", "note", ("\n".join(lines) + "\n",))


@given(lines=st.lists(LINE, min_size=2, max_size=12), data=st.data())
def test_editing_one_line_keeps_every_other_id_and_each_id_resolves_exactly(
    lines: list[str], data: st.DataObject
) -> None:
    index = data.draw(st.integers(0, len(lines) - 1))
    replacement = data.draw(LINE)
    before = make_doc(lines)
    edited = [*lines[:index], replacement, *lines[index + 1 :]]
    after = make_doc(edited, version=2)
    ids_before = {span.id for span in document_lines(before)}
    resolver = LineResolver(Snapshot.of([after]))
    for span in document_lines(after):
        assert after.text[span.start : span.end] == span.quote
        assert span.location == f"d-1@2:{span.start}:{span.end}"
        check = resolver.resolve(span.id)
        assert check.ok and check.line == span
        assert parse_line_id(span.id) is not None
    # A line whose text (and occurrence) did not change keeps its id.
    untouched = {span.id for span in document_lines(after)} & ids_before
    changed_text = {lines[index].strip(), replacement.strip()}
    for span in document_lines(before):
        if span.quote not in changed_text:
            assert span.id in untouched


@given(lines=st.lists(LINE, min_size=1, max_size=12))
def test_a_byte_identical_re_upload_has_the_same_ids(lines: list[str]) -> None:
    first, again = make_doc(lines), make_doc(lines, version=3)
    assert [s.id for s in document_lines(first)] == [s.id for s in document_lines(again)]
    assert all(s.version == 3 for s in document_lines(again))


@given(lines=st.lists(LINE, min_size=1, max_size=10))
def test_a_stored_span_resolves_to_what_resolving_by_content_gives(lines: list[str]) -> None:
    stored = document_lines(make_doc(lines))
    reupload = LineResolver(Snapshot.of([make_doc(lines, version=4)]))
    for span in stored:
        fast, exact = reupload.resolve_stored(_stored(span)), reupload.resolve(span.id)
        assert fast.ok and exact.ok and fast.line is not None and exact.line is not None
        assert (fast.line.id, fast.line.span) == (exact.line.id, exact.line.span)


def test_stored_offsets_that_point_elsewhere_are_not_trusted() -> None:
    doc = make_doc(["alpha beta", "beta", "beta"])
    resolver = LineResolver(Snapshot.of([doc]))
    second = document_lines(doc)[2]  # the second "beta" line, id ...#hash.2
    inside = {**_stored(document_lines(doc)[1]), "start": 6, "end": 10}  # beta in line 1
    for data in ({**_stored(second), "start": 11, "end": 15}, inside):
        check = resolver.resolve_stored(data)
        assert check.ok and check.line is not None
        assert check.line.span == resolver.resolve(data["id"]).line.span  # type: ignore[union-attr]
        assert check.line.start in (11, 16)


def test_a_resolver_takes_lines_read_already_only_for_the_snapshot_s_version() -> None:
    current = make_doc(["Status: shipped.", "Site: north yard."], version=2)
    earlier = make_doc(["Status: on hold.", "Site: north yard."])
    stale_id = next(iter(line_catalogue([earlier]))).id
    resolver = LineResolver(Snapshot.of([current]))
    resolver.know(earlier, line_catalogue([earlier]))  # another version: not taken
    assert not resolver.resolve(stale_id).ok
    known = LineResolver(Snapshot.of([current]))
    known.know(current, line_catalogue([current]))
    assert [known.resolve(span.id).line for span in document_lines(current)] == list(
        document_lines(current)
    )
