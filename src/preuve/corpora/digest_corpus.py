"""Deterministic generator of the digest corpus (workflow 3), with its gold kept apart.

30 dossiers (``dev-00``..``dev-09`` for development, ``test-00``..``test-19`` for test) of
12 documents (``doc-00``..``doc-11``), each in two versions: 720 original fictional English
texts. Each version states 4 facts, one per field, as whole fact lines::

    Product P-03-57 delivery: 23 October 2026.

around prose that never restates them, sentences that negate older values (``The earlier
plan of 18 October 2026 no longer holds.``) and one hostile instruction archived inside
quotation marks. Version 2 of a document moves its delivery date and negates the old one;
nothing else changes. The same call always writes the same bytes: every choice comes
from a ``random.Random`` seeded from a constant and the document's name.

Layout written under ``out_dir`` (the dossier folders are the format ``preuve digest``
reads, see ``preuve.io.documents.load_versions``)::

    corpus.json                           dossier names per split, counts, generator id
    dossiers/<dossier>/<doc_id>/v1.txt    version 1 text (UTF-8, one page)
    dossiers/<dossier>/<doc_id>/v2.txt    version 2 text
    dossiers/<dossier>/<doc_id>/meta.json {"title", "source_type", "versions": {"1": {"date"}, ...}}
    gold/<dossier>.json                   per document and version, its 4 (subject, field, value)

Gold is read only by evaluation and tests, never by inference code.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from preuve.corpora import digest_text as words
from preuve.io.records import dump_records

__all__ = [
    "DOCUMENTS_PER_DOSSIER",
    "FIELDS",
    "SEED",
    "CorpusInfo",
    "GeneratedDocument",
    "GeneratedDossier",
    "GoldFact",
    "VersionText",
    "dossier_names",
    "generate_digest_corpus",
    "generate_dossier",
]

SEED = "preuve-digest-corpus/1"
DEV_DOSSIERS = 10
TEST_DOSSIERS = 20
DOCUMENTS_PER_DOSSIER = 12
FIELDS = ("delivery", "status", "quantity", "site")
_THEMES = ("pumping", "grid upgrade", "cold chain", "harbour crane", "water treatment")
_SITES = tuple(f"{place} {kind}" for place in words.PLACES for kind in words.SITE_KINDS)
_QUANTITIES = tuple(f"{n * 10:,} units" for n in range(4, 300))
_REVISED = "The delivery date of {old} given in the previous version no longer holds."


@dataclass(frozen=True, slots=True)
class GoldFact:
    """One fact a version states: ``("P-03-57", "delivery", "23 October 2026")``."""

    subject: str
    field: str
    value: str

    def line(self) -> str:
        return f"Product {self.subject} {self.field}: {self.value}."


@dataclass(frozen=True, slots=True)
class VersionText:
    version: int
    title: str
    date: str
    source_type: str
    text: str
    facts: tuple[GoldFact, ...]


@dataclass(frozen=True, slots=True)
class GeneratedDocument:
    doc_id: str
    versions: tuple[VersionText, ...]


@dataclass(frozen=True, slots=True)
class GeneratedDossier:
    name: str
    split: str
    programme: str
    documents: tuple[GeneratedDocument, ...]


@dataclass(frozen=True, slots=True)
class CorpusInfo:
    """Where a generated corpus is, and what it holds."""

    root: Path
    dev: tuple[str, ...]
    test: tuple[str, ...]
    documents: int
    texts: int
    facts_per_document: int

    @property
    def dossiers(self) -> tuple[str, ...]:
        return (*self.dev, *self.test)

    def dossier_dir(self, name: str) -> Path:
        return self.root / "dossiers" / name

    def gold_path(self, name: str) -> Path:
        return self.root / "gold" / f"{name}.json"


def dossier_names() -> tuple[str, ...]:
    """The 30 dossier names: development first, then test."""
    dev = (f"dev-{i:02d}" for i in range(DEV_DOSSIERS))
    return (*dev, *(f"test-{i:02d}" for i in range(TEST_DOSSIERS)))


def _rng(*parts: str) -> random.Random:
    # Seeded from a hash, not hash(): str hashing is randomized per process.
    digest = hashlib.sha256("/".join((SEED, *parts)).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


@dataclass(frozen=True, slots=True)
class _Plan:
    """Every choice behind one document, from which both versions are rendered."""

    ctx: words.DocumentContext
    title: str
    dates: tuple[date, date]
    deliveries: tuple[date, date]
    values: Mapping[str, str]
    header_extra: str
    body: tuple[tuple[str, str], ...]  # (item, separator before it)
    intro: str
    closing: str


def _distinct(rng: random.Random, pick: tuple[str, ...], avoid: str) -> str:
    choices = [value for value in pick if value != avoid]
    return rng.choice(choices)


def _plan(rng: random.Random, programme: str, product: str) -> _Plan:
    source_type = rng.choice(words.SOURCE_TYPES)
    author = note_taker = words.person(rng)
    while note_taker == author:
        note_taker = words.person(rng)
    ctx = words.DocumentContext(
        product=product,
        component=rng.choice(words.COMPONENTS),
        programme=programme,
        source_type=source_type,
        person=author,
        person2=note_taker,
        supplier=words.supplier(rng),
    )
    # Document dates (April to August) never meet delivery dates (mid-September onwards),
    # so a current delivery value appears on exactly one line: its fact line.
    day1 = date(2026, 4, 1) + timedelta(days=rng.randrange(91))
    day2 = day1 + timedelta(days=rng.randint(20, 60))
    delivery = date(2026, 10, 15) + timedelta(days=rng.randrange(70))
    old_delivery = delivery - timedelta(days=rng.randint(4, 25))
    moved = delivery
    while moved in (delivery, old_delivery):
        moved = delivery + timedelta(days=rng.choice((-1, 1)) * rng.randint(6, 28))
    values = {
        "status": rng.choice(words.STATUSES),
        "quantity": rng.choice(_QUANTITIES),
        "site": rng.choice(_SITES),
    }
    olds = {
        "status": _distinct(rng, words.STATUSES, values["status"]),
        "quantity": _distinct(rng, _QUANTITIES, values["quantity"]),
        "site": _distinct(rng, _SITES, values["site"]),
    }
    items = [f"fact:{field}" for field in FIELDS]
    items.append(words.negation_line(rng, "delivery", words.long_date(old_delivery)))
    if rng.random() < 0.6:
        other = rng.choice(("status", "quantity", "site"))
        items.append(words.negation_line(rng, other, olds[other]))
    items.append(words.hostile_line(rng, ctx, day1 - timedelta(days=rng.randint(1, 30))))
    prose = words.prose_lines(rng, ctx, rng.randint(3, 5))
    items.extend(prose[1:-1])
    rng.shuffle(items)
    body = tuple((item, rng.choice(("\n", "\n\n"))) for item in items)
    return _Plan(
        ctx=ctx,
        title=words.title_for(rng, ctx),
        dates=(day1, day2),
        deliveries=(delivery, moved),
        values=values,
        header_extra=f"Author: {ctx.person}",
        body=body,
        intro=prose[0],
        closing=prose[-1],
    )


def _facts(plan: _Plan, version: int) -> tuple[GoldFact, ...]:
    delivery = words.long_date(plan.deliveries[version - 1])
    values = {**plan.values, "delivery": delivery}
    return tuple(GoldFact(plan.ctx.product, field, values[field]) for field in FIELDS)


def _render(plan: _Plan, version: int, facts: tuple[GoldFact, ...]) -> str:
    by_field = {fact.field: fact.line() for fact in facts}
    header = [
        plan.title,
        f"Programme: {plan.ctx.programme}",
        f"Date: {words.long_date(plan.dates[version - 1])}",
        f"Source type: {plan.ctx.source_type}",
        plan.header_extra,
    ]
    if version > 1:
        header.append(f"Revision: replaces the version of {words.long_date(plan.dates[0])}.")
    parts = ["\n".join(header), "\n\n", plan.intro, "\n\n"]
    for index, (item, separator) in enumerate(plan.body):
        if index:
            parts.append(separator)
        parts.append(by_field[item[5:]] if item.startswith("fact:") else item)
        if version > 1 and item == "fact:delivery":
            parts.extend(("\n", _REVISED.format(old=words.long_date(plan.deliveries[0]))))
    parts.extend(("\n\n", plan.closing, "\n"))
    return "".join(parts)


def generate_dossier(name: str) -> GeneratedDossier:
    """The dossier ``name`` (one of :func:`dossier_names`), entirely in memory."""
    names = dossier_names()
    if name not in names:
        raise ValueError(f"unknown digest dossier {name!r}")
    index = names.index(name)
    rng = _rng(name)
    programme = f"{words.PLACES[index % len(words.PLACES)]} {rng.choice(_THEMES)} programme"
    numbers = rng.sample(range(10, 100), DOCUMENTS_PER_DOSSIER)
    documents = []
    for position, number in enumerate(numbers):
        doc_id = f"doc-{position:02d}"
        plan = _plan(_rng(name, doc_id), programme, f"P-{index:02d}-{number:02d}")
        versions = []
        for version in (1, 2):
            facts = _facts(plan, version)
            versions.append(
                VersionText(
                    version=version,
                    title=plan.title,
                    date=plan.dates[version - 1].isoformat(),
                    source_type=plan.ctx.source_type,
                    text=_render(plan, version, facts),
                    facts=facts,
                )
            )
        documents.append(GeneratedDocument(doc_id, tuple(versions)))
    split = name.split("-", 1)[0]
    return GeneratedDossier(name, split, programme, tuple(documents))


def _dump(data: object) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def _gold_json(dossier: GeneratedDossier, gold: Mapping[str, object]) -> bytes:
    # One document per line: readable, and the C JSON encoder (indent= is pure Python).
    rows = ",\n".join(
        f"    {json.dumps(doc_id)}: {json.dumps(gold[doc_id], sort_keys=True)}"
        for doc_id in sorted(gold)
    )
    head = f'{{\n  "dossier": {json.dumps(dossier.name)},\n  "split": {json.dumps(dossier.split)},'
    return f'{head}\n  "documents": {{\n{rows}\n  }}\n}}\n'.encode()


def _write(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def _write_dossier(root: Path, dossier: GeneratedDossier) -> None:
    gold: dict[str, dict[str, list[dict[str, str]]]] = {}
    for doc in dossier.documents:
        folder = root / "dossiers" / dossier.name / doc.doc_id
        first = doc.versions[0]
        meta = {
            "title": first.title,
            "source_type": first.source_type,
            "versions": {str(v.version): {"date": v.date} for v in doc.versions},
        }
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "meta.json").write_bytes(_dump(meta))
        for version in doc.versions:
            # Bytes, not text: no newline translation on any platform.
            (folder / f"v{version.version}.txt").write_bytes(version.text.encode("utf-8"))
        gold[doc.doc_id] = {str(v.version): dump_records(v.facts, GoldFact) for v in doc.versions}
    _write(root / "gold" / f"{dossier.name}.json", _gold_json(dossier, gold))


def generate_digest_corpus(out_dir: Path) -> CorpusInfo:
    """Write the whole corpus under ``out_dir`` (created if needed) and describe it."""
    names = dossier_names()
    for name in names:
        _write_dossier(out_dir, generate_dossier(name))
    info = CorpusInfo(
        root=out_dir,
        dev=names[:DEV_DOSSIERS],
        test=names[DEV_DOSSIERS:],
        documents=len(names) * DOCUMENTS_PER_DOSSIER,
        texts=len(names) * DOCUMENTS_PER_DOSSIER * 2,
        facts_per_document=len(FIELDS),
    )
    manifest = {
        "corpus": "preuve-digest",
        "generator": SEED,
        "splits": {"dev": list(info.dev), "test": list(info.test)},
        "documents_per_dossier": DOCUMENTS_PER_DOSSIER,
        "versions_per_document": 2,
        "facts_per_document": info.facts_per_document,
    }
    _write(out_dir / "corpus.json", _dump(manifest))
    return info
