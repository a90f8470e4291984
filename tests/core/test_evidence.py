"""Span ids, span construction and validation against a snapshot (preuve.core.evidence)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from preuve.core.documents import AccessState, Document, Snapshot
from preuve.core.evidence import (
    Span,
    SpanStatus,
    make_span,
    parse_span_id,
    resolve_span_id,
    span_from_mapping,
    span_id,
    validate_span,
)

PAGES = (
    "Product P-01-01 delivery: 12 March 2024.",
    "The status is not 'late'.\nProduct P-01-02 site: Lyon.",
)
DOC = Document("D1", 1, "Dossier note", "2024-03-01", "report", PAGES)
SNAPSHOT = Snapshot.of([DOC, Document("D2", 3, "Other", "", "memo", ("Other text.",))])
QUOTE_START = DOC.text.index("P-01-02")
GOOD = make_span(DOC, QUOTE_START, QUOTE_START + len("P-01-02 site: Lyon"))


def assert_exact(span: Span, doc: Document) -> None:
    """The oracle every valid span obeys: its quote is the text at its offsets."""
    assert doc.text[span.start : span.end] == span.quote
    assert span.text_sha256 == doc.text_sha256
    assert span.id == f"{doc.doc_id}@{doc.version}:{span.start}:{span.end}"


def test_status_values_are_lower_snake_names() -> None:
    for status in SpanStatus:
        assert status.value == status.name.lower()


# --- ids ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parts", "text"),
    [
        (("D1", 1, 0, 5), "D1@1:0:5"),
        (("dossier-03/doc-11", 2, 120, 178), "dossier-03/doc-11@2:120:178"),
        (("a@b", 1, 2, 3), "a@b@1:2:3"),
        (("ns:doc", 10, 0, 1), "ns:doc@10:0:1"),
    ],
    ids=["plain", "path-like-id", "at-sign-in-id", "colon-in-id"],
)
def test_span_ids_round_trip(parts: tuple[str, int, int, int], text: str) -> None:
    assert span_id(*parts) == text
    assert parse_span_id(text) == parts


@pytest.mark.parametrize(
    "text",
    [
        "",
        "D1",
        "D1@1:2",
        "D1@1:2:3:4",
        "D1@a:1:2",
        "D1@01:1:2",
        "D1@1:-1:3",
        "@1:0:3",
        "D1@1:0:3 ",
        "D 1@1:0:3",
        "D1@\u0661:0:3",
        "D1@1:0:3\n",
        5,
        None,
    ],
    ids=[
        "empty",
        "no-offsets",
        "one-offset",
        "three-offsets",
        "version-not-digit",
        "leading-zero",
        "negative-start",
        "no-doc-id",
        "trailing-space",
        "space-in-id",
        "arabic-indic-digit",
        "trailing-newline",
        "int",
        "none",
    ],
)
def test_malformed_span_ids_raise_value_error(text: object) -> None:
    with pytest.raises(ValueError, match="not a span id"):
        parse_span_id(text)  # type: ignore[arg-type]


# --- construction ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end", "quote", "page"),
    [
        (0, 7, "Product", 1),
        (QUOTE_START, QUOTE_START + 18, "P-01-02 site: Lyon", 2),
        (len(PAGES[0]) - 5, len(PAGES[0]) + 4, "2024.\fThe", 1),
        (len(DOC.text) - 5, len(DOC.text), "Lyon.", 2),
    ],
    ids=["page-1-start", "page-2-middle", "across-page-break", "end-of-text"],
)
def test_make_span_locates_exact_text_and_page(start: int, end: int, quote: str, page: int) -> None:
    span = make_span(DOC, start, end)
    assert span.quote == quote
    assert span.page == page
    assert_exact(span, DOC)


@pytest.mark.parametrize(
    ("start", "end"),
    [(3, 3), (5, 2), (-1, 4), (0, len(DOC.text) + 1), (True, 4), (0.0, 4)],
    ids=["empty", "reversed", "negative", "past-end", "bool-start", "float-start"],
)
def test_make_span_rejects_bad_offsets(start: int, end: int) -> None:
    with pytest.raises(ValueError, match="offsets"):
        make_span(DOC, start, end)


def test_span_dict_round_trips() -> None:
    data = GOOD.as_dict()
    assert data["id"] == GOOD.id
    assert span_from_mapping(data) == GOOD


# --- validation: one named case per reason ---------------------------------------------------

Mutation = Callable[[dict[str, object]], object]


def _set(**fields: object) -> Mutation:
    return lambda data: {**data, **fields}


def _drop(name: str) -> Mutation:
    return lambda data: {key: value for key, value in data.items() if key != name}


def _withdrawn(snapshot: Snapshot) -> Snapshot:
    return snapshot.with_access("D1", AccessState().withdrawn())


CASES: list[tuple[str, Mutation, Callable[[Snapshot], Snapshot], str | None, SpanStatus]] = [
    ("valid-mapping-with-id", _set(), lambda s: s, None, SpanStatus.VALID),
    ("valid-mapping-without-id", _drop("id"), lambda s: s, None, SpanStatus.VALID),
    ("valid-without-page", _set(page=None), lambda s: s, None, SpanStatus.VALID),
    ("valid-with-claimed-id", _set(), lambda s: s, GOOD.id, SpanStatus.VALID),
    ("document-absent", _set(), lambda s: s.without("D1"), None, SpanStatus.DOCUMENT_ABSENT),
    (
        "unknown-doc-id",
        _set(doc_id="D9", id="D9@1:0:1"),
        lambda s: s,
        None,
        SpanStatus.DOCUMENT_ABSENT,
    ),
    ("withdrawn", _set(), _withdrawn, None, SpanStatus.WITHDRAWN),
    (
        "not-eligible",
        _set(),
        lambda s: s.with_access("D1", AccessState().revoked()),
        None,
        SpanStatus.NOT_ELIGIBLE,
    ),
    (
        "withdrawn-beats-not-eligible",
        _set(),
        lambda s: s.with_access("D1", AccessState(active=False, eligible=False)),
        None,
        SpanStatus.WITHDRAWN,
    ),
    (
        "stale-version",
        _set(),
        lambda s: s.with_document(replace(DOC, version=2)),
        None,
        SpanStatus.STALE_VERSION,
    ),
    (
        "stale-hash-same-version",
        _set(),
        lambda s: s.with_document(replace(DOC, pages=(PAGES[0], PAGES[1] + " "))),
        None,
        SpanStatus.STALE_HASH,
    ),
    ("stale-hash-claimed", _set(text_sha256="0" * 64), lambda s: s, None, SpanStatus.STALE_HASH),
    ("empty-span", _set(end=QUOTE_START), lambda s: s, None, SpanStatus.BAD_OFFSETS),
    ("reversed", _set(start=QUOTE_START + 20), lambda s: s, None, SpanStatus.BAD_OFFSETS),
    ("negative-start", _set(start=-1), lambda s: s, None, SpanStatus.BAD_OFFSETS),
    ("end-past-text", _set(end=len(DOC.text) + 1), lambda s: s, None, SpanStatus.BAD_OFFSETS),
    ("start-float", _set(start=float(QUOTE_START)), lambda s: s, None, SpanStatus.BAD_OFFSETS),
    ("start-bool", _set(start=True), lambda s: s, None, SpanStatus.BAD_OFFSETS),
    ("end-str", _set(end=str(GOOD.end)), lambda s: s, None, SpanStatus.BAD_OFFSETS),
    ("end-none", _set(end=None), lambda s: s, None, SpanStatus.BAD_OFFSETS),
    ("start-missing", _drop("start"), lambda s: s, None, SpanStatus.BAD_OFFSETS),
    ("wrong-page", _set(page=1), lambda s: s, None, SpanStatus.PAGE_MISMATCH),
    ("page-str", _set(page="2"), lambda s: s, None, SpanStatus.PAGE_MISMATCH),
    ("page-bool", _set(page=True), lambda s: s, None, SpanStatus.PAGE_MISMATCH),
    (
        "quote-one-char",
        _set(quote="P-01-03 site: Lyon"),
        lambda s: s,
        None,
        SpanStatus.QUOTE_MISMATCH,
    ),
    (
        "quote-extra-space",
        _set(quote="P-01-02 site: Lyon "),
        lambda s: s,
        None,
        SpanStatus.QUOTE_MISMATCH,
    ),
    (
        "quote-normalized",
        _set(quote="p-01-02 site: lyon"),
        lambda s: s,
        None,
        SpanStatus.QUOTE_MISMATCH,
    ),
    ("mapping-id-differs", _set(id="D1@1:0:7"), lambda s: s, None, SpanStatus.ID_MISMATCH),
    ("mapping-id-not-str", _set(id=7), lambda s: s, None, SpanStatus.ID_MISMATCH),
    ("claimed-id-differs", _drop("id"), lambda s: s, "D1@1:0:7", SpanStatus.ID_MISMATCH),
    ("claimed-id-other-version", _set(), lambda s: s, "D1@2:78:96", SpanStatus.ID_MISMATCH),
    ("doc-id-int", _set(doc_id=1), lambda s: s, None, SpanStatus.MALFORMED),
    ("version-str", _set(version="1"), lambda s: s, None, SpanStatus.MALFORMED),
    ("version-bool", _set(version=True), lambda s: s, None, SpanStatus.MALFORMED),
    ("quote-missing", _drop("quote"), lambda s: s, None, SpanStatus.MALFORMED),
    ("hash-none", _set(text_sha256=None), lambda s: s, None, SpanStatus.MALFORMED),
    ("not-a-mapping-list", lambda d: list(d.items()), lambda s: s, None, SpanStatus.MALFORMED),
    ("not-a-mapping-str", lambda d: GOOD.id, lambda s: s, None, SpanStatus.MALFORMED),
    ("not-a-mapping-none", lambda d: None, lambda s: s, None, SpanStatus.MALFORMED),
]


@pytest.mark.parametrize(
    ("mutate", "snapshot_of", "claimed", "status"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_validate_span_gives_the_specific_reason(
    mutate: Mutation,
    snapshot_of: Callable[[Snapshot], Snapshot],
    claimed: str | None,
    status: SpanStatus,
) -> None:
    data = mutate(GOOD.as_dict())
    check = validate_span(data, snapshot_of(SNAPSHOT), claimed_id=claimed)  # type: ignore[arg-type]
    assert check.status is status, check.detail
    assert check.ok is (status is SpanStatus.VALID)
    assert check.detail
    if check.ok:
        assert check.span is not None
        assert_exact(check.span, DOC)


def test_claimed_id_page_mismatch_and_detail_name_what_to_fix() -> None:
    stale = validate_span(GOOD, SNAPSHOT.with_document(replace(DOC, version=2)))
    assert "version 1" in stale.detail
    assert "version is 2" in stale.detail
    quote = validate_span(replace(GOOD, quote="P-01-02 site: Paris"), SNAPSHOT)
    assert "'P-01-02 site: Lyon'" in quote.detail
    offsets = validate_span(replace(GOOD, end=10_000), SNAPSHOT)
    assert f"<= {len(DOC.text)}" in offsets.detail


@pytest.mark.parametrize(
    ("span", "status"),
    [
        (GOOD, SpanStatus.VALID),
        (replace(GOOD, start=True), SpanStatus.BAD_OFFSETS),
        (replace(GOOD, quote=None), SpanStatus.MALFORMED),  # type: ignore[arg-type]
        (replace(GOOD, page=3), SpanStatus.PAGE_MISMATCH),
    ],
    ids=["valid", "bool-offset-in-span", "none-quote-in-span", "page-3-of-2"],
)
def test_span_objects_are_checked_like_mappings(span: Span, status: SpanStatus) -> None:
    assert validate_span(span, SNAPSHOT).status is status


def test_a_span_goes_stale_when_its_document_changes_and_is_unavailable_when_withdrawn() -> None:
    assert validate_span(GOOD, SNAPSHOT).ok
    v2 = Document("D1", 2, "Dossier note", "2024-04-01", "report", ("Rewritten.",))
    assert validate_span(GOOD, SNAPSHOT.with_document(v2)).status is SpanStatus.STALE_VERSION
    assert validate_span(GOOD, _withdrawn(SNAPSHOT)).status is SpanStatus.WITHDRAWN
    restored = _withdrawn(SNAPSHOT).with_access("D1", AccessState(access_revision=2))
    assert validate_span(GOOD, restored).ok


# --- resolving bare ids ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "snapshot", "status"),
    [
        (GOOD.id, SNAPSHOT, SpanStatus.VALID),
        ("D2@3:0:5", SNAPSHOT, SpanStatus.VALID),
        ("D1@1:0", SNAPSHOT, SpanStatus.MALFORMED),
        ("D9@1:0:5", SNAPSHOT, SpanStatus.DOCUMENT_ABSENT),
        (GOOD.id, _withdrawn(SNAPSHOT), SpanStatus.WITHDRAWN),
        ("D2@2:0:5", SNAPSHOT, SpanStatus.STALE_VERSION),
        ("D2@3:0:12", SNAPSHOT, SpanStatus.BAD_OFFSETS),
        ("D2@3:5:5", SNAPSHOT, SpanStatus.BAD_OFFSETS),
    ],
    ids=[
        "valid",
        "valid-other-doc",
        "malformed",
        "absent",
        "withdrawn",
        "stale-version",
        "past-end",
        "empty",
    ],
)
def test_resolve_span_id(text: str, snapshot: Snapshot, status: SpanStatus) -> None:
    check = resolve_span_id(text, snapshot)
    assert check.status is status, check.detail
    if check.ok:
        assert check.span is not None
        doc = snapshot.get(check.span.doc_id)
        assert doc is not None
        assert check.span.id == text
        assert_exact(check.span, doc)


def test_resolved_quote_comes_from_the_text() -> None:
    check = resolve_span_id("D2@3:0:5", SNAPSHOT)
    assert check.span is not None
    assert check.span.quote == "Other"


# --- properties ------------------------------------------------------------------------------


@given(
    pages=st.lists(st.text(max_size=30), min_size=1, max_size=4),
    data=st.data(),
)
def test_any_span_made_from_a_document_validates(pages: list[str], data: st.DataObject) -> None:
    doc = Document("P1", 1, "t", "", "note", tuple(pages))
    assume(doc.text)
    start = data.draw(st.integers(min_value=0, max_value=len(doc.text) - 1))
    end = data.draw(st.integers(min_value=start + 1, max_value=len(doc.text)))
    span = make_span(doc, start, end)
    assert_exact(span, doc)
    check = validate_span(span.as_dict(), Snapshot.of([doc]), claimed_id=span.id)
    assert check.ok, check.detail
    assert check.span == span


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=200),
    st.floats(allow_nan=True),
    st.text(max_size=10),
    st.lists(st.integers(), max_size=2),
)
FIELDS = ["id", "doc_id", "version", "start", "end", "quote", "text_sha256", "page"]


@given(st.dictionaries(st.sampled_from(FIELDS), JUNK))
def test_validate_span_never_raises_on_untrusted_data(data: dict[str, object]) -> None:
    check = validate_span(data, SNAPSHOT)
    assert isinstance(check.status, SpanStatus)
    assert check.detail
