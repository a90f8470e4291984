"""preuve.io: files, PDFs, the registry, and the digest store (:func:`open_store`)."""

from preuve.io.stores import Store, open_store

__all__ = ["Store", "open_store"]
