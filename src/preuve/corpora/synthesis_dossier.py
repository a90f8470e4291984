"""Deterministic generator of the bundled synthesis dossier (workflow 2) and its grid.

Layout written under ``out_dir``::

    dossier/question.md                the committee's question
    dossier/documents/doc-NN.md        32 documents: front-matter header + French text
    gold/synthesis_grid.json           the grading grid, kept apart from the dossier

The dossier folder is the input format of ``preuve.synthesis.dossier`` (see there); the
grid is read by ``preuve.eval.grid`` and by evaluation only, never by inference code.
Texts live in :mod:`preuve.corpora.synthesis_texts`. The same call always writes the same
bytes: nothing is random, dated from the clock or ordered by the file system.

The grid: 12 expected facts (regex patterns over the synthesis paragraphs, 50 points), the
4 planted contradictions with the value to retain and the value to reject (30 points), the
share of valid citations (20 points), 5 points off per off-topic document cited.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from preuve.corpora.synthesis_texts import DOCUMENTS, QUESTION, DocumentText

__all__ = [
    "GENERATOR",
    "GRID_FILE",
    "SynthesisCorpusInfo",
    "dossier_files",
    "generate_synthesis_dossier",
    "grid_data",
    "render_document",
]

GENERATOR = "preuve-synthesis-dossier/1"
GRID_FILE = "gold/synthesis_grid.json"

# Patterns are searched, case-insensitively, in text whose spaces (NBSP, narrow NBSP
# included) are folded to one plain space.
_EURO = r" ?(?:€|euros?)"
_FACTS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("F01", "Kestrel Serve : latence p95 de 340 ms (banc interne)", r"340 ?ms", ("doc-06",)),
    ("F02", "Kestrel Serve : débit de 1 900 tok/s (banc interne)", r"1 ?900 ?tok", ("doc-06",)),
    ("F03", "Tamaris Inference : latence p95 de 280 ms", r"280 ?ms", ("doc-06",)),
    ("F04", "Orvet : latence p95 de 410 ms", r"410 ?ms", ("doc-06",)),
    ("F05", "Tamaris Inference sous licence TSL", r"\bTSL\b|Tamaris Source License", ("doc-05",)),
    ("F06", "Licence TSL : 38 000 € HT par an", rf"38 ?000{_EURO}", ("doc-07",)),
    ("F07", "Kestrel Serve Entreprise : 52 000 € HT par an", rf"52 ?000{_EURO}", ("doc-08",)),
    ("F08", "ORV-SA-2026-004 corrigée dans Orvet 3.4.2", r"3\.4\.2", ("doc-17", "doc-13")),
    (
        "F09",
        "Kestrel Serve 2.x : fin de support le 30 juin 2027",
        r"30 juin 2027|30/06/2027|2027-06-30",
        ("doc-31",),
    ),
    (
        "F10",
        "Parc GPU : 6 GPU en 2026",
        r"\b6 GPU\b[^.;\n]{0,40}\b2026\b|\b2026\b[^.;\n]{0,40}\b6 GPU\b",
        ("doc-09",),
    ),
    (
        "F11",
        "Parc GPU : 12 GPU en 2027",
        r"\b12 GPU\b[^.;\n]{0,40}\b2027\b|\b2027\b[^.;\n]{0,40}\b12 GPU\b",
        ("doc-09",),
    ),
    ("F12", "Location : 2 300 € HT par GPU et par mois", rf"2 ?300{_EURO}", ("doc-21",)),
)

_NOT_FIXED = r"aucun correctif|sans correctif|pas de correctif|non corrig|no fix|not fixed|unfixed"
_CONTRADICTIONS: tuple[dict[str, Any], ...] = (
    {
        "id": "C1",
        "description": "Kestrel Serve, latence p95 et débit : fiche éditeur contre banc interne",
        "subject_pattern": r"kestrel",
        "retained": {
            "values": ["340 ms", "1 900 tok/s"],
            "pattern": r"340 ?ms|1 ?900",
            "sources": ["doc-06"],
        },
        "rejected": {
            "values": ["120 ms", "2 400 tok/s"],
            "pattern": r"120 ?ms|2 ?400",
            "sources": ["doc-02"],
        },
        "rules": [1],
    },
    {
        "id": "C2",
        "description": "Tamaris Inference, licence : billet de blog contre annonce officielle",
        "subject_pattern": r"tamaris",
        "retained": {
            "values": ["TSL"],
            "pattern": r"\bTSL\b|source license",
            "sources": ["doc-05"],
        },
        "rejected": {"values": ["Apache 2.0"], "pattern": r"apache", "sources": ["doc-04"]},
        "rules": [2, 3],
    },
    {
        "id": "C3",
        "description": "Orvet, ORV-SA-2026-004 : bulletin d'avril contre révision de juin",
        "subject_pattern": r"orvet|ORV-SA-2026-004",
        "retained": {
            "values": ["corrigée dans Orvet 3.4.2"],
            "pattern": r"3\.4\.2",
            "sources": ["doc-17", "doc-13"],
        },
        "rejected": {
            "values": ["vulnérabilité critique, aucun correctif disponible"],
            "pattern": _NOT_FIXED,
            "sources": ["doc-16"],
        },
        "rules": [3],
    },
    {
        "id": "C4",
        "description": "Kestrel Serve 2.x, fin de support : compte rendu contre annonce officielle",
        "subject_pattern": r"kestrel",
        "retained": {"values": ["30 juin 2027"], "pattern": r"2027", "sources": ["doc-31"]},
        "rejected": {"values": ["31 décembre 2028"], "pattern": r"2028", "sources": ["doc-30"]},
        "rules": [3],
    },
)


@dataclass(frozen=True, slots=True)
class SynthesisCorpusInfo:
    """Where the dossier and its grid were written, and what they hold."""

    root: Path
    dossier: Path
    grid: Path
    documents: int
    off_topic: int


def render_document(document: DocumentText) -> str:
    """One document file: front-matter header, blank line, text."""
    return (
        f"---\nid: {document.id}\ntitle: {document.title}\ndate: {document.date}\n"
        f"source_type: {document.source_type}\n---\n\n{document.body.rstrip()}\n"
    )


def dossier_files() -> dict[str, str]:
    """Relative path → text of every file of the dossier folder."""
    files = {"question.md": QUESTION}
    files.update({f"documents/{d.id}.md": render_document(d) for d in DOCUMENTS})
    return files


def grid_data() -> dict[str, Any]:
    """The grading grid as JSON-ready data (the format ``preuve.eval.grid`` reads)."""
    return {
        "grid": "preuve-synthesis-grid",
        "generator": GENERATOR,
        "points": {"facts": 50, "contradictions": 30, "citations": 20, "off_topic_penalty": 5},
        "documents": [d.id for d in DOCUMENTS],
        "off_topic": [d.id for d in DOCUMENTS if d.off_topic],
        "facts": [
            {"id": fid, "description": text, "pattern": pattern, "sources": list(sources)}
            for fid, text, pattern, sources in _FACTS
        ],
        "contradictions": [dict(c) for c in _CONTRADICTIONS],
    }


def _write(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)  # bytes: no newline translation on any platform


def generate_synthesis_dossier(out_dir: Path) -> SynthesisCorpusInfo:
    """Write the dossier and its grid under ``out_dir`` (created if needed)."""
    dossier = out_dir / "dossier"
    for relative, text in sorted(dossier_files().items()):
        _write(dossier / relative, text.encode("utf-8"))
    grid = out_dir / GRID_FILE
    dumped = json.dumps(grid_data(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    _write(grid, dumped.encode("utf-8"))
    return SynthesisCorpusInfo(
        root=out_dir,
        dossier=dossier,
        grid=grid,
        documents=len(DOCUMENTS),
        off_topic=sum(d.off_topic for d in DOCUMENTS),
    )
