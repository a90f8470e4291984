"""Documents, their versions and pages, their access state, and snapshots of them.

A :class:`Document` is one version of one source: its page texts exactly as extracted
(the reference for every check), the SHA-256 of that text and its :class:`AccessState`.
A :class:`Snapshot` is the set of current documents, with their access state, at one
point in time; spans are validated against a snapshot (see ``preuve.core.evidence``).

Offsets are Python ``str`` indices into :attr:`Document.text`, which joins the pages with
one form feed (``"\\f"``), the same separator text files use between pages. So page ``p``
(1-based) starts at ``sum(len(page) for page in pages[: p - 1]) + (p - 1)``; a non-paged
source is a document with a single page, whose text is that page unchanged.
"""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from types import MappingProxyType

from preuve.core.errors import DocumentError

__all__ = [
    "PAGE_SEPARATOR",
    "AccessState",
    "Document",
    "PagePositions",
    "Snapshot",
    "document_id",
    "is_document_id",
    "text_sha256",
]

PAGE_SEPARATOR = "\f"

_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# Ids end up inside span ids, file names and prompts: one visible token, no whitespace.
_DOC_ID = re.compile(r"[^\s\x00-\x1f\x7f]+")


def text_sha256(text: str) -> str:
    """SHA-256 hex digest of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def document_id(name: str) -> str:
    """A valid document id from a file name or label: its last path part without the
    extension, each run of whitespace or control characters as one ``-``
    (``reports/Rapport 2025.pdf`` is ``Rapport-2025``); ``document`` when nothing is left."""
    base = re.split(r"[\\/]", name)[-1]
    stem = base.rsplit(".", 1)[0] if "." in base[1:] else base
    cleaned = re.sub(r"[\s\x00-\x1f\x7f]+", "-", stem).strip("-")
    return cleaned or "document"


def is_document_id(value: object) -> bool:
    """True when ``value`` is a valid document id: one visible token, no whitespace."""
    return isinstance(value, str) and _DOC_ID.fullmatch(value) is not None


def _is_int(value: object) -> bool:
    # bool is a subclass of int, and True is not a version number.
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class AccessState:
    """Whether a document may be used: ``active`` (not withdrawn), ``eligible`` (the reading
    principal may see it), and ``access_revision``, bumped on every access change."""

    active: bool = True
    eligible: bool = True
    access_revision: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.active, bool) or not isinstance(self.eligible, bool):
            raise DocumentError("access state: active and eligible must be booleans")
        if not _is_int(self.access_revision) or self.access_revision < 0:
            raise DocumentError(
                f"access state: access_revision must be an integer >= 0, "
                f"not {self.access_revision!r}"
            )

    @property
    def usable(self) -> bool:
        """True when the document is neither withdrawn nor off-limits."""
        return self.active and self.eligible

    def withdrawn(self) -> AccessState:
        """This state after a withdrawal (the revision is bumped)."""
        return replace(self, active=False, access_revision=self.access_revision + 1)

    def revoked(self) -> AccessState:
        """This state after the principal lost access (the revision is bumped)."""
        return replace(self, eligible=False, access_revision=self.access_revision + 1)


# Page N (from 1) → the x-position of each character of its text (empty: not known).
PagePositions = Callable[[int], Sequence[float]]


@dataclass(frozen=True, slots=True)
class Document:
    """One version of one document, with its page texts and access state.

    ``pages`` holds one string per page (a list is accepted and frozen to a tuple); ``date``
    is ISO ``yyyy-mm-dd`` or ``""`` when unknown; ``path`` names the file it was read from
    (``""`` when built in memory; not compared: the same text read from two places is one
    document). ``positions``, when the loader knows them (a PDF), gives page N's (from 1)
    x-position of each character of its text, empty when they cannot be read exactly; it is
    read only for the pages that need it (placing a table's blank cells), and not compared.
    Invalid fields raise ``DocumentError``.
    """

    doc_id: str
    version: int
    title: str
    date: str
    source_type: str
    pages: tuple[str, ...]
    access: AccessState = AccessState()
    path: str = field(default="", compare=False)
    positions: PagePositions | None = field(default=None, compare=False, repr=False)
    # Derived once: spans are validated many times against the same document.
    _text: str = field(init=False, repr=False, compare=False)
    _sha256: str = field(init=False, repr=False, compare=False)
    _starts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not is_document_id(self.doc_id):
            raise DocumentError(
                f"document id {self.doc_id!r} is not valid",
                fix="use a non-empty id without whitespace or control characters",
            )
        if not _is_int(self.version) or self.version < 1:
            raise DocumentError(
                f"document {self.doc_id}: version must be an integer >= 1, not {self.version!r}"
            )
        for name in ("title", "source_type", "path"):
            if not isinstance(getattr(self, name), str):
                raise DocumentError(f"document {self.doc_id}: {name} must be a string")
        _check_date(self.doc_id, self.date)
        pages = tuple(self.pages) if isinstance(self.pages, list | tuple) else None
        if not pages or not all(isinstance(page, str) for page in pages):
            raise DocumentError(
                f"document {self.doc_id}: pages must be a non-empty sequence of strings"
            )
        if not isinstance(self.access, AccessState):
            raise DocumentError(f"document {self.doc_id}: access must be an AccessState")
        starts = [0]
        for page in pages[:-1]:
            starts.append(starts[-1] + len(page) + len(PAGE_SEPARATOR))
        text = PAGE_SEPARATOR.join(pages)
        object.__setattr__(self, "pages", pages)
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_sha256", text_sha256(text))
        object.__setattr__(self, "_starts", tuple(starts))

    @property
    def text(self) -> str:
        """The exact text spans index into: the pages joined by one form feed."""
        return self._text

    @property
    def text_sha256(self) -> str:
        """SHA-256 hex digest of :attr:`text` (UTF-8)."""
        return self._sha256

    @property
    def page_count(self) -> int:
        return len(self.pages)

    def page_offset(self, page: int) -> int:
        """Index in :attr:`text` where ``page`` (1-based) starts."""
        if not _is_int(page) or not 1 <= page <= len(self.pages):
            raise ValueError(f"document {self.doc_id} has pages 1..{len(self.pages)}, not {page!r}")
        return self._starts[page - 1]

    def page_of(self, index: int) -> int:
        """The 1-based page holding ``index`` (``0 <= index <= len(text)``).

        The separator after a page belongs to that page, and ``len(text)`` (an end offset)
        to the last page.
        """
        if not _is_int(index) or not 0 <= index <= len(self._text):
            raise ValueError(
                f"document {self.doc_id}: index {index!r} is outside 0..{len(self._text)}"
            )
        return bisect_right(self._starts, index)

    def with_access(self, access: AccessState) -> Document:
        """The same version with another access state."""
        return replace(self, access=access)

    @classmethod
    def from_pages(
        cls,
        name: str,
        pages: Iterable[str],
        *,
        title: str = "",
        source_type: str = "",
        positions: PagePositions | None = None,
    ) -> Document:
        """Version 1 of the document extracted from file ``name`` (id: :func:`document_id`;
        ``path``: ``name``) with its page texts, e.g. a report of workflow 1 read by
        :mod:`preuve.io.pdf`."""
        pages = tuple(pages)
        return cls(
            document_id(name), 1, title or name, "", source_type, pages, path=name,
            positions=positions,
        )  # fmt: skip


def _check_date(doc_id: str, value: object) -> None:
    if value == "":
        return
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):
        try:
            date.fromisoformat(value)
        except ValueError:
            pass
        else:
            return
    raise DocumentError(
        f"document {doc_id}: date {value!r} is not an ISO date",
        fix="write yyyy-mm-dd, or leave it empty when unknown",
    )


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The current version of each document, with its access state, at one point in time.

    Keyed by ``doc_id`` (one current version per id). Immutable: every change returns a new
    snapshot. Iterating yields the documents in ``doc_id`` order. Snapshots compare by
    content but are not hashable; use :meth:`fingerprint` as a key.
    """

    documents: Mapping[str, Document] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.documents, Mapping):
            raise TypeError("Snapshot.documents must be a mapping of doc_id to Document")
        for key, doc in self.documents.items():
            if not isinstance(doc, Document) or doc.doc_id != key:
                raise ValueError(f"snapshot entry {key!r} is not the document with that id")
        ordered = {key: self.documents[key] for key in sorted(self.documents)}
        object.__setattr__(self, "documents", MappingProxyType(ordered))

    @classmethod
    def of(cls, documents: Iterable[Document]) -> Snapshot:
        """A snapshot of ``documents``; two documents with one id are an error."""
        by_id: dict[str, Document] = {}
        for doc in documents:
            if doc.doc_id in by_id:
                raise ValueError(f"document {doc.doc_id} appears twice in one snapshot")
            by_id[doc.doc_id] = doc
        return cls(by_id)

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents.values())

    def __len__(self) -> int:
        return len(self.documents)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self.documents

    def get(self, doc_id: str) -> Document | None:
        return self.documents.get(doc_id)

    def with_document(self, doc: Document) -> Snapshot:
        """This snapshot with ``doc`` added, or replacing the current version of its id."""
        return Snapshot({**self.documents, doc.doc_id: doc})

    def without(self, doc_id: str) -> Snapshot:
        """This snapshot without ``doc_id`` (``KeyError`` if it is absent)."""
        if doc_id not in self.documents:
            raise KeyError(doc_id)
        return Snapshot({key: doc for key, doc in self.documents.items() if key != doc_id})

    def with_access(self, doc_id: str, access: AccessState) -> Snapshot:
        """This snapshot with a new access state for ``doc_id`` (``KeyError`` if absent)."""
        return self.with_document(self.documents[doc_id].with_access(access))

    def fingerprint(self, doc_ids: Iterable[str] | None = None) -> str:
        """Stable SHA-256 of ids, versions, text hashes and access states.

        With ``doc_ids``, only those documents count (an absent id is recorded as absent),
        which gives the access fingerprint of a node's sources.
        """
        ids = sorted(self.documents) if doc_ids is None else sorted(set(doc_ids))
        rows: list[list[object]] = []
        for doc_id in ids:
            doc = self.documents.get(doc_id)
            if doc is None:
                rows.append([doc_id, None])
                continue
            access = doc.access
            rows.append(
                [
                    doc_id,
                    doc.version,
                    doc.text_sha256,
                    access.active,
                    access.eligible,
                    access.access_revision,
                ]
            )
        canonical = json.dumps(rows, ensure_ascii=True, separators=(",", ":"))
        return text_sha256(canonical)
