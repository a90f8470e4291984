"""The viewer against crafted files, in a process of its own whose peak memory is read.

:func:`write_hostile_run_folder` writes a run folder that registers every crafted PDF of
:mod:`preuve.eval.reliability_pdfs` (a 14 400 pt page, a page-tree loop, a missing page
object), a 30 MB one-page text document, a digest store whose claims do not decode, and
bad registry entries (a NUL byte, an over-long path, a symlink loop). :func:`probe_viewer`
requests every page and page image of it through ``python -m preuve.web.probe``, then a
load of requests over the same pages (4 500 at up to 2 000 at once by default), and returns
each answer's status and the load's with the process's peak resident memory.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from preuve.eval.reliability_files import write_digest_dossier
from preuve.eval.reliability_pdfs import HOSTILE_PDFS
from preuve.eval.reliability_process import measure_python
from preuve.eval.reliability_stores import build_store, corrupt_claims

__all__ = ["MAX_VIEWER_MIB", "ViewerProbe", "probe_viewer", "write_hostile_run_folder"]

MAX_VIEWER_MIB = 300.0
_LONG_PAGE_CHARS = 30_000_000


def write_hostile_run_folder(root: Path) -> list[str]:
    """The run folder, and the URLs to request of it."""
    (root / "docs").mkdir(parents=True, exist_ok=True)
    entries = []
    urls = ["/", "/memo", "/digest", "/journal"]
    for name, writer in HOSTILE_PDFS.items():
        writer(root / "docs" / f"{name}.pdf")
        entries.append({"id": name, "path": f"docs/{name}.pdf"})
        urls += [f"/page/{name}/{n}" for n in (1, 2)] + [f"/page/{name}/{n}.png" for n in (1, 2)]
    text = "x" * (_LONG_PAGE_CHARS // 2) + " quote " + "y" * (_LONG_PAGE_CHARS // 2)
    (root / "docs/long.txt").write_text(text, encoding="utf-8")
    start = text.index("quote")
    entries.append({"id": "long", "path": "docs/long.txt"})
    urls += ["/page/long/1", f"/page/long/1?start={start}&end={start + 5}"]
    (root / "docs/loop").symlink_to(root / "docs/loop")
    entries += [
        {"id": "nul", "path": "docs/a\u0000b.pdf"},
        {"id": "long-path", "path": "x" * 5_000},
        {"id": "loop", "path": "docs/loop"},
    ]
    (root / "documents.json").write_text(json.dumps({"documents": entries}), encoding="utf-8")
    (root / "memo").mkdir(exist_ok=True)
    (root / "memo/run.json").write_text('{"engine": "rules", "companies": []}', "utf-8")
    (root / "memo/memo.md").write_text("# memo\n", "utf-8")
    with tempfile.TemporaryDirectory(prefix="preuve-dossier-") as scratch:
        write_digest_dossier(Path(scratch) / "dossier")
        (root / "digest").mkdir(exist_ok=True)
        build_store(Path(scratch) / "dossier", root / "digest/digest.sqlite")
    corrupt_claims(root / "digest/digest.sqlite")
    return urls


@dataclass(frozen=True, slots=True)
class ViewerProbe:
    statuses: dict[str, int]
    largest_body: int
    peak_mib: float
    problems: tuple[str, ...]
    load: int = 0  # requests of the load phase, all answered as in the first pass
    concurrency: int = 0


# What each crafted request must answer: a page pdfium cannot load is "unreadable" (422),
# a page the document does not have is 404, everything else is shown (200).
_EXPECTED = {
    "/page/page-tree-loop/": 422,
    "/page/missing-page-object/": 422,
    "/page/huge-page/2": 404,
}


def _expected(url: str) -> int:
    return next((code for prefix, code in _EXPECTED.items() if url.startswith(prefix)), 200)


def probe_viewer(workdir: Path, *, load: int = 4_500, concurrency: int = 2_000) -> ViewerProbe:
    """Request every URL of the hostile run folder in one process, then ``load`` more at up
    to ``concurrency`` at once; the process's peak RSS."""
    urls = write_hostile_run_folder(workdir / "viewer-run")
    folder = str(workdir / "viewer-run")
    args = ["-m", "preuve.web.probe", folder, str(load), str(concurrency), *urls]
    measured = measure_python(args)
    problems: list[str] = []
    if measured.outcome.exit_code != 0:
        problems.append(
            f"probe exit {measured.outcome.exit_code}: {measured.outcome.stderr[-300:]}"
        )
        return ViewerProbe({}, 0, round(measured.peak_mib, 1), tuple(problems))
    result = json.loads(measured.outcome.stdout)
    answers = result["answers"]
    statuses = {url: int(answer[0]) for url, answer in answers.items()}
    for url, status in statuses.items():
        if status != _expected(url):
            problems.append(f"{url}: HTTP {status}, expected {_expected(url)}")
    expected_load = Counter(_expected(urls[i % len(urls)]) for i in range(load))
    got_load = Counter({int(code): count for code, count in result["load"].items()})
    if got_load != expected_load:
        problems.append(f"load: statuses {dict(got_load)}, expected {dict(expected_load)}")
    if measured.peak_mib > MAX_VIEWER_MIB:
        problems.append(f"peak RSS {measured.peak_mib:.0f} MiB over {MAX_VIEWER_MIB:.0f} MiB")
    largest = max((int(answer[1]) for answer in answers.values()), default=0)
    peak = round(measured.peak_mib, 1)
    return ViewerProbe(statuses, largest, peak, tuple(problems), load, concurrency)
