"""Documents, pages, access state and snapshots (preuve.core.documents)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.documents import AccessState, Document, Snapshot, text_sha256
from preuve.core.errors import DocumentError


def make_doc(
    doc_id: str = "D1",
    version: int = 1,
    pages: tuple[str, ...] = ("Product P-01-01 delivery: 12 March.",),
    access: AccessState | None = None,
) -> Document:
    return Document(
        doc_id=doc_id,
        version=version,
        title=f"Title of {doc_id}",
        date="2024-03-01",
        source_type="report",
        pages=pages,
        access=access or AccessState(),
    )


# --- pages and offsets -----------------------------------------------------------------------

PAGED = ("first page", "", "third", "last page text")


@pytest.mark.parametrize(
    ("page", "offset"),
    [(1, 0), (2, 11), (3, 12), (4, 18)],
    ids=["first", "empty-page", "after-empty", "last"],
)
def test_page_offset_is_sum_of_previous_pages_plus_separators(page: int, offset: int) -> None:
    doc = make_doc(pages=PAGED)
    assert doc.page_offset(page) == offset
    assert doc.page_offset(page) == sum(len(p) for p in PAGED[: page - 1]) + (page - 1)
    assert doc.text[offset : offset + len(PAGED[page - 1])] == PAGED[page - 1]


@pytest.mark.parametrize(
    ("index", "page"),
    [(0, 1), (9, 1), (10, 1), (11, 2), (12, 3), (17, 3), (18, 4), (32, 4)],
    ids=[
        "start",
        "last-char-of-page-1",
        "separator-after-page-1",
        "separator-after-empty-page-2",
        "start-of-page-3",
        "separator-after-page-3",
        "start-of-last-page",
        "end-of-text",
    ],
)
def test_page_of_maps_an_index_to_its_page(index: int, page: int) -> None:
    doc = make_doc(pages=PAGED)
    assert len(doc.text) == 32
    assert doc.page_of(index) == page


@pytest.mark.parametrize("page", [0, 5, -1, True], ids=["zero", "past-end", "negative", "bool"])
def test_page_offset_rejects_pages_out_of_range(page: int) -> None:
    with pytest.raises(ValueError, match=r"pages 1\.\.4"):
        make_doc(pages=PAGED).page_offset(page)


@pytest.mark.parametrize("index", [-1, 33, True], ids=["negative", "past-end", "bool"])
def test_page_of_rejects_indices_outside_the_text(index: int) -> None:
    with pytest.raises(ValueError, match=r"outside 0\.\.32"):
        make_doc(pages=PAGED).page_of(index)


def test_text_joins_pages_with_form_feeds_and_hash_is_sha256_of_utf8() -> None:
    doc = make_doc(pages=("Échéance 2025", "x €"))
    assert doc.text == "Échéance 2025\fx €"
    expected = hashlib.sha256("Échéance 2025\fx €".encode()).hexdigest()
    assert doc.text_sha256 == expected == text_sha256(doc.text)


def test_single_page_document_text_is_the_page_unchanged() -> None:
    doc = make_doc(pages=("only page\nwith lines",))
    assert doc.text == "only page\nwith lines"
    assert doc.page_count == 1


def test_pages_given_as_a_list_are_frozen_to_a_tuple() -> None:
    doc = Document("D1", 1, "t", "", "note", ["a", "b"])  # type: ignore[arg-type]
    assert doc.pages == ("a", "b")
    assert doc == Document("D1", 1, "t", "", "note", ("a", "b"))
    assert doc.text == "a\fb"


def test_documents_are_immutable_and_hashable() -> None:
    doc = make_doc()
    with pytest.raises(AttributeError):
        doc.version = 2  # type: ignore[misc]
    assert hash(doc) == hash(make_doc())
    assert doc != make_doc(version=2)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"doc_id": ""}, "document id"),
        ({"doc_id": "D 1"}, "document id"),
        ({"doc_id": "D1\n"}, "document id"),
        ({"doc_id": 7}, "document id"),
        ({"version": 0}, "version must be an integer >= 1"),
        ({"version": True}, "version must be an integer >= 1"),
        ({"version": "1"}, "version must be an integer >= 1"),
        ({"title": None}, "title must be a string"),
        ({"source_type": 3}, "source_type must be a string"),
        ({"date": "2024-13-01"}, "not an ISO date"),
        ({"date": "2024/01/02"}, "not an ISO date"),
        ({"date": "20240102"}, "not an ISO date"),
        ({"date": None}, "not an ISO date"),
        ({"pages": ()}, "non-empty sequence of strings"),
        ({"pages": ("a", 2)}, "non-empty sequence of strings"),
        ({"pages": "abc"}, "non-empty sequence of strings"),
        ({"access": {"active": True}}, "access must be an AccessState"),
    ],
    ids=[
        "empty-id",
        "id-with-space",
        "id-with-newline",
        "id-not-str",
        "version-zero",
        "version-bool",
        "version-str",
        "title-none",
        "source-type-int",
        "month-13",
        "slashes",
        "compact-date",
        "date-none",
        "no-pages",
        "page-not-str",
        "pages-as-str",
        "access-as-dict",
    ],
)
def test_invalid_documents_raise_document_error(fields: dict[str, object], message: str) -> None:
    base: dict[str, object] = {
        "doc_id": "D1",
        "version": 1,
        "title": "t",
        "date": "",
        "source_type": "note",
        "pages": ("text",),
    }
    with pytest.raises(DocumentError, match=message):
        Document(**{**base, **fields})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "fields",
    [{"active": 1}, {"eligible": None}, {"access_revision": -1}, {"access_revision": False}],
    ids=["active-int", "eligible-none", "negative-revision", "revision-bool"],
)
def test_invalid_access_states_raise(fields: dict[str, object]) -> None:
    with pytest.raises(DocumentError, match="access state"):
        AccessState(**fields)  # type: ignore[arg-type]


def test_withdrawal_and_revocation_bump_the_access_revision() -> None:
    start = AccessState(access_revision=3)
    assert start.usable
    assert start.withdrawn() == AccessState(active=False, eligible=True, access_revision=4)
    assert start.revoked() == AccessState(active=True, eligible=False, access_revision=4)
    assert not start.withdrawn().usable
    assert not start.revoked().usable


# --- snapshots --------------------------------------------------------------------------------


def test_snapshot_is_ordered_by_doc_id_whatever_the_input_order() -> None:
    snap = Snapshot.of([make_doc("D3"), make_doc("D1"), make_doc("D2")])
    assert [doc.doc_id for doc in snap] == ["D1", "D2", "D3"]
    assert list(snap.documents) == ["D1", "D2", "D3"]
    assert len(snap) == 3
    assert "D2" in snap
    assert "D9" not in snap


def test_snapshot_get_and_changes_return_new_snapshots() -> None:
    v1, other = make_doc("D1"), make_doc("D2")
    snap = Snapshot.of([v1, other])
    v2 = make_doc("D1", version=2, pages=("new text",))
    updated = snap.with_document(v2)
    assert snap.get("D1") is v1
    assert updated.get("D1") is v2
    assert updated.get("D2") is other
    assert snap.get("missing") is None
    removed = updated.without("D2")
    assert [doc.doc_id for doc in removed] == ["D1"]
    assert len(updated) == 2
    revoked = updated.with_access("D1", v2.access.revoked())
    doc = revoked.get("D1")
    assert doc is not None
    assert doc.access.eligible is False
    assert doc.version == 2
    assert doc.text == "new text"


@pytest.mark.parametrize(
    "change",
    ["without", "with_access"],
    ids=["without-absent", "access-of-absent"],
)
def test_snapshot_changes_to_absent_ids_raise_key_error(change: str) -> None:
    snap = Snapshot.of([make_doc("D1")])
    with pytest.raises(KeyError):
        if change == "without":
            snap.without("D9")
        else:
            snap.with_access("D9", AccessState())


def test_snapshot_rejects_duplicates_and_mismatched_keys() -> None:
    with pytest.raises(ValueError, match="appears twice"):
        Snapshot.of([make_doc("D1"), make_doc("D1", version=2)])
    with pytest.raises(ValueError, match="not the document with that id"):
        Snapshot({"D2": make_doc("D1")})


def test_snapshot_mapping_cannot_be_mutated_from_outside() -> None:
    source = {"D1": make_doc("D1")}
    snap = Snapshot(source)
    source["D2"] = make_doc("D2")
    assert len(snap) == 1
    with pytest.raises(TypeError):
        snap.documents["D3"] = make_doc("D3")  # type: ignore[index]
    with pytest.raises(AttributeError):
        snap.documents = {}  # type: ignore[misc]


def test_fingerprint_is_stable_and_independent_of_insertion_order() -> None:
    a = Snapshot.of([make_doc("D1"), make_doc("D2")])
    b = Snapshot.of([make_doc("D2"), make_doc("D1")])
    assert a.fingerprint() == b.fingerprint()
    assert len(a.fingerprint()) == 64
    assert a.fingerprint() != Snapshot().fingerprint()


def test_fingerprint_ignores_title_but_not_text() -> None:
    doc = make_doc()
    base = Snapshot.of([doc]).fingerprint()
    assert Snapshot.of([replace(doc, title="Another title")]).fingerprint() == base
    assert Snapshot.of([replace(doc, pages=("changed",))]).fingerprint() != base


def test_subset_fingerprint_covers_only_the_named_sources() -> None:
    snap = Snapshot.of([make_doc("D1"), make_doc("D2")])
    only_d1 = snap.fingerprint(["D1"])
    assert snap.with_access("D2", AccessState().withdrawn()).fingerprint(["D1"]) == only_d1
    assert snap.with_access("D1", AccessState().withdrawn()).fingerprint(["D1"]) != only_d1
    assert snap.without("D1").fingerprint(["D1"]) != only_d1
    assert snap.fingerprint(["D1", "D1"]) == only_d1
    assert snap.fingerprint(["D1", "D2"]) == snap.fingerprint()


MUTATIONS = ["version", "text", "active", "eligible", "access_revision", "remove", "add"]


@given(
    count=st.integers(min_value=1, max_value=5),
    target=st.integers(min_value=0, max_value=4),
    mutation=st.sampled_from(MUTATIONS),
    texts=st.lists(st.text(max_size=20), min_size=5, max_size=5),
)
def test_fingerprint_changes_when_any_version_hash_or_access_field_changes(
    count: int, target: int, mutation: str, texts: list[str]
) -> None:
    docs = [make_doc(f"D{i}", pages=(texts[i],)) for i in range(count)]
    snap = Snapshot.of(docs)
    doc = docs[target % count]
    access = doc.access
    if mutation == "version":
        changed = snap.with_document(replace(doc, version=doc.version + 1))
    elif mutation == "text":
        changed = snap.with_document(replace(doc, pages=(doc.text + "x",)))
    elif mutation == "active":
        changed = snap.with_access(doc.doc_id, replace(access, active=not access.active))
    elif mutation == "eligible":
        changed = snap.with_access(doc.doc_id, replace(access, eligible=not access.eligible))
    elif mutation == "access_revision":
        changed = snap.with_access(
            doc.doc_id, replace(access, access_revision=access.access_revision + 1)
        )
    elif mutation == "remove":
        changed = snap.without(doc.doc_id)
    else:
        changed = snap.with_document(make_doc("NEW"))
    assert changed.fingerprint() != snap.fingerprint()
    assert Snapshot.of(docs).fingerprint() == snap.fingerprint()
