"""Risk signals on the held-out annual reports whose gold labels every risk sentence.

Material: each ``*.gold.json`` of ``tests/heldout/memo/reports`` (reports engineers worked
on) and of ``tests/heldout/memo/blind`` (reports measured on arrival, nobody tuned on),
whose ``signals`` and ``not_signals`` list sentences with their page. The rules reader runs
on the PDF as in ``preuve memo`` (quote check included); a kept sentence is matched to a
gold sentence by its first 60 characters (spaces collapsed, no final period), either way
round, since a reader may keep a sentence's clause or a sentence with its neighbour.

Prints per report: sentences kept, gold signals kept (recall), gold not-signals kept,
kept sentences the gold does not list; then, per folder, precision (kept that are gold
signals) and recall. Engine: rules.

Run: ``.venv/bin/python -m benchmarks.signals_reports``
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

from benchmarks.signals_heldout import verified_signals

__all__ = ["FOLDERS", "main"]

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {
    "worked on": ROOT / "tests" / "heldout" / "memo" / "reports",
    "blind": ROOT / "tests" / "heldout" / "memo" / "blind",
}
_PREFIX = 60


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
    return " ".join(text.split()).rstrip(".")


def _matches(kept: str, gold: str) -> bool:
    return gold[:_PREFIX] in kept or kept[:_PREFIX] in gold


def _kept(pdf: Path) -> list[str]:
    return [_plain(s.matched) for s in verified_signals(pdf)]


def main() -> int:
    found = False
    print(f"{'report':14} {'folder':10} kept | signals kept | not-signals kept | unlisted")
    for folder, path in FOLDERS.items():
        totals = [0, 0, 0]  # kept, signals kept, gold signals
        for gold_path in sorted(path.glob("*.gold.json")):
            pdf = gold_path.with_name(gold_path.name.replace(".gold.json", ".pdf"))
            if not pdf.is_file():
                continue
            found = True
            gold = json.loads(gold_path.read_text(encoding="utf-8"))
            signals = [_plain(s["sentence"]) for s in gold["signals"]]
            nots = [_plain(s["sentence"]) for s in gold["not_signals"]]
            kept = _kept(pdf)
            hits = [s for s in signals if any(_matches(k, s) for k in kept)]
            wrong = [s for s in nots if any(_matches(k, s) for k in kept)]
            unlisted = [k for k in kept if not any(_matches(k, g) for g in signals + nots)]
            name = gold_path.name.removesuffix(".gold.json")
            print(
                f"{name:14} {folder:10} {len(kept):4d} | {len(hits):5d} / {len(signals):<4d} |"
                f" {len(wrong):7d} / {len(nots):<6d} | {len(unlisted):5d}"
            )
            totals[0] += len(kept)
            totals[1] += len(hits)
            totals[2] += len(signals)
        kept_n, hits_n, signals_n = totals
        if signals_n:
            print(
                f"{folder}: precision {hits_n}/{kept_n} ({hits_n / max(kept_n, 1):.1%}),"
                f" recall {hits_n}/{signals_n} ({hits_n / signals_n:.1%}); engine: rules"
            )
    if not found:
        print("no held-out reports found")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
