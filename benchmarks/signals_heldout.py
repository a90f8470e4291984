"""Risk signals on held-out English filings: precision of what the rules reader keeps.

Material (never tuned on phrase by phrase): the 14 FinanceBench filings in
``../shared/data/financebench-dev/pdfs`` and the labels of the sentences the rules reader
kept on them (``tests/heldout/financebench/signals.labels.json``: signal or not, with the
criterion in its ``about``). For each filing the reader runs as in ``preuve memo`` (rules
engine, quote check); each kept sentence is looked up in the labels by (filing, page, first
160 characters). Prints per filing: kept, labelled signals, labelled not-signals,
unlabelled; then the precision over labelled sentences and how many labelled signals are
still kept (a recall proxy: the labels were written on the sentences kept before the
screens of issue 14).

Run: ``.venv/bin/python -m benchmarks.signals_heldout [--unlabelled] [--not-signals]``
(``--not-signals`` lists the kept sentences labelled not signals, and the labelled signals
no longer kept).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from preuve.core.documents import Document
from preuve.io.pdf import load_pages
from preuve.memo.company import detect_company
from preuve.memo.reader import VerifiedSignal, read_signals
from preuve.memo.rules_engine import memo_rules_model

__all__ = ["LABELS", "kept_sentences", "main", "verified_signals"]

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "heldout" / "financebench" / "signals.labels.json"
PDFS = ROOT.parent / "shared" / "data" / "financebench-dev" / "pdfs"

Key = tuple[str, int, str]


def _key(doc: str, page: int, sentence: str) -> Key:
    """The sentence's first 160 characters, spaces collapsed, without a final period (some
    labels were written without it: the sentence is the same)."""
    return doc, page, " ".join(sentence.split())[:160].rstrip().rstrip(".")


def verified_signals(pdf: Path) -> tuple[VerifiedSignal, ...]:
    """Every signal the rules reader keeps on ``pdf``, as in ``preuve memo`` (quote check
    included)."""
    pages = load_pages(pdf)
    report = Document.from_pages(pdf.name, pages)
    return read_signals(memo_rules_model(), detect_company(pages).name, report).verified


def kept_sentences(pdf: Path) -> list[tuple[Key, str]]:
    """(key, category) of every signal the rules reader keeps on ``pdf``."""
    return [(_key(pdf.stem, s.page, s.matched), s.category) for s in verified_signals(pdf)]


def main() -> int:
    if not LABELS.is_file() or not PDFS.is_dir():
        print("no held-out filings or labels found")
        return 2
    labels = {
        _key(str(e["doc"]), int(e["page"]), str(e["sentence"])): bool(e["signal"])
        for e in json.loads(LABELS.read_text(encoding="utf-8"))["labels"]
    }
    show = "--unlabelled" in sys.argv[1:]
    errors = "--not-signals" in sys.argv[1:]
    totals = [0, 0, 0, 0]
    kept_signals: set[Key] = set()
    print(f"{'filing':32} kept signal not unlabelled")
    for pdf in sorted(PDFS.glob("*.pdf")):
        kept = kept_sentences(pdf)
        counts = [len(kept), 0, 0, 0]
        for key, category in kept:
            label = labels.get(key)
            counts[1 if label else 2 if label is False else 3] += 1
            if label:
                kept_signals.add(key)
            if label is None and show:
                print(f"  unlabelled {category}: {key}")
            if label is False and errors:
                print(f"  not a signal, kept as {category}: {key}")
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        print(f"{pdf.stem:32} {counts[0]:4d} {counts[1]:6d} {counts[2]:3d} {counts[3]:10d}")
    labelled = totals[1] + totals[2]
    precision = totals[1] / labelled if labelled else 0.0
    signals = sum(labels.values())
    print(
        f"kept {totals[0]}, labelled {labelled}: precision {totals[1]}/{labelled}"
        f" ({precision:.1%}); unlabelled {totals[3]}"
    )
    print(f"labelled signals still kept: {len(kept_signals)}/{signals}")
    if errors:
        for key in sorted(k for k, v in labels.items() if v and k not in kept_signals):
            print(f"  signal not kept: {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
