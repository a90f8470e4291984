"""Where a store lives, parsed from one spec string (``--store`` / ``PREUVE_STORE``).

    sqlite:PATH          an SQLite file (the default kind, embedded)
    PATH                 the same: a bare path is an SQLite file
    postgresql://...     a PostgreSQL database (``postgres://`` is the same); any libpq
                         URL, e.g. ``postgresql://user:secret@db.example:5432/preuve``

Pure: nothing is opened here. :func:`preuve.io.open_store` and
:func:`preuve.models.journal.open_journal` read the same spec, so the digest store and the
journal of model calls always go to the same backend.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from preuve.core.errors import InputError

__all__ = ["StoreKind", "StoreSpec", "parse_store_spec", "redacted_url"]

StoreKind = Literal["sqlite", "postgresql"]
# user:password@ in the authority, and password=... among the query parameters.
_PASSWORD = re.compile(r"^([a-z][a-z0-9+.-]*://[^:/@?#]*):[^@/?#]*@", re.IGNORECASE)
_PASSWORD_PARAM = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)
_FIX = "give --store sqlite:PATH, a file path, or postgresql://USER@HOST:PORT/DATABASE"


@dataclass(frozen=True, slots=True)
class StoreSpec:
    """A parsed spec: the kind of store, and its target (a file path or a libpq URL)."""

    kind: StoreKind
    target: str

    @property
    def label(self) -> str:
        """How messages name the store: the path, or the URL without its password."""
        return self.target if self.kind == "sqlite" else redacted_url(self.target)


def redacted_url(url: str) -> str:
    """``url`` with any password replaced by ``***`` (messages never carry a secret)."""
    hidden = _PASSWORD.sub(r"\1:***@", url)
    return _PASSWORD_PARAM.sub(r"\1***", hidden)


def parse_store_spec(spec: str) -> StoreSpec:
    """The store ``spec`` names; an empty or unknown spec is one :class:`InputError` line."""
    text = spec.strip()
    if not text:
        raise InputError("the store spec is empty", fix=_FIX)
    lowered = text.lower()
    if lowered.startswith(("postgresql://", "postgres://")):
        try:
            parts = urlsplit(text)
            _ = parts.port  # a port that is not a number raises here
        except ValueError as err:
            raise InputError(f"store spec {redacted_url(text)!r}: {err}", fix=_FIX) from None
        if not parts.hostname and "host=" not in parts.query:
            raise InputError(f"store spec {redacted_url(text)!r} names no host", fix=_FIX)
        return StoreSpec("postgresql", text)
    if lowered.startswith("sqlite:"):
        path = text[len("sqlite:") :]
        if path.startswith("//"):  # sqlite:///abs/path, as SQLAlchemy writes it
            path = path[2:]
        if not path:
            raise InputError("store spec 'sqlite:' names no file", fix=_FIX)
        return StoreSpec("sqlite", path)
    scheme = lowered.split(":", 1)[0]
    if "://" in lowered or (scheme.isalpha() and len(scheme) > 1 and ":" in lowered):
        raise InputError(f"store spec {redacted_url(text)!r}: unknown kind {scheme!r}", fix=_FIX)
    return StoreSpec("sqlite", text)
