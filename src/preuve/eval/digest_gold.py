"""Gold labels of workflow 3: the documented format, and the facts of a snapshot.

The one format (``preuve.digest.gold/1``) read by ``preuve digest audit --gold``, by the
evaluation of the bundled corpus (``gold/<dossier>.json``) and by the held-out dossiers.
Only :mod:`preuve.eval` reads gold; inference code never does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from preuve.core.documents import Document, Snapshot
from preuve.core.errors import InputError
from preuve.digest.grammar import FactTuple
from preuve.digest.mutations import MutationKind, MutationStep
from preuve.io.documents import list_versions, load_version
from preuve.io.jsonfile import read_json_file

__all__ = [
    "GOLD_FORMAT",
    "Gold",
    "event_aliases",
    "gold_for_snapshot",
    "gold_tuples",
    "read_digest_gold",
]

Gold = Mapping[str, Mapping[str, frozenset[FactTuple]]]
GOLD_FORMAT = "preuve.digest.gold/1"


def read_digest_gold(path: Path) -> Gold:
    """Gold facts from ``path`` (format ``preuve.digest.gold/1``): per document and version,
    the facts that version states as current::

        {"format": "preuve.digest.gold/1",
         "documents": {"doc-00": {"1": [{"subject": "P-00-12", "field": "delivery",
                                         "value": "23 October 2026"}, ...], "2": [...]}}}

    A version may also be an object ``{"facts": [...], "not_affirmed": [{"line": ...,
    "reason": ...}]}``, each fact with the ``line`` stating it: the lines that are shaped
    like facts but are not affirmed (quoted, struck, hypothetical, ...), which
    :mod:`preuve.eval.digest_dossier` measures. ``format`` may be left out (the bundled
    corpus's gold files have none); any other top-level key is ignored.
    """
    data = read_json_file(path, "gold labels")
    fix = f"see the {GOLD_FORMAT} format in the README"
    if not isinstance(data, dict) or data.get("format", GOLD_FORMAT) != GOLD_FORMAT:
        raise InputError(f"{path}: not a {GOLD_FORMAT} file", fix=fix)
    documents = data.get("documents")
    if not isinstance(documents, dict):
        raise InputError(f"{path}: 'documents' must be an object", fix=fix)
    gold: dict[str, dict[str, frozenset[FactTuple]]] = {}
    for doc_id, versions in documents.items():
        if not isinstance(versions, dict):
            raise InputError(f"{path}: documents[{doc_id!r}] must map versions to facts", fix=fix)
        gold[doc_id] = {}
        for version, entry in versions.items():
            facts = entry.get("facts", []) if isinstance(entry, dict) else entry
            try:
                gold[doc_id][str(version)] = frozenset(
                    FactTuple(str(f["subject"]), str(f["field"]), str(f["value"])) for f in facts
                )
            except (KeyError, TypeError) as err:
                raise InputError(
                    f"{path}: documents[{doc_id!r}][{version!r}]: a fact needs subject, field "
                    f"and value ({err})",
                    fix=fix,
                ) from None
    return gold


def _same_text_version(folder: Path | None, doc: Document, known: Mapping[str, object]) -> str:
    # Gold labels a text: a version byte-identical to a labelled one has its labels.
    if folder is None:
        return ""
    for version in list_versions(folder).get(doc.doc_id, ()):
        if str(version) in known and load_version(folder, doc.doc_id, version).text == doc.text:
            return str(version)
    return ""


def gold_for_snapshot(
    gold: Gold,
    snapshot: Snapshot,
    where: str,
    folder: Path | None = None,
    aliases: Mapping[tuple[str, int], int] | None = None,
) -> frozenset[FactTuple]:
    """Gold facts of the documents of ``snapshot`` that are active and eligible.

    A version the gold does not list takes the labels of ``aliases[(doc, version)]`` (an
    edit known not to touch any fact), else of a version of ``folder`` with the same text.
    """
    facts: set[FactTuple] = set()
    for doc in snapshot:
        if not doc.access.usable:
            continue
        known = gold.get(doc.doc_id)
        if known is None:
            raise InputError(f"{where}: the gold labels have no document {doc.doc_id!r}")
        version = str(doc.version)
        if version not in known and aliases and (doc.doc_id, doc.version) in aliases:
            version = str(aliases[(doc.doc_id, doc.version)])
        if version not in known:
            version = _same_text_version(folder, doc, known)
        if version not in known:
            raise InputError(
                f"{where}: the gold labels have no version {doc.version} of {doc.doc_id}",
                fix="label that version, or audit without gold",
            )
        facts.update(known[version])
    return frozenset(facts)


def gold_tuples(
    corpus_root: Path,
    dossier: str,
    snapshot: Snapshot,
    aliases: Mapping[tuple[str, int], int] | None = None,
) -> frozenset[FactTuple]:
    """Gold facts of the bundled-corpus dossier ``dossier`` for ``snapshot``."""
    path = corpus_root / "gold" / f"{dossier}.json"
    folder = corpus_root / "dossiers" / dossier
    return gold_for_snapshot(read_digest_gold(path), snapshot, str(path), folder, aliases)


def event_aliases(steps: Sequence[MutationStep]) -> dict[tuple[str, int], int]:
    """``(doc, version) -> version`` whose gold a distractor edit keeps (it touches no fact)."""
    aliases: dict[tuple[str, int], int] = {}
    previous: dict[str, int] = {}
    for step in steps:
        doc = step.snapshot.documents[step.mutation.doc_id]
        if step.mutation.kind is MutationKind.DISTRACTOR_EDIT:
            before = previous.get(doc.doc_id, 1)
            aliases[(doc.doc_id, doc.version)] = aliases.get((doc.doc_id, before), before)
        previous[doc.doc_id] = doc.version
    return aliases
